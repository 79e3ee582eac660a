"""``naqala compare``: the paired statistics (against textbook values and scipy's own
functions), the report of two runs of the same games, a real comparison with the
big-viziers house rule, sequential stopping, and the command."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from scipy import stats as sps
from typer.testing import CliRunner, Result

from naqala.cli.compare import register, wants_progress
from naqala.core.engine import build_rules
from naqala.core.plugins import PluginError
from naqala.lab import sequential
from naqala.lab.compare import CompareError, Sequential, check, compare, metric_values, report
from naqala.lab.executors import SerialExecutor
from naqala.lab.results import GameResult, wilson
from naqala.lab.stats import (
    effect_size_interval,
    holm,
    mean_interval,
    paired_means,
    paired_wins,
)
from naqala.lab.study import Ruleset, Study

HOUSE = Path(__file__).resolve().parent.parent / "plugins" / "house"
BIG_VIZIERS = HOUSE / "big_viziers.toml"

# Student (1908) / R's ``sleep`` data: extra hours of sleep of 10 patients under two drugs
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


# -- intervals and tests -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", table
    # II, method 3 (Wilson score interval without continuity correction)
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_newcombe(successes: int, n: int, low: float, high: float) -> None:
    assert wilson(successes, n) == pytest.approx((low, high), abs=5e-5)
    # and scipy's own Wilson interval of the same proportion
    ci = sps.binomtest(successes, n).proportion_ci(method="wilson")
    assert wilson(successes, n) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_wilson_interval_edges() -> None:
    """0/n starts at 0 and n/n ends at 1; fractional successes (split wins) are allowed;
    nonsense is refused."""
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(2.5, 10)
    assert low < 0.25 < high
    for bad in ((11, 10), (-1, 10), (0, 0)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_mean_interval_by_hand() -> None:
    """1, 2, 3, 4, 5: mean 3, s = 1.5811, SE = 0.70711, t(0.975, 4) = 2.7764: 3 ± 1.9632."""
    assert mean_interval([1, 2, 3, 4, 5]) == pytest.approx((1.0368, 4.9632), abs=1e-4)
    assert mean_interval([4, 4, 4]) == (4, 4)
    with pytest.raises(ValueError):
        mean_interval([1.0])


def test_paired_t_on_the_sleep_data_matches_the_textbook() -> None:
    """R: t.test(extra ~ group, data = sleep, paired = TRUE) gives t = −4.0621 for group 1
    − group 2, df = 9, p = 0.002833, 95% CI −2.4599 … −0.7001; here drug 2 is the variant."""
    entry = paired_means(SLEEP_1, SLEEP_2)
    assert entry["difference"] == pytest.approx(1.58)
    assert entry["t"] == pytest.approx(4.0621, abs=1e-4)
    assert entry["p_value"] == pytest.approx(0.002833, abs=1e-6)
    assert entry["ci"] == pytest.approx([0.7001, 2.4599], abs=1e-4)
    assert entry["p_wilcoxon"] == pytest.approx(
        sps.wilcoxon(np.subtract(SLEEP_2, SLEEP_1)).pvalue, rel=1e-3
    )
    # d_z = 1.58 / 1.2300 = 1.2845, and its interval inverts the noncentral t exactly
    assert entry["effect_size"]["dz"] == pytest.approx(
        1.58 / np.std(np.subtract(SLEEP_2, SLEEP_1), ddof=1), abs=1e-4
    )
    low, high = effect_size_interval(4.062127683382037, 10)
    assert sps.nct.cdf(4.062127683382037, 9, low * math.sqrt(10)) == pytest.approx(0.975)
    assert sps.nct.cdf(4.062127683382037, 9, high * math.sqrt(10)) == pytest.approx(0.025)
    assert entry["effect_size"]["ci"] == pytest.approx([low, high], abs=1e-4)
    assert low < entry["effect_size"]["dz"] < high


def test_paired_means_without_variance() -> None:
    """The same games under both rule sets: no difference, p = 1; every game changed by
    the same amount: a certain difference, p = 0, an undefined (None) effect size."""
    same = paired_means([1, 2, 3], [1, 2, 3])
    assert same["difference"] == 0 and same["p_value"] == 1 and same["effect_size"]["dz"] == 0
    shifted = paired_means([1, 2, 3], [3, 4, 5])
    assert shifted["difference"] == 2 and shifted["p_value"] == 0
    assert shifted["effect_size"]["dz"] is None
    with pytest.raises(ValueError):
        paired_means([1.0], [2.0])


def test_mcnemar_exact_is_the_binomial_test_of_the_discordant_games() -> None:
    """3 games won under the baseline only, 12 under the variant only (and 5 by both, 80 by
    neither): p = 2·P(X ≤ 3), X ~ Bin(15, ½) = 2·576/32768 = 0.03515625."""
    baseline = [True] * 3 + [False] * 12 + [True] * 5 + [False] * 80
    variant = [False] * 3 + [True] * 12 + [True] * 5 + [False] * 80
    entry = paired_wins(baseline, variant)
    assert entry["discordant"] == {"baseline_only": 3, "variant_only": 12}
    assert entry["p_value"] == pytest.approx(0.03515625, rel=1e-3)  # 4 significant digits
    assert entry["difference"] == pytest.approx(0.09)
    # the paired (Wald) interval of the difference: var = ((b + c)/n − d²)/n
    half = 1.959964 * math.sqrt((15 / 100 - 0.09**2) / 100)
    assert entry["ci"] == pytest.approx([0.09 - half, 0.09 + half], abs=1e-4)
    ci = sps.binomtest(12, 15).proportion_ci(method="exact")
    assert entry["odds_ratio"]["value"] == 4
    assert entry["odds_ratio"]["ci"] == pytest.approx(
        [ci.low / (1 - ci.low), ci.high / (1 - ci.high)], abs=1e-4
    )
    none = paired_wins([True, False], [True, False])
    assert none["p_value"] == 1 and none["odds_ratio"] is None


def test_holm_by_hand() -> None:
    """p = 0.01, 0.04, 0.03, 0.005: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06,
    0.04·1 → 0.06 (never below the one before); capped at 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_sequential_levels_spend_alpha_and_no_more() -> None:
    """The O'Brien–Fleming-type spending: looks at 20, 40 … 100 games get increasing
    levels that add up to α exactly; all α is spent at the maximum."""
    counts = sequential.schedule(100, 5)
    assert counts == [20, 40, 60, 80, 100]
    levels = sequential.levels(counts, 0.05)
    assert sum(levels) == pytest.approx(0.05)
    assert levels == sorted(levels) and levels[0] < 0.001
    assert sequential.spent(1.0, 0.05) == pytest.approx(0.05)
    assert sequential.schedule(6, 5) == [2, 4, 5, 6]  # no look with fewer than 2 games


