"""Stopping a comparison as soon as it is significant, without cheating.

Testing after every batch at α and stopping at the first p < α rejects a true null far
more often than α. ``--until-significant`` instead plans up to ``looks`` looks at equal
numbers of games up to the maximum and spends α over them with the Lan–DeMets
O'Brien–Fleming-type spending function α(t) = 2 − 2Φ(z₁₋α/₂ / √t), t the fraction of the
maximum played: look k tests at level α(t_k) − α(t_{k−1}). The chance of any rejection
under the null is at most the sum of those levels, α (a union bound), whatever the
dependence between looks, so the test is valid for any valid per-look p-value; it is
conservative, and early looks need strong evidence, which suits a study that should not
stop on a fluke.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def spent(fraction: float, alpha: float) -> float:
    """α spent by the time ``fraction`` (0 < fraction ≤ 1) of the games are played."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], not {fraction}")
    normal = statistics.NormalDist()
    return 2 - 2 * normal.cdf(normal.inv_cdf(1 - alpha / 2) / fraction**0.5)


def schedule(maximum: int, looks: int, minimum: int = 2) -> list[int]:
    """The cumulative game counts of the looks: ``looks`` equal steps up to ``maximum``
    (fewer if that would give a look with fewer than ``minimum`` games)."""
    if maximum < minimum:
        raise ValueError(f"at least {minimum} games are needed, not {maximum}")
    if looks < 1:
        raise ValueError(f"at least one look is needed, not {looks}")
    counts = sorted({round(maximum * k / looks) for k in range(1, looks + 1)})
    return [n for n in counts if n >= minimum] or [maximum]


def levels(counts: Sequence[int], alpha: float) -> list[float]:
    """The significance level of each look at ``counts`` games (the last is the maximum)."""
    maximum = counts[-1]
    result = []
    before = 0.0
    for n in counts:
        now = spent(n / maximum, alpha)
        result.append(now - before)
        before = now
    return result
