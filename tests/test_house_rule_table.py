"""What a ``.toml`` house rule's ``[house-rule]`` table says is in and out of the game:
``without`` (cards left out, as ``--without``), ``requires`` and ``conflicts`` (boxes it
needs or refuses, as a Python plugin's ``REQUIRES`` and ``CONFLICTS``) (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.content import DJINNS, ContentError
from naqala.core.engine import build_rules
from naqala.core.plugins import PluginError
from naqala.core.record import load_record, new_record, rules_for_record, save_record
from naqala.core.serialize import state_from_data, state_to_data
from naqala.core.without import leave_out

#: the twelve djinns a players' variant bans
TWELVE = [
    "al-amin",
    "anun-nak",
    "baal",
    "boaz",
    "bouraq",
    "echidna",
    "enki",
    "hagis",
    "haurvatat",
    "iblis",
    "jafaar",
    "kandicha",
]


def rule_file(tmp_path: Path, table: str, rest: str = "", name: str = "rule.toml") -> Path:
    path = tmp_path / name
    path.write_text(f'[house-rule]\nname = "r"\n{table}\n{rest}', encoding="utf-8")
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_without_leaves_the_cards_out_as_the_flag_does(tmp_path: Path) -> None:
    bans = ", ".join(f'"djinn:{d}"' for d in TWELVE)
    rules = build_rules([], [rule_file(tmp_path, f"without = [{bans}]")])
    flagged = leave_out(build_rules(), [f"djinn:{d}" for d in TWELVE])
    assert rules.without == flagged.without == tuple(sorted(f"djinn:{d}" for d in TWELVE))
    assert [c.id for c in rules.content.deck(DJINNS)] == [
        c.id for c in flagged.content.deck(DJINNS)
    ]
    assert len(rules.content.deck(DJINNS)) == 22 - 12
    assert rules.new_game(3, 5).decks == flagged.new_game(3, 5).decks


def test_the_record_names_what_the_rule_left_out_and_replays(tmp_path: Path) -> None:
    path = rule_file(tmp_path, 'without = ["djinn:jafaar"]')
    rules = build_rules([], [path])
    saved = tmp_path / "game.json"
    save_record(saved, new_record(rules, 4, 2, ["ai:random", "ai:random"]))
    assert json.loads(saved.read_text(encoding="utf-8"))["without"] == ["djinn:jafaar"]
    again = rules_for_record(load_record(saved), [path])
    assert again.without == ("djinn:jafaar",)
    assert "jafaar" not in {c.id for c in again.content.cards}
    state = rules.new_game(2, 4)
    assert state_from_data(state_to_data(rules, state), rules)[1] == state


def test_play_records_the_ban(tmp_path: Path) -> None:
    path = rule_file(tmp_path, 'without = ["djinn:jafaar", "djinn:enki"]')
    saved = tmp_path / "game.json"
    got = run(
        "play", "--seats", "ai:random,ai:random", "--seed", "3", "--house-rules", str(path),
        "--save", str(saved),
    )  # fmt: skip
    assert got.exit_code == 0, got.stderr
    assert json.loads(saved.read_text(encoding="utf-8"))["without"] == [
        "djinn:enki",
        "djinn:jafaar",
    ]
    assert run("replay", str(saved), "--house-rules", str(path)).exit_code == 0


def test_an_unknown_card_is_one_line_naming_the_file_and_path(tmp_path: Path) -> None:
    path = rule_file(tmp_path, 'without = ["djinn:jafaar", "djinn:nosuch"]')
    with pytest.raises(ContentError) as caught:
        build_rules([], [path])
    assert caught.value.problems == [
        f"{path}: $.house-rule.without[1]: 'djinn:nosuch': no djinn 'nosuch' in these rules; "
        "known: " + ", ".join(sorted(c.id for c in build_rules().content.deck(DJINNS)))
    ]
    got = run("simulate", "-n", "1", "--house-rules", str(path))
    assert got.exit_code != 0 and "Traceback" not in got.stderr
    assert f"{path}: $.house-rule.without[1]" in got.stdout + got.stderr


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('without = "djinn:jafaar"', "$.house-rule.without: must be a list of text, not str"),
        ('without = ["jafaar"]', "$.house-rule.without[0]: 'jafaar': write djinn:ID or card:ID"),
        ("requires = [3]", "$.house-rule.requires[0]: must be text, not int"),
        ('conflicts = ["Solo Box"]', "$.house-rule.conflicts[0]: 'Solo Box' is not a plugin"),
    ],
)
def test_a_malformed_list_is_refused_with_the_file_and_path(
    tmp_path: Path, table: str, message: str
) -> None:
    path = rule_file(tmp_path, table)
    with pytest.raises(PluginError) as caught:
        build_rules([], [path])
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_requires_is_enforced_as_a_plugins_requires(tmp_path: Path) -> None:
    path = rule_file(tmp_path, 'requires = ["artisans"]')
    with pytest.raises(PluginError, match="plugin 'r' requires 'artisans', which is not enabled"):
        build_rules([], [path])
    assert [p.name for p in build_rules(["artisans"], [path]).plugins][-1] == "r"


def test_conflicts_is_enforced_as_a_plugins_conflicts(tmp_path: Path) -> None:
    path = rule_file(tmp_path, 'conflicts = ["solo"]')
    with pytest.raises(PluginError, match=r"plugin 'r' cannot be played with 'solo': rule\.toml"):
        build_rules(["solo"], [path])
    assert build_rules([], [path]).plugins[-1].name == "r"


def test_the_docs_twelve_djinn_ban_is_one_file_that_plays_native(tmp_path: Path) -> None:
    """The players' variant in docs/house-rules.md: twelve djinns banned by one file,
    recorded, and played the same on both engines."""
    from native_kit import require_native

    from naqala.native.bridge import NativeRules
    from naqala.native.differential import verify_game

    require_native()
    docs = (Path(__file__).resolve().parent.parent / "docs" / "house-rules.md").read_text()
    block = next(
        b for b in docs.split("```toml\n")[1:] if 'name = "no-power-djinns"' in b.split("```")[0]
    )
    path = tmp_path / "no_power_djinns.toml"
    path.write_text(block.split("```")[0], encoding="utf-8")
    rules = build_rules([], [path])
    assert rules.without == tuple(sorted(f"djinn:{d}" for d in TWELVE))
    assert len(rules.content.deck(DJINNS)) == 10
    with pytest.raises(PluginError, match="cannot be played with 'solo'"):
        build_rules(["solo"], [path])
    report = verify_game(rules, NativeRules(rules), 2, 7)
    assert report.differences == [] and report.actions > 100 and not report.unported


class _Installed:
    """An entry point standing for an installed ``.toml`` rule."""

    def __init__(self, name: str, module: object) -> None:
        self.name, self.value, self.module = name, f"tests:{name}", module

    def load(self) -> object:
        return self.module


def test_the_strategies_draw_an_installed_rule_with_its_requirements_never_its_conflicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hypothesis import given, settings

    from naqala.core import plugins
    from naqala.core.content_rule import installed_rule
    from naqala.testing import strategies

    path = tmp_path / "strict.toml"
    path.write_text(
        '[house-rule]\nname = "strict-rule"\nrequires = ["artisans"]\nconflicts = ["solo"]\n',
        encoding="utf-8",
    )
    points = dict(plugins.installed_entry_points())
    points["strict-rule"] = _Installed("strict-rule", installed_rule(path))  # type: ignore[assignment]
    monkeypatch.setattr(plugins, "installed_entry_points", lambda: points)
    monkeypatch.setattr(strategies, "installed_entry_points", lambda: points)
    drawn: list[tuple[str, ...]] = []

    @settings(max_examples=60, database=None, derandomize=True)
    @given(strategies.expansion_sets(["strict-rule", "solo", "artisans"]))
    def check(names: tuple[str, ...]) -> None:
        drawn.append(names)
        if "strict-rule" in names:
            assert "artisans" in names and "solo" not in names

    check()
    assert any("strict-rule" in names for names in drawn)
    assert any("solo" in names for names in drawn)


def test_a_conflict_named_by_an_alias_is_its_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``conflicts = ["djinns"]`` (the Whims box's stored name) keeps whims out too."""
    from hypothesis import given, settings

    from naqala.core import plugins
    from naqala.core.content_rule import installed_rule
    from naqala.testing import strategies

    path = tmp_path / "no_whims.toml"
    path.write_text('[house-rule]\nname = "no-whims-rule"\nconflicts = ["djinns"]\n', "utf-8")
    points = dict(plugins.installed_entry_points())
    points["no-whims-rule"] = _Installed("no-whims-rule", installed_rule(path))  # type: ignore[assignment]
    monkeypatch.setattr(plugins, "installed_entry_points", lambda: points)
    monkeypatch.setattr(strategies, "installed_entry_points", lambda: points)
    with pytest.raises(PluginError, match="cannot be played with 'whims'"):
        build_rules(["whims", "no-whims-rule"])

    @settings(max_examples=40, database=None, derandomize=True)
    @given(strategies.expansion_sets(["no-whims-rule", "whims"]))
    def check(names: tuple[str, ...]) -> None:
        assert set(names) != {"no-whims-rule", "whims"}

    check()


