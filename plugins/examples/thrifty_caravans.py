"""House rule: every camel left in a player's supply at the end is worth 2 points.

A code hook the native engine calls back (docs/hooks.md, "Hooks called back"): whenever
a score is asked for, the kernel asks ``naqala_score_lines`` with a read-only view of the
state, which reads a player's camels as a ``State`` does, and adds the lines' points to
the score it computes natively; the same file plays on both engines.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "thrifty-caravans"
VERSION = "1.0"
DESCRIPTION = "Each camel left is worth 2 points (score lines, code)"
POINTS = 2


@hookimpl
def naqala_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    camels = state.players[player].camels
    return [ScoreLine("camels", POINTS * camels, NAME, f"{camels} camels left")] if camels else []
