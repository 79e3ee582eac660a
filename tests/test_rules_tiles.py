"""Scenario tests for the tile actions (content facts 1.1 and section 7, items 9, 11, 12).

The move always ends on c3 (one vizier dropped from b3 onto a vizier: the tribe action just
keeps them, touching no coins or cards); c3 is whatever tile the test names."""

from __future__ import annotations

from collections.abc import Mapping

from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    board,
    deck,
    options,
    play,
    player,
    tokens,
    turn_of,
)

FAKIR = "fakir"
ROW = ("fish", "silk", "gold", "wheat", "spice", "ivory", "jewels", "papyrus", "pottery")
DJINN_ROW = ("bouraq", "enki", "sloar")


def position(
    final: str,
    meeples: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> tuple[Rules, State]:
    """Player 1 (seat 0) to move ``pick b3``, ``drop c3 Y`` onto the tile ``final`` at c3.
    Seat 0 has 50 coins, no cards; the resource row is ``ROW`` and the djinn row
    ``DJINN_ROW``."""
    rules = base_rules()
    state = rules.new_game(2, 11)
    state = board(rules, state, meeples or {"b3": "Y", "c3": "Y"}, clear=True, owners=owners)
    state = board(rules, state, tiles={"c3": final})
    state = deck(rules, state, "resources", row=ROW, discard=())
    state = deck(rules, state, "djinns", row=DJINN_ROW, discard=())
    state = player(rules, state, 0, coins=50, cards=[])
    return rules, turn_of(rules, state, 0)


def move(rules: Rules, state: State) -> State:
    """The move onto c3: the player keeps the viziers collected there."""
    return play(rules, state, "pick b3", "drop c3 Y")


def on(rules: Rules, state: State, name: str, token: str) -> int:
    return state.board.tokens[state.geometry.parse(name)][rules.token_index[token]]


def bank(rules: Rules, state: State, token: str) -> int:
    return state.pool[rules.token_index[token]]


# -- village and oasis -------------------------------------------------------------------


def test_village_places_a_palace() -> None:
    """Village: mandatory, place one palace from the bank on this tile (no decision)."""
    rules, s = position("village-1")
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert on(rules, after, "c3", "palace") == 1
    assert bank(rules, after, "palace") == bank(rules, s, "palace") - 1


def test_village_adds_to_palaces_already_there() -> None:
    """There is no limit to the palaces a tile may hold."""
    rules, s = position("village-2")
    s = tokens(rules, s, {"c3": {"palace": 2, "palm-tree": 1}})
    after = move(rules, s)
    assert on(rules, after, "c3", "palace") == 3
    assert on(rules, after, "c3", "palm-tree") == 1


def test_village_is_skipped_when_no_palace_is_left() -> None:
    """With no palace left in the bank the village action is simply ignored."""
    rules, s = position("village-1")
    s = tokens(rules, s, pool={"palace": 0})
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert on(rules, after, "c3", "palace") == 0
    assert bank(rules, after, "palace") == 0


def test_oasis_places_a_palm_tree() -> None:
    """Oasis: mandatory, place one palm tree from the bank on this tile."""
    rules, s = position("oasis-3")
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert on(rules, after, "c3", "palm-tree") == 1
    assert bank(rules, after, "palm-tree") == bank(rules, s, "palm-tree") - 1


def test_oasis_is_skipped_when_no_palm_tree_is_left() -> None:
    """With no palm tree left the oasis action is ignored."""
    rules, s = position("oasis-3")
    s = tokens(rules, s, pool={"palm-tree": 0})
    after = move(rules, s)
    assert on(rules, after, "c3", "palm-tree") == 0
    assert bank(rules, after, "palm-tree") == 0


def test_tile_action_happens_without_taking_the_tile() -> None:
    """The tile action is done whether or not the player took control of the tile: here c3
    keeps an elder after the move (no camel placed) and still gets its palace."""
    rules, s = position("village-1", meeples={"b3": "Y", "c3": "YW"})
    after = move(rules, s)
    assert after.board.owners[after.geometry.parse("c3")] == NOBODY
    assert on(rules, after, "c3", "palace") == 1


def test_tile_action_happens_on_an_opponents_tile() -> None:
    """Ending a move on a tile an opponent owns still gives its tile action; the palace
    goes on that tile (where it will score for its owner)."""
    rules, s = position("oasis-2", owners={"c3": 1})
    after = move(rules, s)
    assert after.board.owners[after.geometry.parse("c3")] == 1
    assert on(rules, after, "c3", "palm-tree") == 1


def test_only_the_final_tile_acts() -> None:
    """Tiles passed through during the move do nothing: a meeple dropped on a village on
    the way leaves no palace there."""
    rules, s = position("oasis-1", meeples={"a3": "BY", "c3": "Y"})
    s = board(rules, s, tiles={"b3": "village-3"})
    after = play(rules, s, "pick a3", "drop b3 B", "drop c3 Y")
    assert on(rules, after, "b3", "palace") == 0
    assert on(rules, after, "c3", "palm-tree") == 1


# -- markets -----------------------------------------------------------------------------


def test_small_market_offers_one_of_the_first_three_cards() -> None:
    """Small market: optionally pay 3 coins to take 1 card of your choice among the first
    3 face-up resource cards."""
    rules, s = position("small-market-1")
    asked = move(rules, s)
    assert asked.decision.stage == "tile:small-market"
    assert sorted(options(rules, asked)) == ["buy fish", "buy gold", "buy silk", "skip"]
    after = play(rules, asked, "buy gold")
    assert after.decision.stage == "sell"
    assert after.players[0].coins == asked.players[0].coins - 3
    assert after.players[0].cards == ("gold",)
    assert after.decks[RESOURCE_DECK].row == ("fish", "silk", *ROW[3:])


def test_small_market_is_optional() -> None:
    """The market purchase may be skipped: no coins paid, no card taken."""
    rules, s = position("small-market-2")
    asked = move(rules, s)
    after = play(rules, asked, "skip")
    assert after.decision.stage == "sell"
    assert after.players[0].coins == asked.players[0].coins
    assert after.players[0].cards == ()
    assert after.decks[RESOURCE_DECK].row == ROW


def test_small_market_with_duplicates_and_a_short_row() -> None:
    """Identical cards are one choice; with fewer than 3 cards left, the choice is among
    those there."""
    rules, s = position("small-market-3")
    s = deck(rules, s, "resources", row=("fakir", "fakir"))
    asked = move(rules, s)
    assert sorted(options(rules, asked)) == ["buy fakir", "skip"]
    after = play(rules, asked, "buy fakir")
    assert after.players[0].cards == (FAKIR,)
    assert after.decks[RESOURCE_DECK].row == (FAKIR,)


def test_market_needs_enough_coins() -> None:
    """A player who cannot pay the price gets no market decision."""
    rules, s = position("small-market-4")
    s = player(rules, s, 0, coins=2)
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert after.players[0].coins == 2
    assert after.players[0].cards == ()


def test_exactly_the_price_is_enough_at_either_market() -> None:
    """A player with exactly the price (3 coins at a small market, 6 at a large one) is
    offered the purchase and ends with no coins; one coin less is not enough."""
    for final, price, bought in (("small-market-1", 3, "fish"), ("large-market-1", 6, "fish+silk")):
        rules, s = position(final)
        asked = move(rules, player(rules, s, 0, coins=price))
        assert asked.decision.stage == f"tile:{final[:-2]}"
        assert f"buy {bought}" in options(rules, asked)
        after = play(rules, asked, f"buy {bought}")
        assert after.players[0].coins == 0
        assert after.players[0].cards == tuple(bought.split("+"))
        short = move(rules, player(rules, s, 0, coins=price - 1))
        assert short.decision.stage == "sell"
        assert short.players[0].coins == price - 1


def test_large_market_offers_two_of_the_first_six_cards() -> None:
    """Large market: optionally pay 6 coins to take 2 cards of your choice among the first
    6 face-up cards (any 2 of the 6, not the 7th)."""
    rules, s = position("large-market-1")
    asked = move(rules, s)
    assert asked.decision.stage == "tile:large-market"
    buys = options(rules, asked, "buy")
    assert len(buys) == 15  # 6 choose 2
    assert "buy fish+ivory" in buys
    assert not any("jewels" in b for b in buys)
    assert "skip" in options(rules, asked)
    after = play(rules, asked, "buy fish+ivory")
    assert after.players[0].coins == asked.players[0].coins - 6
    assert after.players[0].cards == ("fish", "ivory")
    assert after.decks[RESOURCE_DECK].row == ("silk", "gold", "wheat", "spice", *ROW[6:])


def test_large_market_may_take_two_identical_cards() -> None:
    """Two copies of the same card among the first 6 can both be taken."""
    rules, s = position("large-market-2")
    s = deck(rules, s, "resources", row=("fish", "wheat", "fish", "silk"))
    asked = move(rules, s)
    assert "buy fish+fish" in options(rules, asked)
    after = play(rules, asked, "buy fish+fish")
    assert after.players[0].cards == ("fish", "fish")
    assert after.decks[RESOURCE_DECK].row == ("wheat", "silk")


def test_large_market_with_one_card_left_still_costs_six() -> None:
    """With a single card left in the row you take it and still pay the full 6 coins."""
    rules, s = position("large-market-3")
    s = deck(rules, s, "resources", row=("pottery",))
    asked = move(rules, s)
    assert sorted(options(rules, asked)) == ["buy pottery", "skip"]
    after = play(rules, asked, "buy pottery")
    assert after.players[0].coins == asked.players[0].coins - 6
    assert after.players[0].cards == ("pottery",)
    assert after.decks[RESOURCE_DECK].row == ()


def test_large_market_with_an_empty_row_does_nothing() -> None:
    """No card left: no purchase is possible, so there is no decision and no payment."""
    rules, s = position("large-market-4")
    s = deck(rules, s, "resources", row=())
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert after.players[0].coins == s.players[0].coins


# -- sacred places -----------------------------------------------------------------------


def test_sacred_place_with_two_elders() -> None:
    """Sacred place: pay 2 elders (back to the bag) to take one face-up djinn of your
    choice."""
    rules, s = position("sacred-place-1")
    s = player(rules, s, 0, meeples="WWW")
    asked = move(rules, s)
    assert asked.decision.stage == "tile:sacred-place"
    assert sorted(options(rules, asked)) == [
        "djinn bouraq EE",
        "djinn enki EE",
        "djinn sloar EE",
        "skip",
    ]
    after = play(rules, asked, "djinn enki EE")
    assert after.players[0].djinns == ("enki",)
    assert after.players[0].meeples[rules.colour_index["white"]] == 1
    white = rules.colour_index["white"]
    assert after.bag[white] == asked.bag[white] + 2
    assert after.decks[DJINN_DECK].row == ("bouraq", "sloar")
    assert after.decision.stage == "sell"


def test_sacred_place_with_an_elder_and_a_fakir() -> None:
    """The price may instead be 1 elder (to the bag) and 1 Fakir (to the resource
    discard pile)."""
    rules, s = position("sacred-place-5")
    s = player(rules, s, 0, meeples="WW", cards=[FAKIR, "silk"])
    asked = move(rules, s)
    assert "djinn sloar EF" in options(rules, asked)
    assert "djinn sloar EE" in options(rules, asked)
    after = play(rules, asked, "djinn sloar EF")
    white = rules.colour_index["white"]
    assert after.players[0].djinns == ("sloar",)
    assert after.players[0].meeples[white] == 1
    assert after.bag[white] == asked.bag[white] + 1
    assert after.players[0].cards == ("silk",)
    assert after.decks[RESOURCE_DECK].discard == (FAKIR,)


def test_sacred_place_is_optional() -> None:
    """The djinn purchase may be skipped."""
    rules, s = position("sacred-place-2")
    s = player(rules, s, 0, meeples="WW")
    after = play(rules, move(rules, s), "skip")
    assert after.players[0].djinns == ()
    assert after.players[0].meeples[rules.colour_index["white"]] == 2


def test_sacred_place_without_the_price_does_nothing() -> None:
    """One elder and no Fakir, or Fakirs and no elder, cannot pay: no action."""
    rules, s = position("sacred-place-3")
    for meeples, cards in (("W", []), ("", [FAKIR, FAKIR])):
        t = player(rules, s, 0, meeples=meeples, cards=cards)
        after = move(rules, t)
        assert after.decision.stage == "sell"
        assert after.players[0].djinns == ()


def test_sacred_place_with_no_visible_djinn_does_nothing() -> None:
    """No face-up djinn (the row refills only at clean-up): no action, even with elders and
    djinns left in the draw pile."""
    rules, s = position("sacred-place-4")
    s = deck(rules, s, "djinns", row=(), draw=("hagis", "lamia"))
    s = player(rules, s, 0, meeples="WW")
    after = move(rules, s)
    assert after.decision.stage == "sell"
    assert after.players[0].djinns == ()


def test_tribe_action_comes_before_the_tile_action() -> None:
    """The tribe action is done first: elders collected by this very move can pay at the
    sacred place where it ends."""
    rules, s = position("sacred-place-6", meeples={"b3": "W", "c3": "W"})
    asked = play(rules, s, "pick b3", "drop c3 W")
    assert asked.decision.stage == "tile:sacred-place"
    after = play(rules, asked, "djinn bouraq EE")
    assert after.players[0].djinns == ("bouraq",)
    assert after.players[0].meeples[rules.colour_index["white"]] == 0


def test_market_after_merchants_sees_the_shortened_row() -> None:
    """Merchants ending on a market take the first cards of the row; the row is not
    refilled, so the market then offers the next cards."""
    rules, s = position("small-market-5", meeples={"b3": "G", "c3": "G"})
    asked = play(rules, s, "pick b3", "drop c3 G")
    assert asked.players[0].cards == ("fish", "silk")
    assert sorted(options(rules, asked)) == ["buy gold", "buy spice", "buy wheat", "skip"]
