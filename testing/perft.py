"""Counting legal meeple moves without listing them (``naqala perft``).

A move is a start tile, a walk of as many steps as the start holds meeples (never straight
back) and a sequence of the colours dropped. Whether a colour sequence is legal depends on
the walk only through its last tile ``T`` and how often the walk stood on ``T`` before the
last step (``v`` earlier visits, the start itself not counted, since it starts empty): the
last meeple must find its colour on ``T``, either there from the start or dropped on one of
those ``v`` visits. So for each start the walks are grouped by ``(T, v)``, counted by
dynamic programming over (tile, previous tile, steps left, visits to ``T`` so far), and
each group is multiplied by the number of its legal colour sequences — a formula in the
hand, ``T``'s colours and ``v``. The work is polynomial in the board size and the number
of meeples on a tile, where listing the moves grows exponentially with the latter; only
the walks that still exist are carried from one step to the next, so where they die out
(a tile of 100,000 meeples beside a single other) the count stops with them.

``count_moves`` lists the moves with the base game's own ``legal_starts`` and
``legal_drops`` and stays as the independent cross-check. ``count_moves_fast(...,
engine="native")`` runs the same count in the kernel (``kernel/src/perft.rs``, the same
steps, the same time limit), proven equal on the board files and on game states by
``tests/test_native_perft.py``; ``perft_engine`` picks the engine for ``naqala perft``.

Part of the testing kit rather than the base plugin: no rule of any game needs to count
moves; the kit, ``naqala perft`` and ``bench/perft.py`` do (docs/architecture.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from naqala.core.board import Geometry
from naqala.core.state import NOBODY, Counts, add_at
from naqala.plugins.base.api import legal_drops, legal_starts

#: ``progress(done, total)`` after each target tile
Progress = Callable[[int, int], None]
#: the engine a count runs on: the Python reference or the kernel
Engine = Literal["python", "native"]
#: what ``naqala perft --engine`` accepts: ``auto`` is native where it can be
EngineChoice = Literal["auto", "python", "native"]
#: the CPU seconds ``naqala perft`` counts for at most unless told otherwise: a count of
#: any real position takes well under a second, and a board of hundreds of thousands of
#: meeples on a tile would otherwise run for hours
PERFT_MAX_SECONDS = 60.0


class PerftTimeout(Exception):
    """The count did not finish within its time limit."""

    def __init__(self, seconds: float, done: int, total: int, what: str) -> None:
        super().__init__(
            f"gave up after {seconds:g} s of CPU time ({done} of {total} {what} counted)"
        )
        self.done = done
        self.total = total


def arrangements(counts: Sequence[int]) -> int:
    """Distinct orders of a multiset with ``counts`` of each kind (a multinomial)."""
    total = 0
    result = 1
    for n in counts:
        total += n
        result *= math.comb(total, n)
    return result


def legal_sequences(hand: Counts, present: Sequence[bool], visits: int) -> int:
    """Colour sequences of ``hand`` whose last meeple is legal on a tile whose own
    colours are ``present`` and on which ``visits`` earlier drops of the walk land.

    The last colour ``c`` is legal if ``c`` is present, or if one of the earlier drops on
    the tile is ``c``: all orders of the rest, minus those that keep ``c`` off the
    ``visits`` positions."""
    return _Sequences(hand, present).legal(visits)


class _Sequences:
    """``legal_sequences`` for one hand and tile at any number of visits: the orders of
    the rest of the hand after each last colour are worked out once, as a long walk
    meets its last tile at thousands of different numbers of visits."""

    def __init__(self, hand: Counts, present: Sequence[bool]) -> None:
        self.rest_len = sum(hand) - 1
        self.always = 0  # last colours present on the tile: legal whatever the visits
        self.visited: list[tuple[int, int, int]] = []  # (orders, copies of c left, others)
        for colour, n in enumerate(hand):
            if not n:
                continue
            rest = list(hand)
            rest[colour] -= 1
            if present[colour]:
                self.always += arrangements(rest)
            else:
                others = rest[:colour] + rest[colour + 1 :]
                self.visited.append((arrangements(rest), rest[colour], arrangements(others)))

    def legal(self, visits: int) -> int:
        count = self.always
        if visits:
            for orders, left, others in self.visited:
                count += orders - math.comb(self.rest_len - visits, left) * others
        return count


def _shifted(counts: list[int]) -> list[int]:
    """Counts by visits after one more visit to the target."""
    return [0, *counts]


def _add(total: list[int], counts: list[int]) -> list[int]:
    """``total + counts`` element-wise (lists of any lengths); ``total`` may be changed."""
    if len(counts) > len(total):
        total, counts = list(counts), total
    for i, n in enumerate(counts):
        total[i] += n
    return total


def _minus(total: list[int], counts: list[int] | None) -> list[int]:
    """``total - counts`` element-wise without trailing zeros (``counts`` ≤ ``total``)."""
    if counts is None:
        return total
    result = list(total)
    for i, n in enumerate(counts):
        result[i] -= n
    while result and not result[-1]:
        result.pop()
    return result


def _walk_counts(
    geo: Geometry, target: int, lengths: Iterable[int], check_time: Callable[[], None]
) -> dict[int, dict[int, list[int]]]:
    """``found[k][start]``: the walks of ``k`` steps from ``start`` (the first step free)
    that end on ``target``, as counts by visits to ``target`` before the end, for each
    ``k`` of ``lengths``.

    Walks are counted backwards from the target one step at a time, keeping only the
    (tile, previous tile) pairs some walk still passes and the visit counts some walk
    has, so a board where walks soon die out (a corridor, a tile of 100,000 meeples
    beside one other) answers in a few steps, and memory holds one step at a time.
    ``check_time`` is called for every tile of every step, so a time limit holds within
    a small part of one target's count."""
    wanted = set(lengths)
    longest = max(wanted, default=0)
    neighbours = geo.neighbours
    # level[here][prev]: walks of k steps from here, arrived from prev, ending on target
    level: dict[int, dict[int, list[int]]] = {
        target: {prev: [1] for prev in (*neighbours[target], NOBODY)}
    }
    found: dict[int, dict[int, list[int]]] = {}
    if 0 in wanted:
        found[0] = {target: [1]}
    for k in range(1, longest + 1):
        # into[here][nxt]: walks of k steps whose first step goes from here to nxt
        into: dict[int, dict[int, list[int]]] = {}
        for nxt, by_prev in level.items():
            for here, counts in by_prev.items():
                if here != NOBODY:
                    step = _shifted(counts) if nxt == target and k > 1 else counts
                    into.setdefault(here, {})[nxt] = step
        level = {}
        for here, steps in into.items():
            check_time()
            total: list[int] = []
            for counts in steps.values():
                total = _add(total, counts)
            # never straight back: a walk that arrived from prev may not step to prev
            by_prev = {
                prev: left
                for prev in (*neighbours[here], NOBODY)
                if (left := _minus(total, steps.get(prev)))
            }
            if by_prev:
                level[here] = by_prev
        if k in wanted:
            found[k] = {here: by_prev[NOBODY] for here, by_prev in level.items()}
        if not level:
            break  # no walk of k steps ends on the target, so none of more steps does
    return found


