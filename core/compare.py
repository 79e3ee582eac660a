"""Comparing two rule sets over the same games (``naqala compare``).

Both rule sets play the same seeds with the same random agents (as ``naqala simulate``
does), and the report puts the two side by side: win rate by seat, final scores, score
by category and game length, each with 95% confidence intervals and a test of whether
the difference is significant (p < 0.05).

The statistics are small pure functions using only the standard library:

- ``wilson_interval``: the Wilson score interval of a proportion;
- ``two_proportion_test``: the pooled two-proportion z-test (two-sided);
- ``mean_ci``: the Student t interval of a mean;
- ``welch_test``: Welch's unequal-variances t-test (two-sided), with the
  Welch–Satterthwaite degrees of freedom;
- ``t_cdf`` / ``t_quantile``: Student's t distribution, through the regularized
  incomplete beta function (``regularized_beta``).

The tests treat the two runs as independent samples. The runs share their seeds, so they
are in fact paired and positively correlated; the independent tests are then
conservative (a difference they call significant is one).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from naqala.core.engine import Rules
from naqala.core.simulate import GameResult, run

#: the confidence level of every interval, and the significance level of every test
CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE

#: wraps the results of one run as they come (``label`` is "baseline" or "variant"),
#: e.g. to show a progress bar
Progress = Callable[[Iterable[GameResult], str], Iterable[GameResult]]


class CompareError(ValueError):
    """Two rule sets, or a number of games or players, that cannot be compared."""


# -- distributions -------------------------------------------------------------------------


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution (1.959964 for 0.975)."""
    return statistics.NormalDist().inv_cdf(p)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| ≥ |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        step = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        d = 1 + step * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + step / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        step = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        d = 1 + step * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + step / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 ≤ x ≤ 1."""
    if not 0 <= x <= 1:
        raise ValueError(f"x must be in [0, 1], not {x}")
    if x in (0, 1):
        return float(x)
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's T with ``df`` degrees of freedom."""
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's T with ``df`` (> 0, not necessarily whole) degrees of freedom."""
    tail = t_two_sided_p(t, df) / 2
    return 1 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (by bisection)."""
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), not {p}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# -- intervals and tests -------------------------------------------------------------------


def wilson_interval(
    successes: float, n: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``successes / n``. ``successes`` may be
    fractional (a shared win counts as a fraction for each winner)."""
    if n < 1:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and {n}, not {successes}")
    z = normal_quantile(1 - (1 - confidence) / 2)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def two_proportion_test(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float]:
    """The pooled two-proportion z-test of x1/n1 against x2/n2: (z, two-sided p-value).
    When both proportions are 0 or both are 1 there is no variation: z = 0, p = 1."""
    if n1 < 1 or n2 < 1:
        raise ValueError("a proportion needs at least one trial")
    pooled = (x1 + x2) / (n1 + n2)
    variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if variance <= 0:
        return 0.0, 1.0
    z = (x1 / n1 - x2 / n2) / math.sqrt(variance)
    return z, normal_two_sided_p(z)


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Student t confidence interval of the mean of ``values`` (at least two)."""
    n = len(values)
    if n < 2:
        raise ValueError("a confidence interval of a mean needs at least two values")
    mean = statistics.fmean(values)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half


def welch_test(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """Welch's t-test of mean(a) against mean(b): (t, degrees of freedom, two-sided
    p-value). Two samples without any variance give p = 1 if their means are equal and
    p = 0 (t = ±inf) if not."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's t-test needs at least two values in each sample")
    difference = statistics.fmean(a) - statistics.fmean(b)
    v1 = statistics.variance(a) / n1
    v2 = statistics.variance(b) / n2
    if v1 + v2 == 0:
        df = float(n1 + n2 - 2)
        if difference == 0:
            return 0.0, df, 1.0
        return math.copysign(math.inf, difference), df, 0.0
    t = difference / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    return t, df, t_two_sided_p(t, df)


# -- the report ----------------------------------------------------------------------------


def _num(x: float) -> float:
    return round(x, 4) + 0.0  # + 0.0 turns -0.0 into 0.0


def _p(p: float) -> float:
    return float(f"{p:.4g}")


def _interval(bounds: tuple[float, float]) -> list[float]:
    return [_num(bounds[0]), _num(bounds[1])]


def proportion_entry(x_baseline: float, x_variant: float, n: int) -> dict[str, Any]:
    """A report entry for the proportions x/n of both runs (two-proportion z-test)."""
    _, p = two_proportion_test(x_variant, n, x_baseline, n)
    return {
        "baseline": _num(x_baseline / n),
        "variant": _num(x_variant / n),
        "difference": _num((x_variant - x_baseline) / n),
        "ci": {
            "baseline": _interval(wilson_interval(x_baseline, n)),
            "variant": _interval(wilson_interval(x_variant, n)),
        },
        "p_value": _p(p),
        "significant": p < ALPHA,
    }