def test_sequential_stopping_keeps_the_false_alarm_rate_below_alpha() -> None:
    """Under no difference (normal noise, 4000 simulated studies of up to 100 games, five
    looks) the spending rule rejects at most α = 5% of the time (plus Monte Carlo error),
    while stopping at the first naive p < 0.05 rejects far more often."""
    rng = np.random.default_rng(15)
    data = rng.standard_normal((4000, 100))
    counts = sequential.schedule(100, 5)
    levels = sequential.levels(counts, 0.05)
    valid = np.zeros(4000, dtype=bool)
    naive = np.zeros(4000, dtype=bool)
    for count, level in zip(counts, levels, strict=True):
        p = sps.ttest_1samp(data[:, :count], 0.0, axis=1).pvalue
        valid |= p < level
        naive |= p < 0.05
    assert valid.mean() < 0.05 + 0.01
    assert naive.mean() > 0.1


# -- the report ----------------------------------------------------------------------------


def result(
    seed: int,
    rounds: int,
    actions: int,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    **cats: int,
) -> GameResult:
    """A 2-player game result; ``cats`` are player 0's categories (player 1 has none)."""
    return GameResult(
        seed=seed,
        rounds=rounds,
        actions=actions,
        scores=scores,
        winners=winners,
        categories=(dict(cats), {}),
        flags=(),
        effects={},
    )


