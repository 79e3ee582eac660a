"""An AI player from a plugin: ``coiny`` takes the last option while it holds fewer than
10 coins, the first one otherwise.

A player changes no rule, so its games can stay native: the kernel asks a Python seat at
its own decisions with a read-only view of the state and the options, and plays every
other seat natively (``NativeState.play``'s ``agents``; docs/hooks.md, "Hooks called
back").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from naqala.core.actions import Action
from naqala.core.agents import AgentFactory, without_setting
from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "coiny"
VERSION = "1.0"
DESCRIPTION = "An AI player: last option while poor, first once rich"
RICH = 10


class Coiny:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, rules: Rules, state: State, options: Sequence[Action]) -> Action:
        coins = state.players[state.decision.player].coins
        return options[-1] if coins < RICH else options[0]


@hookimpl
def naqala_agents() -> Mapping[str, AgentFactory]:
    return {"coiny": without_setting(Coiny, "coiny player")}
