"""``naqala tune``: the space, the objectives, the early stop, resuming, and a best.toml
that compare and play accept, with small budgets (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomli
from cli_kit import one_line, run
from typer.testing import Result

from naqala.core.engine import build_rules
from naqala.lab import tune
from naqala.lab.executors import SerialExecutor
from naqala.lab.objectives import ObjectiveError, parse_objective, seat_fairness
from naqala.lab.results import GameResult
from naqala.lab.space import SpaceError, house_rule, load_space
from naqala.lab.study import Ruleset
from naqala.lab.tune import Plan, clearly_worse, play_rules

SPACE = """\
[tune]
name = "fair-viziers"

[[knob]]
target = "settings"
field = "vizier_bonus"
low = 5
high = 20

[[knob]]
target = "djinn:jafaar"
param = "vizier_vp"
values = [2, 3, 4]

[[knob]]
target = "tile:oasis"
field = "vp"
low = 4
high = 10
"""


@pytest.fixture
def space(tmp_path: Path) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(SPACE, encoding="utf-8")
    return path


def test_a_point_of_the_space_is_a_content_house_rule_the_rules_take(
    space: Path, tmp_path: Path
) -> None:
    knobs = load_space(space)
    point = {"settings.vizier_bonus": 14, "djinn:jafaar.vizier_vp": 4, "tile:oasis.vp": 9}
    text = house_rule(knobs, point, "1", "tuned")
    document = tomli.loads(text)
    assert document["house-rule"] == {
        "name": "fair-viziers",
        "version": "1",
        "description": "tuned",
    }
    rule = tmp_path / "best.toml"
    rule.write_text(text, encoding="utf-8")
    rules = build_rules([], [rule])
    assert rules.content.settings["vizier_bonus"] == 14
    assert rules.content.card("jafaar").params["vizier_vp"] == 4
    assert {t.vp for t in rules.content.tiles if t.kind == "oasis"} == {9}


@pytest.mark.parametrize(
    ("knob", "message"),
    [
        ('target = "settings"\nlow = 1\nhigh = 2', "$.knob[0]: give either field or param"),
        ('target = "tile:oasis"\nfield = "vp"\nvalues = [1]\nlow = 1\nhigh = 2', "either values"),
        ('target = "tile:oasis"\nfield = "vp"\nlow = 5\nhigh = 2', "low 5 is above high 2"),
        ('target = "tile:oasis"\nfield = "vp"\nlow = 1', "give both low and high"),
        ('target = "tile:oasis"\nfield = "vp"\nvalues = []', "values is empty"),
        ('target = "settings"\nparam = "x"\nvalues = [1]', "a setting is a field"),
        (
            'target = "tile:oasis"\nfield = "vp"\nstep = 2\nlow = 1\nhigh = 2',
            "$.knob[0]: extra fields found (step)",
        ),
    ],
)
def test_a_bad_knob_is_one_line_naming_the_file_and_path(
    tmp_path: Path, knob: str, message: str
) -> None:
    path = tmp_path / "space.toml"
    path.write_text(f"[[knob]]\n{knob}\n", encoding="utf-8")
    with pytest.raises(SpaceError, match=str(path)) as raised:
        load_space(path)
    assert message in str(raised.value)
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert message in line


def test_a_knob_naming_no_entry_is_refused_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "space.toml"
    path.write_text('[[knob]]\ntarget = "djinn:jafar"\nparam = "x"\nvalues = [1]\n', "utf-8")
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert str(path) in line and "djinn:jafar" in line


def test_objectives_and_their_weights() -> None:
    goal = parse_objective("seat-fairness=2,spread=0.01", None)
    assert goal.weights == (("seat-fairness", 2.0), ("spread", 0.01))
    for bad, message in (
        ("fun", "unknown objective 'fun'"),
        ("spread=x", "is not a number"),
        ("spread=-1", "above 0"),
        ("spread,spread", "given twice"),
        ("length", "needs --target-rounds"),
    ):
        with pytest.raises(ObjectiveError, match=message):
            parse_objective(bad, None)


def test_seat_fairness_is_the_rms_distance_and_its_pseudo_values_average_to_it() -> None:
    def game(first_wins: bool) -> GameResult:
        return GameResult(0, 1, 1, (1, 0), (0,) if first_wins else (1,), (), (), {}, (), (0, 1))

    games = [game(True), game(True), game(True), game(False)]
    loss, pseudo = seat_fairness(games, 2)
    assert loss == pytest.approx(0.25)  # rates 0.75 and 0.25, each 0.25 from ½
    assert sum(pseudo) / len(pseudo) == pytest.approx(loss)


def test_clearly_worse_needs_evidence() -> None:
    assert clearly_worse([2.0] * 5, [1.0] * 5, 0.01)
    assert not clearly_worse([1.0] * 5, [1.0] * 5, 0.01)
    assert not clearly_worse([1.0, 3.0, 0.0, 2.0], [1.5, 1.0, 1.0, 2.5], 0.05)
    assert clearly_worse([5.0, 6.0, 7.0, 5.5, 6.5], [1.0, 1.2, 0.9, 1.1, 1.0], 0.05)


def test_a_clearly_worse_trial_stops_at_an_early_look(tmp_path: Path) -> None:
    knobs = tmp_path / "space.toml"
    knobs.write_text('[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [10, 300]\n')
    space = load_space(knobs)
    plan = Plan(space, parse_objective("spread", None), Ruleset(), ("random",) * 2, 30, 3)
    executor = SerialExecutor()
    rules = []
    for bonus in (10, 300):
        path = tmp_path / f"bonus-{bonus}.toml"
        path.write_text(house_rule(space, {"settings.vizier_bonus": bonus}, "1", ""), "utf-8")
        rules.append(Ruleset.of([], [path]))
    reference, pruned = play_rules(plan, rules[0], executor)
    assert not pruned and len(reference.pseudo) == 30
    worse, pruned = play_rules(plan, rules[1], executor, worse_than=reference)
    assert pruned and len(worse.games) == 10  # the first of three looks
    same, pruned = play_rules(plan, rules[0], executor, worse_than=reference)
    assert not pruned and same.loss == reference.loss


def test_a_trial_is_never_pruned_at_its_last_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the last look every game is played: a trial worse there is a finished trial with
    its loss (optuna's COMPLETE), not a pruned one whose games are lost to the search."""
    knobs = tmp_path / "space.toml"
    knobs.write_text('[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [10]\n')
    space = load_space(knobs)
    plan = Plan(space, parse_objective("spread", None), Ruleset(), ("random",) * 2, 6, 3)
    executor = SerialExecutor()
    reference, _ = play_rules(plan, Ruleset(), executor)
    looks: list[int] = []

    def worse_only_at_the_end(trial: list[float], best: list[float], level: float) -> bool:
        looks.append(len(trial))
        return len(trial) == plan.games

    monkeypatch.setattr(tune, "clearly_worse", worse_only_at_the_end)
    last, pruned = play_rules(plan, Ruleset(), executor, worse_than=reference)
    assert not pruned and len(last.games) == plan.games
    assert looks == [2, 4]  # asked at the early looks only


