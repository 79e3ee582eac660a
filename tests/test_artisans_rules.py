"""Scenario tests for the rules of The Artisans of Naqala (content facts §3.2, §3.4, §3.5):
the workshop and specialized-market tile actions, the artisans' tribe action, tents and
the last-camel trigger, artisan scoring, and assassins killing artisans.

Every position is a 2-player game on an otherwise empty board, player 1 (seat 0) to move,
with the new tiles laid as in ``NEW_TILES`` (workshop-1 on c3, specialized market on d5);
a2 is a sacred place, passed over by a player without elders, so a move ending there
needs no tile decision."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest
from native_kit import same_on_the_kernel

from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.state import State, evolve, get_extra, set_extra
from naqala.plugins.base.api import pieces_left
from naqala.plugins.base.setup import finish_layout
from naqala.testing.scenario import (
    RESOURCE_DECK,
    board,
    deck,
    options,
    play,
    player,
    tokens,
    turn_of,
)

NEW_TILES = {
    "c3": "workshop-1",
    "e4": "workshop-2",
    "b5": "workshop-3",
    "e2": "chasm-1",
    "d5": "specialized-market-1",
    "b2": "specialized-market-2",
}
TENT = "piece.tent"
LAST_CAMEL = "last-camel"
ROW = ("fish", "silk", "gold", "wheat", "spice", "ivory", "jewels", "papyrus", "pottery")


@functools.cache
def artisans_rules() -> Rules:
    return build_rules(["artisans"])


def position(
    meeples: Mapping[str, str],
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
    players: int = 2,
) -> tuple[Rules, State]:
    """Only the named tiles hold meeples; the new tiles lie as in ``NEW_TILES``, a2 is a
    sacred place unless ``tiles`` says otherwise; chasm and mountains follow the tiles."""
    rules = artisans_rules()
    chosen = {"a2": "sacred-place-7", **(tiles or {})}
    assert not set(chosen) & set(NEW_TILES), "the new tiles keep their places"
    state = rules.new_game(players, 7)
    state = board(rules, state, meeples, clear=True, tiles={**NEW_TILES, **chosen}, owners=owners)
    state = evolve(state, layout=finish_layout(rules, state.layout))
    return rules, turn_of(rules, state, 0)


def at(state: State, name: str) -> int:
    return state.geometry.parse(name)


def purple(rules: Rules) -> int:
    return rules.colour_index["purple"]


def items(
    rules: Rules, state: State, draw: tuple[str, ...], discard: tuple[str, ...] = ()
) -> State:
    return deck(rules, state, "items", draw=draw, discard=discard)


def item_pile(rules: Rules, state: State) -> tuple[tuple[str, ...], tuple[str, ...]]:
    pile = state.decks[rules.deck_index["items"]]
    return pile.draw, pile.discard


def tent_on(rules: Rules, state: State, name: str) -> int:
    return state.board.tokens[at(state, name)][rules.token_index["tent"]]


# -- workshop -----------------------------------------------------------------------------


def at_workshop(meeples: str = "", cards: tuple[str, ...] = ()) -> tuple[Rules, State]:
    """A vizier move ends on the workshop c3 (a green stays there, so it is not taken);
    the player holds ``meeples`` and ``cards``; the item pile is crown, then jewelry."""
    rules, s = position({"d3": "Y", "c3": "YG"})
    s = player(rules, s, 0, meeples=meeples, cards=cards)
    return rules, items(rules, s, ("crown", "jewelry"))


def test_workshop_one_artisan_buys_the_top_item() -> None:
    """Workshop: pay 1 artisan (back to the bag) to take the top item of the pile."""
    rules, s = at_workshop(meeples="P")
    s = play(rules, s, "pick d3", "drop c3 Y")
    assert s.decision.stage == "tile:workshop"
    assert options(rules, s, "workshop") == ["workshop P"]
    after = play(rules, s, "workshop P")
    assert after.players[0].hand(rules.deck_index["items"]) == ("crown",)
    assert after.players[0].meeples[purple(rules)] == 0
    assert after.bag[purple(rules)] == s.bag[purple(rules)] + 1
    assert item_pile(rules, after) == (("jewelry",), ())
    assert after.decision.stage == "sell"


def test_workshop_two_fakirs_buy_the_top_item() -> None:
    """Workshop: or pay 2 Fakirs (to the resource discard pile) for the top item."""
    rules, s = at_workshop(cards=("fakir", "fakir", "fish"))
    s = play(rules, s, "pick d3", "drop c3 Y")
    assert options(rules, s, "workshop") == ["workshop FF"]
    after = play(rules, s, "workshop FF")
    assert after.players[0].hand(rules.deck_index["items"]) == ("crown",)
    assert after.players[0].cards == ("fish",)
    assert after.decks[RESOURCE_DECK].discard[-2:] == ("fakir", "fakir")
    assert after.bag == s.bag


def test_workshop_offers_both_payments_and_skip() -> None:
    """With an artisan and 2 Fakirs both payments are offered; the action is optional:
    ``skip`` takes nothing and pays nothing."""
    rules, s = at_workshop(meeples="P", cards=("fakir", "fakir"))
    s = play(rules, s, "pick d3", "drop c3 Y")
    assert options(rules, s, "workshop") == ["workshop FF", "workshop P"]
    assert "skip" in options(rules, s)
    after = play(rules, s, "skip")
    assert after.decision.stage == "sell"
    assert after.players[0] == s.players[0]
    assert item_pile(rules, after) == item_pile(rules, s)


def test_workshop_is_passed_over_without_the_payment() -> None:
    """One Fakir and no artisan cannot pay: there is no workshop decision, and typing a
    payment is refused."""
    rules, s = at_workshop(cards=("fakir",))
    s = play(rules, s, "pick d3", "drop c3 Y")
    assert s.decision.stage == "sell"
    with pytest.raises(IllegalAction):
        play(rules, s, "workshop FF")


def test_workshop_is_passed_over_when_no_item_is_left() -> None:
    """With the item pile and its discards empty there is nothing to buy: no decision."""
    rules, s = at_workshop(meeples="P", cards=("fakir", "fakir"))
    s = items(rules, s, (), ())
    s = play(rules, s, "pick d3", "drop c3 Y")
    assert s.decision.stage == "sell"
    assert s.players[0].meeples[purple(rules)] == 1


# -- specialized market -------------------------------------------------------------------


def at_specialized_market(coins: int) -> tuple[Rules, State]:
    """A vizier move ends on the specialized market d5; the resource row is ``ROW``."""
    rules, s = position({"d4": "Y", "d5": "YG"})
    s = player(rules, s, 0, coins=coins)
    return rules, deck(rules, s, "resources", row=ROW)


def test_specialized_market_sells_any_face_up_card_for_4_coins() -> None:
    """Specialized market: pay 4 coins to take ANY one face-up resource card, not only one
    of the first three; here the ninth, pottery."""
    rules, s = at_specialized_market(coins=4)
    s = play(rules, s, "pick d4", "drop d5 Y")
    assert s.decision.stage == "tile:specialized-market"
    assert options(rules, s, "buy") == sorted(f"buy {card}" for card in ROW)
    assert "skip" in options(rules, s)
    after = play(rules, s, "buy pottery")
    assert after.players[0].coins == 0
    assert after.players[0].cards == ("pottery",)
    assert after.decks[RESOURCE_DECK].row == ROW[:-1]
    assert after.decision.stage == "sell"


def test_specialized_market_can_be_skipped() -> None:
    """The specialized market is optional: ``skip`` keeps the coins and the row."""
    rules, s = at_specialized_market(coins=10)
    s = play(rules, s, "pick d4", "drop d5 Y")
    after = play(rules, s, "skip")
    assert after.players[0].coins == 10
    assert after.decks[RESOURCE_DECK].row == ROW


def test_specialized_market_is_passed_over_with_fewer_than_4_coins() -> None:
    """With 3 coins the player cannot pay: no decision, nothing bought."""
    rules, s = at_specialized_market(coins=3)
    s = play(rules, s, "pick d4", "drop d5 Y")
    assert s.decision.stage == "sell"
    assert s.players[0].coins == 3
    assert s.decks[RESOURCE_DECK].row == ROW


def test_specialized_market_whose_buyer_lost_the_coins_since_entering_offers_only_to_skip() -> None:
    """An effect can take coins while the market waits (a house rule's trigger on a tile
    taken by a djinn); the purchase is then refused, as at the market's entry, as the base
    game's markets refuse it."""
    rules, s = position({"d4": "Y", "d5": "YG"})  # the row as dealt: a state both engines read
    s = play(rules, player(rules, s, 0, coins=4), "pick d4", "drop d5 Y")
    assert s.decision.stage == "tile:specialized-market"
    assert len(options(rules, s)) > 1
    broke = evolve(s, players=(evolve(s.players[0], coins=3), *s.players[1:]))
    assert options(rules, broke) == ["skip"]
    same_on_the_kernel(rules, broke)


