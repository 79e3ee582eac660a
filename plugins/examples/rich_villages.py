"""House rule: the village action also pays 2 coins, besides its palace — as code.

The shipped ``rich-villages`` says this in content (``plugins/house/rich_villages.toml``,
a ``[[tile_action]]``); this file says it as a Python tile-action hook, the way a rule
the effects language cannot decide alone would be written: ``naqala_tile_effects``
looks at the state (here: only the tile kind and the moment) and answers with effects
of the effects language rather than a new ``State``. The Python engine runs them
(``naqala.plugins.base.effects``), and the native engine calls the hook back with a
read-only view and runs them itself (docs/hooks.md, "Hooks called back"), so the same
file keeps the game native.
"""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "rich-villages-code"
VERSION = "1.0"
DESCRIPTION = "The village action also pays 2 coins (tile action, code called back natively)"
#: what the village pays before its own action
PAY = (EffectSpec(coins=2),)


@hookimpl
def naqala_tile_effects(rules: Rules, state: State, kind: str, at: str) -> Iterable[EffectSpec]:
    if kind == "village" and at == "before":
        return PAY
    return ()
