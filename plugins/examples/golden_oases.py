"""House rule: palm trees are worth half again — a score adjustment, as code.

``naqala_adjust_score_lines`` reads a player's score lines once they are all known and
adds a line of its own: here half the points of the ``palm-trees`` line, rounded down.
The native engine calls it back with a read-only view and the lines it writes itself
(their words left out), so the same file plays on both engines (docs/hooks.md, "Hooks
called back").
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "golden-oases"
VERSION = "1.0"
DESCRIPTION = "Palm trees score half again (score adjustment, code called back natively)"
CATEGORY = "palm-trees"


@hookimpl
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    palms = sum(line.points for line in lines if line.category == CATEGORY)
    return [ScoreLine(CATEGORY, palms // 2, NAME, "half again")] if palms >= 2 else []
