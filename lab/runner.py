"""Running a study's games through an executor, in order, with progress and Ctrl-C.

Results are stored by game index and returned in index order, so a study gives the same
results on one core, on many, or on a cluster. Ctrl-C (KeyboardInterrupt) stops the run:
what has not started is cancelled and the games finished so far are returned, marked
partial — for a comparison only the games finished under both rule sets. The first
Ctrl-C lets the games in progress finish (``CtrlC``); a second one stops at once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from naqala.core.rng import SeedError, check_seeds
from naqala.lab.executors import Executor
from naqala.lab.results import GameResult
from naqala.lab.study import Study, StudyError, play_task

#: called once per finished game (e.g. to advance a progress bar)
Advance = Callable[[], None]


class CtrlC:
    """While a study runs, the first Ctrl-C only asks it to stop (the executor polls
    ``pressed``), so the game in progress and the executor's machinery are never cut in
    the middle; a second Ctrl-C interrupts at once. Outside the main thread (where no
    signal handler can be set) Ctrl-C keeps its usual KeyboardInterrupt."""

    def __init__(self) -> None:
        self._pressed = False
        self._previous: Any = None

    def pressed(self) -> bool:
        return self._pressed

    def _handle(self, signum: int, frame: Any) -> None:
        if self._pressed:
            raise KeyboardInterrupt
        self._pressed = True

    def __enter__(self) -> CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


@attrs.frozen
class Run:
    """Games of one or more sides of a study, by side, in game order."""

    sides: tuple[tuple[GameResult, ...], ...]
    requested: int
    interrupted: bool

    @property
    def games(self) -> int:
        return len(self.sides[0])

    @property
    def partial(self) -> bool:
        return self.interrupted or self.games < self.requested


def play_indices(
    studies: Sequence[Study],
    indices: Sequence[int],
    executor: Executor,
    advance: Advance | None = None,
) -> tuple[list[list[GameResult]], bool]:
    """Games ``indices`` of every study (interleaved, so an interrupted comparison has
    both sides of most games): the complete games by side, in ``indices`` order, and
    whether Ctrl-C stopped the run. A game missing on any side is dropped on all. Games
    whose seeds would leave ``0 … 2**64-1`` are a StudyError before any is played."""
    if indices:
        games = max(indices) + 1
        for study in studies:
            try:
                check_seeds(study.seed, games, "--seed")
            except SeedError as exc:
                raise StudyError(str(exc)) from None
    tasks = ((study, index) for index in indices for study in studies)  # taken as played
    done: dict[int, GameResult] = {}
    interrupted = False
    with CtrlC() as ctrl_c:
        stream = executor.imap(play_task, tasks, ctrl_c.pressed)
        try:
            for position, result in stream:
                done[position] = result
                if advance is not None:
                    advance()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        interrupted = interrupted or ctrl_c.pressed()
    width = len(studies)
    sides: list[list[GameResult]] = [[] for _ in studies]
    for row in sorted({position // width for position in done}):  # not every index
        positions = range(row * width, row * width + width)
        if all(p in done for p in positions):
            for side, p in enumerate(positions):
                sides[side].append(done[p])
    return sides, interrupted


def run_studies(
    studies: Sequence[Study],
    games: int,
    executor: Executor,
    advance: Advance | None = None,
) -> Run:
    """Games ``0 … games − 1`` of every study (their seeds are ``study.seed + index``)."""
    sides, interrupted = play_indices(studies, range(games), executor, advance)
    return Run(tuple(tuple(side) for side in sides), games, interrupted)
