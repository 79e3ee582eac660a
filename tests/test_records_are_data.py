"""A game record is data: no command runs code because a record names it.

A record names its house rules by name and sha256, with the name of the file they were
loaded from. Its author chooses all three, so a record mailed together with any ``.py``
file that lands on the reader's disk could run that file if a command loaded the path
the record names. Every entry point (``replay``, ``replay --verify``, ``replay --html``,
``play --load``, the web server's upload) must load house-rule code only from the files
given on its own command line, matched by sha256, and refuse the rest in one line.

The hostile file of these tests writes a marker file when it is imported: the marker must
never appear.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core import plugins
from naqala.core import record as record_module
from naqala.core.actions import Action
from naqala.core.engine import build_rules
from naqala.core.record import (
    GameRecord,
    RecordError,
    load_record,
    new_record,
    record_to_data,
    replay,
    rules_for_record,
    save_record,
    with_action,
    with_final_scores,
)
from naqala.core.simulate import play_game

runner = CliRunner()

RULE = '''"""Everyone gets 3 bonus points ({tag})."""
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl

NAME = "lucky-three"
VERSION = "1.0"


@hookimpl
def naqala_score_lines(rules, state, player):
    return [ScoreLine("bonus", 3, "lucky-three", "everyone gets 3")]
'''

#: a file that leaves a marker when it runs, and otherwise passes for the house rule
HOSTILE = """import pathlib
pathlib.Path({marker!r}).write_text("this file ran", encoding="utf-8")
""" + RULE.split('"""', 2)[2]


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def one_line_refusal(result: Result) -> str:
    """The refusal's single line on stderr (exit 2, nothing on stdout, no traceback)."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture()
def rule(tmp_path: Path) -> Path:
    """The house rule the games are played with; unique to the test, as house rules are
    modules kept by sha256 for the whole process."""
    path = tmp_path / "lucky.py"
    path.write_text(RULE.format(tag=tmp_path.name), encoding="utf-8")
    return path


@pytest.fixture()
def marker(tmp_path: Path) -> Path:
    return tmp_path / "marker.txt"


@pytest.fixture()
def hostile(tmp_path: Path, marker: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    path = folder / "lucky.py"
    path.write_text(HOSTILE.format(marker=str(marker)), encoding="utf-8")
    return path


def played(rule: Path, seats: tuple[str, ...] = ("ai:random", "ai:random")) -> GameRecord:
    """A whole game of two random players under ``rule``, with its final scores."""
    rules = build_rules(house_rules=[rule])
    actions: list[Action] = []
    final, _ = play_game(rules, 2, 5, on_action=lambda state, action: actions.append(action))
    record = new_record(rules, 5, len(seats), list(seats))
    for action in actions:
        record = with_action(record, action)
    return with_final_scores(record, rules.scores(final))


def pointing_at(record: GameRecord, path: str, target: Path) -> dict[str, Any]:
    """``record`` as its author could send it: the house rule names ``path`` and has the
    sha256 of ``target``, so the recorded file checks out if anything ever reads it."""
    data = record_to_data(record)
    (ref,) = [p for p in data["plugins"] if p["source"] == "house-rule"]
    ref["path"] = path
    ref["sha256"] = hashlib.sha256(target.read_bytes()).hexdigest()
    return data


def hostile_record(tmp_path: Path, rule: Path, hostile: Path, how: str) -> Path:
    """A saved record whose house rule names the hostile file ``how``: by its absolute
    path, or relative to the folder the command runs in."""
    named = str(hostile) if how == "absolute" else str(Path("downloads") / hostile.name)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(pointing_at(played(rule), named, hostile)), encoding="utf-8")
    return path


ENTRY_POINTS = {
    "replay": ["replay"],
    "replay --verify": ["replay", "--verify"],
    "replay --html": ["replay", "--html", "page.html"],
    "play --load": ["play", "--load"],
}


def invoke(entry: str, record: Path) -> Result:
    args = ENTRY_POINTS[entry]
    if entry == "play --load":
        return run(*args, str(record))
    return run(args[0], str(record), *args[1:])


@pytest.mark.parametrize("how", ["absolute", "relative"])
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_no_command_runs_the_file_a_record_names(
    tmp_path: Path,
    rule: Path,
    hostile: Path,
    marker: Path,
    entry: str,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    record = hostile_record(tmp_path, rule, hostile, how)
    rule.unlink()  # the reader has no file of that name but the hostile one
    line = one_line_refusal(invoke(entry, record))
    assert not marker.exists(), f"{entry} ran the file the record names"
    assert line.startswith(f"naqala: {record}: the record needs the house rule 'lucky-three' ")
    assert "(recorded file 'lucky.py', sha256 " in line
    assert line.endswith("; pass the file with --house-rules PATH")
    assert not (tmp_path / "page.html").exists()


def test_the_web_upload_runs_no_file_the_record_names(
    tmp_path: Path, rule: Path, hostile: Path, marker: Path
) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # starlette 1.x prefers httpx2 and warns about httpx
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from naqala.web.app import create_app
    from naqala.web.store import Store

    record = played(rule, ("human", "ai:random"))
    upload = json.dumps(pointing_at(record, str(hostile), hostile))
    store = Store(tmp_path / "games", [plugins.read_house_rule(rule)], 5)
    with TestClient(create_app(store, ai_delay=0)) as client:
        answer = client.post(
            "/api/load", content=upload, headers={"content-type": "application/json"}
        )
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert not marker.exists()
    assert "\n" not in error
    assert error.startswith("the record needs the house rule 'lucky-three' ")
    assert "(recorded file 'lucky.py', sha256 " in error
    assert error.endswith(
        "not one of this server's house-rule files (naqala serve --house-rules PATH)"
    )
    assert store.games == {}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_the_right_file_on_the_command_line_replays_the_record(
    tmp_path: Path, rule: Path, entry: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = played(rule)
    saved = tmp_path / "game.json"
    save_record(saved, record)
    moved = tmp_path / "elsewhere" / "renamed.py"
    moved.parent.mkdir()
    rule.rename(moved)  # any name, any folder: the sha256 is what counts
    args = ENTRY_POINTS[entry]
    if entry == "play --load":
        result = run(*args, str(saved), "--house-rules", str(moved))
    else:
        result = run(args[0], str(saved), *args[1:], "--house-rules", str(moved))
    assert result.exit_code == 0, result.stderr
    if entry == "replay --verify":
        assert (
            result.stdout == f"verified: scores {', '.join(map(str, record.final_scores or ()))}\n"
        )
    if entry == "replay --html":
        assert (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_file_whose_bytes_differ_is_refused_before_it_runs(
    tmp_path: Path, rule: Path, marker: Path
) -> None:
    saved = tmp_path / "game.json"
    save_record(saved, played(rule))
    rule.write_text(HOSTILE.format(marker=str(marker)), encoding="utf-8")
    for args in (["replay", str(saved)], ["play", "--load", str(saved)]):
        line = one_line_refusal(run(*args, "--house-rules", str(rule)))
        assert not marker.exists()
        assert line.startswith(
            f"naqala: {saved}: --house-rules {rule} is not the house rule 'lucky-three' "
            "(recorded file 'lucky.py', sha256 "
        )
        assert line.endswith("(the file has changed)")


def test_a_file_the_record_does_not_use_is_refused(tmp_path: Path, rule: Path) -> None:
    saved = tmp_path / "game.json"
    save_record(saved, new_record(build_rules(), 1, 2, ["ai:random", "ai:random"]))
    line = one_line_refusal(run("replay", str(saved), "--house-rules", str(rule)))
    assert line == f"naqala: {saved}: --house-rules {rule}: the record has no house rules"


def test_an_unreadable_house_rule_file_is_named(tmp_path: Path, rule: Path) -> None:
    saved = tmp_path / "game.json"
    save_record(saved, played(rule))
    missing = tmp_path / "nope.py"
    line = one_line_refusal(run("replay", str(saved), "--house-rules", str(missing)))
    assert line.startswith(f"naqala: --house-rules {missing}: cannot read: ")
    line = one_line_refusal(run("replay", str(saved), "--house-rules", str(tmp_path)))
    assert line.endswith(
        "not a house-rule file (a .py file, or a .toml content file with a [house-rule] table)"
    )


# -- the one place where records and house-rule files meet ----------------------------------------


def test_house_rules_are_matched_by_sha256_in_the_record_s_order(tmp_path: Path) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text(RULE.format(tag=f"{tmp_path.name} a"), encoding="utf-8")
    second.write_text(
        RULE.format(tag=f"{tmp_path.name} b").replace("lucky-three", "lucky-four"),
        encoding="utf-8",
    )
    record = played_with(first, second)
    files = record_module.match_house_rules(record, [second, first])
    assert [f.path for f in files] == [first.resolve(), second.resolve()]
    assert rules_for_record(record, [second, first]).ruleset == (
        "base",
        "lucky-three",
        "lucky-four",
    )
    with pytest.raises(RecordError, match=r"needs the house rule 'lucky-four' .*'b\.py'"):
        rules_for_record(record, [first])


def played_with(*rules: Path) -> GameRecord:
    built = build_rules(house_rules=list(rules))
    return new_record(built, 2, 2, ["human", "human"])


def test_a_pool_of_files_may_hold_more_than_the_record_needs(tmp_path: Path, rule: Path) -> None:
    other = tmp_path / "other.py"
    other.write_text(RULE.format(tag="other").replace("lucky-three", "other"), encoding="utf-8")
    record = played_with(rule)
    with pytest.raises(RecordError, match="is none of the record's house rules"):
        record_module.match_house_rules(record, [other, rule])
    assert [f.name for f in record_module.match_house_rules(record, [other, rule], pool=True)] == [
        "lucky.py"
    ]


def test_the_bytes_that_run_are_the_bytes_that_were_hashed(
    tmp_path: Path, rule: Path, marker: Path
) -> None:
    """A file swapped on disk between its check and its import cannot run: the bytes read
    once are compiled, never the file again."""
    record = played_with(rule)
    checked = plugins.read_house_rule(rule)
    rule.write_text(HOSTILE.format(marker=str(marker)), encoding="utf-8")
    rules = rules_for_record(record, [checked])
    assert rules.ruleset == ("base", "lucky-three")
    assert not marker.exists()
    info = plugins.load_house_rule(checked)
    assert info.sha256 == hashlib.sha256(checked.data).hexdigest()
    assert str(tmp_path.name) in (info.module.__doc__ or "")


def test_records_name_only_the_file_of_a_house_rule(rule: Path) -> None:
    """The file name is a hint for the reader; the folders of the player's machine are not
    in a record they share."""
    (ref,) = [p for p in played_with(rule).plugins if p.source == "house-rule"]
    assert ref.path == "lucky.py"


def test_old_records_with_whole_paths_still_load(tmp_path: Path, rule: Path) -> None:
    """Records written before name the whole path: it is shown as a file name only, and
    the record replays with the file given."""
    record = played(rule)
    data = record_to_data(record)
    (ref,) = [p for p in data["plugins"] if p["source"] == "house-rule"]
    ref["path"] = str(rule)
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    old = load_record(saved)
    assert replay(old, rules_for_record(old, [rule]))[-1].is_over
    with pytest.raises(RecordError, match=r"\(recorded file 'lucky\.py', sha256 "):
        rules_for_record(old)


def test_a_record_naming_a_module_of_the_standard_library_imports_nothing(
    tmp_path: Path, rule: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The case found: a record naming a file of Python's own library, with its sha256,
    had it imported (``this`` prints the Zen of Python) before the record was refused."""
    spec = importlib.util.find_spec("this")
    assert spec is not None and spec.origin is not None
    stdlib = Path(spec.origin)
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(pointing_at(played(rule), str(stdlib), stdlib)), encoding="utf-8")
    line = one_line_refusal(run("replay", str(saved), "--verify"))
    assert "(recorded file 'this.py', sha256 " in line
    digest = hashlib.sha256(stdlib.read_bytes()).hexdigest()
    assert f"naqala_house_{digest}" not in sys.modules
    assert "Zen of Python" not in capfd.readouterr().out
