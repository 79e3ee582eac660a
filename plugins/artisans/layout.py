"""The Artisans board: the six new tiles and tiles drawn from the others fill the inner
area (the board without its rim: 4×4 of 6×6, 4×5 of 6×7 with the Whims tiles), the
rest lie around them; mountains on the workshops' darkened edges; the chasm impassable.
The base setup lays the board again while a tile is cut off (rulebook setup)."""

from __future__ import annotations

from naqala.core.board import edge
from naqala.core.content import ContentError
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import Layout
from naqala.plugins.base.api import board_shape, shape_problems, uses_board_shape

NEW_KINDS = ("workshop", "specialized-market", "chasm")
CHASM = "chasm"
WORKSHOP = "workshop"
#: which edges of each workshop are darkened: the first has them north and west, the
#: others south and east (UNCONFIRMED orientation; docs/rules-notes.md)
DARK_EDGES = {1: ((-1, 0), (0, -1))}
DEFAULT_DARK = ((1, 0), (0, 1))


def inner_positions(rows: int, cols: int) -> list[int]:
    """The board without its rim, row by row."""
    return [r * cols + c for r in range(1, rows - 1) for c in range(1, cols - 1)]


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


def artisans_layout(rules: Rules, rng: Rng) -> tuple[Layout, Rng]:
    """The new tiles and randomly drawn other tiles shuffled into the inner area; the
    other tiles shuffled around them."""
    rows, cols = board_shape(rules)
    inner = inner_positions(rows, cols)
    new = [t for t in rules.tile_specs if rules.tile(t).kind in NEW_KINDS]
    others = [t for t in rules.tile_specs if rules.tile(t).kind not in NEW_KINDS]
    drawn = len(inner) - len(new)
    shuffled, rng = rng.shuffled(others)
    centre, rng = rng.shuffled(list(shuffled[:drawn]) + new)
    tiles: list[str] = [""] * (rows * cols)
    for position, tile in zip(inner, centre, strict=True):
        tiles[position] = tile
    rim = [i for i in range(rows * cols) if i not in set(inner)]
    for position, tile in zip(rim, shuffled[drawn:], strict=True):
        tiles[position] = tile
    return Layout(rows=rows, cols=cols, tiles=tuple(tiles)), rng


def layout_problems(rules: Rules) -> list[str]:
    """The board has a shape, and its inner area holds the new tiles (when this plugin
    lays out the board)."""
    if not uses_board_shape(rules, "artisans"):
        return []
    problems = shape_problems(rules)
    if problems:
        return problems
    try:
        rows, cols = board_shape(rules)
    except ContentError:  # a board_<n> table that does not fit: the core says so
        return []
    inner = len(inner_positions(rows, cols))
    new = sum(1 for t in rules.tile_specs if rules.tile(t).kind in NEW_KINDS)
    others = len(rules.tile_specs) - new
    if inner < new or inner - new > others:
        return [
            f"tables.board_{rows * cols}: the inner {rows - 2}x{cols - 2} of a {rows}x{cols} "
            f"board cannot hold the {new} Artisans tiles"
        ]
    return []
