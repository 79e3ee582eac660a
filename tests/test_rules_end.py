"""End of a round and end of the game (content facts §1.6 step 3, §1.7, §7.3, §7.4):
clean-up refills the rows; trigger A (last camel placed) and trigger B (no legal meeple
move) end the game once the round is over."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from naqala.core.engine import Rules
from naqala.core.state import Deck, State, replace_at
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    bid_order,
    board,
    options,
    play,
    play_round,
    play_turn,
    player,
    turn_of,
)

#: pairs of viziers side by side: every turn has a move that empties (and takes) a tile
PAIRS = {f"{col}{row}": "Y" for col in "abef" for row in (1, 3, 5)}


def round_in_order(players: int, meeples: dict[str, str]) -> tuple[Rules, State]:
    """A game whose board holds only ``meeples``, with bids placed so that the players play
    this round in seat order (at 2 players: 0, 1, 0, 1)."""
    rules = base_rules()
    state = rules.new_game(players, seed=9)
    state = board(rules, state, meeples, clear=True)
    if players == 2:
        state = bid_order(rules, state, 0, 2, 1, 3)
    else:
        state = bid_order(rules, state, *range(players))
    return rules, play(rules, state, *(f"bid {c}" for c in (18, 12, 8, 5)[: len(state.markers)]))


def with_deck(
    state: State,
    index: int,
    row: tuple[str, ...],
    draw: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
) -> State:
    """``state`` with one deck replaced (draw pile top first, face-up row, discards)."""
    deck = Deck(draw=draw, row=row, discard=discard)
    return attrs.evolve(state, decks=replace_at(state.decks, index, deck))


# -- trigger A: the last camel -------------------------------------------------------------


@pytest.mark.parametrize("last", [0, 1, 2])
def test_last_camel_ends_the_game_after_the_round(last: int) -> None:
    """Trigger A: "A player places their last camel. The round is finished, then the game
    ends": whoever places it (first, middle or last to play), every player of the round
    still plays their turn, and no new round starts."""
    rules, state = round_in_order(3, PAIRS)
    state = player(rules, state, last, camels=1)
    for seat in range(3):
        assert not state.is_over
        assert state.decision.player == seat
        assert state.decision.stage == "pick"
        state = play_turn(rules, state)
        assert state.players[seat].camels == (0 if seat == last else 7)
    assert state.is_over
    assert state.round == 1
    assert "last-camel" in state.flags


def test_last_camel_at_two_players_the_round_is_still_finished() -> None:
    """At 2 players the round is finished too: the player who placed their last camel with
    their first marker still plays their second turn, and so does the opponent."""
    rules, state = round_in_order(2, PAIRS)
    state = player(rules, state, 0, camels=1)
    state = play_turn(rules, state)
    assert state.players[0].camels == 0
    state, order = play_round(rules, state)
    assert order == [1, 0, 1]
    assert state.is_over


def test_without_a_trigger_a_new_round_starts() -> None:
    """No camel supply ran out and every player could move: after clean-up the next round
    starts with bidding."""
    rules, state = round_in_order(3, PAIRS)
    state, order = play_round(rules, state)
    assert order == [0, 1, 2]
    assert not state.is_over
    assert state.round == 2
    assert state.decision.stage == "bid"
    assert state.flags == ()


# -- trigger B: no legal move --------------------------------------------------------------


def test_no_legal_move_skips_movement_for_the_rest_of_the_round_then_the_game_ends() -> None:
    """Trigger B: "No legal meeple move exists. That player and all later players in the
    round can no longer move meeples." After player 0 takes the last pair of Viziers,
    players 1 and 2 go straight to the sale step (they may still sell), the round ends
    and so does the game. Player 2 skips movement even if a move has reappeared by then
    (meeples put on the board here stand in for a djinn such as Anun-Nak)."""
    rules, state = round_in_order(3, {"a1": "Y", "b1": "Y"})
    state = player(rules, state, 1, cards=["fish", "silk"])
    state = play(rules, state, "pick a1", "drop b1 Y")
    state = play_turn(rules, state)
    assert state.decision.stage == "sell"
    assert state.decision.player == 1
    assert not options(rules, state, "pick")
    assert "sell fish+silk" in options(rules, state)
    state = play(rules, state, "sell fish+silk")
    assert state.players[1].coins == 50 - 12 + 3
    state = board(rules, state, {"c3": "G", "d3": "G"})
    state = play(rules, state, "end")
    assert not state.is_over
    assert state.decision.player == 2
    assert state.decision.stage == "sell"
    assert options(rules, state) == ["end"]
    state = play(rules, state, "end")
    assert state.is_over
    assert state.round == 1
    assert "no-moves" in state.flags


def test_no_legal_move_for_the_first_player_everyone_only_sells() -> None:
    """When no legal move exists as the round's first turn starts, every player of the
    round only gets the sale step; then the game ends."""
    rules, state = round_in_order(3, {"a1": "Y", "c3": "W"})
    for seat in range(3):
        assert state.decision.player == seat
        assert state.decision.stage == "sell"
        state = play(rules, state, "end")
    assert state.is_over


def test_no_legal_move_at_two_players_skips_both_remaining_turns() -> None:
    """At 2 players, trigger B skips the movement of every marker still to play."""
    rules, state = round_in_order(2, {"a1": "Y", "b1": "Y"})
    state = play_turn(rules, state)
    stages = []
    while not state.is_over:
        stages.append((state.decision.player, state.decision.stage))
        state = play(rules, state, "end")
    assert stages == [(1, "sell"), (0, "sell"), (1, "sell")]


# -- clean-up ------------------------------------------------------------------------------


def test_cleanup_slides_the_resource_row_to_the_front_and_refills_it_to_nine() -> None:
    """Clean-up: "Slide the remaining resource cards to the front of the row and refill to
    9". Buying the second card at a Small Market leaves a gap that stays open during the
    round; at clean-up the others slide up and the next card of the deck fills the end."""
    rules = base_rules()
    state = rules.new_game(3, seed=9)
    state = board(rules, state, {"c3": "Y", "d3": "YY"}, clear=True, tiles={"d3": "small-market-1"})
    state = turn_of(rules, state, 0)
    row = ("fish", "silk", "wheat", "spice", "papyrus", "pottery", "ivory", "jewels", "gold")
    state = with_deck(state, RESOURCE_DECK, row, draw=("fakir", "fish", "silk"))
    state = play(rules, state, "pick c3", "drop d3 Y")
    assert state.decision.stage == "tile:small-market"
    state = play(rules, state, "buy silk")
    left = ("fish", "wheat", "spice", "papyrus", "pottery", "ivory", "jewels", "gold")
    assert state.decks[RESOURCE_DECK].row == left, "no refill before clean-up"
    state = play(rules, state, "end")
    assert state.round == 2
    assert state.decks[RESOURCE_DECK].row == (*left, "fakir")
    assert state.decks[RESOURCE_DECK].draw == ("fish", "silk")


def at_round_end(resources: Deck | None = None, djinns: Deck | None = None) -> State:
    """The game after the last turn of round 1 (decks as given), clean-up done."""
    rules = base_rules()
    state = turn_of(rules, rules.new_game(3, seed=9), 0, stage="sell")
    for index, deck in ((RESOURCE_DECK, resources), (DJINN_DECK, djinns)):
        if deck is not None:
            state = with_deck(state, index, deck.row, deck.draw, deck.discard)
    state = play(rules, state, "end")
    assert state.round == 2 and state.decision.stage == "bid"
    return state


def test_cleanup_reshuffles_the_discards_when_the_draw_pile_runs_out() -> None:
    """ "If the deck is empty, reshuffle the discards": 6 cards left in the row and 1 in the
    deck; the deck's card comes first, then 2 from the reshuffled discards, whose other
    cards become the new deck."""
    row = ("fish", "fish", "wheat", "spice", "fakir", "gold")
    discard = ("ivory", "jewels", "papyrus", "silk", "pottery")
    state = at_round_end(resources=Deck(row=row, draw=("fakir",), discard=discard))
    deck = state.decks[RESOURCE_DECK]
    assert len(deck.row) == 9
    assert deck.row[:7] == (*row, "fakir")
    assert Counter(deck.row[7:] + deck.draw) == Counter(discard)
    assert len(deck.draw) == 3
    assert deck.discard == ()


def test_cleanup_adds_nothing_when_deck_and_discards_are_empty() -> None:
    """ "If there are no discards, no card is added": the row keeps its 4 cards."""
    row = ("fish", "wheat", "fakir", "gold")
    state = at_round_end(resources=Deck(row=row))
    assert state.decks[RESOURCE_DECK] == Deck(row=row)


def test_cleanup_refills_the_djinn_row_to_three() -> None:
    """ "Slide the remaining Djinns to the front and refill to 3.\""""
    ids = tuple(d.id for d in base_rules().content.deck("djinns"))
    state = at_round_end(djinns=Deck(row=ids[5:6], draw=ids[:5]))
    assert state.decks[DJINN_DECK] == Deck(row=(ids[5], ids[0], ids[1]), draw=ids[2:5])


def test_cleanup_reshuffles_the_djinn_discards_when_needed() -> None:
    """The Djinn row is refilled from the reshuffled discards when the pile runs out, and
    stays short only when both are empty."""
    ids = tuple(d.id for d in base_rules().content.deck("djinns"))
    state = at_round_end(djinns=Deck(row=ids[:1], draw=ids[1:2], discard=ids[2:5]))
    deck = state.decks[DJINN_DECK]
    assert deck.row[:2] == ids[:2]
    assert len(deck.row) == 3
    assert sorted(deck.row[2:] + deck.draw) == sorted(ids[2:5])
    assert deck.discard == ()
    empty = at_round_end(djinns=Deck(row=ids[:1]))
    assert empty.decks[DJINN_DECK] == Deck(row=ids[:1])