def count_moves_fast(
    geo: Geometry,
    meeples: tuple[Counts, ...],
    max_seconds: float | None = None,
    progress: Progress | None = None,
    engine: Engine = "python",
) -> tuple[int, int]:
    """(moves, paths) as ``movement.count_moves`` gives them, by counting walks per
    target tile, on ``engine``. ``PerftTimeout`` if ``max_seconds`` of CPU time pass
    first; ``KernelUnavailable`` if ``engine`` is native and the kernel is missing."""
    if engine == "native":
        return _count_natively(geo, meeples, max_seconds, progress)
    started = time.process_time()
    starts = [s for s, hand in enumerate(meeples) if any(hand) and s not in geo.impassable]
    lengths = {sum(meeples[s]) for s in starts}
    targets = [t for t in range(geo.size) if t not in geo.impassable]
    moves = paths = done = 0

    def check_time() -> None:
        if max_seconds is not None and time.process_time() - started >= max_seconds:
            raise PerftTimeout(max_seconds, done, len(targets), "target tiles")

    if progress is not None:
        progress(0, len(targets))
    for done, target in enumerate(targets):
        check_time()
        found = _walk_counts(geo, target, lengths, check_time)
        for start in starts:
            hand = meeples[start]
            walks = found.get(sum(hand), {}).get(start)
            if not walks:
                continue
            present = [False] * len(hand) if start == target else [n > 0 for n in meeples[target]]
            sequences = _Sequences(hand, present)
            for visits, n in enumerate(walks):
                if n:
                    check_time()
                    legal = sequences.legal(visits)
                    moves += n * legal
                    paths += n if legal else 0
        if progress is not None:
            progress(done + 1, len(targets))
    return moves, paths


