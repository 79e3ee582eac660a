"""House rule: the game ends after the fourth round, whatever else happens.

A code hook the native engine calls back (docs/hooks.md, "Hooks called back"): at the
end of each round the kernel asks ``naqala_game_ends`` with a read-only view of the
state, which reads the round as a ``State`` does, so the same file plays on both engines
and the games stay native. (The content setting ``end.after_round`` says the same in
data; this is the example of saying it in code.)
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "round-cap"
VERSION = "1.0"
DESCRIPTION = "The game ends after round 4 (game end, code called back natively)"
#: the last round played
LAST_ROUND = 4


@hookimpl
def naqala_game_ends(rules: Rules, state: State) -> bool:
    return state.round >= LAST_ROUND
