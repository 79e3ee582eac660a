"""What the tests of the effects language's counts share: a house rule from a few lines,
a player changed in a state, and what a formula gives a player."""

from __future__ import annotations

from pathlib import Path

import attrs

from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.plugins.base import effects as interpreter

HEADER = '[house-rule]\nname = "r"\nversion = "1.0"\ndescription = "r"\n\n'


def rule(tmp_path: Path, body: str, expansions: tuple[str, ...] = ()) -> Rules:
    """The rules of ``expansions`` with a house rule of ``body``."""
    path = tmp_path / "rule.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    return build_rules(expansions, house_rules=[path])


def with_player(state: State, player: int, **changes: object) -> State:
    players = list(state.players)
    players[player] = attrs.evolve(players[player], **changes)
    return attrs.evolve(state, players=tuple(players))


def value(rules: Rules, state: State, formula: str, me: int = 0) -> int:
    """What ``formula`` gives player ``me``: the coins it pays them, from 0."""
    broke = with_player(state, me, coins=0)
    paid = interpreter.run(rules, broke, [EffectSpec(coins=formula)], interpreter.Scope(me, me))
    return paid.players[me].coins
