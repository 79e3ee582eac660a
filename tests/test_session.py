"""The game at the table that both front ends wrap (naqala.core.session): the seats of a
record, the AI players in them, and the one undo policy."""

from __future__ import annotations

import functools

import pytest

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.record import RecordError, new_record
from naqala.core.session import (
    UndoRefused,
    ai_move,
    drew_since,
    replay_draws,
    seat_agents,
    undo_point,
    with_canonical_seats,
)
from naqala.core.state import State


@functools.cache
def rules() -> Rules:
    return build_rules([])


def random_game(players: int, seed: int) -> list[State]:
    """Every state of a random game, the last one over."""
    state = rules().new_game(players, seed)
    agent = RandomAgent(seed)
    states = [state]
    while not state.is_over:
        state = rules().apply(state, agent.choose(rules(), state, rules().legal_actions(state)))
        states.append(state)
    return states


def test_canonical_seats_of_a_record() -> None:
    record = new_record(rules(), 5, 2, ["human", "ai"])
    assert with_canonical_seats(rules(), record, "x.json").seats == ("human", "ai:greedy")


def test_a_seat_no_player_takes_names_the_source_and_the_path() -> None:
    record = new_record(rules(), 5, 2, ["human", "ai:nobody"])
    with pytest.raises(RecordError, match=r"^x\.json: \$\.seats\[1\]: "):
        with_canonical_seats(rules(), record, "x.json")


def test_random_players_draw_again_what_they_drew() -> None:
    """After ``replay_draws`` over a game's first states, a fresh random seat chooses what
    it would have chosen had the game never stopped."""
    record = new_record(rules(), 8, 2, ["ai:random", "ai:random"])
    going_on = seat_agents(rules(), record)
    state = rules().new_game(2, 8)
    history = []
    for _ in range(30):
        history.append(state)
        agent = going_on[state.decision.player]
        assert agent is not None
        state = rules().apply(state, agent.choose(rules(), state, rules().legal_actions(state)))
    resumed = seat_agents(rules(), record)
    replay_draws(rules(), resumed, history)
    options = rules().legal_actions(state)
    for _ in range(5):
        expected = going_on[state.decision.player]
        again = resumed[state.decision.player]
        assert expected is not None and again is not None
        assert again.choose(rules(), state, options) == expected.choose(rules(), state, options)


def test_an_ai_move_is_one_of_the_legal_options_its_player_chooses() -> None:
    record = new_record(rules(), 2, 2, ["ai:random", "ai:random"])
    (first, _), (again, _) = seat_agents(rules(), record), seat_agents(rules(), record)
    assert first is not None and again is not None
    state = rules().new_game(2, 2)
    for _ in range(20):
        action = ai_move(rules(), state, first)
        assert action in rules().legal_actions(state)
        assert action == again.choose(rules(), state, rules().legal_actions(state))
        state = rules().apply(state, action)


def test_undo_goes_back_to_the_seats_previous_decision() -> None:
    states = random_game(2, 3)
    for now in range(1, len(states)):
        seat = states[now].decision.player
        earlier = states[:now]
        mine = [i for i, s in enumerate(earlier) if s.decision.player == seat]
        if mine and not drew_since(earlier[mine[-1]], states[now]):
            assert undo_point(earlier, states[now], seat) == mine[-1]
            return
    pytest.fail("no decision to undo in the game")


def test_undo_is_refused_at_the_first_decision_and_past_a_draw() -> None:
    states = random_game(2, 3)
    first = states[0]
    with pytest.raises(UndoRefused, match="nothing to undo: this is your first decision"):
        undo_point([], first, first.decision.player)
    for now in range(1, len(states)):
        seat = states[now].decision.player
        mine = [i for i, s in enumerate(states[:now]) if s.decision.player == seat]
        if mine and drew_since(states[mine[-1]], states[now]):
            with pytest.raises(UndoRefused, match="cards or meeples were drawn since"):
                undo_point(states[:now], states[now], seat)
            return
    pytest.fail("no draw in the game")


def test_another_persons_decision_since_stops_an_undo_only_when_named() -> None:
    """The web server names the other people (each has a browser of their own); the
    terminal, where they share one keyboard, does not."""
    states = random_game(2, 3)
    for now in range(1, len(states)):
        seat = states[now].decision.player
        earlier = states[:now]
        mine = [i for i, s in enumerate(earlier) if s.decision.player == seat]
        if not mine or drew_since(earlier[mine[-1]], states[now]):
            continue
        between = {s.decision.player for s in earlier[mine[-1] + 1 :]}
        if 1 - seat in between:
            assert undo_point(earlier, states[now], seat) == mine[-1]
            with pytest.raises(UndoRefused, match="another person has decided since"):
                undo_point(earlier, states[now], seat, people=(0, 1))
            return
    pytest.fail("no undo past another seat's decision in the game")