def test_report_of_hand_made_runs() -> None:
    """Metrics are one number per game; a category missing for a player counts 0; a
    shared win is a win of each winner; differences are variant minus baseline."""
    baseline = [
        result(0, 10, 100, (50, 40), (0,), tiles=4),
        result(1, 12, 120, (30, 30), (0, 1)),
        result(2, 11, 110, (20, 40), (1,)),
    ]
    variant = [
        result(0, 10, 100, (60, 40), (1,), tiles=4, coins=2),
        result(1, 12, 120, (30, 50), (1,)),
        result(2, 11, 110, (30, 40), (1,)),
    ]
    got = report(baseline, variant, 2, 7, ["base"], ["base", "house"])
    assert (got["games"], got["players"], got["seed"], got["seeds"]) == (3, 2, 7, [0, 1, 2])
    assert (got["baseline_plugins"], got["variant_plugins"]) == (["base"], ["base", "house"])
    seat1, seat2 = got["wins_by_seat"]
    assert seat1["seat"] == 1 and (seat1["baseline"], seat1["variant"]) == (0.6667, 0.0)
    assert seat1["discordant"] == {"baseline_only": 2, "variant_only": 0}
    assert (seat2["baseline"], seat2["variant"]) == (0.6667, 1.0)
    assert got["score"]["baseline"] == pytest.approx(35) and got["score"]["variant"] == 41.6667
    assert metric_values(variant, "score") == [50, 40, 35]
    assert got["categories"]["tiles"]["baseline"] == pytest.approx(4 / 2 / 3, abs=1e-4)
    assert got["categories"]["coins"]["variant"] == pytest.approx(1 / 3, abs=1e-4)
    for key in ("rounds", "actions"):
        entry = got["length"][key]
        assert entry["difference"] == 0 and entry["p_value"] == 1 and not entry["significant"]
    tested = [
        *got["wins_by_seat"],
        got["score"],
        *got["categories"].values(),
        *got["length"].values(),
    ]
    assert got["correction"] == {"method": "holm", "metrics": len(tested)}
    assert [e["p_holm"] for e in tested] == pytest.approx(
        holm([e["p_value"] for e in tested]), abs=1e-3
    )
    with pytest.raises(CompareError):
        report(baseline, variant[:2], 2, 7, ["base"], ["base", "house"])
    with pytest.raises(CompareError):
        report(baseline[:1], variant[:1], 2, 7, ["base"], ["base", "house"])
    with pytest.raises(CompareError, match="same seeds"):
        report(baseline[:2], variant[1:], 2, 7, ["base"], ["base", "house"])


ENTRY_KEYS = {"baseline", "variant", "difference", "ci", "p_value", "p_holm", "significant"}


def entries(data: dict[str, Any]) -> Iterable[dict[str, Any]]:
    yield from data["wins_by_seat"]
    yield data["score"]
    yield from data["categories"].values()
    yield from data["length"].values()


def side(
    house_rules: tuple[Path, ...] = (), expansions: tuple[str, ...] = (), players: int = 3
) -> Study:
    return Study(Ruleset.of(expansions, house_rules), ("random",) * players, 0)


@pytest.fixture(scope="module")
def big_viziers() -> dict[str, Any]:
    """20 three-player games, seeds 0–19, without and with the big-viziers house rule."""
    return compare(side(), side((BIG_VIZIERS,)), 20, SerialExecutor())[0]


def test_big_viziers_only_raises_the_vizier_majority(big_viziers: dict[str, Any]) -> None:
    """A scoring-only rule: the same seeds and random agents play the very same games (an
    agent never looks at scores), so the game lengths are identical; only the vizier
    majority bonus grows, by half (10 → 15 per opponent beaten), in every game at once, so
    the paired test finds it at once."""
    data = big_viziers
    assert (data["games"], data["players"], data["seed"]) == (20, 3, 0)
    assert (data["requested"], data["partial"]) == (20, False)
    assert data["baseline_plugins"] == ["base"]
    assert data["variant_plugins"] == ["base", "big-viziers"]
    for key in ("rounds", "actions"):
        entry = data["length"][key]
        assert entry["baseline"] == entry["variant"]
        assert entry["difference"] == 0 and entry["p_value"] == 1 and not entry["significant"]
    majority = data["categories"]["vizier-majority"]
    assert majority["difference"] > 0 and majority["significant"]
    assert majority["variant"] == pytest.approx(1.5 * majority["baseline"], abs=1e-3)
    for name, entry in data["categories"].items():
        if name != "vizier-majority":
            assert entry["difference"] == 0 and entry["p_value"] == 1, name
    assert data["score"]["difference"] == pytest.approx(majority["difference"], abs=1e-3)
    for entry in entries(data):
        assert set(entry) >= ENTRY_KEYS
        low, high = entry["ci"]
        assert low <= entry["difference"] <= high
        assert entry["significant"] == (entry["p_holm"] < 0.05)
        assert entry["p_holm"] >= entry["p_value"]


