"""``naqala extremes``: the search finds a planted rare payoff within its budget, and its
witness replays (``naqala replay --verify``) and reaches the value reported."""

from __future__ import annotations

import json
import runpy
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.metrics import Metric
from naqala.core.record import load_record, replay, rules_for_record
from naqala.lab.extremes import (
    METRICS,
    Budget,
    ExtremesError,
    measure_states,
    metrics_of,
    register_metric,
    search,
)

#: 140 points to a player whose coins are exactly 13 (rare in random play, one greedy
#: step away whenever a sale or a market can land on it)
PLANTED = """
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl

NAME = "lucky-thirteen"
VERSION = "1"
DESCRIPTION = "140 points while you hold exactly 13 coins"


@hookimpl
def naqala_score_lines(rules, state, player):
    if state.players[player].coins == 13:
        return [ScoreLine("luck", 140, NAME)]
    return []
"""


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    path = tmp_path / "lucky_thirteen.py"
    path.write_text(PLANTED)
    return path


def test_finds_the_planted_payoff_and_the_witness_replays(planted: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["extremes", "--metric", "points-in-a-turn", "--budget", "6g", "-p", "2"]
    args += ["--house-rules", str(planted), "--out", str(out), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    # 140 less the coins (worth a point each) spent to land on 13; a turn of the plain
    # rules scores far less
    assert data["value"] >= 120
    assert data["baseline"] < 100
    assert data["baseline_of"] == "without_house_rules"
    witness = Path(data["witness"])
    verify = CliRunner().invoke(
        app, ["replay", "--verify", str(witness), "--house-rules", str(planted)]
    )
    assert verify.exit_code == 0, verify.stderr
    record = load_record(witness)
    rules = rules_for_record(record, [planted])
    states = replay(record, rules)
    assert measure_states(rules, METRICS["points-in-a-turn"], states) == data["value"]
    scenario = runpy.run_path(str(out / "test_extreme_points_in_a_turn.py"))
    [test] = [f for name, f in scenario.items() if name.startswith("test_")]
    test()  # the pasteable scenario test passes next to its record


def test_the_time_budget_holds() -> None:
    rules = build_rules([])
    start = time.monotonic()
    found, candidates = search(rules, 2, METRICS["coins-in-a-turn"], Budget(seconds=3), 1)
    elapsed = time.monotonic() - start
    assert candidates >= 1
    assert found.value > 0
    # the budget, plus at most the candidate game that was running when it ran out
    assert elapsed < 3 + 10


def test_a_game_budget_is_the_same_search_every_time() -> None:
    rules = build_rules([])
    metric = METRICS["rounds"]
    first = search(rules, 2, metric, Budget(games=4), 3)
    assert first == search(rules, 2, metric, Budget(games=4), 3)
    assert first[1] == 4
    assert first[0].value >= 1


def test_metrics_are_a_registry_that_refuses_clashes() -> None:
    with pytest.raises(ExtremesError, match="already registered"):
        register_metric(Metric("rounds", "again", lambda r, s, p: 0, "game"))


#: a house rule that only offers a metric: the most camels one player takes in a turn
CAMELS = """
from naqala.core.hookspecs import hookimpl
from naqala.core.metrics import Metric

NAME = "camel-count"
VERSION = "1"
DESCRIPTION = "a metric: camels placed in one turn"


@hookimpl
def naqala_metrics():
    # camels is what a player has left to place: one goes down on every tile claimed
    return [Metric("{name}", "the most camels one player placed in one turn",
                   lambda rules, state, player: -state.players[player].camels, "turn")]
"""


def test_naqala_metrics_lets_a_house_rule_offer_a_metric_that_extremes_searches(
    tmp_path: Path,
) -> None:
    path = tmp_path / "camel_count.py"
    path.write_text(CAMELS.format(name="camels-in-a-turn"))
    out = tmp_path / "out"
    args = ["extremes", "--metric", "camels-in-a-turn", "--budget", "3g", "-p", "2"]
    args += ["--house-rules", str(path), "--out", str(out), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["metric"] == "camels-in-a-turn" and data["value"] >= 1
    record = load_record(Path(data["witness"]))
    rules = rules_for_record(record, [path])
    assert "camels-in-a-turn" in metrics_of(rules)
    # a metric reads states: it provides no rule, so the rules stay native
    assert [p.entry for p in rules.provided if p.plugin == "camel-count"] == ["plugin:camel-count"]
    scenario = runpy.run_path(str(out / "test_extreme_camels_in_a_turn.py"))
    [test] = [f for name, f in scenario.items() if name.startswith("test_")]
    test()
    unknown = CliRunner().invoke(app, ["extremes", "--metric", "camels-in-a-turn"])
    assert unknown.exit_code == 2  # without the house rule there is no such metric
    assert "unknown metric 'camels-in-a-turn'" in unknown.stderr


def test_a_plugin_metric_named_as_a_shipped_one_is_refused_naming_the_plugin(
    tmp_path: Path,
) -> None:
    path = tmp_path / "camel_count.py"
    path.write_text(CAMELS.format(name="rounds"))
    args = ["extremes", "--metric", "rounds", "--budget", "2g", "--house-rules", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr == (
        "naqala: metric 'metric:rounds' is provided by both 'camel-count' and "
        "'naqala.lab.extremes'; a plugin that means to replace it must list "
        "'metric:rounds' in its REPLACES\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--metric", "speed"], "unknown metric 'speed'; known: coins-in-a-turn"),
        (["--budget", "soon"], "--budget 'soon': write seconds (60s)"),
        (["--budget", "0s"], "--budget '0s'"),
        (["-p", "9"], "9"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["extremes", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("per", ["round", "Turn", "", "games"])
def test_a_plugin_metric_with_any_other_per_is_refused_in_one_line(
    tmp_path: Path, per: str
) -> None:
    path = tmp_path / "camel_count.py"
    text = CAMELS.format(name="camels-in-a-round").replace('"turn")]', f"{per!r})]")
    assert repr(per) in text  # the metric really offers this per
    path.write_text(text)
    args = ["extremes", "--metric", "camels-in-a-round", "--budget", "2g", "-p", "2"]
    result = CliRunner().invoke(app, [*args, "--house-rules", str(path)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"naqala: metric 'camels-in-a-round': per must be 'turn' or 'game', not {per!r}\n"
    )
    with pytest.raises(ValueError, match="per must be"):
        Metric("m", "d", lambda r, s, p: 0, per)
