"""Meeple movement (rulebook 2.2 and 2.3): pick up, drop along a path, control check.

A move is split into one decision per step: ``pick c3`` (take every meeple of a tile), then
``drop d3 W`` for each meeple (the next tile and the colour dropped there). Only steps
that still allow a legal end are offered, so no option is a dead end. Whether an end is
still possible is answered in constant time from the board's memoised walk tables:

with ``k`` meeples in hand at tile ``here`` (arrived from ``prev``), a legal end exists iff
  * some walk of exactly ``k`` steps ends on a tile that already holds a colour in the
    hand (the walk can drop the others anywhere, that colour last), or
  * the hand holds two of one colour and some walk of ``k`` steps ends on a tile it also
    stood on earlier (drop one there first, the other at the end).

With the setting ``movement.revisit = false`` (the reading "no loops") a move may not
enter a tile twice nor come back to its start: an end is possible iff some self-avoiding
path of ``k`` steps through unvisited tiles ends on a tile holding a colour of the hand,
found by a memoised search pruned by the walk tables.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from naqala.core.actions import Action, action_of
from naqala.core.board import Geometry
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, Counts, State, add_at, evolve
from naqala.plugins.base import events
from naqala.plugins.base.common import current, take_tile

#: the action ``kind args``, one shared object per distinct move (moves are listed over
#: and over); kept under this name for the modules that build plans of moves
move_action = action_of


#: the setting naming the reading: ``true`` lets a move enter a tile again (the rulebook's
#: own rule), ``false`` is "no loops"
REVISIT = "movement.revisit"


def revisits(rules: Rules) -> bool:
    """Whether a meeple move may enter a tile twice under these rules (the default)."""
    return rules.content.typed_settings.get(REVISIT, True) is not False


def colour_masks(meeples: Sequence[Counts], colours: int) -> list[int]:
    """For each colour, a bit mask of the tiles holding at least one meeple of it."""
    masks = [0] * colours
    for tile, counts in enumerate(meeples):
        for colour in range(colours):
            if counts[colour]:
                masks[colour] |= 1 << tile
    return masks


def can_finish(geo: Geometry, masks: Sequence[int], here: int, prev: int, hand: Counts) -> bool:
    """Whether a move standing on ``here`` with ``hand`` still in hand can end legally."""
    k = sum(hand)
    if k == 0:
        return False
    ends = geo.reach(here, prev, k)
    for colour, n in enumerate(hand):
        if n and ends & masks[colour]:
            return True
    return max(hand) >= 2 and geo.loop_ends(here, prev, k) != 0


def hand_targets(masks: Sequence[int], hand: Counts) -> int:
    """The tiles holding at least one meeple of a colour in ``hand``."""
    target = 0
    for colour, n in enumerate(hand):
        if n:
            target |= masks[colour]
    return target


@functools.lru_cache(maxsize=1 << 16)
def self_avoiding_end(geo: Geometry, here: int, visited: int, steps: int, target: int) -> bool:
    """Whether a path of ``steps`` more steps from ``here`` through tiles not in
    ``visited`` (a bit mask) can end on a tile of ``target`` (a bit mask)."""
    # a path enters each of its tiles once, so it is never longer than the tiles left;
    # and it is a walk that never turns straight back: if no walk reaches a target, no path
    if (
        steps > geo.size - visited.bit_count()
        or not geo.reach(here, NOBODY, steps) & target & ~visited
    ):
        return False
    for nxt in geo.neighbours[here]:
        bit = 1 << nxt
        if visited & bit:
            continue
        if steps == 1:
            if target & bit:
                return True
        elif self_avoiding_end(geo, nxt, visited | bit, steps - 1, target):
            return True
    return False


def legal_starts(
    geo: Geometry,
    meeples: Sequence[Counts],
    masks: Sequence[int] | None = None,
    revisit: bool = True,
) -> Iterator[int]:
    """Tiles from which some legal move exists (self-avoiding ones unless ``revisit``)."""
    if masks is None:
        masks = colour_masks(meeples, len(meeples[0]) if meeples else 0)
    if not revisit:
        for tile, hand in enumerate(meeples):
            k = sum(hand)
            if k and tile not in geo.impassable:
                bit = 1 << tile
                if self_avoiding_end(geo, tile, bit, k, hand_targets(masks, hand) & ~bit):
                    yield tile
        return
    reach = geo.reach
    impassable = geo.impassable
    colours = range(len(masks))
    for tile, hand in enumerate(meeples):
        k = sum(hand)
        if not k or tile in impassable:
            continue
        # the tile is emptied by the pick: its own meeples do not count as ends
        ends = reach(tile, NOBODY, k) & ~(1 << tile)
        for colour in colours:
            if hand[colour] and ends & masks[colour]:
                yield tile
                break
        else:
            if max(hand) >= 2 and geo.loop_ends(tile, NOBODY, k):
                yield tile


def legal_drops(
    geo: Geometry,
    meeples: Sequence[Counts],
    here: int,
    prev: int,
    hand: Counts,
    masks: Sequence[int] | None = None,
    visited: int | None = None,
) -> Iterator[tuple[int, int]]:
    """(tile, colour) pairs that the next drop may be, each keeping a legal end possible;
    with ``visited`` (the tiles the move stood on, a bit mask) no tile is entered twice."""
    if masks is None:
        masks = colour_masks(meeples, len(hand))
    if visited is not None:
        yield from self_avoiding_drops(geo, meeples, here, hand, masks, visited)
        return
    k = sum(hand) - 1  # meeples left in hand after this drop
    held = [colour for colour, n in enumerate(hand) if n]
    reach = geo.reach
    for nxt in geo.neighbours[here]:
        if nxt == prev:
            continue
        if not k:
            counts = meeples[nxt]
            for colour in held:
                if counts[colour]:
                    yield nxt, colour
            continue
        ends = reach(nxt, here, k)
        # colours of the hand that some k-step walk can end on as things stand
        hits = [colour for colour in held if ends & masks[colour]]
        back = ends >> nxt & 1  # a walk can end on nxt itself
        loops = -1  # not computed yet
        for colour in held:
            # drop ``colour`` on ``nxt``: can the rest of the hand still end legally?
            two = hand[colour] >= 2
            if len(hits) > (colour in hits) or (two and (back or colour in hits)):
                yield nxt, colour
                continue
            if hand[colour] >= 3 or any(hand[c] >= 2 for c in held if c != colour):
                if loops < 0:
                    loops = geo.loop_ends(nxt, here, k)
                if loops:
                    yield nxt, colour


def self_avoiding_drops(
    geo: Geometry,
    meeples: Sequence[Counts],
    here: int,
    hand: Counts,
    masks: Sequence[int],
    visited: int,
) -> Iterator[tuple[int, int]]:
    """``legal_drops`` when no tile may be entered twice, in the same order."""
    k = sum(hand) - 1
    held = [colour for colour, n in enumerate(hand) if n]
    for nxt in geo.neighbours[here]:
        bit = 1 << nxt
        if visited & bit:
            continue
        for colour in held:
            if not k:
                if meeples[nxt][colour]:
                    yield nxt, colour
                continue
            rest = hand[:colour] + (hand[colour] - 1,) + hand[colour + 1 :]
            # the drop itself puts ``colour`` on nxt, which the path has left for good
            if self_avoiding_end(geo, nxt, visited | bit, k, hand_targets(masks, rest)):
                yield nxt, colour


def visited_mask(start: int, path: Sequence[int]) -> int:
    """The tiles a move in progress has stood on, as a bit mask."""
    mask = 1 << start
    for tile in path:
        mask |= 1 << tile
    return mask


class PickStage(Stage):
    """Choose the tile to take every meeple from: ``pick <tile>``."""

    def legal(self, rules: Rules, state: State) -> list[Action]:
        geo = state.geometry
        board = state.board
        names = geo.names
        starts = legal_starts(geo, board.meeples, board.colour_masks, revisits(rules))
        return [action_of("pick", names[t]) for t in starts]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        tile = state.geometry.parse(action.args[0])
        hand = state.board.meeples[tile]
        board = state.board.with_meeples_at(tile, (0,) * len(hand))
        assert state.turn is not None
        turn = evolve(state.turn, start=tile, hand=hand)
        return rules.enter(evolve(state, board=board, turn=turn), "drop")

    def title(self, rules: Rules, state: State) -> str:
        return "Move: pick up every meeple of a tile"

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "pick" or len(action.args) != 1:
            return None
        try:
            tile = state.geometry.parse(action.args[0])
        except ValueError as exc:
            return str(exc)
        if not any(state.board.meeples[tile]):
            return f"{state.geometry.name(tile)} holds no meeples"
        return (
            f"no legal move starts on {state.geometry.name(tile)}: the last meeple could "
            "never land on a tile that holds its colour"
        )


class DropStage(Stage):
    """Drop the next meeple: ``drop <tile> <colour letter>``."""

    def legal(self, rules: Rules, state: State) -> list[Action]:
        turn = state.turn
        assert turn is not None
        geo = state.geometry
        letters = rules.letters
        board = state.board
        names = geo.names
        visited = None if revisits(rules) else visited_mask(turn.start, turn.path)
        return [
            action_of("drop", names[t], letters[c])
            for t, c in legal_drops(
                geo,
                board.meeples,
                turn.here,
                turn.previous,
                turn.hand,
                board.colour_masks,
                visited,
            )
        ]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        turn = state.turn
        assert turn is not None
        tile = state.geometry.parse(action.args[0])
        colour = rules.letters.index(action.args[1])
        player = current(state)
        board = state.board.with_meeples_at(tile, add_at(state.board.meeples[tile], colour, 1))
        hand = add_at(turn.hand, colour, -1)
        state = evolve(state, board=board, turn=evolve(turn, path=(*turn.path, tile), hand=hand))
        state = rules.fire(state, Event(events.MEEPLE_DROPPED, player, tile=tile, colour=colour))
        if any(hand):
            return state
        return rules.proceed(control_check(rules, state, tile, colour), self.name)

    def title(self, rules: Rules, state: State) -> str:
        hand = state.turn.hand if state.turn else ()
        letters = "".join(rules.letters[c] * n for c, n in enumerate(hand))
        return f"Move: drop the next meeple (in hand: {letters or 'none'})"

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        turn = state.turn
        if action.kind != "drop" or len(action.args) != 2 or turn is None:
            return None
        geo = state.geometry
        try:
            tile = geo.parse(action.args[0])
        except ValueError as exc:
            return str(exc)
        letter = action.args[1].upper()  # colour letters are capitals; typed ones may not be
        if len(letter) != 1 or letter not in rules.letters:
            return f"{letter!r} is not a meeple colour (one of {', '.join(rules.letters)})"
        colour = rules.letters.index(letter)
        if not turn.hand[colour]:
            return f"you hold no {rules.colours[colour].name} ({letter}) meeple"
        if not revisits(rules) and (tile == turn.start or tile in turn.path):
            return f"no loops ({REVISIT} = false): {geo.name(tile)} was already entered this move"
        if tile == turn.previous:
            return f"no immediate backtracking: you just came from {geo.name(tile)}"
        if tile not in geo.orthogonal[turn.here]:
            return f"{geo.name(tile)} is not orthogonally next to {geo.name(turn.here)}"
        if tile not in geo.neighbours[turn.here]:
            return f"{geo.name(tile)} cannot be entered from {geo.name(turn.here)} (blocked)"
        if sum(turn.hand) == 1:
            return f"the last meeple must land on a tile already holding a {letter} meeple"
        return "after that drop the last meeple could never land on a tile holding its colour"


def control_check(rules: Rules, state: State, tile: int, colour: int) -> State:
    """Rulebook 2.3: take back all meeples of the last colour from the final tile; if the
    tile is then empty and unowned, put a camel on it (if you have one left)."""
    turn = state.turn
    assert turn is not None
    counts = state.board.meeples[tile]
    taken = counts[colour]
    emptied = add_at(counts, colour, -taken)
    board = state.board.with_meeples_at(tile, emptied)
    state = evolve(state, board=board, turn=evolve(turn, colour=colour, taken=taken))
    if not any(emptied):
        state = take_tile(rules, state, current(state), tile)
    return state


__all__ = [
    "REVISIT",
    "DropStage",
    "PickStage",
    "can_finish",
    "legal_drops",
    "legal_starts",
    "revisits",
    "self_avoiding_end",
]
