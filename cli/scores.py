"""The score table shown at the end of a game (``play``) or of a record (``replay``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from naqala.core.engine import Rules
from naqala.core.scoresheet import result_line, row_label, score_sheet
from naqala.core.state import State


def score_table(rules: Rules, state: State, seats: Sequence[str], title: str = "") -> Table:
    """Every score line per player: one row per category and source (a djinn that changed
    a category gets its own row), totals last, the winners starred (ties share)."""
    rows, points = score_sheet(rules, state)
    winners = rules.winners(state) if state.is_over else ()
    table = Table(title=title or ("Final scores" if state.is_over else "Scores so far"))
    table.add_column("")
    for player in range(len(state.players)):
        seat = seats[player] if player < len(seats) else "?"
        mark = " ★" if player in winners else ""
        table.add_column(Text(f"P{player + 1}{mark}\n{seat}"), justify="right")
    for row in rows:
        table.add_row(row_label(row), *(str(p.get(row, 0)) for p in points))
    table.add_section()
    table.add_row("total", *(str(score) for score in rules.scores(state)))
    return table


def winners_line(rules: Rules, state: State) -> str:
    """The end screen's last line: who won and why (``scoresheet.result_line``)."""
    return result_line(rules, state)
