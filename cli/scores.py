"""The score tables: at the end of a game (``play``) or of a record (``replay``), and the
score now as one seat may see it (``score`` at the prompt of ``play``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from naqala.core.engine import Rules
from naqala.core.scoresheet import (
    Row,
    SeenScore,
    result_line,
    row_label,
    score_sheet,
    sheet_of,
    visible_scores,
)
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


def seen_score_table(rules: Rules, state: State, viewer: int, seats: Sequence[str]) -> Table:
    """The score now as ``viewer`` may see it (``score`` at the prompt): every line of
    their own score, the other players' public points, and what is not counted."""
    seen = visible_scores(rules, state, viewer)
    rows, points = sheet_of(rules, [score.lines for score in seen])
    table = Table(title=f"Scores now, as P{viewer + 1} sees them")
    table.add_column("")
    for score in seen:
        seat = seats[score.player] if score.player < len(seats) else "?"
        you = " (you)" if score.full else ""
        table.add_column(Text(f"P{score.player + 1}{you}\n{seat}"), justify="right")
    for row in rows:
        table.add_row(
            row_label(row),
            *(_cell(score, mine, row) for score, mine in zip(seen, points, strict=True)),
        )
    table.add_section()
    table.add_row("total", *(str(s.total) if s.full else f"{s.total}+?" for s in seen))
    notes = [_hidden_note(score) for score in seen if not score.full]
    table.caption = " ".join(notes) if notes else None
    return table


def _cell(score: SeenScore, points: dict[Row, int], row: Row) -> str:
    """A player's points in a row, or ``?`` where they follow what the viewer cannot see."""
    return "?" if row[0] in score.unknown else str(points.get(row, 0))


def _hidden_note(score: SeenScore) -> str:
    """``P2: coins and face-down cards (resources 3) not counted.``"""
    cards = ", ".join(f"{deck} {n}" for deck, n in score.hidden)
    face_down = f" and face-down cards ({cards})" if cards else ""
    return f"P{score.player + 1}: coins{face_down} not counted."
