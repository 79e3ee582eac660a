"""Counting the search's work, so a budget of work is the same on every machine.

The search's cost is almost all in the rules: actions applied (each one a new position
whose options are worked out) and score sheets read. ``Meter`` stands in for the rules
during one search and counts those calls (``work``); everything else goes straight to the
rules. A work budget spent by this count makes the search stop at the same point in any
process, however busy the machine, unlike a budget of seconds.
"""

from __future__ import annotations

from typing import Any, cast

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import State


class Meter:
    """The rules, counting one unit of ``work`` per action applied and per score sheet
    read (``scores`` reads one a player); ``rules`` is this object typed as ``Rules``,
    for code that takes the rules."""

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self.work = 0

    @property
    def rules(self) -> Rules:
        return cast(Rules, self)

    def apply(self, state: State, action: Action) -> State:
        self.work += 1
        return self._rules.apply(state, action)

    def apply_on_view(self, state: State, action: Action) -> State:
        self.work += 1
        return self._rules.apply_on_view(state, action)

    def score_lines(self, state: State, player: int) -> tuple[ScoreLine, ...]:
        self.work += 1
        return self._rules.score_lines(state, player)

    def scores(self, state: State) -> tuple[int, ...]:
        self.work += len(state.players)
        return self._rules.scores(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)
