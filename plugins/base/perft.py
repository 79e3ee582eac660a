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
of meeples on a tile, where listing the moves grows exponentially with the latter.

``movement.count_moves`` lists the moves and stays as the independent cross-check.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence

from naqala.core.board import Geometry
from naqala.core.state import NOBODY, Counts

#: ``progress(done, total)`` after each target tile
Progress = Callable[[int, int], None]


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
    rest_len = sum(hand) - 1
    count = 0
    for colour, n in enumerate(hand):
        if not n:
            continue
        rest = list(hand)
        rest[colour] -= 1
        orders = arrangements(rest)
        if present[colour]:
            count += orders
        elif visits:
            others = rest[:colour] + rest[colour + 1 :]
            avoiding = math.comb(rest_len - visits, rest[colour]) * arrangements(others)
            count += orders - avoiding
    return count


def _walk_counts(
    geo: Geometry, target: int, steps: int, check_time: Callable[[], None]
) -> list[dict[int, dict[int, list[int]]]]:
    """``table[k][here][prev]``: walks of ``k`` steps from ``here`` (arrived from
    ``prev``) that end on ``target``, as counts by visits to ``target`` before the end.
    ``check_time`` is called before each step: one target of a big board with full
    tiles takes long enough for a time limit to matter within it."""
    width = max(steps, 1)
    zero = [0] * width
    neighbours = geo.neighbours
    tiles = range(geo.size)
    arrived = [(here, (*neighbours[here], NOBODY)) for here in tiles]
    level = {here: dict.fromkeys(prevs, zero) for here, prevs in arrived}
    level[target] = {prev: [1, *zero[1:]] for prev in level[target]}
    table = [level]
    for k in range(1, steps + 1):
        check_time()
        before = table[-1]
        level = {}
        for here, prevs in arrived:
            # one step to each neighbour; landing on the target short of the end is a visit
            moves = [(-2, zero)]  # no tile: keeps the sum defined when every move is excluded
            for nxt in neighbours[here]:
                counts = before[nxt][here]
                if nxt == target and k > 1:
                    counts = [0, *counts[:-1]]
                moves.append((nxt, counts))
            level[here] = {prev: _sum(c for n, c in moves if n != prev) for prev in prevs}
        table.append(level)
    return table


def _sum(polys: Iterable[list[int]]) -> list[int]:
    """Element-wise sum of count lists of one length (at least one list)."""
    it = iter(polys)
    total = list(next(it))
    for poly in it:
        for i, n in enumerate(poly):
            total[i] += n
    return total


def count_moves_fast(
    geo: Geometry,
    meeples: tuple[Counts, ...],
    max_seconds: float | None = None,
    progress: Progress | None = None,
) -> tuple[int, int]:
    """(moves, paths) as ``movement.count_moves`` gives them, by counting walks per
    target tile. ``PerftTimeout`` if ``max_seconds`` of CPU time pass first."""
    started = time.process_time()
    starts = [s for s, hand in enumerate(meeples) if any(hand) and s not in geo.impassable]
    longest = max((sum(meeples[s]) for s in starts), default=0)
    targets = [t for t in range(geo.size) if t not in geo.impassable]
    moves = paths = done = 0

    def check_time() -> None:
        if max_seconds is not None and time.process_time() - started >= max_seconds:
            raise PerftTimeout(max_seconds, done, len(targets), "target tiles")

    if progress is not None:
        progress(0, len(targets))
    for done, target in enumerate(targets):
        check_time()
        table = _walk_counts(geo, target, longest, check_time)
        for start in starts:
            hand = meeples[start]
            present = [False] * len(hand) if start == target else [n > 0 for n in meeples[target]]
            walks = table[sum(hand)][start][NOBODY]
            for visits, n in enumerate(walks):
                if n:
                    sequences = legal_sequences(hand, present, visits)
                    moves += n * sequences
                    paths += n if sequences else 0
        if progress is not None:
            progress(done + 1, len(targets))
    return moves, paths


__all__ = ["PerftTimeout", "Progress", "arrangements", "count_moves_fast", "legal_sequences"]
