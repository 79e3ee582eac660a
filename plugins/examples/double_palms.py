"""House rule: the oasis action plants two palm trees instead of one (while the bank
has them).

It replaces the base game's ``tile:oasis`` stage, so it says so in ``REPLACES``. Placing
a token is not yet an effect of the effects language (docs/effects.md), so this rule is
code: the example of a house rule that keeps its games on the Python engine, said in one
line when a command starts.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.plugins.base.api import PlaceToken, current, place_token

NAME = "double-palms"
VERSION = "1.0"
DESCRIPTION = "The oasis action plants two palm trees (tile action, code)"
REPLACES = ("tile:oasis",)


class DoublePalms(PlaceToken):
    """Plant one palm tree from the bank first, then do the usual oasis action."""

    def enter(self, rules: Rules, state: State) -> State:
        assert state.turn is not None
        state = place_token(rules, state, current(state), "palm-tree", state.turn.here)
        return super().enter(rules, state)


@hookimpl
def naqala_tile_actions() -> dict[str, Stage]:
    return {"oasis": DoublePalms("palm-tree")}
