"""The naqala pytest plugin: fixtures for testing plugins and house rules.

Installing naqala registers this module with pytest (entry point ``pytest11`` named
``naqala``), so the fixtures are available in any test without a ``conftest.py``; disable
them with ``pytest -p no:naqala``. Every fixture is session-scoped, which is safe because
rules are shared read-only and states are immutable values, and which lets them be used in
hypothesis ``@given`` tests.

- ``naqala_rules``: the rules of the base game.
- ``naqala_rules_factory``: builds rules with expansions, plugin objects and house rules.
- ``naqala_game``: a new 4-player base game of seed 1.
- ``naqala_play``: ``play(state, *actions)`` with the base rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pytest

if TYPE_CHECKING:
    from naqala.core.engine import Rules
    from naqala.core.state import State

__all__ = [
    "Play",
    "RulesFactory",
    "naqala_game",
    "naqala_play",
    "naqala_rules",
    "naqala_rules_factory",
]


class RulesFactory(Protocol):
    """Builds ``Rules``: the base game, the named installed ``expansions``, plugin objects
    (modules or any objects with a ``NAME`` and hook implementations) and house-rule files,
    in the deterministic order the engine gives them."""

    def __call__(
        self,
        expansions: Sequence[str] = (),
        *,
        extra_plugins: Sequence[Any] = (),
        house_rules: Sequence[str | PathLike[str]] = (),
    ) -> Rules: ...


class Play(Protocol):
    """Applies actions written in notation to ``state``, each checked for legality."""

    def __call__(self, state: State, *actions: str) -> State: ...


def _build(
    expansions: Sequence[str] = (),
    *,
    extra_plugins: Sequence[Any] = (),
    house_rules: Sequence[str | PathLike[str]] = (),
) -> Rules:
    from naqala.core.engine import build_rules

    return build_rules(
        expansions, house_rules=[Path(p) for p in house_rules], extra_plugins=extra_plugins
    )


@pytest.fixture(scope="session")
def naqala_rules() -> Rules:
    """The rules of the base game alone (shared with ``naqala.testing.scenario.base_rules``)."""
    from naqala.testing.scenario import base_rules

    return base_rules()


@pytest.fixture(scope="session")
def naqala_rules_factory() -> RulesFactory:
    """A function building rules: ``naqala_rules_factory(["no-loops"])`` for installed
    expansions, ``naqala_rules_factory(extra_plugins=[my_module])`` for plugin objects,
    ``naqala_rules_factory(house_rules=[path])`` for house-rule files; the keywords mix.
    Raises ``naqala.core.plugins.PluginError`` for a plugin that cannot be used."""
    return _build


@pytest.fixture(scope="session")
def naqala_game(naqala_rules: Rules) -> State:
    """The initial state of a 4-player base game of seed 1 (the same every run)."""
    return naqala_rules.new_game(4, 1)


@pytest.fixture(scope="session")
def naqala_play(naqala_rules: Rules) -> Play:
    """``naqala_play(state, "bid 0", "pick c3", …)``: the scenario helper ``play`` bound
    to the base rules; raises ``naqala.core.engine.IllegalAction`` on an illegal action."""
    from naqala.testing.scenario import play

    def bound(state: State, *actions: str) -> State:
        return play(naqala_rules, state, *actions)

    return bound
