"""``naqala compare``: the statistics (against textbook values), the report of two runs of
the same games, a real comparison with the big-viziers house rule, and the command."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from naqala.cli.compare import register, wants_progress
from naqala.core.compare import (
    CompareError,
    check,
    compare,
    mean_ci,
    normal_two_sided_p,
    regularized_beta,
    report,
    t_cdf,
    t_quantile,
    two_proportion_test,
    welch_test,
    wilson_interval,
)
from naqala.core.engine import build_rules
from naqala.core.plugins import PluginError
from naqala.core.simulate import GameResult

HOUSE = Path(__file__).resolve().parent.parent / "plugins" / "house"
BIG_VIZIERS = HOUSE / "big_viziers.py"


# -- distributions -------------------------------------------------------------------------


def test_regularized_beta_closed_forms() -> None:
    """I_x(1, 1) = x, I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b, I_½(a, a) = ½."""
    for x in (0.0, 0.1, 0.37, 0.9, 1.0):
        assert regularized_beta(x, 1, 1) == pytest.approx(x, abs=1e-12)
        assert regularized_beta(x, 3, 1) == pytest.approx(x**3, abs=1e-12)
        assert regularized_beta(x, 1, 2.5) == pytest.approx(1 - (1 - x) ** 2.5, abs=1e-12)
    for a in (0.5, 2, 7.5, 400):
        assert regularized_beta(0.5, a, a) == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(ValueError):
        regularized_beta(1.5, 1, 1)


@pytest.mark.parametrize(
    ("df", "critical"),
    [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)],
)
def test_t_quantiles_match_the_printed_table(df: int, critical: float) -> None:
    """Two-sided 5% critical values of Student's t, as in every statistics table."""
    assert t_quantile(0.975, df) == pytest.approx(critical, abs=5e-4)
    assert t_quantile(0.025, df) == pytest.approx(-critical, abs=5e-4)
    assert t_cdf(critical, df) == pytest.approx(0.975, abs=1e-4)


