"""Game records: the JSON format and its error paths, atomic saving, rebuilding the rules
(with version and house-rule hash checks), replaying, and ``naqala replay``."""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import typer
from typer.testing import CliRunner, Result

from naqala.cli.replay import register
from naqala.core import record as record_module
from naqala.core.actions import Action, NotationError, parse_action
from naqala.core.engine import Rules, build_rules
from naqala.core.record import (
    GameRecord,
    PluginRef,
    RecordError,
    engine_version,
    load_record,
    new_record,
    record_from_json,
    record_to_json,
    replay,
    rules_for_record,
    save_record,
    with_action,
    with_final_scores,
    without_last,
)
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.testing.scenario import base_rules

HOUSE_RULE = '''"""Everyone gets 7 bonus points."""
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl

NAME = "lucky-seven"
VERSION = "1.0"


@hookimpl
def naqala_score_lines(rules, state, player):
    return [ScoreLine("bonus", 7, "lucky-seven", "everyone gets 7")]
'''


def played(
    rules: Rules, players: int, seed: int, seats: list[str] | None = None
) -> tuple[GameRecord, list[State], State]:
    """A complete random game: its record (with final scores), the state before each
    action, and the final state."""
    before: list[State] = []
    actions: list[Action] = []

    def collect(state: State, action: Action) -> None:
        before.append(state)
        actions.append(action)

    final, count = play_game(rules, players, seed, on_action=collect)
    assert count == len(actions)
    record = new_record(rules, seed, players, seats or ["ai:random"] * players)
    for action in actions:
        record = with_action(record, action)
    return with_final_scores(record, rules.scores(final)), before, final


@functools.cache
def base_game() -> tuple[GameRecord, State]:
    record, _, final = played(base_rules(), 3, 11, ["human", "ai:random", "ai:greedy"])
    return record, final


def document() -> dict[str, Any]:
    return json.loads(record_to_json(base_game()[0]))  # type: ignore[no-any-return]


# -- the format -------------------------------------------------------------------------------


def test_a_new_record_names_the_game_and_its_plugins() -> None:
    """A new record has the seed, players, seats, the plugins in registration order with
    their versions, the naqala version, no actions and no final scores."""
    record = new_record(base_rules(), 5, 2, ["human", "ai:random"])
    assert record == GameRecord(
        seed=5,
        players=2,
        seats=("human", "ai:random"),
        plugins=(PluginRef("base", "0.1.0", "entry-point", "", None),),
        actions=(),
        engine=engine_version(),
        final_scores=None,
    )
    assert engine_version() == "0.1.0"
    with pytest.raises(ValueError, match="2 players need 2 seats"):
        new_record(base_rules(), 5, 2, ["human"])


def test_the_document_has_every_field_in_order() -> None:
    record, final = base_game()
    data = document()
    assert list(data) == [
        "format",
        "version",
        "engine",
        "seed",
        "players",
        "seats",
        "plugins",
        "without",
        "actions",
        "final_scores",
    ]
    assert data["format"] == "naqala-record"
    assert data["version"] == 2
    assert data["without"] == []
    assert data["engine"] == "0.1.0"
    assert (data["seed"], data["players"]) == (11, 3)
    assert data["seats"] == ["human", "ai:random", "ai:greedy"]
    assert data["plugins"] == [
        {"name": "base", "version": "0.1.0", "source": "entry-point", "sha256": ""}
    ]
    assert data["actions"] == list(record.actions)
    assert data["final_scores"] == list(base_rules().scores(final))


def test_records_round_trip_exactly() -> None:
    """Reading a record's JSON gives the same record; writing it again the same text."""
    record, _ = base_game()
    text = record_to_json(record)
    assert text.endswith("\n")
    again = record_from_json(text)
    assert again == record
    assert record_to_json(again) == text
    unfinished = without_last(record, 10)
    assert record_from_json(record_to_json(unfinished)) == unfinished
    empty = new_record(base_rules(), 2**64 - 1, 4, ["human"] * 4)
    assert record_from_json(record_to_json(empty)) == empty


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    record, _ = base_game()
    path = tmp_path / "game.json"
    save_record(path, record)
    assert load_record(path) == record
    assert path.read_text(encoding="utf-8") == record_to_json(record)
    assert os.listdir(tmp_path) == ["game.json"]


