"""Games on the native kernel go to threads of the command's process under ``--jobs``
(``ThreadExecutor``: a native game is one kernel call without the GIL), in chunks sized by
how long the games take; the results are the serial run's, game for game and in order,
whatever the chunks; stopping ends the run with the games already played; games on the
Python engine still go to processes."""

from __future__ import annotations

import pytest

from naqala.lab.executors import (
    ChunkSizer,
    ProcessExecutor,
    SerialExecutor,
    ThreadExecutor,
    make_executor,
)
from naqala.lab.runner import run_studies
from naqala.lab.study import Ruleset, Study
from naqala.native.choice import NATIVE

pytest.importorskip("naqala.native._native")

GAMES = 300


def native_study(expansions: list[str], seats: tuple[str, ...]) -> Study:
    return Study(Ruleset.of(expansions, []), seats, 5, rotate=True, engine=NATIVE)


@pytest.mark.parametrize(
    ("expansions", "seats"),
    [([], ("random",) * 4), (["artisans", "djinns"], ("random", "greedy", "random"))],
)
def test_threads_give_exactly_the_serial_results(
    expansions: list[str], seats: tuple[str, ...]
) -> None:
    study = native_study(expansions, seats)
    games = GAMES if "greedy" not in seats else 40
    serial = run_studies([study], games, SerialExecutor())
    executor = make_executor(2, None, games, native=True)
    assert isinstance(executor, ThreadExecutor)
    try:
        threaded = run_studies([study], games, executor)
    finally:
        executor.close()
    assert threaded == serial
    assert [r.seed for r in threaded.sides[0]] == list(range(5, 5 + games))


def test_a_stop_ends_the_threads_with_the_games_played() -> None:
    study = native_study([], ("random",) * 2)
    executor = ThreadExecutor(2)
    seen: list[int] = []
    try:
        for position, _ in executor.imap(
            _seed_of, [(study, i) for i in range(10_000)], lambda: len(seen) >= 50
        ):
            seen.append(position)
    finally:
        executor.close()
    assert 50 <= len(seen) < 10_000
    assert len(set(seen)) == len(seen)


def _seed_of(task: tuple[Study, int]) -> int:
    return task[0].seed + task[1]


def test_python_games_still_go_to_processes_and_one_job_to_none() -> None:
    executor = make_executor(2, None, 10, native=False)
    try:
        assert isinstance(executor, ProcessExecutor)
    finally:
        executor.close()
    assert isinstance(make_executor(1, None, 10, native=True), SerialExecutor)


def test_chunks_follow_the_time_a_game_takes() -> None:
    sizer = ChunkSizer()
    assert sizer.size == 1  # nothing measured yet: one game
    sizer.took(10, 0.002)  # 0.2 ms a game: 100 games make the 20 ms a chunk aims at
    assert sizer.size == 100
    slow = ChunkSizer()
    slow.took(2, 3.0)  # games of seconds: one at a time
    assert slow.size == 1
    fast = ChunkSizer()
    fast.took(1000, 0.0)
    assert fast.size == 256
