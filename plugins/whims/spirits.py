"""Dalhan, one of this box's two djinns (designed here; docs/rules-notes.md): it fetches a
whim from any city. The other, Qareen, is content (content/whims.toml)."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.content import CardSpec
from naqala.core.encoding import board_squares
from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.state import State
from naqala.plugins.base.api import Activated
from naqala.plugins.whims.cities import EMPTY, offered, take_whim


class Dalhan(Activated):
    when = "any time in your turn"
    effect = "Take the Sultan's Whim lying on any city into your hand."

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (board_squares(rules),)

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        geo = state.geometry
        return [(geo.name(tile),) for tile, card in offered(rules, state) if card != EMPTY]

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        return take_whim(rules, state, owner, state.geometry.parse(target[0]))


def djinn_powers() -> dict[str, Power]:
    return {"djinns:dalhan": Dalhan()}
