"""Shared helpers live in one place: the command line's way to fail and its
``--expansion`` option in ``cli/common.py``, the scenario helpers tests kept copying in
``naqala.testing.scenario``."""

from __future__ import annotations

import ast
from pathlib import Path

import typer
from typer.testing import CliRunner

from naqala.cli.common import fail
from naqala.core.engine import build_rules
from naqala.core.state import Decision, evolve
from naqala.testing import scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_HELPERS = ("on_tile", "kept", "next_turn_is_also_mine")


def defined_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_the_command_line_fails_through_one_helper() -> None:
    """No command module keeps its own copy of the fail-and-exit helper."""
    copies = {
        path.name
        for path in (ROOT / "cli").glob("*.py")
        if path.name != "common.py" and defined_functions(path) & {"fail", "_fail"}
    }
    assert copies == set()


def test_the_expansion_option_is_declared_once() -> None:
    declared = {
        path.name
        for path in (ROOT / "cli").glob("*.py")
        if '"--expansion"' in path.read_text(encoding="utf-8")
    }
    assert declared == {"common.py"}


def test_fail_prints_one_line_on_stderr_and_exits_with_the_code() -> None:
    app = typer.Typer()

    @app.command()
    def broken(code: int = 2) -> None:
        fail("no such board", code)

    result = CliRunner().invoke(app, ["--code", "3"])
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == "naqala: no such board\n"


def test_the_copied_scenario_helpers_live_in_the_testing_kit() -> None:
    """``on_tile``, ``kept`` and ``next_turn_is_also_mine`` are part of the kit, and no
    test file defines its own copy any more."""
    assert set(SCENARIO_HELPERS) <= set(scenario.__all__)
    copies = {
        path.name: sorted(defined_functions(path) & set(SCENARIO_HELPERS))
        for path in (ROOT / "tests").glob("*.py")
    }
    assert {name: found for name, found in copies.items() if found} == {}


def test_scenario_helpers_read_the_board_and_set_up_the_next_turn() -> None:
    rules = build_rules()
    state = scenario.turn_of(rules, rules.new_game(2, 3), 0)
    state = scenario.board(rules, state, {"a1": "WGG", "b1": "W", "c1": "Y"}, clear=True)
    state = scenario.player(rules, state, 1, meeples="YYW")
    assert scenario.on_tile(rules, state, "a1") == "WGG"
    assert scenario.on_tile(rules, state, "f5") == ""
    assert scenario.kept(rules, state, 1) == "YYW"
    mine = scenario.next_turn_is_also_mine(state)
    assert mine.turn is not None
    assert mine.markers[mine.turn_track[0]] == 0
    assert mine.turn_track[0] != mine.turn.marker
    after = scenario.play(rules, evolve(mine, decision=Decision("sell", 0)), "end")
    assert after.turn is not None and after.turn.marker == mine.turn_track[0]
    assert after.decision.player == 0