def test_with_action_writes_canonical_notation_and_clears_final_scores() -> None:
    record = with_final_scores(new_record(base_rules(), 1, 2, ["a", "b"]), [3, 4])
    record = with_action(record, "  bid   12 ")
    assert record.actions == ("bid 12",)
    assert record.final_scores is None
    record = with_action(record, parse_action("drop c3 W"))
    assert record.actions == ("bid 12", "drop c3 W")
    with pytest.raises(NotationError):
        with_action(record, "bid !!")
    with pytest.raises(ValueError, match="2 players need 2 scores"):
        with_final_scores(record, [1])


def test_without_last_takes_back_actions() -> None:
    record, _ = base_game()
    shorter = without_last(record, 3)
    assert shorter.actions == record.actions[:-3]
    assert shorter.final_scores is None
    assert without_last(record, 0) is record
    assert without_last(record, len(record.actions)).actions == ()
    for bad in (-1, len(record.actions) + 1):
        with pytest.raises(ValueError, match="cannot take back"):
            without_last(record, bad)


def _set(path: list[str | int], value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(data: dict[str, Any]) -> Any:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], Any]:
    def change(data: dict[str, Any]) -> Any:
        del data[key]
        return data

    return change


def _house_plugin(**changes: Any) -> Callable[[dict[str, Any]], Any]:
    def change(data: dict[str, Any]) -> Any:
        entry: dict[str, Any] = {
            "name": "mine",
            "version": "1",
            "source": "house-rule",
            "sha256": "ab" * 32,
            "path": "/x/mine.py",
        }
        entry.update(changes)
        data["plugins"].append({k: v for k, v in entry.items() if v is not ...})
        return data

    return change


BAD_DOCUMENTS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("top level", lambda d: [d], "$: expected an object"),
    ("no format", _drop("format"), "$.format: required field missing"),
    ("a state", _set(["format"], "naqala-state"), "$.format: expected 'naqala-record', not"),
    ("format type", _set(["format"], 1), "$.format: expected 'naqala-record', not 1"),
    ("version", _set(["version"], 3), "$.version: this naqala reads versions 1 and 2, not 3"),
    ("no version", _drop("version"), "$.version: required field missing"),
    ("version type", _set(["version"], "1"), "$.version: expected an integer, got a string"),
    ("engine", _set(["engine"], None), "$.engine: expected a string, got null"),
    ("no seed", _drop("seed"), "$.seed: required field missing"),
    ("seed type", _set(["seed"], 1.5), "$.seed: expected an integer, got a number"),
    ("seed bool", _set(["seed"], True), "$.seed: expected an integer, got a boolean"),
    ("players", _set(["players"], 0), "$.players: expected at least one player"),
    ("seats type", _set(["seats"], "human"), "$.seats: expected an array, got a string"),
    ("seat type", _set(["seats", 1], 7), "$.seats[1]: expected a string, got an integer"),
    ("seat count", _set(["seats"], ["human"]), "$.seats: expected one seat per player (3)"),
    ("plugins type", _set(["plugins"], {}), "$.plugins: expected an array, got an object"),
    ("plugin type", _set(["plugins", 0], "base"), "$.plugins[0]: expected an object, got a"),
    ("plugin name", _set(["plugins", 0, "name"], ""), "$.plugins[0].name: a plugin name"),
    ("plugin version", _set(["plugins", 0, "version"], 1), "$.plugins[0].version: expected a"),
    ("plugin source", _set(["plugins", 0, "source"], "pip"), "$.plugins[0].source: expected"),
    ("plugin sha", _set(["plugins", 0, "sha256"], None), "$.plugins[0].sha256: expected a"),
    ("plugin path", _set(["plugins", 0, "path"], 3), "$.plugins[0].path: expected a string"),
    ("no plugin key", _set(["plugins", 0], {"name": "base"}), "$.plugins[0].version: required"),
    ("twice", lambda d: d | {"plugins": d["plugins"] * 2}, "$.plugins[1].name: plugin 'base'"),
    ("house sha", _house_plugin(sha256="abc"), "$.plugins[1].sha256: a house rule needs"),
    ("house path", _house_plugin(path=...), "$.plugins[1].path: a house rule needs the name"),
    ("house path null", _house_plugin(path=None), "$.plugins[1].path: a house rule needs"),
    ("actions type", _set(["actions"], "bid 1"), "$.actions: expected an array, got a"),
    ("action type", _set(["actions", 4], ["pick", "c3"]), "$.actions[4]: expected a string"),
    ("action text", _set(["actions", 2], "bid $$"), "$.actions[2]: 'bid $$' is not an action"),
    ("empty action", _set(["actions", 0], "  "), "$.actions[0]: '  ' is not an action: empty"),
    ("no scores", _drop("final_scores"), "$.final_scores: required field missing"),
    ("scores type", _set(["final_scores"], 12), "$.final_scores: expected an array, got an"),
    ("score type", _set(["final_scores", 1], "12"), "$.final_scores[1]: expected an integer"),
    ("score count", _set(["final_scores"], [1, 2]), "$.final_scores: expected one score per"),
    ("no without", _drop("without"), "$.without: required field missing"),
    ("without type", _set(["without"], "djinn:enki"), "$.without: expected an array, got a"),
    ("without item", _set(["without"], [3]), "$.without[0]: expected a string, got an integer"),
    ("without form", _set(["without"], ["enki"]), "$.without[0]: expected djinn:ID or card:ID"),
    ("v1 no seed", lambda d: _drop("seed")(d | {"version": 1}), "$.seed: required field missing"),
]