def small(space: Path, out: Path, *more: str) -> list[str]:
    return ["tune", str(space), "--out", str(out), "--trials", "3", "--games", "4",
            "--seats", "random,random", "--json", *more]  # fmt: skip


def _trials(result: Result) -> list[dict[str, object]]:
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return [{k: t[k] for k in ("number", "state", "params", "loss")} for t in data["trials"]]


def test_the_tune_is_the_same_on_one_and_two_jobs(space: Path, tmp_path: Path) -> None:
    one = run(*small(space, tmp_path / "one.toml", "-j", "1"))
    two = run(*small(space, tmp_path / "two.toml", "-j", "2"))
    assert _trials(one) == _trials(two)
    assert (tmp_path / "one.toml").read_text() == (tmp_path / "two.toml").read_text()
    data = json.loads(one.stdout)
    assert len(data["trials"]) == 3 and data["comparison"]["games"] == 4
    assert "loss" in data["original"] and data["best"]["params"]


def test_best_toml_is_a_house_rule_compare_and_play_accept(space: Path, tmp_path: Path) -> None:
    best = tmp_path / "best.toml"
    page = tmp_path / "tune.html"
    assert run(*small(space, best, "--report", str(page))).exit_code == 0
    text = page.read_text(encoding="utf-8")
    for part in ('id="fig-history"', 'id="fig-importance"', 'id="table-trials"', "table-paired"):
        assert part in text
    got = run("compare", "--house-rules", str(best), "-n", "2", "-p", "2", "--json")
    assert got.exit_code == 0, got.stderr
    assert json.loads(got.stdout)["variant_plugins"] == ["base", "fair-viziers"]
    got = run("play", "--seats", "ai:random,ai:random", "--seed", "1", "--house-rules", str(best))
    assert got.exit_code == 0, got.stderr


