"""A position's score lines as a sheet, for every table that shows them (the terminal's
and the HTML replay page's): one row per category and source, where a card that changed
a category gets a row of its own, in the order the lines first appear."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.state import State

#: a row of the sheet: the category and the card that scored in it ("" for the rules)
Row = tuple[str, str]


def score_sheet(rules: Rules, state: State) -> tuple[list[Row], list[dict[Row, int]]]:
    """The rows, and each player's points per row (a row a player did not score is absent)."""
    rows: list[Row] = []
    points: list[dict[Row, int]] = []
    for player in range(len(state.players)):
        mine: dict[Row, int] = {}
        for line in rules.score_lines(state, player):
            source = "" if line.source in rules.ruleset else line.source
            key = (line.category, source)
            mine[key] = mine.get(key, 0) + line.points
            if key not in rows:
                rows.append(key)
        points.append(mine)
    return rows, points


def row_label(row: Row) -> str:
    """``palaces`` or ``viziers (jafaar)``."""
    category, source = row
    return f"{category} ({source})" if source else category
