"""Whole games played natively seat by seat (``NativeState.play``) are the games the
lab plays in Python: the same final state, number of actions and scores by round."""

from __future__ import annotations

import pytest
from native_kit import require_native

from naqala.core.serialize import state_to_data
from naqala.core.simulate import agent_seed
from naqala.lab.study import Ruleset, Study, play_task, rules_of
from naqala.native.bridge import NativeRules


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_native_game_is_the_lab_game(players: int) -> None:
    require_native()
    study = Study(Ruleset(), ("random",) * players, seed=40 + players)
    rules = rules_of(study.ruleset)
    bridge = NativeRules(rules)
    for index in range(3):
        seed = study.seed + index
        python = play_task((study, index))
        start = bridge.to_native(rules.new_game(players, seed))
        seats = [("random", agent_seed(seed, seat)) for seat in range(players)]
        final, actions, rounds = start.play(seats)
        assert actions == python.actions
        assert [tuple(r) for r in rounds] == list(python.round_scores[:-1])
        assert final.scores() == list(python.scores)
        played, _ = start.random_playout([agent_seed(seed, seat) for seat in range(players)])
        assert final.to_json() == played.to_json()
        assert bridge.data(final) == state_to_data(rules, bridge.to_python(final))


def test_a_seat_the_kernel_has_no_player_for_is_named() -> None:
    require_native()
    from naqala.native import native

    assert "random" in native().players()
    rules = rules_of(Ruleset())
    start = NativeRules(rules).to_native(rules.new_game(2, 1))
    with pytest.raises(NotImplementedError, match="no player 'coiny'"):
        start.play([("random", 1), ("coiny", 2)])


@pytest.mark.parametrize("threads", [1, 2, 0])
def test_a_batch_on_threads_is_the_games_one_by_one(threads: int) -> None:
    """``NativeState.play_batch`` on any number of threads gives each game exactly what
    ``play`` gives it alone, in the order of the states."""
    require_native()
    from naqala.native import native

    rules = rules_of(Ruleset())
    bridge = NativeRules(rules)
    games = [(2 + index % 3, 70 + index) for index in range(12)]
    starts = [bridge.new_game(players, seed) for players, seed in games]
    seats = [
        [
            ("greedy" if seat == 0 and seed % 2 else "random", agent_seed(seed, seat))
            for seat in range(players)
        ]
        for players, seed in games
    ]
    alone = [start.play(seat_list) for start, seat_list in zip(starts, seats, strict=True)]
    batch = native().NativeState.play_batch(starts, seats, threads)
    assert len(batch) == len(alone)
    for (final, actions, rounds), (one, one_actions, one_rounds) in zip(batch, alone, strict=True):
        assert (actions, rounds) == (one_actions, one_rounds)
        assert final.to_json() == one.to_json()


def test_a_batch_names_what_it_cannot_play() -> None:
    require_native()
    from naqala.native import native

    bridge = NativeRules(rules_of(Ruleset()))
    start = bridge.new_game(2, 3)
    with pytest.raises(ValueError, match="1 states but 2 lists of seats"):
        native().NativeState.play_batch([start], [[("random", 1)] * 2] * 2)
    with pytest.raises(NotImplementedError, match="no player 'coiny'"):
        native().NativeState.play_batch([start], [[("random", 1), ("coiny", 2)]], 2)
    with pytest.raises(ValueError, match="threads=5000"):
        native().NativeState.play_batch([start], [[("random", 1)] * 2], 5000)