def test_running_again_resumes_from_the_storage(space: Path, tmp_path: Path) -> None:
    out = tmp_path / "best.toml"
    first = _trials(run(*small(space, out)))
    args = small(space, out)
    args[args.index("--trials") + 1] = "5"
    again = _trials(run(*args))
    assert len(again) == 5 and again[:3] == first
    assert (tmp_path / "best.toml.optuna.db").exists()


def test_the_tune_is_the_same_on_both_engines(space: Path, tmp_path: Path) -> None:
    """Random seats and content-only trials: ``--engine native`` plays every trial's
    games natively, with the Python engine's trials and best rule."""
    from native_kit import require_native

    require_native()
    python = run(*small(space, tmp_path / "python.toml", "-j", "1", "--engine", "python"))
    native = run(*small(space, tmp_path / "native.toml", "-j", "1", "--engine", "native"))
    assert native.stderr == ""
    assert _trials(native) == _trials(python)
    assert (tmp_path / "native.toml").read_text() == (tmp_path / "python.toml").read_text()
    assert json.loads(native.stdout)["comparison"] == json.loads(python.stdout)["comparison"]


def test_a_point_already_played_is_never_played_again(tmp_path: Path) -> None:
    """The sampler asks for a value twice (trial 2 here, seeded): it is answered from the
    earlier trial with no game, and the budget goes to the points not yet played; a space
    smaller than the trials asked is played whole, once each."""
    three = tmp_path / "three.toml"
    three.write_text(
        '[tune]\nname = "three"\n\n[[knob]]\ntarget = "settings"\n'
        'field = "vizier_bonus"\nvalues = [5, 10, 15]\n'
    )
    for asked in (3, 5):
        out = tmp_path / f"best-{asked}.toml"
        got = run("tune", str(three), "--out", str(out), "--trials", str(asked), "--games", "4",
                  "--seats", "random,random", "--json", "-j", "1")  # fmt: skip
        assert got.exit_code == 0, got.stderr
        data = json.loads(got.stdout)
        values = [t["params"]["settings.vizier_bonus"] for t in data["trials"]]
        assert sorted(values) == [5, 10, 15], values
        assert data["repeats_skipped"] >= 1 and data["space_points"] == 3


BASE_RULE = """\
[house-rule]
name = "rich-villages"
description = "villages are worth more, and nobody bids"

[settings]
bidding = "off"

[[override]]
target = "tile:village"
vp = 7
"""


def test_the_answer_on_a_toml_rule_is_one_self_contained_house_rule(
    space: Path, tmp_path: Path
) -> None:
    """Tuned on top of a TOML house rule, best.toml carries that rule's content with the
    knobs' values: alone, it plays the very games the rule and the knobs play together."""
    from naqala.lab.space import self_contained

    base = tmp_path / "rich_oases.toml"
    base.write_text(BASE_RULE)
    best = tmp_path / "best.toml"
    got = run(*small(space, best, "--house-rules", str(base), "-j", "1"))
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["needs_with_it"] == []
    answer = tomli.loads(best.read_text())
    params = data["best"]["params"]
    assert answer["settings"] == {"bidding": "off", "vizier_bonus": params["settings.vizier_bonus"]}
    targets = {o["target"]: o for o in answer["override"]}
    assert targets["tile:oasis"]["vp"] == params["tile:oasis.vp"]
    assert targets["tile:village"] == {"target": "tile:village", "vp": 7}
    assert targets["djinn:jafaar"]["params"] == {"vizier_vp": params["djinn:jafaar.vizier_vp"]}
    knobs_only = tmp_path / "knobs.toml"
    knobs_only.write_text(house_rule(load_space(space), params, "1", ""))
    assert self_contained(knobs_only.read_text(), []) == knobs_only.read_text()
    games = [
        "simulate",
        "-n",
        "3",
        "-p",
        "3",
        "-j",
        "1",
        "--json",
        "--seats",
        "greedy,random,greedy",
    ]
    alone = json.loads(run(*games, "--house-rules", str(best)).stdout)
    together = run(*games, "--house-rules", str(base), "--house-rules", str(knobs_only))
    for key in ("mean_score", "mean_score_by_category", "wins_by_seat", "mean_rounds"):
        assert alone[key] == json.loads(together.stdout)[key], key
    python_rule = tmp_path / "rule.py"
    python_rule.write_text('NAME = "nothing"\nVERSION = "1"\nDESCRIPTION = "no change"\n')
    assert self_contained(knobs_only.read_text(), [("rule.py", b"")]) is None
    got = run(*small(space, tmp_path / "py.toml", "--house-rules", str(python_rule), "-j", "1"))
    assert got.exit_code == 0, got.stderr
    assert json.loads(got.stdout)["needs_with_it"] == ["rule.py"]