def test_t_distribution_shape() -> None:
    """Symmetric about 0; df = 1 is the Cauchy distribution; large df tends to the normal."""
    assert t_cdf(0, 7) == 0.5
    assert t_cdf(-1.3, 4.5) == pytest.approx(1 - t_cdf(1.3, 4.5), abs=1e-12)
    assert t_cdf(1, 1) == pytest.approx(0.75, abs=1e-12)  # ½ + atan(1)/π
    assert t_quantile(0.975, 1e6) == pytest.approx(1.959964, abs=1e-4)
    assert normal_two_sided_p(1.959964) == pytest.approx(0.05, abs=1e-6)
    assert normal_two_sided_p(-2) == pytest.approx(0.0455003, abs=1e-6)


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
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    """0/n starts at 0 and n/n ends at 1 (by hand: z²/(n+z²) = 3.8415/13.8415 = 0.2775
    for n = 10); fractional successes (split wins) are allowed; nonsense is refused."""
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(10, 10)
    assert high == 1 and low == pytest.approx(1 - 0.2775, abs=1e-4)
    low, high = wilson_interval(2.5, 10)
    assert low < 0.25 < high
    for bad in ((11, 10), (-1, 10), (0, 0)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_two_proportion_test_by_hand() -> None:
    """45/100 against 30/100: pooled p = 0.375, SE = √(0.375·0.625·0.02) = 0.068465,
    z = 0.15 / 0.068465 = 2.1909, two-sided p = 0.0285."""
    z, p = two_proportion_test(45, 100, 30, 100)
    assert z == pytest.approx(2.1909, abs=1e-4)
    assert p == pytest.approx(0.02846, abs=1e-5)
    z_back, p_back = two_proportion_test(30, 100, 45, 100)
    assert (z_back, p_back) == pytest.approx((-z, p))
    assert two_proportion_test(0, 20, 0, 20) == (0.0, 1.0)  # no variation at all
    assert two_proportion_test(20, 20, 20, 20) == (0.0, 1.0)
    assert two_proportion_test(7, 20, 7, 20)[1] == pytest.approx(1.0)


def test_mean_ci_by_hand() -> None:
    """1, 2, 3, 4, 5: mean 3, s = 1.5811, SE = 0.70711, t(0.975, 4) = 2.7764:
    3 ± 1.9632."""
    low, high = mean_ci([1, 2, 3, 4, 5])
    assert (low, high) == pytest.approx((1.0368, 4.9632), abs=1e-4)
    assert mean_ci([4, 4, 4]) == (4, 4)
    with pytest.raises(ValueError):
        mean_ci([1.0])


# Wikipedia, "Welch's t-test", the three worked examples: (A1, A2, t, df, p)
WELCH_EXAMPLES = [
    (
        [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4],
        [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4],
        -2.46,
        25.0,
        0.021,
    ),
    (
        [17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8],
        [21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8]
        + [20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8],
        -1.57,
        9.9,
        0.149,
    ),
    (
        [19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0],
        [28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7]
        + [23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3],
        -2.22,
        24.5,
        0.035,
    ),
]


@pytest.mark.parametrize(("a", "b", "t", "df", "p"), WELCH_EXAMPLES)
def test_welch_test_matches_the_worked_examples(
    a: list[float], b: list[float], t: float, df: float, p: float
) -> None:
    got_t, got_df, got_p = welch_test(a, b)
    assert got_t == pytest.approx(t, abs=0.01)
    assert got_df == pytest.approx(df, abs=0.05)
    assert got_p == pytest.approx(p, abs=0.001)
    assert welch_test(b, a) == pytest.approx((-got_t, got_df, got_p))


def test_welch_test_without_variance() -> None:
    """Identical samples: p = 1; constant samples with different means: p = 0."""
    assert welch_test([1, 2, 3], [1, 2, 3])[2] == pytest.approx(1.0)
    assert welch_test([5, 5, 5], [5, 5])[::2] == (0.0, 1.0)
    t, _, p = welch_test([6, 6], [5, 5, 5])
    assert t == math.inf and p == 0.0
    with pytest.raises(ValueError):
        welch_test([1.0], [1.0, 2.0])


# -- the report ----------------------------------------------------------------------------


def result(
    rounds: int, actions: int, scores: tuple[int, ...], winners: tuple[int, ...], **cats: int
) -> GameResult:
    """A 2-player game result; ``cats`` are player 0's categories (player 1 has none)."""
    return GameResult(
        seed=0,
        rounds=rounds,
        actions=actions,
        scores=scores,
        winners=winners,
        categories=(dict(cats), {}),
        flags=(),
        effects={},
    )


def test_report_of_hand_made_runs() -> None:
    """Shared wins are split; a category missing for a player counts 0; differences are
    variant minus baseline."""
    baseline = [result(10, 100, (50, 40), (0,), tiles=4), result(12, 120, (30, 30), (0, 1))]
    variant = [result(10, 100, (60, 40), (1,), tiles=4, coins=2), result(12, 120, (30, 50), (1,))]
    got = report(baseline, variant, 2, 7, ["base"], ["base", "house"])
    assert (got["games"], got["players"], got["seed"]) == (2, 2, 7)
    assert (got["baseline_plugins"], got["variant_plugins"]) == (["base"], ["base", "house"])
    seat0, seat1 = got["wins_by_seat"]
    assert seat0["seat"] == 1 and seat0["wins"] == {"baseline": 1.5, "variant": 0.0}
    assert (seat0["baseline"], seat0["variant"], seat0["difference"]) == (0.75, 0.0, -0.75)
    assert seat1["wins"] == {"baseline": 0.5, "variant": 2.0}
    assert seat0["ci"]["baseline"] == [round(x, 4) for x in wilson_interval(1.5, 2)]
    assert got["score"]["baseline"] == 37.5 and got["score"]["variant"] == 45.0
    assert got["score"]["difference"] == 7.5
    assert got["categories"]["tiles"]["baseline"] == 1.0  # 4 points over 4 player-games
    assert got["categories"]["coins"]["baseline"] == 0.0
    assert got["categories"]["coins"]["variant"] == 0.5
    for key in ("rounds", "actions"):
        entry = got["length"][key]
        assert entry["difference"] == 0 and entry["p_value"] == 1 and not entry["significant"]
    with pytest.raises(CompareError):
        report(baseline, variant[:1], 2, 7, ["base"], ["base", "house"])
    with pytest.raises(CompareError):
        report(baseline[:1], variant[:1], 2, 7, ["base"], ["base", "house"])


ENTRY_KEYS = {"baseline", "variant", "difference", "ci", "p_value", "significant"}


def entries(data: dict[str, Any]) -> Iterable[dict[str, Any]]:
    yield from data["wins_by_seat"]
    yield data["score"]
    yield from data["categories"].values()
    yield from data["length"].values()


@pytest.fixture(scope="module")
def big_viziers() -> dict[str, Any]:
    """20 three-player games, seeds 0–19, without and with the big-viziers house rule."""
    return compare(build_rules(), build_rules([], [BIG_VIZIERS]), 20, 3, 0)


def test_big_viziers_only_raises_the_vizier_majority(big_viziers: dict[str, Any]) -> None:
    """A scoring-only rule: the same seeds and random agents play the very same games (an
    agent never looks at scores), so the game lengths are identical; only the vizier
    majority bonus grows, by half (10 → 15 per opponent beaten)."""
    data = big_viziers
    assert (data["games"], data["players"], data["seed"]) == (20, 3, 0)
    assert data["baseline_plugins"] == ["base"]
    assert data["variant_plugins"] == ["base", "big-viziers"]
    for key in ("rounds", "actions"):
        entry = data["length"][key]
        assert entry["baseline"] == entry["variant"]
        assert entry["ci"]["baseline"] == entry["ci"]["variant"]
        assert entry["difference"] == 0 and entry["p_value"] == 1 and not entry["significant"]
    majority = data["categories"]["vizier-majority"]
    assert majority["difference"] > 0
    assert majority["variant"] == pytest.approx(1.5 * majority["baseline"], abs=1e-3)
    for name, entry in data["categories"].items():
        if name != "vizier-majority":
            assert entry["difference"] == 0 and entry["p_value"] == 1, name
    assert data["score"]["difference"] == pytest.approx(majority["difference"], abs=1e-3)
    for entry in entries(data):
        assert set(entry) >= ENTRY_KEYS
        for side in ("baseline", "variant"):
            low, high = entry["ci"][side]
            assert low <= entry[side] <= high
        assert entry["significant"] == (entry["p_value"] < 0.05)
    assert sum(seat["variant"] for seat in data["wins_by_seat"]) == pytest.approx(1, abs=1e-3)


def test_the_report_is_deterministic(big_viziers: dict[str, Any]) -> None:
    """The same arguments give the same report, byte for byte as JSON; the progress
    callback sees each run, baseline first."""
    seen: list[str] = []

    def progress(results: Iterable[GameResult], label: str) -> Iterable[GameResult]:
        seen.append(label)
        return results

    again = compare(build_rules(), build_rules([], [BIG_VIZIERS]), 20, 3, 0, progress=progress)
    assert json.dumps(again) == json.dumps(big_viziers)
    assert seen == ["baseline", "variant"]


def test_a_variant_must_differ_from_its_baseline() -> None:
    """Comparing rules with themselves is refused: the same Rules twice. (A house-rule
    file whose plugin is already enabled as an expansion is refused when the rules are
    built, naming both: see tests/test_plugin_identity.py.)"""
    rules = build_rules()
    with pytest.raises(CompareError, match="same plugins"):
        compare(rules, rules, 5, 3, 0)
    with pytest.raises(PluginError, match="two plugins are named 'big-viziers'"):
        build_rules(["big-viziers"], [BIG_VIZIERS])


def test_check_refuses_too_few_games_and_unsupported_player_counts() -> None:
    baseline, variant = build_rules(), build_rules([], [BIG_VIZIERS])
    with pytest.raises(CompareError, match="at least 2 games"):
        check(baseline, variant, 1, 3)
    with pytest.raises(CompareError, match="7 players"):
        check(baseline, variant, 5, 7)


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
    got = run("--house-rules", str(BIG_VIZIERS), "-n", "6", "-p", "2", "-s", "3", "--json")
    assert got.exit_code == 0, got.stderr
    assert got.stderr == ""
    data = json.loads(got.stdout)
    assert data == compare(build_rules(), build_rules([], [BIG_VIZIERS]), 6, 2, 3)
    assert set(data) >= {"games", "players", "seed", "baseline_plugins", "variant_plugins"}
    assert set(data) >= {"wins_by_seat", "score", "categories", "length"}


def test_plain_output_has_a_table_per_section_and_stars(big_viziers: dict[str, Any]) -> None:
    """The tables name both rule sets and every section; a row is starred exactly when
    its difference is significant. Piped, there is no progress bar."""
    got = run("--house-rules", str(BIG_VIZIERS), "--games", "20", "--players", "3")
    assert got.exit_code == 0, got.stderr
    assert got.stderr == ""
    out = got.stdout
    assert "20 games, 3 players, seeds 0–19" in out
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
    assert "not a Python file" in fails("--house-rules", str(HOUSE / "big_viziers.toml"))
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


def test_expansions_apply_to_both_sides() -> None:
    got = run("-x", "rich-villages", "--house-rules", str(BIG_VIZIERS), "-n", "2", "--json")
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["baseline_plugins"] == ["base", "rich-villages"]
    assert data["variant_plugins"] == ["base", "rich-villages", "big-viziers"]
