"""The Great Lake: impassable, never holds meeples, no VP; palm trees and palaces on tiles
next to it score double, whatever they are worth to their owner (Haurvatat included).
Whether diagonal neighbours count is the content setting ``lake_diagonals`` (1: the 8
tiles around; docs/rules-notes.md)."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import Layout, State
from naqala.plugins.base.api import card_score_lines

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


def lake_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    """The lake doubles the palm trees and palaces on the player's tiles next to it: each
    scores its worth once more, in its own category. Its worth is what that kind of token
    scores the player (its category's lines, the djinns' included, over the tokens
    counted), so with Haurvatat a palm tree by the lake is worth 5 × 2 = 10."""
    near = [t for t in lakeside_tiles(rules, state.layout) if state.board.owners[t] == player]
    if not near:
        return []
    owned = [t for t in range(len(state.board.owners)) if state.board.owners[t] == player]
    everything = (*lines, *card_score_lines(rules, state, player, lines))
    found = []
    for index, token in enumerate(rules.tokens):
        count = sum(state.board.tokens[t][index] for t in near)
        if not token.vp or not count:
            continue
        category = f"{token.id}s"
        total = sum(state.board.tokens[t][index] for t in owned)
        worth = sum(line.points for line in everything if line.category == category) // total
        found.append(ScoreLine(category, count * worth, SOURCE, f"{count} by the Great Lake"))
    return found