# -- the artisans' tribe action -------------------------------------------------------------


def test_artisans_are_kept_and_reveal_as_many_items_to_keep_one() -> None:
    """Artisans (purple) are kept in front of the player; reveal as many items as artisans
    collected and keep one; the others go face up to the item discard pile."""
    rules, s = position({"a1": "P", "a2": "PG"})
    s = items(rules, s, ("crown", "jewelry", "treasure"))
    s = play(rules, s, "pick a1", "drop a2 P")
    assert s.players[0].meeples[purple(rules)] == 2
    assert s.decision.stage == "keep-item"
    assert options(rules, s, "keep") == ["keep crown", "keep jewelry"]
    after = play(rules, s, "keep jewelry")
    assert after.players[0].hand(rules.deck_index["items"]) == ("jewelry",)
    assert item_pile(rules, after) == (("treasure",), ("crown",))


# -- tents ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_one_tent(players: int) -> None:
    """Each player receives a tent: one piece to place besides the camels."""
    state = artisans_rules().new_game(players, 3)
    for p in state.players:
        assert get_extra(p.extras, TENT) == 1
        assert pieces_left(p) == p.camels + 1


def take_a2(camels: int = 8, tent: int = 1, owners: Mapping[str, int] | None = None) -> State:
    """Player 1 (``camels`` in supply, ``tent`` tents) moves the vizier a1 onto the lone
    vizier of the sacred place a2, empties it and takes it; now deciding at the sale."""
    rules, s = position({"a1": "Y", "a2": "Y", "f6": "GG"}, owners=owners)
    p = s.players[0]
    s = player(rules, s, 0, camels=camels, extras=set_extra(p.extras, TENT, tent))
    assert options(rules, s, "tent") == []  # nothing taken yet
    s = play(rules, s, "pick a1", "drop a2 Y")
    assert s.board.owners[at(s, "a2")] == 0
    assert s.decision.stage == "sell"
    return s


