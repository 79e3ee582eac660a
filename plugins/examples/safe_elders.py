"""House rule: the viziers and elders in front of a player holding at most 10 coins are
safe from the assassins.

A code hook the native engine calls back (docs/hooks.md, "Hooks called back"): when the
assassins choose a target, the kernel asks ``naqala_protected_meeples`` for each
opponent with a read-only view of the state, which reads a player's coins as a ``State``
does, so the same file plays on both engines and the games stay native.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "safe-elders"
VERSION = "1.0"
DESCRIPTION = "A poor player's viziers and elders are safe (protected meeples, code)"
#: the most coins a player may hold and keep their viziers and elders safe
POOR = 10
SAFE = ("yellow", "white")


@hookimpl
def naqala_protected_meeples(rules: Rules, state: State, player: int) -> tuple[str, ...]:
    return SAFE if state.players[player].coins <= POOR else ()
