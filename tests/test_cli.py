"""The ``naqala`` command line: making states, listing and applying actions, scoring,
simulating — and failing with exit code 2, one clear message on stderr and nothing on
stdout whenever the input is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.actions import parse_action
from naqala.core.plugins import BASE, installed_entry_points
from naqala.core.serialize import state_from_json, state_to_json
from naqala.testing.scenario import base_rules

runner = CliRunner()


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def ok(*args: str, stdin: str | bytes | None = None) -> str:
    result = run(*args, stdin=stdin)
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert result.stderr == ""
    return result.stdout


def fails(*args: str, stdin: str | bytes | None = None) -> str:
    """Run a command that must fail cleanly; return its stderr."""
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "", "a failing command must print nothing on stdout"
    assert result.stderr.strip(), "a failing command must say why"
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture()
def new_state(tmp_path: Path) -> Path:
    """A new 3-player game, seed 4, saved by ``naqala state new``."""
    path = tmp_path / "state.json"
    path.write_text(ok("state", "new", "--players", "3", "--seed", "4"), encoding="utf-8")
    return path


def test_state_new_prints_a_state_that_actions_lists_options_for(new_state: Path) -> None:
    """``state new`` prints a state JSON; ``actions`` lists its legal options, one
    notation per line, the same as the engine's."""
    rules, state = state_from_json(new_state.read_text(encoding="utf-8"))
    assert len(state.players) == 3
    assert state == base_rules().new_game(3, 4)
    lines = ok("actions", str(new_state)).splitlines()
    assert lines
    assert lines == [str(a) for a in rules.legal_actions(state)]
    assert all(parse_action(line).kind == "bid" for line in lines)


def test_state_new_is_deterministic() -> None:
    """The same players and seed print the same state; another seed another one."""
    first = ok("state", "new", "-p", "2", "-s", "9")
    assert ok("state", "new", "-p", "2", "-s", "9") == first
    assert ok("state", "new", "-p", "2", "-s", "10") != first


def test_apply_applies_actions_and_prints_the_new_state(new_state: Path) -> None:
    """``apply STATE A B`` applies the actions in order and prints the resulting state."""
    rules, state = state_from_json(new_state.read_text(encoding="utf-8"))
    chosen = []
    expected = state
    for _ in range(3):
        action = rules.legal_actions(expected)[-1]
        chosen.append(str(action))
        expected = rules.apply(expected, action)
    out = ok("apply", str(new_state), *chosen)
    assert state_from_json(out)[1] == expected
    assert out == state_to_json(rules, expected)


def test_apply_chains_through_files(tmp_path: Path, new_state: Path) -> None:
    """The output of ``apply`` is a state file that ``actions`` and ``apply`` read again."""
    current = new_state
    for step in range(6):
        options = ok("actions", str(current)).splitlines()
        nxt = tmp_path / f"step{step}.json"
        nxt.write_text(ok("apply", str(current), options[0]), encoding="utf-8")
        current = nxt
    assert state_from_json(current.read_text(encoding="utf-8"))[1].decision.stage != "bid"


def test_illegal_action_exits_2_naming_the_action(new_state: Path) -> None:
    """An action that is not legal now: exit 2, stderr names it, stdout stays empty."""
    err = fails("apply", str(new_state), "pick c3")
    assert "pick c3" in err
    err = fails("apply", str(new_state), "bid 7")
    assert "bid 7" in err and "no spot costing 7" in err


def test_illegal_second_action_names_which_one(new_state: Path) -> None:
    """When the second of two actions is illegal, nothing is printed and the message
    says it was action 2."""
    first = ok("actions", str(new_state)).splitlines()[0]
    err = fails("apply", str(new_state), first, "drop a1 Y")
    assert "action 2" in err and "drop a1 Y" in err


@pytest.mark.parametrize("text", ["bid $5", "", "drop c3 W!"])
def test_malformed_notation_exits_2(new_state: Path, text: str) -> None:
    """Notation that cannot be parsed: exit 2, a message quoting it, nothing on stdout."""
    err = fails("apply", str(new_state), text)
    assert repr(text) in err


def test_score_prints_lines_whose_totals_add_up(new_state: Path) -> None:
    """``score`` prints JSON: per player, score lines whose points add up to the total,
    and the totals agree with the engine."""
    rules, state = state_from_json(new_state.read_text(encoding="utf-8"))
    data = json.loads(ok("score", str(new_state)))
    assert data["over"] is False
    assert [p["player"] for p in data["players"]] == [0, 1, 2]
    for player in data["players"]:
        assert player["total"] == sum(line["points"] for line in player["lines"])
        assert {"category", "points", "source", "detail"} <= set(player["lines"][0])
    assert tuple(p["total"] for p in data["players"]) == rules.scores(state)
    assert data["winners"] == list(rules.winners(state))


def test_score_of_a_finished_game(tmp_path: Path) -> None:
    """``score`` of a game played to its end says it is over and names the winners."""
    from naqala.core.simulate import play_game

    rules = base_rules()
    state, _ = play_game(rules, 2, seed=5)
    path = tmp_path / "over.json"
    path.write_text(state_to_json(rules, state), encoding="utf-8")
    data = json.loads(ok("score", str(path)))
    assert data["over"] is True
    assert data["winners"] == list(rules.winners(state))
    for player in data["players"]:
        assert player["total"] == sum(line["points"] for line in player["lines"])
    assert ok("actions", str(path)) == ""


