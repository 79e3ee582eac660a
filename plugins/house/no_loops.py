"""House rule: no loops — a meeple move may not enter the same tile twice, nor come back
to the tile it started from.

It replaces the base game's ``pick`` and ``drop`` stages with versions whose legal
options follow the stricter rule (so the "last meeple on its colour" can only be met by a
meeple that was on the final tile before the move).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from naqala.core.actions import Action
from naqala.core.board import Geometry
from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.stage import Stage
from naqala.core.state import Counts, State
from naqala.plugins.base.api import DropStage, PickStage

NAME = "no-loops"
VERSION = "1.0"
DESCRIPTION = "A meeple move may not enter any tile twice (legal moves)"
REPLACES = ("pick", "drop")


def can_end(
    geo: Geometry, meeples: Sequence[Counts], here: int, visited: frozenset[int], hand: Counts
) -> bool:
    """Whether a path of ``sum(hand)`` more steps through unvisited tiles can end on a
    tile already holding one of the hand's colours."""
    colours = frozenset(c for c, n in enumerate(hand) if n)
    return _search(geo, tuple(meeples), here, visited, sum(hand), colours)


@functools.lru_cache(maxsize=1 << 16)
def _search(
    geo: Geometry,
    meeples: tuple[Counts, ...],
    here: int,
    visited: frozenset[int],
    steps: int,
    colours: frozenset[int],
) -> bool:
    for nxt in geo.neighbours[here]:
        if nxt in visited:
            continue
        if steps == 1:
            if any(meeples[nxt][c] for c in colours):
                return True
        elif _search(geo, meeples, nxt, visited | {nxt}, steps - 1, colours):
            return True
    return False


def starts(geo: Geometry, meeples: Sequence[Counts]) -> Iterator[int]:
    for tile, hand in enumerate(meeples):
        if any(hand) and can_end(geo, _emptied(meeples, tile), tile, frozenset({tile}), hand):
            yield tile


def _emptied(meeples: Sequence[Counts], tile: int) -> list[Counts]:
    board = list(meeples)
    board[tile] = (0,) * len(board[tile])
    return board


def drops(geo: Geometry, meeples: Sequence[Counts], state: State) -> Iterator[tuple[int, int]]:
    turn = state.turn
    assert turn is not None
    visited = frozenset((turn.start, *turn.path))
    for nxt in geo.neighbours[turn.here]:
        if nxt in visited:
            continue
        for colour, n in enumerate(turn.hand):
            if not n:
                continue
            rest = turn.hand[:colour] + (n - 1,) + turn.hand[colour + 1 :]
            if not any(rest):
                if meeples[nxt][colour]:
                    yield nxt, colour
            elif can_end(geo, meeples, nxt, visited | {nxt}, rest):
                yield nxt, colour


class NoLoopPick(PickStage):
    def legal(self, rules: Rules, state: State) -> list[Action]:
        geo = state.geometry
        return [Action("pick", (geo.name(t),)) for t in starts(geo, state.board.meeples)]


class NoLoopDrop(DropStage):
    def legal(self, rules: Rules, state: State) -> list[Action]:
        geo = state.geometry
        return [
            Action("drop", (geo.name(t), rules.letters[c]))
            for t, c in drops(geo, state.board.meeples, state)
        ]

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        turn = state.turn
        if turn is not None and action.kind == "drop" and action.args:
            try:
                tile = state.geometry.parse(action.args[0])
            except ValueError:
                return super().explain(rules, state, action)
            if tile == turn.start or tile in turn.path:
                return f"no loops (house rule): {action.args[0]} was already entered this move"
        return super().explain(rules, state, action)


@hookimpl
def naqala_stages() -> dict[str, Stage]:
    return {"pick": NoLoopPick(), "drop": NoLoopDrop()}
