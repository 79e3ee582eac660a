"""A plugin's code plays one game on both engines: drawn hook plugins
(``naqala.testing.hook_programs``), the Python engine against the native engine calling
the same hooks back, compared after every action."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naqala.core.engine import build_rules
from naqala.testing.hook_programs import HookProgram, hook_programs, tables

differential = pytest.importorskip("naqala.native.differential")
support = pytest.importorskip("naqala.native.support")


@settings(
    max_examples=int(os.environ.get("NAQALA_HOOK_PROGRAMS", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hook_programs(), tables(), st.integers(0, 2**20))
def test_a_drawn_hook_plugin_plays_the_same_game_on_both_engines(
    program: HookProgram, table: tuple[tuple[str, ...], int], seed: int
) -> None:
    boxes, players = table
    rules = build_rules(boxes, extra_plugins=[program])
    assert support.native_obstacle(rules) is None  # every hook is called back
    report = differential.verify_game(rules, support.native_rules(rules), players, seed)
    assert not report.differences, f"{program}\n{report.differences[:3]}"