@pytest.mark.parametrize(
    ("change", "expected"),
    [pytest.param(change, expected, id=name) for name, change, expected in BAD_DOCUMENTS],
)
def test_every_problem_names_the_source_and_the_json_path(
    change: Callable[[dict[str, Any]], Any], expected: str
) -> None:
    text = json.dumps(change(document()))
    with pytest.raises(RecordError) as caught:
        record_from_json(text, "game.json")
    assert str(caught.value).startswith(f"game.json: {expected}"), str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_non_house_plugin_may_have_a_null_path_and_unknown_keys_are_ignored() -> None:
    data = document()
    data["plugins"][0]["path"] = None
    data["comment"] = "a friendly game"
    assert record_from_json(json.dumps(data)) == base_game()[0]


@pytest.mark.parametrize("text", ["", "{", "not json", '{"format": "naqala-record",}'])
def test_text_that_is_not_json_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match=r"^saved\.json: not JSON: "):
        record_from_json(text, "saved.json")
    with pytest.raises(RecordError, match=r"^record: not JSON"):
        record_from_json(text)


def test_load_record_refuses_missing_binary_and_corrupt_files(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(RecordError, match=f"^{missing}: cannot read: No such file"):
        load_record(missing)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match=f"^{binary}: not UTF-8 text"):
        load_record(binary)
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(record_to_json(base_game()[0])[:-40], encoding="utf-8")
    with pytest.raises(RecordError, match=f"^{corrupt}: not JSON"):
        load_record(corrupt)
    with pytest.raises(RecordError, match=f"^{tmp_path}: cannot read"):
        load_record(tmp_path)


# -- atomic saving ----------------------------------------------------------------------------


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    """A directory holding only ``game.json``, the record of a short game."""
    path = tmp_path / "game.json"
    save_record(path, new_record(base_rules(), 1, 2, ["human", "human"]))
    return path


