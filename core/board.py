"""Board geometry: tile names, orthogonal adjacency, blocked terrain, walk reachability.

A board is a ``rows × cols`` grid indexed row-major (tile ``i`` is row ``i // cols``,
column ``i % cols``). Tiles are named like chess squares: a column letter and a row number,
``a1`` top-left. Geometry is immutable and cached per (size, impassable tiles, walls), so
all states of a game share one instance and its memoised walk tables.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable

_COLUMNS = string.ascii_lowercase


def tile_name(index: int, cols: int) -> str:
    """``a1``-style name of tile ``index`` on a board ``cols`` wide."""
    row, col = divmod(index, cols)
    return f"{_COLUMNS[col]}{row + 1}"


def parse_tile(name: str, rows: int, cols: int) -> int:
    """Index of the tile called ``name``; ``ValueError`` if there is no such tile."""
    name = name.strip().lower()
    if len(name) < 2 or name[0] not in _COLUMNS or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a tile name (column letter + row number, e.g. c3)")
    col = _COLUMNS.index(name[0])
    row = int(name[1:]) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise ValueError(f"tile {name} is off the {rows}x{cols} board")
    return row * cols + col


def edge(a: int, b: int) -> tuple[int, int]:
    """An undirected edge between two tiles, as a sorted pair."""
    return (a, b) if a < b else (b, a)


class Geometry:
    """Adjacency of one board, with blocked tiles and walls, and memoised walk tables."""

    __slots__ = (
        "_index",
        "_loop",
        "_reach",
        "area",
        "cols",
        "impassable",
        "names",
        "neighbours",
        "orthogonal",
        "rows",
        "size",
        "walls",
    )

    def __init__(
        self, rows: int, cols: int, impassable: frozenset[int], walls: frozenset[tuple[int, int]]
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.names = tuple(tile_name(i, cols) for i in range(self.size))
        self._index = {name: i for i, name in enumerate(self.names)}
        self.impassable = impassable
        self.walls = walls
        #: orthogonal neighbours regardless of terrain (assassin range, scoring areas)
        self.orthogonal: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._orthogonal(i)) for i in range(self.size)
        )
        #: neighbours a meeple may step to (no impassable tile, no wall between)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            ()
            if i in impassable
            else tuple(
                j for j in self.orthogonal[i] if j not in impassable and edge(i, j) not in walls
            )
            for i in range(self.size)
        )
        #: the 3×3 block centred on each tile, the tile itself included
        self.area: tuple[tuple[int, ...], ...] = tuple(self._area(i) for i in range(self.size))
        self._reach: dict[tuple[int, int, int], int] = {}
        self._loop: dict[tuple[int, int, int], int] = {}

    def is_connected(self) -> bool:
        """Whether a meeple could get from every passable tile to every other one (no tile
        or pocket of tiles is shut in by impassable tiles and walls)."""
        passable = [i for i in range(self.size) if i not in self.impassable]
        if not passable:
            return True
        seen = {passable[0]}
        todo = [passable[0]]
        while todo:
            for nxt in self.neighbours[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return len(seen) == len(passable)

    def _orthogonal(self, i: int) -> Iterable[int]:
        row, col = divmod(i, self.cols)
        if row > 0:
            yield i - self.cols
        if col > 0:
            yield i - 1
        if col < self.cols - 1:
            yield i + 1
        if row < self.rows - 1:
            yield i + self.cols

    def _area(self, i: int) -> tuple[int, ...]:
        row, col = divmod(i, self.cols)
        return tuple(
            r * self.cols + c
            for r in range(max(0, row - 1), min(self.rows, row + 2))
            for c in range(max(0, col - 1), min(self.cols, col + 2))
        )

    def distance(self, a: int, b: int) -> int:
        """Orthogonal (Manhattan) distance, ignoring terrain."""
        ra, ca = divmod(a, self.cols)
        rb, cb = divmod(b, self.cols)
        return abs(ra - rb) + abs(ca - cb)

    def name(self, index: int) -> str:
        return self.names[index]

    def parse(self, name: str) -> int:
        index = self._index.get(name)  # the names the rules write themselves
        return parse_tile(name, self.rows, self.cols) if index is None else index

    # -- walk tables -------------------------------------------------------------------
    # A walk is a sequence of steps between neighbouring tiles that never steps straight
    # back to the tile it just came from. ``prev`` is -1 at the start of a walk.

    def reach(self, here: int, prev: int, steps: int) -> int:
        """Bit mask of the tiles where a walk of exactly ``steps`` steps from ``here`` ends."""
        key = (here, prev, steps)
        cached = self._reach.get(key)
        if cached is not None:
            return cached
        if steps == 0:
            mask = 1 << here
        else:
            mask = 0
            for nxt in self.neighbours[here]:
                if nxt != prev:
                    mask |= self.reach(nxt, here, steps - 1)
        self._reach[key] = mask
        return mask

    def loop_ends(self, here: int, prev: int, steps: int) -> int:
        """Bit mask of tiles T such that some walk of ``steps`` steps ends on T and also
        stood on T after at least one and fewer than ``steps`` steps."""
        key = (here, prev, steps)
        cached = self._loop.get(key)
        if cached is not None:
            return cached
        mask = 0
        if steps >= 2:
            for nxt in self.neighbours[here]:
                if nxt == prev:
                    continue
                mask |= self.loop_ends(nxt, here, steps - 1)
                if self.reach(nxt, here, steps - 1) >> nxt & 1:
                    mask |= 1 << nxt
        self._loop[key] = mask
        return mask


@functools.lru_cache(maxsize=256)
def geometry(
    rows: int, cols: int, impassable: frozenset[int], walls: frozenset[tuple[int, int]]
) -> Geometry:
    """The shared geometry of a board shape (cached: every state of a game reuses it)."""
    return Geometry(rows, cols, impassable, walls)
