"""Every distinct way a meeple move can end, built from the walk tables instead of by
walking every path (what the fast greedy player and the search players look at).

A move's effect on the game is almost all in where it starts, where it ends, which
colour it collects and how many: the tiles passed on the way only receive a meeple each.
So instead of enumerating the (often tens of thousands of) drop sequences, this module
lists, for each start tile, the (end tile, colour) pairs the walk tables allow and builds
one concrete plan for each — a walk found by descending ``Geometry.reach``, with the
collected colour dropped last (and also on every earlier visit of the end tile, which
collects more and keeps the tile clear). Moves that must drop the collected colour on
the end tile earlier in the same walk (a loop) come from ``Geometry.loop_ends``.

Plans follow the base game's movement rule; a variant that forbids some moves (the
``no-loops`` house rule) is respected by the player checking the plan it picks against
the rules in use.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from naqala.core.actions import Action
from naqala.core.board import Geometry
from naqala.core.state import NOBODY, Counts
from naqala.plugins.base.movement import colour_masks, legal_starts, move_action


@attrs.frozen
class MoveEnd:
    """One way to end a move: the plan (pick and drops) and what it leaves behind."""

    start: int
    end: int
    colour: int
    taken: int  # meeples of ``colour`` collected at the end
    emptied: bool  # whether the end tile is left without meeples
    plan: tuple[Action, ...]


def walk_to(geo: Geometry, start: int, end: int, steps: int) -> list[int] | None:
    """The tiles of a walk of exactly ``steps`` steps from ``start`` to ``end`` (without
    the start), found by descending the reach table; None if there is none."""
    if not geo.reach(start, NOBODY, steps) >> end & 1:
        return None
    path: list[int] = []
    here, prev = start, NOBODY
    for left in range(steps, 0, -1):
        nxt = next(
            n for n in geo.neighbours[here] if n != prev and geo.reach(n, here, left - 1) >> end & 1
        )
        path.append(nxt)
        here, prev = nxt, here
    return path


def loop_to(geo: Geometry, start: int, end: int, steps: int) -> list[int] | None:
    """Like ``walk_to``, but the walk must also stand on ``end`` after at least one and
    fewer than ``steps`` steps (a depth-first search remembering dead ends)."""
    dead: set[tuple[int, int, int, bool]] = set()

    def search(here: int, prev: int, left: int, seen: bool) -> list[int] | None:
        if left == 0:
            return [] if seen and here == end else None
        key = (here, prev, left, seen)
        if key in dead or not geo.reach(here, prev, left) >> end & 1:
            return None
        for nxt in geo.neighbours[here]:
            if nxt == prev:
                continue
            rest = search(nxt, here, left - 1, seen or (nxt == end and left > 1))
            if rest is not None:
                return [nxt, *rest]
        dead.add(key)
        return None

    return search(start, NOBODY, steps, False)


def _drops(path: Sequence[int], end: int, colour: int, hand: Counts, loop: bool) -> list[int]:
    """The colour dropped at each step: ``colour`` last and on earlier visits of ``end``
    while one is spare (one is always spare on a loop), the others in colour order."""
    rest = list(hand)
    rest[colour] -= 1  # the last drop
    order: list[int] = [NOBODY] * len(path)
    order[-1] = colour
    for i, tile in enumerate(path[:-1]):
        if tile == end and rest[colour] > 0:
            order[i] = colour
            rest[colour] -= 1
    if loop and colour not in order[:-1]:
        return []
    others = [c for c, n in enumerate(rest) for _ in range(n)]
    for i in range(len(path) - 1):
        if order[i] == NOBODY:
            order[i] = others.pop(0)
    return order


def move_ends(geo: Geometry, meeples: Sequence[Counts], letters: str) -> list[MoveEnd]:
    """One plan for each distinct (start, end, colour) of a move from ``meeples`` (the
    board at a pick decision), in canonical order (start, end, colour)."""
    found: list[MoveEnd] = []
    masks = colour_masks(meeples, len(letters))
    for start in legal_starts(geo, meeples, masks):
        hand = meeples[start]
        steps = sum(hand)
        board = list(meeples)
        board[start] = (0,) * len(hand)
        plain = geo.reach(start, NOBODY, steps)
        loops = geo.loop_ends(start, NOBODY, steps) if max(hand) >= 2 else 0
        for end in range(geo.size):
            bit = 1 << end
            if not (plain | loops) & bit:
                continue
            for colour, held in enumerate(hand):
                if not held:
                    continue
                if board[end][colour] and plain & bit:
                    path = walk_to(geo, start, end, steps)
                    loop = False
                elif held >= 2 and loops & bit and not board[end][colour]:
                    path = loop_to(geo, start, end, steps)
                    loop = True
                else:
                    continue
                if path is None:
                    continue
                order = _drops(path, end, colour, hand, loop)
                if not order:
                    continue
                found.append(_move_end(geo, board, start, path, order, letters))
    return found


def _move_end(
    geo: Geometry,
    board: Sequence[Counts],
    start: int,
    path: Sequence[int],
    order: Sequence[int],
    letters: str,
) -> MoveEnd:
    end, colour = path[-1], order[-1]
    at_end = list(board[end])
    for tile, dropped in zip(path, order, strict=True):
        if tile == end:
            at_end[dropped] += 1
    taken = at_end[colour]
    at_end[colour] = 0
    plan = (move_action("pick", geo.names[start]),) + tuple(
        move_action("drop", geo.names[t], letters[c]) for t, c in zip(path, order, strict=True)
    )
    return MoveEnd(start, end, colour, taken, not any(at_end), plan)