def test_the_tent_can_take_the_place_of_the_camel_on_a_tile_just_taken() -> None:
    """Having taken a tile this turn, the player may put the tent there instead of the
    camel: the camel goes back to the supply, the tile stays theirs, the tent is used."""
    rules = artisans_rules()
    s = take_a2(camels=8)
    assert s.players[0].camels == 7
    assert options(rules, s, "tent") == ["tent a2"]
    after = play(rules, s, "tent a2")
    assert after.players[0].camels == 8
    assert get_extra(after.players[0].extras, TENT) == 0
    assert after.board.owners[at(after, "a2")] == 0
    assert tent_on(rules, after, "a2") == 1
    assert after.pool[rules.token_index["tent"]] == s.pool[rules.token_index["tent"]] - 1
    assert after.decision == s.decision


def test_the_tent_goes_only_on_a_tile_taken_this_turn() -> None:
    """f6, taken in an earlier turn, cannot get the tent; only a2, taken now."""
    rules = artisans_rules()
    s = take_a2(owners={"f6": 0})
    assert options(rules, s, "tent") == ["tent a2"]
    with pytest.raises(IllegalAction):
        play(rules, s, "tent f6")


def test_no_tent_without_taking_a_tile() -> None:
    """A move that leaves meeples on its final tile takes no tile: no tent option."""
    rules, s = position({"a1": "Y", "a2": "YG"})
    s = play(rules, s, "pick a1", "drop a2 Y")
    assert s.board.owners[at(s, "a2")] == -1
    assert options(rules, s, "tent") == []


def test_the_tent_is_placed_once_per_game() -> None:
    """Once the tent is out it is not offered again: not in the same turn, and not on a
    tile taken in a later turn."""
    rules = artisans_rules()
    s = play(rules, take_a2(), "tent a2")
    assert options(rules, s, "tent") == []
    s = play(rules, s, "end")
    later = board(rules, s, {"c1": "W", "d1": "W"}, clear=True)
    later = play(rules, turn_of(rules, later, 0), "pick c1", "drop d1 W")
    assert later.board.owners[at(later, "d1")] == 0
    assert options(rules, later, "tent") == []


def test_the_last_camel_does_not_end_the_game_while_the_tent_is_unplaced() -> None:
    """The end trigger waits until all camels AND the tent are placed: taking a tile with
    the last camel, the tent still in hand, does not end the game after the round."""
    rules = artisans_rules()
    after = play(rules, take_a2(camels=1), "end")
    assert after.players[0].camels == 0
    assert not after.has_flag(LAST_CAMEL)
    assert not after.is_over
    assert after.round == 2