def _fails(*_args: Any, **_kwargs: Any) -> Any:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("broken", ["fsync", "replace", "chmod"])
def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary(
    saved: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    """Whether flushing to disk, the final rename or setting permissions fails, the old
    record is intact and the temporary file is gone."""
    old = saved.read_bytes()
    if broken == "chmod":
        saved.chmod(0o600)  # an existing file's permissions are copied to the new one
    monkeypatch.setattr(os, broken, _fails)
    with pytest.raises(OSError, match="No space left"):
        save_record(saved, base_game()[0])
    monkeypatch.undo()
    assert saved.read_bytes() == old
    assert os.listdir(saved.parent) == ["game.json"]
    assert load_record(saved).actions == ()


def test_a_write_that_breaks_half_way_keeps_the_old_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half the document reaches the temporary file, then writing fails."""
    old = saved.read_bytes()
    real_fdopen = os.fdopen

    class HalfFile:
        def __init__(self, fd: int, mode: str) -> None:
            self.file = real_fdopen(fd, mode)

        def __enter__(self) -> HalfFile:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def write(self, data: bytes) -> int:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fdopen", HalfFile)
    with pytest.raises(OSError, match="Input/output error"):
        save_record(saved, base_game()[0])
    monkeypatch.undo()
    assert saved.read_bytes() == old
    assert os.listdir(saved.parent) == ["game.json"]


def test_a_record_that_cannot_be_encoded_touches_nothing(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = saved.read_bytes()

    def broken(_record: GameRecord) -> str:
        raise ValueError("cannot encode")

    monkeypatch.setattr(record_module, "record_to_json", broken)
    with pytest.raises(ValueError, match="cannot encode"):
        save_record(saved, base_game()[0])
    assert saved.read_bytes() == old
    assert os.listdir(saved.parent) == ["game.json"]


def test_an_interrupted_save_removes_its_temporary(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a KeyboardInterrupt during the write leaves no temporary file."""
    old = saved.read_bytes()

    def interrupted(*_args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_record(saved, base_game()[0])
    assert saved.read_bytes() == old
    assert os.listdir(saved.parent) == ["game.json"]


def test_saving_replaces_the_file_and_keeps_its_permissions(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved.chmod(0o640)
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    record = base_game()[0]
    save_record(saved, record)
    assert synced, "the data must be flushed to disk before the rename"
    assert load_record(saved) == record
    assert stat.S_IMODE(saved.stat().st_mode) == 0o640
    assert os.listdir(saved.parent) == ["game.json"]


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        save_record(tmp_path / "new.json", base_game()[0])
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644


def test_saving_into_a_missing_directory_fails_cleanly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        save_record(tmp_path / "no" / "game.json", base_game()[0])
    assert os.listdir(tmp_path) == []


# -- rebuilding the rules ---------------------------------------------------------------------


def test_rules_for_a_base_record() -> None:
    rules = rules_for_record(base_game()[0])
    assert rules.ruleset == ("base",)


def _with_plugins(record: GameRecord, *plugins: PluginRef) -> GameRecord:
    return attrs.evolve(record, plugins=plugins)


def test_a_missing_plugin_is_refused() -> None:
    record = _with_plugins(base_game()[0], PluginRef("base", "0.1.0"), PluginRef("desert", "2.0"))
    with pytest.raises(RecordError, match=r"needs plugin 'desert' version 2\.0, which is not"):
        rules_for_record(record)


def test_another_plugin_version_is_refused() -> None:
    record = _with_plugins(base_game()[0], PluginRef("base", "0.0.9"))
    with pytest.raises(RecordError) as caught:
        rules_for_record(record)
    assert str(caught.value) == (
        "plugin 'base' is mismatched: the record was made with version 0.0.9, "
        "but version 0.1.0 is installed (it plays versions 0.1.0)"
    )


def test_a_record_without_the_base_game_is_refused() -> None:
    with pytest.raises(RecordError, match=r"do not match the record: plugins base 0\.1\.0 instead"):
        rules_for_record(_with_plugins(base_game()[0]))


def test_plugin_objects_cannot_be_rebuilt() -> None:
    record = _with_plugins(
        base_game()[0], PluginRef("base", "0.1.0"), PluginRef("test-thing", "1", "object")
    )
    with pytest.raises(RecordError, match="'test-thing' was passed to the game as a 'object'"):
        rules_for_record(record)


@pytest.fixture()
def house_rule(tmp_path: Path) -> Path:
    """A house-rule file whose contents are unique to the test: house rules are cached by
    their sha256 for the whole process, and a cached module knows only the first path it
    was loaded from."""
    path = tmp_path / "lucky.py"
    path.write_text(f"{HOUSE_RULE}\n# {tmp_path.name}\n", encoding="utf-8")
    return path


def test_house_rules_are_recorded_with_file_name_and_hash(house_rule: Path) -> None:
    import hashlib

    rules = build_rules(house_rules=[house_rule])
    record = new_record(rules, 2, 2, ["human", "human"])
    assert record.plugins == (
        PluginRef("base", "0.1.0"),
        PluginRef(
            "lucky-seven",
            "1.0",
            "house-rule",
            hashlib.sha256(house_rule.read_bytes()).hexdigest(),
            "lucky.py",
        ),
    )
    data = json.loads(record_to_json(record))
    assert data["plugins"][1] == {
        "name": "lucky-seven",
        "version": "1.0",
        "source": "house-rule",
        "sha256": record.plugins[1].sha256,
        "path": "lucky.py",
    }
    assert record_from_json(record_to_json(record)) == record


def test_house_rules_are_loaded_from_the_files_given(house_rule: Path) -> None:
    record, _, final = played(build_rules(house_rules=[house_rule]), 2, 8)
    rules = rules_for_record(record, [house_rule])
    assert rules.ruleset == ("base", "lucky-seven")
    states = replay(record, rules)
    assert states[-1] == final
    assert rules.scores(states[-1]) == record.final_scores


def test_a_house_rule_is_never_looked_for_where_the_record_says(
    house_rule: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is still where it was, with the same bytes: it is not given, so it is not
    loaded."""
    record = new_record(build_rules(house_rules=[house_rule]), 2, 2, ["human", "human"])
    monkeypatch.chdir(house_rule.parent)
    with pytest.raises(RecordError) as caught:
        rules_for_record(record)
    assert str(caught.value) == (
        f"the record needs the house rule 'lucky-seven' (recorded file 'lucky.py', sha256 "
        f"{record.plugins[1].sha256[:12]}…); pass the file with --house-rules PATH"
    )


def test_a_changed_house_rule_is_refused_before_it_runs(house_rule: Path) -> None:
    record = new_record(build_rules(house_rules=[house_rule]), 2, 2, ["human", "human"])
    changed = house_rule.read_text(encoding="utf-8").replace("7,", "8,") + "raise SystemExit\n"
    house_rule.write_text(changed, encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        rules_for_record(record, [house_rule])
    message = str(caught.value)
    assert message.startswith(
        f"--house-rules {house_rule.resolve()} is not the house rule 'lucky-seven' "
        f"(recorded file 'lucky.py', sha256 {record.plugins[1].sha256[:12]}…) the record "
        "was made with: its sha256 is "
    )
    assert message.endswith("(the file has changed)")


def test_a_moved_house_rule_is_given_again(house_rule: Path, tmp_path: Path) -> None:
    record = new_record(build_rules(house_rules=[house_rule]), 2, 2, ["human", "human"])
    moved = tmp_path / "elsewhere.py"
    house_rule.rename(moved)
    with pytest.raises(RecordError, match=r"recorded file 'lucky\.py', sha256 .*--house-rules"):
        rules_for_record(record)
    assert rules_for_record(record, [moved]).ruleset == ("base", "lucky-seven")
    assert rules_for_record(record, [moved, moved]).ruleset == ("base", "lucky-seven")
    other = tmp_path / "other.py"
    other.write_text(HOUSE_RULE + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=f"{other} .* is none of the record's house rules"):
        rules_for_record(record, [other])
    with pytest.raises(RecordError, match="cannot read"):
        rules_for_record(record, [tmp_path / "gone.py"])


# -- replaying --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_replay_reproduces_the_game_exactly(players: int, seed: int) -> None:
    """Replaying a record gives every state of the game as it was played, ending in the
    same final state."""
    rules = base_rules()
    record, before, final = played(rules, players, seed)
    rebuilt = rules_for_record(record_from_json(record_to_json(record)))
    states = replay(record, rebuilt)
    assert len(states) == len(record.actions) + 1
    assert states[:-1] == before
    assert states[-1] == final
    assert states[-1].is_over
    assert rebuilt.scores(states[-1]) == record.final_scores


def test_replay_of_an_unfinished_record_stops_where_it_ends() -> None:
    record, _ = base_game()
    states = replay(without_last(record, 20), base_rules())
    assert len(states) == len(record.actions) - 19
    assert not states[-1].is_over
    assert replay(new_record(base_rules(), 11, 3, ["h"] * 3), base_rules()) == [
        base_rules().new_game(3, 11)
    ]


def test_an_illegal_action_is_named_with_its_index_and_reason() -> None:
    record, _ = base_game()
    bad = attrs.evolve(record, actions=(*record.actions[:1], "bid 99", *record.actions[2:]))
    with pytest.raises(RecordError) as caught:
        replay(bad, base_rules())
    assert str(caught.value).startswith("action $.actions[1] ('bid 99') is illegal: ")


def test_an_action_after_the_end_is_illegal() -> None:
    record, _ = base_game()
    extra = with_action(record, "bid 0")
    with pytest.raises(RecordError) as caught:
        replay(extra, base_rules())
    index = len(record.actions)
    assert str(caught.value) == (
        f"action $.actions[{index}] ('bid 0') is illegal: the game is over"
    )


def test_a_malformed_action_is_named() -> None:
    record = attrs.evolve(base_game()[0], actions=("bid 8", "bid (12)"))
    with pytest.raises(
        RecordError, match=r"^action \$\.actions\[1\] \('bid \(12\)'\) is malformed"
    ):
        replay(record, base_rules())


def test_a_game_that_cannot_be_set_up_is_refused() -> None:
    record = new_record(base_rules(), 1, 9, ["human"] * 9)
    with pytest.raises(RecordError, match=r"the game cannot be set up \(9 players, seed 1\)"):
        replay(record, base_rules())


# -- naqala replay ----------------------------------------------------------------------------

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    register(app)
    return app


def run(*args: str) -> Result:
    return runner.invoke(make_app(), ["replay", *args])


def fails(*args: str, code: int = 2) -> str:
    result = run(*args)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "", "a failing command must print nothing on stdout"
    assert result.stderr.startswith("naqala: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture()
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save_record(path, base_game()[0])
    return path


def test_replay_verify_accepts_a_true_record(record_file: Path) -> None:
    result = run(str(record_file), "--verify")
    assert result.exit_code == 0, result.stderr
    scores = ", ".join(str(s) for s in base_game()[0].final_scores or ())
    assert result.stdout == f"verified: scores {scores}\n"
    assert result.stderr == ""


def test_replay_verify_fails_on_altered_scores(record_file: Path) -> None:
    record = load_record(record_file)
    assert record.final_scores is not None
    altered = (record.final_scores[0], record.final_scores[1] + 5, *record.final_scores[2:])
    save_record(record_file, attrs.evolve(record, final_scores=altered))
    message = fails(str(record_file), "--verify", code=1)
    assert f"{record_file}: not verified: final scores differ (player 2: recorded" in message
    assert f"replayed {record.final_scores[1]}" in message


def test_replay_verify_fails_when_the_actions_stop_early(record_file: Path) -> None:
    record = load_record(record_file)
    cut = attrs.evolve(record, actions=record.actions[:-5])
    save_record(record_file, cut)
    message = fails(str(record_file), "--verify", code=1)
    assert "its actions end before the game does" in message


def test_replay_verify_needs_final_scores(record_file: Path) -> None:
    save_record(record_file, without_last(load_record(record_file), 5))
    assert "has no final scores to verify" in fails(str(record_file), "--verify")


@pytest.mark.parametrize("verify", [(), ("--verify",)])
def test_replay_refuses_bad_records_with_exit_2(tmp_path: Path, verify: tuple[str, ...]) -> None:
    missing = tmp_path / "missing.json"
    assert f"naqala: {missing}: cannot read" in fails(str(missing), *verify)
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(record_to_json(base_game()[0])[:500], encoding="utf-8")
    assert f"naqala: {corrupt}: not JSON" in fails(str(corrupt), *verify)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**document(), "seed": "x"}), encoding="utf-8")
    assert f"naqala: {wrong}: $.seed: expected an integer" in fails(str(wrong), *verify)
    old = tmp_path / "old.json"
    save_record(old, _with_plugins(base_game()[0], PluginRef("base", "0.0.1")))
    message = fails(str(old), *verify)
    assert f"naqala: {old}: plugin 'base' is mismatched: the record was made with" in message
    illegal = tmp_path / "illegal.json"
    record = base_game()[0]
    save_record(illegal, attrs.evolve(record, actions=("bid 99", *record.actions[1:])))
    message = fails(str(illegal), *verify)
    assert f"naqala: {illegal}: action $.actions[0] ('bid 99') is illegal" in message


def test_replay_takes_moved_house_rules(house_rule: Path, tmp_path: Path) -> None:
    record, _, _ = played(build_rules(house_rules=[house_rule]), 2, 3)
    path = tmp_path / "game.json"
    save_record(path, record)
    moved = tmp_path / "moved.py"
    house_rule.rename(moved)
    assert "pass the file with --house-rules PATH" in fails(str(path), "--verify")
    result = run(str(path), "--verify", "--house-rules", str(moved))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("verified: scores")


def _hide_render(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``naqala.display.text`` unimportable, as before it is written."""
    monkeypatch.setitem(sys.modules, "naqala.display.text", None)


def test_replay_shows_each_turn_and_the_scores(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide_render(monkeypatch)
    record, final = base_game()
    result = run(str(record_file))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("Start · seed 11 · 3 players (human, ai:random, ai:greedy)")
    assert "Round 1 · bidding · actions 0–2: " in out
    assert "Round 1 · player " in out
    last_round = final.round
    assert f"Round {last_round} · " in out
    # without the board renderer, each board is a one-line summary
    assert "round 1, decision bid (player" in out
    assert "decision over, scores " + ", ".join(map(str, record.final_scores or ())) in out
    table = out[out.index("Final scores") :]
    assert "total" in table
    assert "★" in table
    for score in record.final_scores or ():
        assert str(score) in table


def test_replay_uses_the_board_renderer_when_there_is_one(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Rules, State]] = []
    fake = types.ModuleType("naqala.display.text")

    def render_state(rules: Rules, state: State, viewer: int | None = None) -> str:
        calls.append((rules, state))
        return f"<board of round {state.round}>"

    fake.render_state = render_state  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "naqala.display.text", fake)
    result = run(str(record_file))
    assert result.exit_code == 0, result.stderr
    assert "<board of round 1>" in result.stdout
    assert calls[0][1] == base_rules().new_game(3, 11)
    assert calls[-1][1] == base_game()[1]
    assert result.stdout.count("<board of") == len(calls)


def test_replay_warns_when_the_recorded_scores_differ(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide_render(monkeypatch)
    record = load_record(record_file)
    save_record(record_file, with_final_scores(record, [0] * record.players))
    result = run(str(record_file))
    assert result.exit_code == 0
    assert "Final scores" in result.stdout
    assert "warning" in result.stderr and "differ from the replayed ones" in result.stderr


def test_replay_of_an_unfinished_game_says_so(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide_render(monkeypatch)
    save_record(record_file, without_last(load_record(record_file), 30))
    result = run(str(record_file))
    assert result.exit_code == 0, result.stderr
    assert "Scores (the record ends before the game does)" in result.stdout
