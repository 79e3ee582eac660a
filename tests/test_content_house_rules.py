"""Content-only house rules: a ``.toml`` file with a ``[house-rule]`` table works wherever
``--house-rules`` is accepted, records included, identified by its sha256; its content is
what was hashed, and no code of it runs (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import one_line, run

from naqala.core.engine import build_rules
from naqala.core.plugins import PluginError, read_house_rule
from naqala.core.record import new_record, save_record

RULE = """\
[house-rule]
name = "huge-viziers"
version = "2.1"
description = "The vizier majority is worth 20 per opponent"

[settings]
vizier_bonus = 20
"""


@pytest.fixture
def rule(tmp_path: Path) -> Path:
    path = tmp_path / "huge.toml"
    path.write_text(RULE, encoding="utf-8")
    return path


def test_the_table_names_the_plugin_and_the_rest_is_content(rule: Path) -> None:
    rules = build_rules([], [rule])
    house = rules.plugins[-1]
    assert (house.name, house.version, house.source) == ("huge-viziers", "2.1", "house-rule")
    assert house.description == "The vizier majority is worth 20 per opponent"
    assert house.sha256 == read_house_rule(rule).sha256
    assert rules.content.settings["vizier_bonus"] == 20
    assert build_rules().content.settings["vizier_bonus"] == 10


def test_the_content_is_the_bytes_that_were_hashed(rule: Path) -> None:
    read = read_house_rule(rule)
    rule.write_text(RULE.replace("= 20", "= 99"), encoding="utf-8")  # swapped afterwards
    assert build_rules([], [read]).content.settings["vizier_bonus"] == 20


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[settings]\nvizier_bonus = 20\n", "$.house-rule: missing"),
        ('[house-rule]\nversion = "1"\n', "$.house-rule.name: missing"),
        ("[house-rule]\nname = 5\n", "$.house-rule.name: must be text, not int"),
        ('[house-rule]\nname = "Big Rule"\n', "is not lower-case letters"),
        ('[house-rule]\nname = "x"\nauthor = "me"\n', "$.house-rule.author: unknown key"),
        ("[house-rule\n", "not valid TOML"),
    ],
)
def test_a_bad_table_is_one_line_naming_the_file_and_path(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PluginError, match=str(path)):
        build_rules([], [path])
    line = one_line(run("simulate", "-n", "1", "--house-rules", str(path)))
    assert message in line and str(path) in line


def test_bad_content_after_the_table_is_the_content_loaders_error(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('[house-rule]\nname = "typo"\n\n[setings]\nx = 1\n', encoding="utf-8")
    line = one_line(run("simulate", "-n", "1", "--house-rules", str(path)))
    assert str(path) in line and "setings" in line


def test_simulate_and_compare_take_it(rule: Path) -> None:
    got = run("simulate", "-n", "2", "-p", "2", "--house-rules", str(rule), "--json")
    assert got.exit_code == 0, got.stderr
    assert json.loads(got.stdout)["plugins"] == ["base", "huge-viziers"]
    got = run("compare", "-n", "2", "-p", "2", "--house-rules", str(rule), "--json")
    assert got.exit_code == 0, got.stderr
    report = json.loads(got.stdout)
    assert report["variant_plugins"] == ["base", "huge-viziers"]
    assert (
        report["categories"]["vizier-majority"]["variant"]
        >= (report["categories"]["vizier-majority"]["baseline"])
    )


def test_play_takes_it_and_its_record_needs_the_same_bytes(rule: Path, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    got = run(
        "play", "--seats", "ai:random,ai:random", "--seed", "2", "--house-rules", str(rule),
        "--save", str(saved),
    )  # fmt: skip
    assert got.exit_code == 0, got.stderr
    plugins = json.loads(saved.read_text(encoding="utf-8"))["plugins"]
    assert plugins[-1]["name"] == "huge-viziers"
    assert plugins[-1]["sha256"] == read_house_rule(rule).sha256
    assert run("replay", str(saved), "--house-rules", str(rule)).exit_code == 0
    assert "needs the house rule 'huge-viziers'" in one_line(run("replay", str(saved)))
    changed = tmp_path / "changed.toml"
    changed.write_text(RULE + "# edited\n", encoding="utf-8")
    line = one_line(run("replay", str(saved), "--house-rules", str(changed)))
    assert "none of the record's house rules" in line


def test_a_record_made_with_it_resumes_with_play_load(rule: Path, tmp_path: Path) -> None:
    rules = build_rules([], [rule])
    saved = tmp_path / "new.json"
    save_record(saved, new_record(rules, 4, 2, ["ai:random", "ai:random"]))
    got = run("play", "--load", str(saved), "--house-rules", str(rule))
    assert got.exit_code == 0, got.stderr
    assert "wins" in got.stdout


def test_the_web_server_offers_it_and_resumes_its_games(rule: Path, tmp_path: Path) -> None:
    from naqala.web.store import Store

    store = Store(tmp_path / "games", [read_house_rule(rule)], 5)
    game = store.create(["human", "ai:random"], [], ["huge.toml"], 3)
    assert game.record.plugins[-1].name == "huge-viziers"
    store.save(game)
    again = Store(tmp_path / "games", [read_house_rule(rule)], 5)
    assert again.resume() == [] and len(again.games) == 1
    (warning,) = Store(tmp_path / "games", [], 5).resume()
    assert "huge-viziers" in warning
