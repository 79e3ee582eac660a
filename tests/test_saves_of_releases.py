"""Saves of every release keep loading: games saved by naqala 0.1 with the Artisans
(tests/data/saves-0.1, written with the 0.1 code, see its README) load and replay with
the plugin at the version they were played with, which keeps that version's items
(content/artisans-items-0.1.0.toml) and their powers (plugins/artisans/edition_0_1.py).
With today's items a 0.1 state broke the conservation check (``3 copies of
'tempest-talisman' in the game; the rules have 1``) and a record was refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.record import load_record, replay, rules_for_record
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json

SAVES = Path(__file__).parent / "data" / "saves-0.1"
RECORDS = sorted(SAVES.glob("*-finished.json"))
STATES = sorted(p for p in SAVES.glob("*.json") if p not in RECORDS)


def test_the_fixtures_are_there() -> None:
    assert len(RECORDS) == 2 and len(STATES) == 4
    for path in STATES:
        assert json.loads(path.read_text(encoding="utf-8"))["version"] == 1


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_0_1_record_replays_to_its_final_scores(path: Path) -> None:
    record = load_record(path)
    rules = rules_for_record(record)
    versions = {p.name: p.version for p in rules.plugins}
    assert versions["artisans"] == "0.1.0"
    items = {c.id: c.count for c in rules.content.cards if c.deck == "items"}
    assert items["tempest-talisman"] == 3 and "flying-carpet" not in items
    states = replay(record, rules)
    assert states[-1].is_over and rules.scores(states[-1]) == record.final_scores


@pytest.mark.parametrize("path", STATES, ids=lambda p: p.stem)
def test_a_0_1_state_loads_and_saves_the_version_it_needs(path: Path) -> None:
    """Read with the Artisans 0.1.0, a state is written back naming that version
    (``versions``), so it loads again with the same items; the game goes on."""
    rules, state = state_from_json(path.read_text(encoding="utf-8"))
    assert {p.name: p.version for p in rules.plugins}["artisans"] == "0.1.0"
    text = state_to_json(rules, state)
    assert json.loads(text)["versions"] == {"artisans": "0.1.0"}
    again_rules, again = state_from_json(text)
    assert again == state and again_rules.plugins == rules.plugins
    assert state.is_over or rules.legal_actions(state)


def test_a_0_1_state_does_not_fit_todays_items() -> None:
    """The reason for the kept version: today's Artisans refuse the 0.1 items."""
    text = (SAVES / "artisans-mid.json").read_text(encoding="utf-8")
    with pytest.raises(StateFormatError, match=r"copies of '.*' in the game; the rules have"):
        state_from_json(text, build_rules(["artisans"]))


def test_todays_states_name_no_version() -> None:
    """Only a plugin played at an older version is named: today's states are unchanged."""
    rules = build_rules(["artisans"])
    assert "versions" not in json.loads(state_to_json(rules, rules.new_game(3, 1)))


def test_replay_verify_of_a_0_1_record_on_the_command_line() -> None:
    got = CliRunner().invoke(app, ["replay", str(RECORDS[0]), "--verify"])
    assert got.exit_code == 0, got.stderr