def test_a_python_rules_without_is_recorded_too(tmp_path: Path) -> None:
    """The ban done in code says so: ``WITHOUT`` is the record's ``without``."""
    path = tmp_path / "ban.py"
    path.write_text('NAME = "ban"\nWITHOUT = ("djinn:enki",)\n', encoding="utf-8")
    rules = build_rules([], [path])
    assert new_record(rules, 1, 2, ["ai", "ai"]).without == ("djinn:enki",)
    assert "enki" not in {c.id for c in rules.content.cards}
    path.write_text('NAME = "ban"\nWITHOUT = ("djinn:enky",)\n', encoding="utf-8")
    with pytest.raises(ContentError, match=r"^plugin 'ban': WITHOUT\[0\]: 'djinn:enky': no djinn"):
        build_rules([], [path])


def test_content_check_checks_the_table_against_the_rules(tmp_path: Path) -> None:
    """``naqala content check FILE`` of a .toml rule: a card it leaves out that the rules
    lack, a box it requires that is not checked with it, one it conflicts with that is."""
    path = rule_file(
        tmp_path,
        'without = ["djinn:jafaar", "djinn:nosuch"]\nrequires = ["artisans"]\n'
        'conflicts = ["whims"]',
    )
    got = CliRunner().invoke(app, ["content", "check", "-x", "whims", str(path)])
    assert got.exit_code == 1
    lines = got.stdout.splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "$.house-rule.requires[0]",
        "$.house-rule.conflicts[0]",
        "$.house-rule.without[1]",
    ]
    assert all(line.startswith(f"{path}: ") for line in lines)
    fine = rule_file(
        tmp_path, 'without = ["djinn:jafaar"]\nrequires = ["artisans"]', name="ok.toml"
    )
    got = CliRunner().invoke(app, ["content", "check", "-x", "artisans", str(fine)])
    assert got.exit_code == 0 and got.stdout.startswith("ok:"), got.stdout
