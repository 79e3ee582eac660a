"""A position's score lines as a sheet, for every table that shows them (the terminal's
and the HTML replay page's): one row per category and source, where a card that changed
a category gets a row of its own, in the order the lines first appear."""

from __future__ import annotations

from collections.abc import Callable

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


def result_line(
    rules: Rules, state: State, label: Callable[[int], str] = lambda p: f"P{p + 1}"
) -> str:
    """Who won a finished game, with how many points; when a plugin decides the winners
    otherwise than by the highest score (the solo mode), its reason too, and a game
    nobody won says so (``label`` names a player: ``P1``)."""
    verdict = rules.verdict(state)
    winners = verdict.winners
    scores = rules.scores(state)
    if not winners and len(scores) == 1:
        return f"{label(0)} loses with {scores[0]} points: {verdict.reason}."
    if not winners:
        points = ", ".join(f"{label(p)} {score}" for p, score in enumerate(scores))
        return f"Nobody wins: {verdict.reason}. Points: {points}."
    names = " and ".join(label(w) for w in winners)
    default = rules.hook.naqala_verdict(rules=rules, state=state) is None
    why = "" if default else f": {verdict.reason}"
    if len(winners) > 1:
        return f"{names} share the win with {scores[winners[0]]} points{why}."
    return f"{names} wins with {scores[winners[0]]} points{why}."