def test_the_report_is_deterministic(big_viziers: dict[str, Any]) -> None:
    """The same arguments give the same report, byte for byte as JSON; the progress
    callback hears of every game of both sides."""
    seen: list[int] = []
    again, run = compare(
        side(), side((BIG_VIZIERS,)), 20, SerialExecutor(), advance=lambda: seen.append(1)
    )
    assert json.dumps(again) == json.dumps(big_viziers)
    assert len(seen) == 40 and run.games == 20 and not run.partial


def test_until_significant_stops_at_the_first_look_that_passes() -> None:
    """The big viziers raise the score in every game: the sequential test of the score
    passes at its first look (8 of 40 games), so only those are played; a metric the rule
    does not touch (rounds) never passes and all 40 are played."""
    plan = Sequential("score", 5)
    data, run = compare(side(), side((BIG_VIZIERS,)), 40, SerialExecutor(), until_significant=plan)
    info = data["sequential"]
    assert info["planned_looks"] == [8, 16, 24, 32, 40]
    assert data["games"] == run.games == 8
    assert info["significant"] and info["stopped_early"]
    assert info["looks"][0]["p_value"] < info["looks"][0]["level"]
    data, _ = compare(
        side(players=2),
        side((BIG_VIZIERS,), players=2),
        6,
        SerialExecutor(),
        until_significant=Sequential("rounds", 3),
    )
    assert data["games"] == 6 and not data["sequential"]["significant"]
    assert [look["games"] for look in data["sequential"]["looks"]] == [2, 4, 6]
    with pytest.raises(CompareError, match="unknown metric"):
        compare(
            side(), side((BIG_VIZIERS,)), 4, SerialExecutor(), until_significant=Sequential("nope")
        )


def test_a_variant_must_differ_from_its_baseline() -> None:
    """Comparing rules with themselves is refused: the same study twice. A house-rule
    file whose plugin is already enabled as an expansion is refused when the rules are
    built, naming both (see tests/test_plugin_identity.py)."""
    with pytest.raises(CompareError, match="same plugins"):
        check(side(), side(), 5)
    with pytest.raises(PluginError, match="two plugins are named 'big-viziers'"):
        build_rules(["big-viziers"], [BIG_VIZIERS])


def test_check_refuses_too_few_games_and_unsupported_player_counts() -> None:
    with pytest.raises(CompareError, match="at least 2 games"):
        check(side(), side((BIG_VIZIERS,)), 1)
    with pytest.raises(CompareError, match="7 players"):
        check(side(players=7), side((BIG_VIZIERS,), players=7), 5)


# -- the command ---------------------------------------------------------------------------