def test_unknown_expansion_exits_2_listing_known_ones() -> None:
    """``state new -x nosuch``: exit 2, names the expansion and lists the known ones."""
    err = fails("state", "new", "-x", "nosuch")
    assert "nosuch" in err
    assert "known expansions" in err
    for name in installed_entry_points():
        if name != BASE:
            assert name in err


def test_unsupported_player_count_exits_2() -> None:
    """A player count the rules do not support: exit 2 with the allowed counts."""
    err = fails("state", "new", "--players", "7")
    assert "7 players" in err and "2, 3, 4" in err
    fails("simulate", "--games", "1", "--players", "1", "--json")


def test_missing_state_file_exits_2(tmp_path: Path) -> None:
    """A STATE path that does not exist: exit 2, names the file."""
    missing = tmp_path / "nope.json"
    for command in ("actions", "score"):
        err = fails(command, str(missing))
        assert str(missing) in err and "cannot read" in err
    assert str(missing) in fails("apply", str(missing), "bid 0")


def test_directory_as_state_file_exits_2(tmp_path: Path) -> None:
    """A directory given as STATE: exit 2, names it."""
    assert str(tmp_path) in fails("actions", str(tmp_path))


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"format": "naqala-state", "version": 99}',
        "[]",
        "",
    ],
    ids=["not-json", "wrong-version", "array", "empty"],
)
def test_corrupt_state_file_exits_2(tmp_path: Path, content: str) -> None:
    """A STATE file that is not a naqala state: exit 2, names the file and the problem."""
    path = tmp_path / "corrupt.json"
    path.write_text(content, encoding="utf-8")
    err = fails("actions", str(path))
    assert str(path) in err and "not a naqala state" in err


def test_corrupt_field_names_its_json_path(tmp_path: Path, new_state: Path) -> None:
    """A state with one bad field: the message carries the JSON path of that field."""
    data = json.loads(new_state.read_text(encoding="utf-8"))
    data["players"][1]["coins"] = "fifty"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "$.players[1].coins" in fails("score", str(path))


def test_state_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    """A binary (non-UTF-8) STATE file or standard input: exit 2 with a message, not a
    traceback."""
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage\x80")
    assert str(path) in fails("actions", str(path))
    fails("actions", "-", stdin=b"\xff\xfe\x00garbage\x80")


def test_dash_reads_the_state_from_stdin(new_state: Path) -> None:
    """STATE given as ``-`` is read from standard input, for every command."""
    text = new_state.read_text(encoding="utf-8")
    assert ok("actions", "-", stdin=text) == ok("actions", str(new_state))
    assert ok("score", "-", stdin=text) == ok("score", str(new_state))
    first = ok("actions", str(new_state)).splitlines()[0]
    assert ok("apply", "-", first, stdin=text) == ok("apply", str(new_state), first)


def test_dash_with_corrupt_stdin_exits_2() -> None:
    """Garbage on standard input: exit 2, nothing on stdout."""
    assert "not a naqala state" in fails("actions", "-", stdin="garbage")


def test_simulate_json_summary() -> None:
    """``simulate --games 3 --players 3 --seed 5 --json`` prints one JSON object with the
    summary keys, consistent with its arguments."""
    data = json.loads(ok("simulate", "--games", "3", "--players", "3", "--seed", "5", "--json"))
    for key in ("games", "players", "seed", "mean_rounds", "mean_score", "wins_by_seat"):
        assert key in data
    assert (data["games"], data["players"], data["seed"]) == (3, 3, 5)
    assert len(data["wins_by_seat"]) == 3
    assert sum(data["wins_by_seat"]) == pytest.approx(3, abs=0.01)
    assert data["mean_rounds"] >= 1
    assert data["plugins"] == ["base"]


def test_simulate_without_json_prints_a_summary() -> None:
    """Plain ``simulate`` prints a human-readable summary."""
    out = ok("simulate", "--games", "1", "--players", "2", "--seed", "1")
    assert "1 games, 2 players, seed 1" in out


def test_simulate_refuses_zero_games() -> None:
    """``--games 0`` is a usage error (exit 2), nothing on stdout."""
    result = run("simulate", "--games", "0", "--json")
    assert result.exit_code == 2
    assert result.stdout == ""


def test_the_list_of_commands_shows_each_summary_without_the_docstrings_line_breaks() -> None:
    """A summary spread over several lines of its docstring is one sentence in the list:
    on a wide terminal it sits on the command's own line, not broken where the source
    happened to wrap (the compare summary once broke after "effect sizes,")."""
    for args, name, last_words in (
        (["--help"], "compare", "Holm-adjusted significance."),
        (["--help"], "simulate", "card effects."),
        (["content", "--help"], "check", "if there is any."),
    ):
        result = runner.invoke(app, args, env={"COLUMNS": "400"})
        assert result.exit_code == 0, result.output
        line = next(ln for ln in result.output.splitlines() if f" {name} " in ln)
        assert last_words in line, result.output
