"""State files written by naqala 0.1 (state JSON version 1, kept in tests/data/state-v1/)
still load, and what they load round-trips through the current format unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from naqala.core.serialize import state_from_json, state_to_json

V1 = sorted((Path(__file__).parent / "data" / "state-v1").glob("*.json"))


def test_the_version_1_fixtures_are_there() -> None:
    assert len(V1) >= 7
    for path in V1:
        assert json.loads(path.read_text(encoding="utf-8"))["version"] == 1


@pytest.mark.parametrize("path", V1, ids=lambda p: p.stem)
def test_a_version_1_state_loads_and_round_trips(path: Path) -> None:
    rules, state = state_from_json(path.read_text(encoding="utf-8"))
    again = state_from_json(state_to_json(rules, state))[1]
    assert again == state
    assert state.is_over or rules.legal_actions(state)