def make_app() -> typer.Typer:
    """A fresh app with just ``compare`` (a callback keeps ``compare`` a subcommand)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """naqala (test)."""

    register(app)
    return app


APP = make_app()
runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(APP, ["compare", *args])


def fails(*args: str) -> str:
    """Run ``compare`` expecting a clean failure; return its stderr."""
    got = run(*args)
    assert got.exit_code == 2, (got.exit_code, got.stdout, got.stderr)
    assert got.stdout == ""
    assert got.stderr.strip() and "Traceback" not in got.stderr
    return got.stderr


def test_json_output_parses_and_is_the_report() -> None:
    """``--json`` prints the report of ``compare`` and nothing on stderr (no progress)."""
    got = run(
        "--house-rules", str(BIG_VIZIERS), "-n", "6", "-p", "2", "-s", "3", "--json", "-j", "1"
    )
    assert got.exit_code == 0, got.stderr
    assert got.stderr == ""
    data = json.loads(got.stdout)
    two = Study(Ruleset.of((), ()), ("random", "random"), 3)
    variant = Study(Ruleset.of((), (BIG_VIZIERS,)), ("random", "random"), 3)
    assert data == json.loads(json.dumps(compare(two, variant, 6, SerialExecutor())[0]))
    assert set(data) >= {"games", "players", "seed", "baseline_plugins", "variant_plugins"}
    assert set(data) >= {"wins_by_seat", "score", "categories", "length", "sequential"}


def test_plain_output_has_a_table_per_section_and_stars(big_viziers: dict[str, Any]) -> None:
    """The tables name both rule sets and every section; a row is starred exactly when
    its difference is significant. Piped, there is no progress bar."""
    got = run("--house-rules", str(BIG_VIZIERS), "--games", "20", "--players", "3", "-j", "1")
    assert got.exit_code == 0, got.stderr
    assert got.stderr == ""
    out = got.stdout
    assert "20 games, 3 players, seeds from 0" in out
    assert "variant:  base, big-viziers" in out
    for title in ("Win rate by seat", "Final score", "Mean score by category", "Game length"):
        assert title in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for name, entry in big_viziers["categories"].items():
        assert ("*" in rows[name]) == entry["significant"], rows[name]
    assert "*" not in rows["rounds"] and "*" not in rows["actions"]


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_only_on_a_terminal() -> None:
    tty, pipe = _Stream(True), _Stream(False)
    assert wants_progress(False, tty, tty)
    assert not wants_progress(True, tty, tty)
    assert not wants_progress(False, pipe, tty)
    assert not wants_progress(False, tty, pipe)


def test_unreadable_house_rules_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.py"
    assert "nope.py" in fails("--house-rules", str(missing)) and "cannot read" in fails(
        "--house-rules", str(missing)
    )
    assert str(tmp_path) in fails("--house-rules", str(tmp_path))
    assert "not a house-rule file" in fails("--house-rules", str(tmp_path / "rule.pyc"))
    # a content file with no [house-rule] table is not a house rule by itself: it has no name
    plain = tmp_path / "plain.toml"
    plain.write_text("[settings]\nvizier_bonus = 15\n", encoding="utf-8")
    assert "$.house-rule: missing" in fails("--house-rules", str(plain))
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    assert "failed to load" in fails("--house-rules", str(broken))


def test_other_bad_input_exits_2() -> None:
    rule = str(BIG_VIZIERS)
    err = fails("--house-rules", rule, "-x", "nosuch")
    assert "unknown expansion 'nosuch'" in err
    assert "7 players" in fails("--house-rules", rule, "--players", "7", "--json")
    assert "two plugins are named 'big-viziers'" in fails(
        "--house-rules", rule, "-x", "big-viziers"
    )
    assert "--games" in fails("--house-rules", rule, "--games", "1")
    assert "--house-rules" in fails("--games", "3")
    assert "unknown seat 'wizard'" in fails("--house-rules", rule, "--seats", "random,wizard")
    assert "--players 3 but --seats names 2" in fails(
        "--house-rules", rule, "--seats", "random,random", "-p", "3"
    )
    assert "no djinn 'nosuch'" in fails("--variant-without", "djinn:nosuch")
    assert "djinn:ID or card:ID" in fails("--variant-without", "jafaar")


def test_expansions_apply_to_both_sides() -> None:
    got = run("-x", "rich-villages", "--house-rules", str(BIG_VIZIERS), "-n", "2", "--json")
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["baseline_plugins"] == ["base", "rich-villages"]
    assert data["variant_plugins"] == ["base", "rich-villages", "big-viziers"]


def test_variant_only_expansions_and_cards_left_out() -> None:
    """``--variant-x`` adds an expansion to the variant alone; ``--variant-without`` leaves
    a djinn out of the variant alone."""
    got = run("--variant-x", "rich-villages", "-n", "2", "-p", "2", "--json", "-j", "1")
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert (data["baseline_plugins"], data["variant_plugins"]) == (
        ["base"],
        ["base", "rich-villages"],
    )
    got = run("--variant-without", "djinn:jafaar", "-n", "2", "-p", "2", "--json", "-j", "1")
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["baseline_plugins"] == data["variant_plugins"] == ["base"]
    assert (data["baseline_without"], data["variant_without"]) == ([], ["djinn:jafaar"])
