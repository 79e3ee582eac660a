"""The two interpreters of the effects language play one game: drawn programs
(``naqala.testing.effect_programs``) on both engines, compared after every action."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naqala.core.engine import build_rules
from naqala.testing.effect_programs import as_house_rule, programs

differential = pytest.importorskip("naqala.kernel.differential")
bridge_module = pytest.importorskip("naqala.kernel.bridge")


@settings(
    max_examples=int(os.environ.get("NAQALA_PROGRAMS", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs(), st.integers(0, 2**20), st.sampled_from((2, 3, 4)))
def test_a_drawn_program_plays_the_same_game_on_both_engines(
    text: str, seed: int, players: int
) -> None:
    rules = build_rules(house_rules=[as_house_rule(text)])
    native = bridge_module.NativeRules(rules)
    assert native.kernel.unported_content() == []
    report = differential.verify_game(rules, native, players, seed)
    assert not report.differences, f"{text}\n{report.differences[:3]}"
