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


def test_version_1_hands_and_the_item_mark_are_upgraded() -> None:
    """``cards``/``djinns``/``held`` become one hand per deck (items and whims apart), and
    the turn's item mark ``item`` becomes the items deck's own mark."""
    v1 = {p.stem: p for p in V1}
    text = v1["both"].read_text(encoding="utf-8")
    old = json.loads(text)
    rules, state = state_from_json(text)
    for seat, p in enumerate(old["players"]):
        now = state.players[seat]
        assert now.cards == tuple(p["cards"]) and now.djinns == tuple(p["djinns"])
        items = now.hand(rules.deck_index["items"])
        whims = now.hand(rules.deck_index["whims"])
        assert sorted((*items, *whims)) == p["held"]
        assert all(rules.card_specs[c].deck == "items" for c in items)
    used = state_from_json(v1["both-used"].read_text(encoding="utf-8"))[1]
    assert used.turn is not None and "items" in used.turn.used and "item" not in used.turn.used
    doc = json.loads(state_to_json(rules, state))
    assert doc["version"] == 2 and "hands" in doc["players"][0] and "held" not in doc["players"][0]
