"""The Great Lake: impassable, never holds meeples, no VP; palm trees and palaces on tiles
next to it score their value once more (double). Whether diagonal neighbours count is the
content setting ``lake_diagonals`` (1: the 8 tiles around; docs/rules-notes.md)."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import Layout, State

LAKE = "great-lake"
SOURCE = "great-lake"


def lakes(rules: Rules, layout: Layout) -> frozenset[int]:
    return frozenset(i for i, t in enumerate(layout.tiles) if rules.tile(t).kind == LAKE)


def lakeside_tiles(rules: Rules, layout: Layout) -> frozenset[int]:
    """Tiles next to a Great Lake (not lakes themselves)."""
    geo = layout.geometry
    around = geo.area if rules.content.setting("lake_diagonals") else geo.orthogonal
    water = lakes(rules, layout)
    return frozenset(t for lake in water for t in around[lake] if t not in water)


def lake_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """One more time the printed value of each scoring token (palm tree, palace) on the
    player's tiles next to the lake, in that token's category."""
    near = [t for t in lakeside_tiles(rules, state.layout) if state.board.owners[t] == player]
    lines = []
    for index, token in enumerate(rules.tokens):
        count = sum(state.board.tokens[t][index] for t in near)
        if token.vp and count:
            lines.append(
                ScoreLine(f"{token.id}s", count * token.vp, SOURCE, f"{count} by the Great Lake")
            )
    return lines
