"""Bidding for turn order (content facts §1.5): the Turn Order Track has 9 spots costing
18, 12, 8, 5, 3, 1, 0, 0, 0; markers bid in Bid Order Track order."""

from __future__ import annotations

import copy

import pytest

from naqala.core.actions import parse_action
from naqala.core.engine import IllegalAction, Rules
from naqala.core.state import NOBODY, State
from naqala.testing.scenario import (
    base_rules,
    bid_order,
    board,
    options,
    play,
    play_round,
    play_turn,
    player,
)

COSTS = (18, 12, 8, 5, 3, 1, 0, 0, 0)
ZERO_SPOTS = (6, 7, 8)


def start(players: int, *markers: int) -> tuple[Rules, State]:
    """A new game whose markers bid in the given order, on a board where every turn has
    a simple legal move (pairs of viziers side by side), so whole rounds can be played."""
    rules = base_rules()
    state = rules.new_game(players, seed=5)
    pairs = {f"{col}{row}": "Y" for col in "abef" for row in (1, 3, 5)}
    state = board(rules, state, pairs, clear=True)
    return rules, bid_order(rules, state, *markers)


def refused(rules: Rules, state: State, text: str, cause: str) -> None:
    """``text`` is not legal: ``apply`` raises with a reason naming ``cause`` and the
    position is untouched."""
    before = copy.deepcopy(state)
    assert text not in options(rules, state)
    with pytest.raises(IllegalAction, match=cause):
        rules.apply(state, parse_action(text))
    assert cause in rules.explain(state, parse_action(text))
    assert state == before


def test_the_bid_is_paid_at_once() -> None:
    """ "Each player places their marker on a free spot and immediately pays its cost.\""""
    rules, state = start(3, 1, 0, 2)
    assert state.decision.player == 1
    state = play(rules, state, "bid 12")
    assert state.players[1].coins == 50 - 12
    assert state.turn_track[COSTS.index(12)] == 1
    assert state.bid_track == (NOBODY, 0, 2)
    assert state.decision.player == 0
    assert state.decision.stage == "bid"
    state = play(rules, state, "bid 0")
    assert state.players[0].coins == 50


def test_only_one_marker_per_non_zero_spot() -> None:
    """ "Only one marker may sit on each non-zero spot": once 12 is taken it is no longer
    offered, and bidding it is refused."""
    rules, state = start(3, 0, 1, 2)
    state = play(rules, state, "bid 12")
    assert options(rules, state) == ["bid 0", "bid 1", "bid 3", "bid 5", "bid 8", "bid 18"]
    refused(rules, state, "bid 12", "already taken")
    refused(rules, state, "bid 7", "no spot costing 7")


def test_a_player_may_only_bid_what_they_can_afford() -> None:
    """Bids are paid at once, so a spot costing more than the player's coins is refused."""
    rules, state = start(3, 0, 1, 2)
    state = player(rules, state, 0, coins=10)
    assert options(rules, state) == ["bid 0", "bid 1", "bid 3", "bid 5", "bid 8"]
    refused(rules, state, "bid 12", "cannot afford")


def test_last_player_to_bid_zero_plays_first_among_the_zeros() -> None:
    """ "A marker bidding 0 takes the front 0 spot and pushes earlier 0-bidders back, so the
    last to bid 0 plays first among the 0s.\""""
    rules, state = start(3, 2, 0, 1)
    state = play(rules, state, "bid 0")
    assert [state.turn_track[i] for i in ZERO_SPOTS] == [2, NOBODY, NOBODY]
    state = play(rules, state, "bid 0")
    assert [state.turn_track[i] for i in ZERO_SPOTS] == [0, 2, NOBODY]
    state = play(rules, state, "bid 0")
    assert all(coins == 50 for coins in (p.coins for p in state.players))
    _, order = play_round(rules, state)
    assert order == [1, 0, 2]


def test_at_most_three_markers_on_the_zero_spots() -> None:
    """ "At most 3 markers can be on 0s; if all three are taken, the next bidder must pay
    at least 1.\""""
    rules, state = start(4, 3, 2, 1, 0)
    state = play(rules, state, "bid 0", "bid 0", "bid 0")
    assert state.decision.player == 0
    assert options(rules, state) == ["bid 1", "bid 3", "bid 5", "bid 8", "bid 12", "bid 18"]
    refused(rules, state, "bid 0", "must pay at least 1")
    state = play(rules, state, "bid 1")
    assert state.players[0].coins == 49
    _, order = play_round(rules, state)
    assert order == [0, 1, 2, 3]


def test_turn_order_runs_from_the_highest_cost_spot_down() -> None:
    """ "Play order: highest-cost occupied spot first, then downwards, with the 0s last.\""""
    rules, state = start(4, 0, 1, 2, 3)
    state = play(rules, state, "bid 5", "bid 18", "bid 0", "bid 1")
    assert [p.coins for p in state.players] == [45, 32, 50, 49]
    _, order = play_round(rules, state)
    assert order == [1, 0, 3, 2]


def test_marker_moves_to_the_first_free_bid_spot_when_its_turn_starts() -> None:
    """ "At the start of their turn, a player moves their marker to the first empty spot on
    the Bid Order Track. So whoever plays first this round bids first next round.\""""
    rules, state = start(3, 0, 1, 2)
    state = play(rules, state, "bid 3", "bid 8", "bid 0")
    assert state.decision.player == 1
    assert state.bid_track == (1, NOBODY, NOBODY)
    assert state.turn_track.count(NOBODY) == 7
    state = play_turn(rules, state)
    assert state.decision.player == 0
    assert state.bid_track == (1, 0, NOBODY)
    state = play_turn(rules, state)
    assert state.bid_track == (1, 0, 2)
    state = play_turn(rules, state)
    assert state.round == 2
    assert state.decision.stage == "bid"
    assert state.bid_track == (1, 0, 2)
    assert state.turn_track == (NOBODY,) * 9
    assert state.decision.player == 1, "the first to play bids first next round"


def test_two_players_have_two_markers_and_may_play_twice_in_a_row() -> None:
    """At 2 players each player has 2 turn markers, so 2 turns a round, "and may take two
    turns in a row if their markers sit on adjacent spots". Markers 0, 1 are player 0's."""
    rules, state = start(2, 0, 2, 1, 3)
    assert state.markers == (0, 0, 1, 1)
    state = play(rules, state, "bid 18")  # player 0
    state = play(rules, state, "bid 0")  # player 1
    state = play(rules, state, "bid 12")  # player 0 again
    state = play(rules, state, "bid 0")  # player 1 again
    assert state.players[0].coins == 50 - 18 - 12
    assert state.players[1].coins == 50
    assert state.turn is not None and state.turn.marker == 0
    after, order = play_round(rules, state)
    assert order == [0, 0, 1, 1]
    assert after.bid_track == (0, 1, 3, 2)
    assert after.decision.player == 0


def test_player_who_cannot_afford_any_free_spot_takes_the_cheapest_for_all_they_have() -> None:
    """BidStage fallback (the rulebook is silent): a player who cannot afford any free
    spot, here with no coins after three zero bids, takes the cheapest free spot and pays
    all their coins, never going below zero."""
    rules, state = start(4, 1, 2, 3, 0)
    state = player(rules, state, 0, coins=0)
    state = play(rules, state, "bid 0", "bid 0", "bid 0")
    assert options(rules, state) == ["bid 1"]
    state = play(rules, state, "bid 1")
    assert state.players[0].coins == 0
    _, order = play_round(rules, state)
    assert order == [0, 3, 2, 1], "the spot costing 1 plays before the zeros"