def mean_entry(baseline: Sequence[float], variant: Sequence[float]) -> dict[str, Any]:
    """A report entry for the means of two samples (Welch's t-test)."""
    _, _, p = welch_test(variant, baseline)
    mean_b, mean_v = statistics.fmean(baseline), statistics.fmean(variant)
    return {
        "baseline": _num(mean_b),
        "variant": _num(mean_v),
        "difference": _num(mean_v - mean_b),
        "ci": {"baseline": _interval(mean_ci(baseline)), "variant": _interval(mean_ci(variant))},
        "p_value": _p(p),
        "significant": p < ALPHA,
    }


def _wins(results: Sequence[GameResult], players: int) -> list[float]:
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    return wins


def _category_values(results: Sequence[GameResult], category: str) -> list[float]:
    return [float(per.get(category, 0)) for r in results for per in r.categories]


def report(
    baseline: Sequence[GameResult],
    variant: Sequence[GameResult],
    players: int,
    seed: int,
    baseline_plugins: Sequence[str],
    variant_plugins: Sequence[str],
) -> dict[str, Any]:
    """The comparison report of two runs of the same games (see ``compare``)."""
    games = len(baseline)
    if games != len(variant):
        raise CompareError("both runs must have played the same number of games")
    if games < 2:
        raise CompareError("a comparison needs at least 2 games")
    wins_b, wins_v = _wins(baseline, players), _wins(variant, players)
    wins_by_seat = []
    for seat in range(players):
        entry = {
            "seat": seat + 1,
            "wins": {"baseline": _num(wins_b[seat]), "variant": _num(wins_v[seat])},
        }
        entry.update(proportion_entry(wins_b[seat], wins_v[seat], games))
        wins_by_seat.append(entry)
    scores_b = [float(s) for r in baseline for s in r.scores]
    scores_v = [float(s) for r in variant for s in r.scores]
    score = mean_entry(scores_b, scores_v)
    score["sd"] = {
        "baseline": _num(statistics.stdev(scores_b)),
        "variant": _num(statistics.stdev(scores_v)),
    }
    names = sorted({c for r in (*baseline, *variant) for per in r.categories for c in per})
    categories = {
        name: mean_entry(_category_values(baseline, name), _category_values(variant, name))
        for name in names
    }
    length = {
        "rounds": mean_entry(
            [float(r.rounds) for r in baseline], [float(r.rounds) for r in variant]
        ),
        "actions": mean_entry(
            [float(r.actions) for r in baseline], [float(r.actions) for r in variant]
        ),
    }
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "baseline_plugins": list(baseline_plugins),
        "variant_plugins": list(variant_plugins),
        "confidence": CONFIDENCE,
        "wins_by_seat": wins_by_seat,
        "score": score,
        "categories": categories,
        "length": length,
    }


def _identity(rules: Rules) -> list[tuple[str, str, str]]:
    return [(p.name, p.version, p.sha256) for p in rules.plugins]


def check(baseline_rules: Rules, variant_rules: Rules, games: int, players: int) -> None:
    """Raise ``CompareError`` unless the two rule sets can be compared over ``games`` games
    of ``players`` players: at least 2 games, a player count both support, and rule sets
    that differ (the same plugins on both sides would compare a game with itself)."""
    if games < 2:
        raise CompareError(f"a comparison needs at least 2 games, not {games}")
    if _identity(baseline_rules) == _identity(variant_rules):
        raise CompareError(
            "the variant has the same plugins as the baseline "
            f"({', '.join(baseline_rules.ruleset)}); there is nothing to compare "
            "(is the house rule already enabled as an expansion?)"
        )
    for side, rules in (("baseline", baseline_rules), ("variant", variant_rules)):
        try:
            rules.new_game(players, 0)
        except ValueError as exc:
            raise CompareError(f"{side}: {exc}") from exc


def compare(
    baseline_rules: Rules,
    variant_rules: Rules,
    games: int,
    players: int,
    seed: int,
    *,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play games ``seed`` … ``seed + games - 1`` with random agents under both rule sets
    and report them side by side (a JSON-ready dict; the same arguments always give the
    same report). ``progress`` may wrap each run's results as they come."""
    check(baseline_rules, variant_rules, games, players)
    runs: list[list[GameResult]] = []
    for label, rules in (("baseline", baseline_rules), ("variant", variant_rules)):
        results: Iterable[GameResult] = run(rules, games, players, seed)
        if progress is not None:
            results = progress(results, label)
        runs.append(list(results))
    return report(runs[0], runs[1], players, seed, baseline_rules.ruleset, variant_rules.ruleset)
