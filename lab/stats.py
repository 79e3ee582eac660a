"""Paired statistics for comparing two rule sets over the same seeds, with scipy.stats.

Both rule sets play game ``i`` with the same seed and agents, so each game gives a pair
and the tests work on per-game differences, which removes the variation the games share:

- means (scores, categories, length): the paired t-test (``scipy.stats.ttest_rel``) with
  its interval of the mean difference, the Wilcoxon signed-rank test as a check that does
  not assume normal differences, and the standardised effect size d_z = mean / sd of the
  differences with an exact interval from the noncentral t distribution;
- a seat's wins: McNemar's exact test, i.e. the exact binomial test of the games won under
  one rule set only (``scipy.stats.binomtest``), the paired difference of win rates with
  its interval, and the conditional odds ratio with its exact interval;
- ``holm``: Holm's step-down adjustment of the p-values of every metric of a report.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from naqala.lab import require

#: the confidence level of every interval and 1 − the significance level of every test
CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE


def _scipy_stats() -> Any:
    return require("scipy.stats", "the lab's statistics")


def num(x: float) -> float | None:
    """A number for JSON: 4 decimals, no negative zero; None for an infinite or undefined
    value (an effect size without any variance, an odds ratio with nothing against it)."""
    if not math.isfinite(x):
        return None
    return round(x, 4) + 0.0


def pval(p: float) -> float:
    """A p-value for JSON, 4 significant digits."""
    return float(f"{p:.4g}")


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Student t interval of the mean of ``values`` (at least two)."""
    stats = _scipy_stats()
    n = len(values)
    if n < 2:
        raise ValueError("an interval of a mean needs at least two values")
    mean = math.fsum(values) / n
    sem = float(stats.sem(values))
    if sem == 0:
        return mean, mean
    low, high = stats.t.interval(confidence, n - 1, loc=mean, scale=sem)
    return float(low), float(high)


