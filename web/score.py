"""The score in sight on a seat's page during a game: each player's points as the seat may
see them (its own in full, with its coins and hidden cards; the others' public points)
and the per-line breakdown. Computed by ``core.scoresheet.visible_scores``, the one
definition of what a seat may see of a score (the terminal's ``score`` uses it too), so
nothing another seat hides reaches the page.
"""

from __future__ import annotations

from typing import Any

from naqala.core.engine import Rules
from naqala.core.scoresheet import row_label, sheet_of, visible_scores
from naqala.core.state import State
from naqala.display.svg import seat_label

__all__ = ["score_in_sight"]


def score_in_sight(rules: Rules, state: State, seat: int) -> dict[str, Any]:
    """``players``: one entry per player (``label``, ``total`` the points ``seat`` may
    see, ``full`` whether that is the whole score, ``uncounted`` what is not in it);
    ``rows``: the breakdown, a label and each player's points per row (``"?"`` where the
    seat cannot know them)."""
    seen = visible_scores(rules, state, seat)
    rows, points = sheet_of(rules, [score.lines for score in seen])
    players = []
    for score in seen:
        uncounted = [] if score.full else ["coins"]
        uncounted += [f"{count} hidden {deck}" for deck, count in score.hidden]
        players.append(
            {
                "player": score.player,
                "label": seat_label(score.player),
                "you": score.player == seat,
                "total": score.total,
                "full": score.full,
                "uncounted": uncounted,
            }
        )
    return {
        "players": players,
        # a row's points, or "?" where they follow what the seat cannot see (their coins)
        "rows": [
            [
                row_label(row),
                [
                    "?" if row[0] in score.unknown else mine.get(row, 0)
                    for score, mine in zip(seen, points, strict=True)
                ],
            ]
            for row in rows
        ],
    }
