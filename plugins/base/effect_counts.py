"""The effects language's counts of a player's tiles, meeples and hands, and of the move
in progress (``core.effects.COUNTS``: ``tiles_of``, ``largest_group``, ``path``…): each a
small function of the rules, the state, the player and the count's argument, so
``effects.evaluate`` looks them up by name. ``kernel/src/effects.rs`` counts the same."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from naqala.core.content import TileSpec
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State, Turn
from naqala.plugins.base.common import owned_tiles
from naqala.plugins.base.merchandise import merchandise_types


def move_count(turn: Turn | None, what: str) -> int:
    """``path()``: the tiles dropped on in this turn's move; ``collected()``: the meeples
    collected at its end (none before the move ends)."""
    if turn is None:
        return 0
    if what == "path":
        return len(turn.path)
    return turn.taken if turn.colour != NOBODY else 0


def _most_held(rules: Rules, state: State, me: int, colour_id: str) -> int:
    """``most_held``: ``me``'s meeples of the colour, when more than each other player's."""
    colour = rules.colour_index.get(colour_id)
    if colour is None:
        return 0
    mine = state.players[me].meeples[colour]
    others = (p.meeples[colour] for i, p in enumerate(state.players) if i != me)
    return mine if all(mine > n for n in others) else 0


def _tiles_where(
    rules: Rules, state: State, me: int, test: Callable[[TileSpec], bool]
) -> list[TileSpec]:
    """The specs of ``me``'s tiles that pass ``test``."""
    tiles = state.layout.tiles
    specs = (rules.tile(tiles[t]) for t in owned_tiles(state, me))
    return [spec for spec in specs if test(spec)]


def _largest_group(state: State, me: int) -> int:
    """The size of the largest group of ``me``'s tiles joined edge to edge (terrain does
    not split a group)."""
    mine = set(owned_tiles(state, me))
    orthogonal = state.geometry.orthogonal
    best = 0
    while mine:
        todo, size = [mine.pop()], 0
        while todo:
            size += 1
            for nxt in orthogonal[todo.pop()]:
                if nxt in mine:
                    mine.remove(nxt)
                    todo.append(nxt)
        best = max(best, size)
    return best


def _merchandise(rules: Rules, state: State, me: int) -> Counter[str]:
    """The merchandise in ``me``'s resource hand, by card id."""
    kinds = merchandise_types(rules)
    return Counter(card for card in state.players[me].cards if card in kinds)


def _next_to(rules: Rules, state: State, me: int, kind: str, diagonals: bool) -> int:
    """``me``'s tiles with a tile of ``kind`` among the 8 around (or the 4 sharing an
    edge), not of that kind themselves."""
    geo, tiles = state.geometry, state.layout.tiles
    around = geo.area if diagonals else geo.orthogonal
    of_kind = {t for t in range(len(tiles)) if rules.tile(tiles[t]).kind == kind}
    return sum(
        1
        for t in owned_tiles(state, me)
        if t not in of_kind and any(a in of_kind for a in around[t])
    )


#: the counts of what ``me`` holds and owns beyond the first few, by name: each reads the
#: rules, the state, ``me`` and the count's argument
PLAYER_COUNTS: Mapping[str, Callable[[Rules, State, int, str], int]] = {
    "held_all": lambda rules, state, me, _: sum(state.players[me].meeples),
    "most_held": _most_held,
    "tiles_of": lambda rules, state, me, of: len(
        _tiles_where(rules, state, me, lambda t: t.kind == of)
    ),
    "valued": lambda rules, state, me, of: len(
        _tiles_where(rules, state, me, lambda t: t.value == of)
    ),
    "tile_kinds": lambda rules, state, me, _: len(
        {t.kind for t in _tiles_where(rules, state, me, lambda t: True)}
    ),
    "largest_group": lambda rules, state, me, _: _largest_group(state, me),
    "merchandise_kinds": lambda rules, state, me, _: len(_merchandise(rules, state, me)),
    "most_merchandise": lambda rules, state, me, _: max(
        _merchandise(rules, state, me).values(), default=0
    ),
    "hand": lambda rules, state, me, of: (
        len(state.players[me].hand(rules.deck_index[of])) if of in rules.deck_index else 0
    ),
    "near": lambda rules, state, me, of: _next_to(rules, state, me, of, diagonals=True),
    "beside": lambda rules, state, me, of: _next_to(rules, state, me, of, diagonals=False),
}
