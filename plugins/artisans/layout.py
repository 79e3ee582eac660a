"""The Artisans board: 6×6, the six new tiles and 10 random base tiles in the central
4×4, the 20 other base tiles around them; mountains on the workshops' darkened edges;
the chasm impassable. A layout that encloses a tile is laid again (rulebook setup)."""

from __future__ import annotations

from naqala.core.board import edge, geometry
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import Layout

NEW_KINDS = ("workshop", "specialized-market", "chasm")
CHASM = "chasm"
WORKSHOP = "workshop"
#: which edges of each workshop are darkened: the first has them north and west, the
#: others south and east (UNCONFIRMED orientation; docs/rules-notes.md)
DARK_EDGES = {1: ((-1, 0), (0, -1))}
DEFAULT_DARK = ((1, 0), (0, 1))
ATTEMPTS = 1000


def centre_positions(rows: int, cols: int, centre_rows: int, centre_cols: int) -> list[int]:
    top, left = (rows - centre_rows) // 2, (cols - centre_cols) // 2
    return [
        r * cols + c for r in range(top, top + centre_rows) for c in range(left, left + centre_cols)
    ]


def mountains(layout: Layout) -> frozenset[tuple[int, int]]:
    """Two walls per workshop, on its darkened edges (edges on the board's rim block
    nothing and are left out)."""
    walls = set()
    for index, tile_id in enumerate(layout.tiles):
        kind, _, number = tile_id.rpartition("-")
        if kind != WORKSHOP:
            continue
        row, col = divmod(index, layout.cols)
        for dr, dc in DARK_EDGES.get(int(number), DEFAULT_DARK):
            r, c = row + dr, col + dc
            if 0 <= r < layout.rows and 0 <= c < layout.cols:
                walls.add(edge(index, r * layout.cols + c))
    return frozenset(walls)


def chasms(layout: Layout) -> frozenset[int]:
    return frozenset(i for i, t in enumerate(layout.tiles) if t.rpartition("-")[0] == CHASM)


def encloses_a_tile(layout: Layout) -> bool:
    """Whether some tile (the chasm aside) cannot be reached from the others: a tile with
    no neighbour a meeple could step to, or a pocket of tiles walled off together (two
    workshops side by side next to the chasm can shut each other in)."""
    geo = geometry(layout.rows, layout.cols, chasms(layout), mountains(layout))
    passable = [i for i in range(geo.size) if i not in geo.impassable]
    seen = {passable[0]}
    todo = [passable[0]]
    while todo:
        for nxt in geo.neighbours[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) < len(passable)


def artisans_layout(rules: Rules, rng: Rng) -> tuple[Layout, Rng]:
    setting = rules.content.setting
    rows, cols = setting("rows"), setting("cols")
    centre = centre_positions(rows, cols, setting("centre_rows"), setting("centre_cols"))
    new = [t for t in rules.tile_specs if rules.tile(t).kind in NEW_KINDS]
    base = [t for t in rules.tile_specs if rules.tile(t).kind not in NEW_KINDS]
    for _ in range(ATTEMPTS):
        shuffled, rng = rng.shuffled(base)
        inner_base = list(shuffled[: setting("centre_base_tiles")])
        inner, rng = rng.shuffled(inner_base + new)
        outer = list(shuffled[setting("centre_base_tiles") :])
        tiles: list[str] = [""] * (rows * cols)
        for position, tile in zip(centre, inner, strict=True):
            tiles[position] = tile
        rim = [i for i in range(rows * cols) if i not in set(centre)]
        for position, tile in zip(rim, outer, strict=True):
            tiles[position] = tile
        layout = Layout(rows=rows, cols=cols, tiles=tuple(tiles))
        if not encloses_a_tile(layout):
            return layout, rng
    raise RuntimeError("no layout without an enclosed tile was found")  # pragma: no cover
