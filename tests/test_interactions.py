"""``naqala interactions``: a paired 2×2 factorial per pair of components, checked on
house rules whose interaction is known by construction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.lab.executors import ProcessExecutor, SerialExecutor
from naqala.lab.interactions import (
    ALL_DJINNS,
    MAX_COMPONENTS,
    InteractionError,
    design_of,
    interactions,
    parse_components,
)
from naqala.lab.study import Ruleset

pytest.importorskip("scipy")

RULE = """
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl

NAME = "{name}"
VERSION = "1"
DESCRIPTION = "a test rule"


@hookimpl
def naqala_score_lines(rules, state, player):
    if {condition}:
        return [ScoreLine("house", {points}, NAME)]
    return []
"""


def rule(tmp_path: Path, name: str, condition: str, points: int) -> Path:
    path = tmp_path / f"{name.replace('-', '_')}.py"
    path.write_text(RULE.format(name=name, condition=condition, points=points))
    return path


@pytest.fixture
def rules(tmp_path: Path) -> dict[str, Path]:
    """Two rules worth 0 alone and 10 a player together; two worth 3 and 5 regardless."""
    return {
        "half-a": rule(tmp_path, "half-a", "False", 0),
        "half-b": rule(tmp_path, "half-b", "'half-a' in rules.ruleset", 10),
        "plus-three": rule(tmp_path, "plus-three", "True", 3),
        "plus-five": rule(tmp_path, "plus-five", "True", 5),
    }


def components(rules: dict[str, Path], *names: str) -> str:
    return ",".join(f"rule:{rules[n]}" for n in names)


def run(text: str, games: int = 3, executor: object = None) -> dict[str, object]:
    design = design_of(Ruleset.of([], []), text, ("random", "random"), 7, games)
    return interactions(design, executor or SerialExecutor())  # type: ignore[arg-type]


def score_cell(data: dict[str, object], a: str, b: str) -> dict[str, object]:
    cells = data["cells"]
    assert isinstance(cells, list)
    [found] = [
        c
        for c in cells
        if c["metric"] == "mean_score" and c["a"].endswith(a) and c["b"].endswith(b)
    ]
    return found  # type: ignore[no-any-return]


def test_rules_that_only_pay_together_interact_by_ten(rules: dict[str, Path]) -> None:
    data = run(components(rules, "half-a", "half-b", "plus-three", "plus-five"))
    joint = score_cell(data, "half_a.py", "half_b.py")
    assert joint["interaction"] == pytest.approx(10)
    assert joint["significant"]
    means = joint["means"]
    assert isinstance(means, dict)
    assert means["both"] - means["neither"] == pytest.approx(10)  # each alone adds 0
    assert means["a"] == means["b"] == means["neither"]
    independent = score_cell(data, "plus_three.py", "plus_five.py")
    assert independent["interaction"] == pytest.approx(0)
    assert not independent["significant"]
    assert score_cell(data, "half_a.py", "plus_three.py")["interaction"] == pytest.approx(0)


def test_every_cell_is_listed_with_its_fields(rules: dict[str, Path]) -> None:
    data = run(components(rules, "half-a", "half-b", "plus-three"))
    cells = data["cells"]
    assert isinstance(cells, list)
    assert len(cells) == 3 * 2  # 3 pairs of house rules × the score and the length
    assert {c["metric"] for c in cells} == {"mean_score", "rounds"}
    for c in cells:
        assert {"a", "b", "metric", "interaction", "ci", "p", "p_holm"} <= set(c)
        low, high = c["ci"]
        assert low <= c["interaction"] <= high
        assert c["p_holm"] >= c["p"]
    assert data["cost"] == {
        "pairs": 3,
        "arms_per_pair": 4,
        "design_games": 36,
        "distinct_arms": 7,  # neither, three alone, three pairs
        "games_played": 21,
    }


def test_a_holders_win_rate_only_for_pairs_with_a_djinn(rules: dict[str, Path]) -> None:
    """A djinn is a card someone holds; a house rule or an item is not: the pair of two
    rules has no ``holder_win_rate`` cell, a djinn with a rule or an item has one."""
    text = f"djinn:jafaar,{components(rules, 'plus-three')},item:burning-scimitar"
    design = design_of(Ruleset.of(["artisans"], []), text, ("random", "random"), 7, 2)
    data = interactions(design, SerialExecutor())
    metrics: dict[tuple[str, str], set[str]] = {}
    for c in data["cells"]:
        metrics.setdefault((c["a"].split(":")[0], c["b"].split(":")[0]), set()).add(c["metric"])
    assert metrics == {
        ("djinn", "rule"): {"mean_score", "holder_win_rate", "rounds"},
        ("djinn", "item"): {"mean_score", "holder_win_rate", "rounds"},
        ("rule", "item"): {"mean_score", "rounds"},
    }


def test_djinn_pairs_share_the_ordinary_game() -> None:
    design = design_of(
        Ruleset.of([], []), "djinn:jafaar,djinn:haurvatat,djinn:enki", ("random",) * 2, 0, 2
    )
    assert design.arms_of(0, 1)["both"] == design.arms_of(1, 2)["both"] == Ruleset()
    assert design.arms_of(0, 1)["neither"].without == ("djinn:haurvatat", "djinn:jafaar")


def test_all_djinns_is_the_full_matrix() -> None:
    design = design_of(Ruleset.of([], []), "all-djinns", ("random",) * 2, 0, 2)
    assert len(design.components) == 22
    assert design.cost()["pairs"] == 231
    assert design.cost()["distinct_arms"] == 1 + 22 + 231


def test_the_same_on_one_and_two_jobs() -> None:
    text = "djinn:jafaar,djinn:haurvatat,djinn:enki"
    pool = ProcessExecutor(2)
    try:
        assert run(text, 2, pool) == run(text, 2)
    finally:
        pool.close()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("djinn:jafaar", "at least two"),
        ("djinn:jafaar,djinn:jafaar", "more than once"),
        ("djinn:jafaar,djinn:nobody", "no djinn 'nobody'"),
        ("djinn:jafaar,wizard", "write djinn:ID"),
        ("djinn:jafaar,rule:/no/such.py", "no such file"),
    ],
)
def test_bad_components_are_one_line(text: str, message: str) -> None:
    with pytest.raises(InteractionError, match=message):
        design_of(Ruleset.of([], []), text, ("random",) * 2, 0, 2)
    result = CliRunner().invoke(app, ["interactions", "--components", text, "-n", "2"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_card_left_out_everywhere_cannot_vary() -> None:
    base = Ruleset.of([], [], ["djinn:enki"])
    with pytest.raises(InteractionError, match="djinn:enki is left out of every arm"):
        design_of(base, "djinn:jafaar,djinn:enki", ("random",) * 2, 0, 2)


def test_the_command_prints_json_and_a_report(rules: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "matrix.html"
    args = ["interactions", "--components", components(rules, "half-a", "half-b")]
    args += ["-n", "2", "-p", "2", "-j", "1", "--json", "--report", str(page)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["cells"][0]["interaction"] == 10
    text = page.read_text()
    assert 'id="fig-mean_score"' in text and 'id="fig-rounds"' in text
    assert 'id="fig-holder_win_rate"' not in text  # no djinn among the components


def test_too_many_components_are_refused_at_once_saying_what_they_cost() -> None:
    """1,000 components ran past 90 s before answering (500,501 arms laid out and built):
    now one line, the number counted before anything is read or built."""
    text = ",".join(f"djinn:d{i}" for i in range(1000))
    with pytest.raises(InteractionError, match="1000 components") as raised:
        parse_components(text, build_rules())
    assert f"at most {MAX_COMPONENTS} components" in str(raised.value)
    result = CliRunner().invoke(app, ["interactions", "--components", text, "-n", "2"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("naqala: --components names 1000 components: 499,500 pairs")
    assert "500,501 distinct arms to play, 1,001,002 games at 2 an arm" in result.stderr
    assert "at most 40 components (780 pairs, 821 arms)" in result.stderr


def test_all_djinns_counts_its_djinns_against_the_limit() -> None:
    rules = build_rules(["artisans", "thieves", "whims"])
    djinns = len(parse_components(ALL_DJINNS, rules))
    assert djinns == 27  # every djinn of every expansion fits, with room besides
    more = ",".join(f"djinn:x{i}" for i in range(MAX_COMPONENTS - djinns + 1))
    with pytest.raises(InteractionError, match=f"names {MAX_COMPONENTS + 1} components"):
        parse_components(f"{ALL_DJINNS},{more}", rules)
    fits = ",".join(f"djinn:x{i}" for i in range(MAX_COMPONENTS - djinns))
    assert len(parse_components(f"{ALL_DJINNS},{fits}", rules)) == MAX_COMPONENTS
