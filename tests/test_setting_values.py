"""Typed settings (issue 37): a setting is a number, a boolean, a text among the choices its
plugin declares, or an array; a dotted name is one name; content alone is checked against
the type the reading plugin's own value has, with the file and the path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from naqala.core.content import ContentError, parse_content_file
from naqala.core.engine import build_rules
from naqala.native.content import content_data


def house_rule(tmp_path: Path, settings: str) -> Path:
    path = tmp_path / "variant.toml"
    path.write_text(
        f'[house-rule]\nname = "variant"\nversion = "1"\n\n[settings]\n{settings}', "utf-8"
    )
    return path


def refusal(path: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        build_rules([], [path])
    return caught.value.problems


def test_a_dotted_name_is_one_setting_however_toml_nests_it(tmp_path: Path) -> None:
    """``end.after_round = 8`` and ``[settings.end] after_round = 8`` set the same name."""
    dotted = build_rules([], [house_rule(tmp_path, "end.after_round = 8\n")])
    nested = tmp_path / "nested.toml"
    nested.write_text(
        '[house-rule]\nname = "n"\nversion = "1"\n\n[settings.end]\nafter_round = 8\n'
    )
    assert dotted.content.setting("end.after_round") == 8
    assert build_rules([], [nested]).content.setting("end.after_round") == 8
    assert build_rules().content.setting("end.after_round") == 0


def test_typed_values_reach_the_content_and_the_kernel_document(tmp_path: Path) -> None:
    text = (
        'verdict.tie_break = "coins"\nassassins.protect = ["yellow"]\n'
        'start.cards = [{deck = "resources", kind = "fakir", count = 2}]\n'
    )
    rules = build_rules([], [house_rule(tmp_path, text)])
    assert rules.content.text_setting("verdict.tie_break") == "coins"
    assert rules.content.names_setting("assassins.protect") == ("yellow",)
    assert rules.content.tables_setting("start.cards") == (
        {"deck": "resources", "kind": "fakir", "count": 2},
    )
    typed = json.loads(json.dumps(content_data(rules)))["typed_settings"]
    assert typed["start.cards"] == [{"deck": "resources", "kind": "fakir", "count": 2}]
    assert typed["assassins.protect"] == ["yellow"] and typed["bidding"] == "on"


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (
            "verdict.tie_break = 3\n",
            "settings.verdict.tie_break: expected a string, got an integer",
        ),
        ("elder_vp = true\n", "settings.elder_vp: expected an integer, got a boolean"),
        ('bidding = ["off"]\n', "settings.bidding: expected a string, got an array"),
        (
            'verdict.tie_break = "dice"\n',
            "settings.verdict.tie_break: 'dice' is none of 'shared', 'coins'",
        ),
    ],
    ids=["text-as-number", "number-as-boolean", "text-as-array", "not-a-choice"],
)
def test_a_value_of_another_type_or_choice_is_refused_with_its_file(
    tmp_path: Path, settings: str, expected: str
) -> None:
    path = house_rule(tmp_path, settings)
    [problem] = refusal(path)
    assert problem.startswith(f"{path} (plugin 'variant'): {expected}")


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ("start.cards = [[1]]\n", "$.settings.start.cards[0]: expected a string or a table"),
        ('x = ["a", {b = 1}]\n', "$.settings.x: mixes strings and tables"),
        ("x = 1.5\n", "$.settings.x: expected an integer, a boolean, a string or an array"),
        ('x = "' + "y" * 201 + '"\n', "$.settings.x: a text of 201 characters"),
        ("x = [{n = 2000000}]\n", "$.settings.x[0].n: 2000000 is more than 1000000"),
        ('"end.after_round" = 1\nend.after_round = 2\n', "$.settings.end.after_round: is written"),
    ],
    ids=["nested-array", "mixed", "float", "long-text", "big-number", "twice"],
)
def test_a_value_no_setting_can_hold_is_refused_at_its_path(
    tmp_path: Path, settings: str, where: str
) -> None:
    path = tmp_path / "shape.toml"
    path.write_text(f"[settings]\n{settings}", "utf-8")
    data, problems = parse_content_file(path)
    assert data is None
    assert [p for p in problems if p.startswith(f"{path}: {where}")], problems


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("yellow", "settings.assassins.protect: expected an array of strings"),
        (3, "settings.assassins.protect: expected a boolean, a string, or an array"),
    ],
    ids=["text-for-array", "number"],
)
def test_the_kernel_refuses_a_typed_setting_of_another_shape(value: object, expected: str) -> None:
    """The kernel reads the document Python wrote; one it cannot read is one clear line."""
    from tests.native_kit import require_native

    native = require_native()
    data = content_data(build_rules())
    data["typed_settings"]["assassins.protect"] = value
    with pytest.raises(ValueError, match=f"^kernel content: {re.escape(expected)}"):
        native.Kernel(json.dumps(data))


def test_content_alone_cannot_widen_a_settings_choices(tmp_path: Path) -> None:
    """``[setting_choices]`` is the reading plugin's: a house rule adding ``"auction"`` to
    ``bidding`` would pass a value the base game's code does not know."""
    path = tmp_path / "variant.toml"
    path.write_text(
        '[house-rule]\nname = "variant"\n\n[settings]\nbidding = "auction"\n\n'
        '[setting_choices]\nbidding = ["on", "off", "auction"]\n',
        "utf-8",
    )
    assert refusal(path) == [
        f"{path} (plugin 'variant'): setting_choices.bidding: only the plugin that reads a "
        "setting declares its choices"
    ]
