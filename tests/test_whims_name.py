"""The Whims box is named ``whims``; ``djinns``, its name until 0.2, is an alias wherever a
name is read (``-x``, records, states, the lobby, studies) and stays the id that states and
records store (docs/formats.md, "Plugin names"), so the files saved before load, old
releases read the ones saved now, and every seeded game is the game it was: the content
merges by id, not by name (tests/data/saves-0.2 holds files written before the rename)."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.engine import Rules, build_rules, content_order
from naqala.core.plugins import describe, installed_names, stored_name
from naqala.core.record import load_record, plugin_refs, record_from_data, replay, rules_for_record
from naqala.core.serialize import state_from_data, state_from_json, state_to_json
from naqala.lab.study import Ruleset

SAVES = Path(__file__).parent / "data" / "saves-0.2"
RECORDS = sorted(SAVES.glob("*-finished.json"))
STATES = sorted(SAVES.glob("*-mid.json"))
runner = CliRunner()


def test_the_box_is_named_whims_and_stored_as_djinns() -> None:
    for asked in ("whims", "djinns"):
        rules = build_rules([asked])
        assert rules.names == ("base", "whims")
        assert rules.ruleset == ("base", "djinns")
    assert installed_names()["djinns"] == "whims"
    assert stored_name("whims") == stored_name("djinns") == "djinns"


def test_the_content_merges_by_id_so_a_renamed_plugin_keeps_its_place() -> None:
    """Ties in the content order go by id: a plugin renamed from ``aardvark`` to ``zebra``
    (keeping ``ID = "aardvark"``) still merges before ``moose``, and the Whims box
    (``djinns``) still merges before ``no-loops`` and ``thieves``."""
    renamed = types.SimpleNamespace(NAME="zebra", ID="aardvark", VERSION="1")
    other = types.SimpleNamespace(NAME="moose", VERSION="1")
    infos = [describe(other, source="object"), describe(renamed, source="object")]
    assert [info.name for info in content_order(infos)] == ["zebra", "moose"]
    rules = build_rules(["thieves", "no-loops", "whims"])
    assert [info.name for info in content_order(rules.plugins)] == [
        "base",
        "whims",
        "no-loops",
        "thieves",
    ]


def play(tmp_path: Path, box: str) -> tuple[str, str]:
    path = tmp_path / f"{box}.json"
    seats = "ai:random,ai:random,ai:random"
    args = ["play", "-x", "artisans", "-x", box, "--seats", seats, "--seed", "9"]
    result = runner.invoke(app, [*args, "--save", str(path)])
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    shown = " ".join(result.stdout.split()).replace(str(path), "FILE")
    return shown, path.read_text(encoding="utf-8")


def test_x_djinns_and_x_whims_play_the_same_game(tmp_path: Path) -> None:
    """The same seed with either name: the same game, the same output and the same
    record, which names the box ``djinns`` as every release reads it."""
    assert play(tmp_path, "djinns") == play(tmp_path, "whims")
    assert "plugins base, artisans, whims" in play(tmp_path, "djinns")[0]
    record = load_record(tmp_path / "whims.json")
    assert [ref.name for ref in record.plugins] == ["base", "artisans", "djinns"]


def test_the_saves_written_before_the_rename_are_there() -> None:
    assert len(RECORDS) == 2 and len(STATES) == 2
    for path in (*RECORDS, *STATES):
        assert '"djinns"' in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_0_2_record_naming_djinns_replays_to_its_final_scores(path: Path) -> None:
    record = load_record(path)
    rules = rules_for_record(record)
    states = replay(record, rules)
    assert states[-1].is_over and rules.scores(states[-1]) == record.final_scores
    assert plugin_refs(rules) == record.plugins
    verified = runner.invoke(app, ["replay", str(path), "--verify"])
    assert verified.exit_code == 0, verified.stderr


def as_saved_today(rules: Rules, text: str) -> str:
    """A 0.2 state file's text as today's release writes it: the same JSON, but for the
    turn's ``claimed: []``, which 0.2 wrote for every game and which only the Artisans
    declare now (docs/formats.md, ``turn``)."""
    if "artisans" in rules.names:
        return text
    return text.replace(',\n    "claimed": []', "")


@pytest.mark.parametrize("path", STATES, ids=lambda p: p.stem)
def test_a_0_2_state_naming_djinns_loads_and_saves_the_same_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rules, state = state_from_json(text)
    assert rules.names[:2] == ("base", "artisans") or "whims" in rules.names
    saved = state_to_json(rules, state)
    assert saved == as_saved_today(rules, text)
    assert state_from_json(saved)[1] == state


def renamed(data: Any) -> Any:
    """A document with the box spelt ``whims`` (as a person, or a later release, might)."""
    return json.loads(json.dumps(data).replace('"djinns"', '"whims"'))


def test_a_record_naming_whims_replays_and_is_saved_naming_djinns() -> None:
    data = json.loads(RECORDS[0].read_text(encoding="utf-8"))
    record = record_from_data(renamed(data))
    assert "whims" in [ref.name for ref in record.plugins]
    rules = rules_for_record(record)
    assert rules.scores(replay(record, rules)[-1]) == record.final_scores
    assert plugin_refs(rules) == load_record(RECORDS[0]).plugins


def test_a_state_naming_whims_loads_as_the_state_naming_djinns() -> None:
    text = (SAVES / "djinns-mid.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["ruleset"][-1] == "djinns"
    changed = dict(data, ruleset=[*data["ruleset"][:-1], "whims"])
    rules, state = state_from_data(changed)
    assert state.ruleset == tuple(data["ruleset"])
    assert state_to_json(rules, state) == as_saved_today(rules, text)


def test_the_lobby_offers_whims_and_accepts_djinns(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from naqala.web.store import Store, expansions_offered

    assert "whims" in expansions_offered() and "djinns" not in expansions_offered()
    store = Store(tmp_path / "games", [], 5)
    games = [store.create(["human", "ai:random"], [box], [], 5) for box in ("djinns", "whims")]
    first, second = (state_to_json(game.rules, game.state) for game in games)
    assert first == second
    assert games[0].record.plugins == games[1].record.plugins
    assert [ref.name for ref in games[0].record.plugins] == ["base", "djinns"]


def test_a_study_of_either_name_is_one_study() -> None:
    """``naqala tune`` resumes a study by its plan's digest: ``-x whims`` resumes one
    started with ``-x djinns``."""
    assert Ruleset.of(["whims"], []).identity() == Ruleset.of(["djinns"], []).identity()