def effect_size_interval(t: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The exact interval of d_z = t / √n: the noncentrality parameters whose noncentral t
    distribution (n − 1 degrees of freedom) puts ``t`` at the two tail quantiles, over √n.
    NaN ends if scipy cannot evaluate the distribution that far out."""
    stats = _scipy_stats()
    optimize = require("scipy.optimize", "the lab's statistics")
    df = n - 1
    tail = (1 - confidence) / 2

    def solve(target: float) -> float:
        def f(nc: float) -> float:  # falls as nc grows
            return float(stats.nct.cdf(t, df, nc)) - target

        low = high = t
        step = 0.5
        while f(low) < 0:
            low -= step
            step *= 2
        step = 0.5
        while f(high) > 0:
            high += step
            step *= 2
        if math.isnan(f(low)) or math.isnan(f(high)):
            return math.nan
        return float(optimize.brentq(f, low, high, xtol=1e-10))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return solve(1 - tail) / math.sqrt(n), solve(tail) / math.sqrt(n)


def paired_means(baseline: Sequence[float], variant: Sequence[float]) -> dict[str, Any]:
    """A report entry for a metric measured once per game under both rule sets."""
    stats = _scipy_stats()
    n = len(baseline)
    if n != len(variant):
        raise ValueError("paired samples must have the same length")
    if n < 2:
        raise ValueError("a paired comparison needs at least 2 games")
    diffs = [v - b for b, v in zip(baseline, variant, strict=True)]
    mean_d = math.fsum(diffs) / n
    sd_d = float(stats.tstd(diffs)) if len(set(diffs)) > 1 else 0.0
    if sd_d == 0:  # every game changed by the same amount: certain, or no change at all
        p_t = p_w = 1.0 if mean_d == 0 else 0.0
        t = 0.0 if mean_d == 0 else math.copysign(math.inf, mean_d)
        ci_d = (mean_d, mean_d)
        dz: float = 0.0 if mean_d == 0 else math.copysign(math.inf, mean_d)
        dz_ci = (dz, dz)
    else:
        test = stats.ttest_rel(variant, baseline)
        t, p_t = float(test.statistic), float(test.pvalue)
        interval = test.confidence_interval(CONFIDENCE)
        ci_d = (float(interval.low), float(interval.high))
        nonzero = [d for d in diffs if d != 0]
        p_w = float(stats.wilcoxon(diffs).pvalue) if nonzero else 1.0
        dz = mean_d / sd_d
        dz_ci = effect_size_interval(t, n)
    return {
        "baseline": num(math.fsum(baseline) / n),
        "variant": num(math.fsum(variant) / n),
        "difference": num(mean_d),
        "ci": [num(ci_d[0]), num(ci_d[1])],
        "sd_difference": num(sd_d),
        "effect_size": {"dz": num(dz), "ci": [num(dz_ci[0]), num(dz_ci[1])]},
        "test": "paired t",
        "t": num(t),
        "p_value": pval(p_t),
        "p_wilcoxon": pval(p_w),
    }


def paired_wins(baseline: Sequence[bool], variant: Sequence[bool]) -> dict[str, Any]:
    """A report entry for whether a seat won each game under both rule sets (a shared
    win counts as a win). McNemar's exact test looks only at the discordant games: ``b``
    won under the baseline only, ``c`` under the variant only; under no difference each is
    equally likely, so c ~ Binomial(b + c, ½)."""
    stats = _scipy_stats()
    n = len(baseline)
    if n != len(variant) or n < 2:
        raise ValueError("paired wins need the same number (at least 2) of games")
    b = sum(1 for x, y in zip(baseline, variant, strict=True) if x and not y)
    c = sum(1 for x, y in zip(baseline, variant, strict=True) if y and not x)
    difference = (c - b) / n
    # the variance of the mean of per-game differences (each −1, 0 or +1)
    variance = ((b + c) / n - difference**2) / n
    z = float(stats.norm.ppf(1 - ALPHA / 2))
    half = z * math.sqrt(max(variance, 0.0))
    entry: dict[str, Any] = {
        "baseline": num(sum(baseline) / n),
        "variant": num(sum(variant) / n),
        "difference": num(difference),
        "ci": [num(max(-1.0, difference - half)), num(min(1.0, difference + half))],
        "discordant": {"baseline_only": b, "variant_only": c},
        "test": "McNemar exact",
    }
    if b + c == 0:
        entry["odds_ratio"] = None
        entry["p_value"] = 1.0
        return entry
    test = stats.binomtest(c, b + c, 0.5)
    share = test.proportion_ci(confidence_level=CONFIDENCE, method="exact")

    def odds(p: float) -> float:
        return math.inf if p >= 1 else p / (1 - p)

    entry["odds_ratio"] = {
        "value": num(odds(c / (b + c))),
        "ci": [num(odds(float(share.low))), num(odds(float(share.high)))],
    }
    entry["p_value"] = pval(float(test.pvalue))
    return entry


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the k-th smallest p is
    multiplied by (m − k + 1), the results made non-decreasing and capped at 1. Rejecting
    where the adjusted p < α keeps the chance of any false rejection below α."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def seat_balance(wins: Sequence[float], games: int) -> dict[str, Any] | None:
    """The chi-square test that every seat wins equally often, or None with fewer than 2
    games or seats, or no win at all. ``wins`` are the exact split wins (a shared win is a
    fraction for each winner), never rounded ones: the test needs them to add up to the
    expected counts, which are equal shares of the wins there were (a game nobody won, a
    solo loss, expects nothing). With ties the counts are fractional and the test is
    approximate (conservative: a split win varies less than a whole one). The test is
    ``scipy.stats.chisquare``'s, computed as it computes it (Pearson's statistic summed
    by numpy, the p-value from ``scipy.special.chdtrc``): ``scipy.special`` imports in a
    third of the time of ``scipy.stats``, whose 0.7 CPU-s import was a third of a
    1,000-game native ``simulate``. It is imported only when there is a test to compute."""
    total = math.fsum(wins)
    if games < 2 or len(wins) < 2 or total <= 0:
        return None
    numpy = require("numpy", "the lab's statistics")
    special = require("scipy.special", "the lab's statistics")
    observed = numpy.asarray(list(wins), dtype=numpy.float64)
    expected = numpy.full(len(wins), total / len(wins), dtype=numpy.float64)
    statistic = numpy.sum((observed - expected) ** 2 / expected)
    pvalue = special.chdtrc(numpy.float64(len(wins)) - 1, statistic)
    return {
        "test": "chi-square, equal win rates",
        "chi2": num(float(statistic)),
        "df": len(wins) - 1,
        "p_value": pval(float(pvalue)),
    }
