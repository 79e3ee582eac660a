"""Old saves play on: every save of every release under tests/data (states and records of
each version) loads, and every option its position offers can be applied, on the Python
engine and, where the kernel can play those rules, natively with the same state JSON after
each option (the fixtures' options walked one step deep).

A state of naqala 0.1 (version 1) kept no ``callers``: one waiting for the item to keep
(state-v1/both-revealed.json) offered ``keep jewelry`` and ``keep treasure``, and applying
either failed on both engines, for the step had no stage to hand back to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from naqala.core.engine import Rules
from naqala.core.record import load_record, replay, rules_for_record
from naqala.core.serialize import state_from_json, state_to_data
from naqala.core.state import State
from naqala.native.support import native_obstacle, native_rules

DATA = Path(__file__).parent / "data"
#: every save of a release: states and records of each version
SAVES = sorted(
    path
    for folder in ("state-v1", "record-v1", "saves-0.1", "saves-0.2")
    for path in (DATA / folder).glob("*.json")
)
#: house-rule files the records name (matched by sha256)
HOUSE_RULES = sorted(DATA.glob("record-v1/*.py"))


def position(path: Path) -> tuple[Rules, State]:
    """The save's rules and position: a state file's state, a record's last state."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data["format"] == "naqala-state":
        return state_from_json(path.read_text(encoding="utf-8"))
    record = load_record(path)
    rules = rules_for_record(record, HOUSE_RULES, pool=True)  # those the record names
    states = replay(record, rules)
    assert len(states) == len(record.actions) + 1
    return rules, states[-1]


def test_there_are_saves_of_every_kind() -> None:
    kinds = {json.loads(p.read_text(encoding="utf-8"))["format"] for p in SAVES}
    assert kinds == {"naqala-state", "naqala-record"} and len(SAVES) >= 20


@pytest.mark.parametrize("path", SAVES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_option_of_every_save_applies_on_both_engines(path: Path) -> None:
    rules, state = position(path)
    options = rules.legal_actions(state)
    assert state.is_over or options, "a position that is not over offers options"
    after: dict[str, dict[str, Any]] = {}
    for action in options:
        applied = rules.apply(state, action)
        after[str(action)] = state_to_data(rules, applied)
    if native_obstacle(rules) is not None:
        return  # the kernel does not play these rules (an older edition, a house rule)
    bridge = native_rules(rules)
    native = bridge.to_native(state)
    assert native.legal_actions() == [str(a) for a in options]
    for notation, expected in after.items():
        assert bridge.data(native.apply(notation)) == expected, notation


def test_an_item_to_keep_of_a_0_1_state_goes_back_to_the_artisans() -> None:
    """The issue's save: either item is kept, the other discarded, and the turn goes on
    as the Artisans' tribe action had finished (the caller naqala 0.1 did not save)."""
    rules, state = state_from_json((DATA / "state-v1" / "both-revealed.json").read_text())
    assert state.decision.stage == "keep-item" and state.turn is not None
    assert state.turn.callers == ("tribe:purple",)
    assert [str(a) for a in rules.legal_actions(state)] == ["keep jewelry", "keep treasure"]
    for kept, other in (("jewelry", "treasure"), ("treasure", "jewelry")):
        applied = rules.apply(state, rules.legal_actions(state)[kept == "treasure"])
        player = applied.players[3]
        assert kept in player.hand(rules.deck_index["items"])
        assert applied.decks[rules.deck_index["items"]].discard[-1] == other
        assert applied.turn is not None and applied.turn.callers == ()
        assert applied.decision.stage != "keep-item"