def _count_natively(
    geo: Geometry,
    meeples: tuple[Counts, ...],
    max_seconds: float | None,
    progress: Progress | None,
) -> tuple[int, int]:
    """``count_moves_fast`` in the kernel: the board handed over as its walk neighbours."""
    from naqala.native import native

    try:
        moves, paths = native().count_moves(
            [list(around) for around in geo.neighbours],
            sorted(geo.impassable),
            [list(counts) for counts in meeples],
            max_seconds,
            progress,
        )
    except TimeoutError as exc:
        done, total = exc.args
        raise PerftTimeout(max_seconds or 0.0, done, total, "target tiles") from None
    return moves, paths


def perft_engine(choice: EngineChoice, enumerate_moves: bool = False) -> tuple[Engine, str | None]:
    """The engine ``naqala perft --engine choice`` counts on, and why ``auto`` chose the
    Python engine (None when it did not): listing every move is the Python cross-check,
    and the kernel may be missing. ``native`` where it cannot run is the caller's error
    to report (``KernelUnavailable`` when counting)."""
    from naqala import native as kernel

    if choice != "auto":
        return choice, None
    if enumerate_moves:
        return "python", "listing every move (--enumerate) is the Python engine's cross-check"
    reason = kernel.unavailable_reason()
    return ("python", reason) if reason is not None else ("native", None)


__all__ = [
    "PERFT_MAX_SECONDS",
    "Engine",
    "EngineChoice",
    "PerftTimeout",
    "Progress",
    "arrangements",
    "count_moves_fast",
    "legal_sequences",
    "perft_engine",
]


def count_moves(
    geo: Geometry,
    meeples: tuple[Counts, ...],
    max_seconds: float | None = None,
    progress: Progress | None = None,
    revisit: bool = True,
) -> tuple[int, int]:
    """(moves, paths): distinct legal moves (start, path, colour sequence) and distinct
    (start, path) pairs with at least one legal colour sequence, by listing every move
    with the base game's own movement rule (``naqala perft --enumerate``; exponential in
    the meeples of a tile, so it is the cross-check of ``count_moves_fast``); with
    ``revisit`` off, under the reading "no loops" (``movement.revisit = false``).
    ``progress(done, total)`` after each start tile; ``PerftTimeout`` once ``max_seconds``
    of CPU time have passed."""
    started = time.process_time()
    moves = 0
    paths: set[tuple[int, ...]] = set()
    starts = list(legal_starts(geo, meeples, revisit=revisit))
    done = 0

    def check_time() -> None:
        if max_seconds is not None and time.process_time() - started >= max_seconds:
            raise PerftTimeout(max_seconds, done, len(starts), "start tiles")

    def walk(
        board: list[Counts], here: int, prev: int, hand: Counts, path: tuple[int, ...]
    ) -> None:
        nonlocal moves
        visited = None if revisit else sum(1 << tile for tile in path)
        for nxt, colour in legal_drops(geo, board, here, prev, hand, visited=visited):
            rest = add_at(hand, colour, -1)
            before = board[nxt]
            board[nxt] = add_at(before, colour, 1)
            if any(rest):
                walk(board, nxt, here, rest, (*path, nxt))
            else:
                moves += 1
                paths.add((*path, nxt))
                if not moves % 4096:
                    check_time()
            board[nxt] = before

    if progress is not None:
        progress(0, len(starts))
    for start in starts:
        check_time()
        board = list(meeples)
        hand = board[start]
        board[start] = (0,) * len(hand)
        walk(board, start, NOBODY, hand, (start,))
        done += 1
        if progress is not None:
            progress(done, len(starts))
    return moves, len(paths)
