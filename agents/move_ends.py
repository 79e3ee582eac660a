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

import functools
from collections.abc import Sequence

from naqala.core.actions import Action
from naqala.core.actions import action_of as move_action
from naqala.core.board import Geometry
from naqala.core.state import NOBODY, Counts
from naqala.plugins.base.api import colour_masks, legal_starts


class MoveEnd:
    """One way to end a move: where it starts and ends, the colour collected, how many
    and whether the end tile is left empty. The concrete plan (pick and drops) is built
    when first asked for; ``taken`` and ``emptied`` assume the walk does not come back
    to its end tile until the plan is built, and are exact from then on."""

    __slots__ = ("_plan", "_source", "colour", "emptied", "end", "loop", "start", "taken")

    def __init__(self, source: _Source, start: int, end: int, colour: int, loop: bool) -> None:
        self._source = source
        self._plan: tuple[Action, ...] | None = None
        self.start, self.end, self.colour, self.loop = start, end, colour, loop
        at_end = source.meeples[end] if end != start else ()
        others = sum(at_end) - (at_end[colour] if at_end else 0)
        self.taken = (at_end[colour] if at_end else 0) + (2 if loop else 1)
        self.emptied = others == 0

    @property
    def plan(self) -> tuple[Action, ...]:
        if self._plan is None:
            self._plan = self._source.build(self)
        return self._plan

    def __repr__(self) -> str:
        return f"MoveEnd({self.start}->{self.end}, colour {self.colour}, taken {self.taken})"


class _Source:
    """The board a set of move ends comes from, to build their plans on demand."""

    def __init__(self, geo: Geometry, meeples: Sequence[Counts], letters: str) -> None:
        self.geo = geo
        self.meeples = meeples
        self.letters = letters

    def build(self, end: MoveEnd) -> tuple[Action, ...]:
        geo = self.geo
        hand = self.meeples[end.start]
        steps = sum(hand)
        path: Sequence[int] | None
        if end.loop:
            path = loop_to(geo, end.start, end.end, steps)
        else:
            path = walk_to(geo, end.start, end.end, steps)
        assert path is not None, "the walk tables promised a walk"
        order = _drops(path, end.end, end.colour, hand, end.loop)
        board = list(self.meeples)
        board[end.start] = (0,) * len(hand)
        at_end = list(board[end.end])
        for tile, dropped in zip(path, order, strict=True):
            if tile == end.end:
                at_end[dropped] += 1
        end.taken = at_end[end.colour]
        at_end[end.colour] = 0
        end.emptied = not any(at_end)
        return (move_action("pick", geo.names[end.start]),) + tuple(
            move_action("drop", geo.names[t], self.letters[c])
            for t, c in zip(path, order, strict=True)
        )


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


@functools.lru_cache(maxsize=65536)
def loop_to(geo: Geometry, start: int, end: int, steps: int) -> tuple[int, ...] | None:
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

    found = search(start, NOBODY, steps, False)
    return None if found is None else tuple(found)


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
    """One move end for each distinct (start, end, colour) of a move from ``meeples``
    (the board at a pick decision), in canonical order (start, end, colour)."""
    found: list[MoveEnd] = []
    source = _Source(geo, meeples, letters)
    masks = colour_masks(meeples, len(letters))
    for start in legal_starts(geo, meeples, masks):
        hand = meeples[start]
        steps = sum(hand)
        plain = geo.reach(start, NOBODY, steps) & ~(1 << start)
        loops = geo.loop_ends(start, NOBODY, steps) if max(hand) >= 2 else 0
        held = [c for c, n in enumerate(hand) if n]
        doubled = [c for c, n in enumerate(hand) if n >= 2]
        ends = plain | loops
        while ends:
            bit = ends & -ends
            ends ^= bit
            end = bit.bit_length() - 1
            here = meeples[end] if end != start else None
            for colour in held:
                if here is not None and here[colour] and plain & bit:
                    found.append(MoveEnd(source, start, end, colour, False))
                elif (
                    loops & bit
                    and colour in doubled
                    and (here is None or not here[colour])
                    and loop_to(geo, start, end, steps) is not None
                ):
                    found.append(MoveEnd(source, start, end, colour, True))
    return found