def test_swapping_in_the_tent_gives_back_a_camel_to_place() -> None:
    """Tent placed on the tile of the last camel: the camel is back in the supply, so the
    game still does not end."""
    rules = artisans_rules()
    after = play(rules, take_a2(camels=1), "tent a2", "end")
    assert after.players[0].camels == 1
    assert not after.is_over


def test_the_last_camel_ends_the_game_once_the_tent_is_out() -> None:
    """With the tent already placed, taking a tile with the last camel fires the end
    trigger: the game ends after the round."""
    rules = artisans_rules()
    after = play(rules, take_a2(camels=1, tent=0), "end")
    assert after.has_flag(LAST_CAMEL)
    assert after.is_over


def test_with_only_the_tent_left_the_next_tile_is_taken_with_the_tent() -> None:
    """The tent is placed like a camel on a tile the player takes control of, and counts as
    one of their camels: with all camels placed but the tent, emptying a tile takes it
    with the tent, and the last-camel trigger then fires."""
    rules = artisans_rules()
    s = take_a2(camels=0)
    if "tent a2" in options(rules, s, "tent"):
        s = play(rules, s, "tent a2")
    assert s.board.owners[at(s, "a2")] == 0
    assert tent_on(rules, s, "a2") == 1
    assert play(rules, s, "end").is_over


def test_tent_scores_one_vp_per_red_tile_in_its_3x3_area_its_own_included() -> None:
    """Tent score: 1 VP per red-valued tile in the 3×3 area, the tent's own tile included,
    diagonals included. On the specialized market d5 (red) with the oasis c4 (red, on the
    diagonal) and blue tiles otherwise: 2 VP. The tile's own 10 VP come, as for any tile,
    from the base tiles line; the tent token itself is worth nothing more."""
    around = {
        "c4": "oasis-2",
        "d4": "village-1",
        "c5": "village-2",
        "e5": "village-3",
        "c6": "village-4",
        "d6": "sacred-place-1",
        "e6": "sacred-place-2",
    }
    rules, s = position({"a1": "G", "a3": "G"}, tiles=around, owners={"d5": 0})
    s = tokens(rules, s, {"d5": {"tent": 1}})
    lines = rules.score_lines(s, 0)
    assert [line.points for line in lines if line.category == "tent"] == [2]
    assert [line.points for line in lines if line.category == "tiles"] == [10]
    assert not [line for line in lines if line.category == "tents"]
    assert not [line for line in rules.score_lines(s, 1) if line.category == "tent"]


# -- artisan scoring ------------------------------------------------------------------------


def artisan_points(rules: Rules, state: State) -> list[int]:
    return [
        sum(
            line.points
            for line in rules.score_lines(state, seat)
            if line.category == "artisans" and line.source == "artisans"
        )
        for seat in range(len(state.players))
    ]


@pytest.mark.parametrize(
    ("held", "points"),
    [
        (("PPP", "P", ""), [9, 2, 0]),  # the strict most: 3 VP each
        (("PP", "PP", "P"), [4, 4, 2]),  # a tie for the most: 2 VP each for everybody
        (("P", "", ""), [3, 0, 0]),
        (("", "", ""), [0, 0, 0]),
    ],
)
def test_artisans_score_2_vp_each_and_3_for_the_one_with_strictly_the_most(
    held: tuple[str, str, str], points: list[int]
) -> None:
    """2 VP per artisan; the one player with strictly the most artisans scores 3 VP per
    artisan instead; players tied for the most score 2 each."""
    rules, s = position({"a1": "G", "a3": "G"}, players=3)
    for seat, meeples in enumerate(held):
        s = player(rules, s, seat, meeples=meeples)
    assert artisan_points(rules, s) == points


def test_assassins_may_kill_an_artisan_in_front_of_an_opponent() -> None:
    """Artisans are kept in front of the player like viziers and elders, so an assassin may
    kill one there (``kill p2 P``); it goes back to the bag."""
    rules, s = position({"a1": "R", "a2": "RG"})
    s = player(rules, s, 1, meeples="PP")
    s = play(rules, s, "pick a1", "drop a2 R")
    assert "kill p2 P" in options(rules, s, "kill")
    after = play(rules, s, "kill p2 P")
    assert after.players[1].meeples[purple(rules)] == 1
    assert after.bag[purple(rules)] == s.bag[purple(rules)] + 1
