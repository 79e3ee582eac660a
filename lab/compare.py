"""Comparing two rule sets over the same games (``naqala compare``).

Both rule sets play games ``0 … N − 1`` with the same seeds and the same agents at the
same seats, so every game is a pair and the report tests per-game differences
(``naqala.lab.stats``): a seat's wins with McNemar's exact test, the mean final score,
each score category and the game length with the paired t-test (Wilcoxon's signed-rank
test alongside), each with an effect size and its 95% interval. Every p-value is also
adjusted with Holm's method over all the metrics of the report, and a difference is
called significant when its adjusted p-value is below 0.05.

With ``until_significant`` the games are played in looks and the run stops at the first
look where the chosen metric passes the sequential test of ``naqala.lab.sequential``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from naqala.lab import balance, sequential, stats
from naqala.lab.executors import Executor
from naqala.lab.results import GameResult, start_position_wins
from naqala.lab.runner import Advance, Run, play_indices
from naqala.lab.study import Study, StudyError

#: the metric the sequential test watches unless told otherwise
DEFAULT_METRIC = "score"


class CompareError(ValueError):
    """Two rule sets, or a number of games or players, that cannot be compared."""


def _identity(study: Study) -> tuple[Any, ...]:
    rules = study.check()
    return tuple((p.name, p.version, p.sha256) for p in rules.plugins), study.ruleset.without


def check(baseline: Study, variant: Study, games: int) -> None:
    """Raise ``CompareError`` unless the two sides can be compared over ``games`` games:
    at least 2 games, the same seats and seed, each side playable (plugins, cards,
    player count) and rule sets that differ."""
    if games < 2:
        raise CompareError(f"a comparison needs at least 2 games, not {games}")
    if (baseline.seats, baseline.seed, baseline.rotate) != (
        variant.seats,
        variant.seed,
        variant.rotate,
    ):
        raise CompareError("both sides must have the same seats, seed and seating")
    identities = []
    for side, study in (("baseline", baseline), ("variant", variant)):
        try:
            identities.append(_identity(study))
        except StudyError as exc:
            raise CompareError(f"{side}: {exc}") from exc
    if identities[0] == identities[1]:
        raise CompareError(
            "the variant has the same plugins and cards as the baseline "
            f"({', '.join(name for name, _, _ in identities[0][0])}); there is nothing to "
            "compare (is the house rule already enabled as an expansion?)"
        )


# -- metrics: one number per game ----------------------------------------------------------


def _mean(values: Sequence[int]) -> float:
    return math.fsum(values) / len(values)


def metric_values(results: Sequence[GameResult], metric: str) -> list[float]:
    """One value per game: ``score`` (mean final score of the seats), ``rounds``,
    ``actions``, ``category:NAME`` (mean points of the seats in that category) or
    ``wins:SEAT`` (1 if seat SEAT, from 1, won or shared the win), ``position:K`` (1 if
    the player who bid K-th in the first round won or shared the win) or
    ``position-score:K`` (that player's final score), ``turn-position:K`` (the share of
    the rounds 2 and later in which the player taking the K-th turn won or shared the
    win, a shared win split), ``lead_changes`` or ``margin``
    (``naqala.lab.balance``'s), ``turn_paid`` (the coins all players paid for turn order)
    or ``decisions`` (the decisions taken; both 0 for a game that did not record them)."""
    if metric == "score":
        return [_mean(r.scores) for r in results]
    if metric in ("rounds", "actions"):
        return [float(getattr(r, metric)) for r in results]
    if metric in ("lead_changes", "margin"):
        read = balance.lead_changes if metric == "lead_changes" else balance.margin
        return [float(read(r)) for r in results]
    if metric == "turn_paid":
        return [float(sum(r.play.paid)) if r.play else 0.0 for r in results]
    if metric == "decisions":
        return [float(sum(r.play.decisions)) if r.play else 0.0 for r in results]
    kind, _, name = metric.partition(":")
    if kind == "category" and name:
        return [_mean([per.get(name, 0) for per in r.categories]) for r in results]
    if kind == "wins" and name.isdigit():
        seat = int(name) - 1
        return [1.0 if seat in r.winners else 0.0 for r in results]
    if kind in ("position", "position-score") and name.isdigit() and int(name) >= 1:
        return _by_position(results, int(name) - 1, kind == "position")
    if kind == "turn-position" and name.isdigit() and int(name) >= 1:
        return _by_turn_position(results, int(name) - 1)
    raise CompareError(
        f"unknown metric {metric!r}; use score, rounds, actions, lead_changes, margin, "
        "turn_paid, decisions, category:NAME, wins:SEAT, position:K, position-score:K "
        "or turn-position:K"
    )


def _later_orders(result: GameResult) -> tuple[tuple[int, ...], ...]:
    """The turn order of each round after the first (empty when the game did not record
    its play, or lasted one round)."""
    return result.play.turn_order[1:] if result.play is not None else ()


def _by_turn_position(results: Sequence[GameResult], position: int) -> list[float]:
    """Per game, the share of its rounds 2 and later in which the player taking turn
    ``position`` (from 0) won the game (a shared win split): the later rounds' position
    effect, which bids decide, where round 1's is drawn at set-up."""
    values = []
    for r in results:
        orders = _later_orders(r)
        if not orders or any(position >= len(order) for order in orders):
            raise CompareError(
                f"game {r.seed} did not record a turn position {position + 1} after round 1"
            )
        won = [1 / len(r.winners) if order[position] in r.winners else 0.0 for order in orders]
        values.append(math.fsum(won) / len(won))
    return values


def _by_position(results: Sequence[GameResult], position: int, wins: bool) -> list[float]:
    """Per game, for the player who bid ``position``-th (from 0) in the first round: 1 if
    it won or shared the win (``wins``), else its final score. Seat says nothing in Five
    Tribes, whose turn order is drawn at set-up: this is the position effect."""
    values = []
    for r in results:
        if position >= len(r.start_order):
            raise CompareError(
                f"game {r.seed} did not record a first-round bidding position {position + 1}"
            )
        who = r.start_order[position]
        values.append((1.0 if who in r.winners else 0.0) if wins else float(r.scores[who]))
    return values


def metric_test(baseline: Sequence[GameResult], variant: Sequence[GameResult], metric: str) -> Any:
    """The report entry of one metric (its p-value is the unadjusted one)."""
    b, v = metric_values(baseline, metric), metric_values(variant, metric)
    if metric.startswith(("wins:", "position:")):
        return stats.paired_wins([x > 0 for x in b], [x > 0 for x in v])
    return stats.paired_means(b, v)


def report(
    baseline: Sequence[GameResult],
    variant: Sequence[GameResult],
    players: int,
    seed: int,
    baseline_plugins: Sequence[str],
    variant_plugins: Sequence[str],
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """The paired comparison of two runs of the same games (a JSON-ready dict); the
    metrics ``extra`` (``metric_values``' names) are tested too, in Holm's family."""
    games = len(baseline)
    if games != len(variant):
        raise CompareError("both runs must have played the same number of games")
    if games < 2:
        raise CompareError("a comparison needs at least 2 games")
    if [r.seed for r in baseline] != [r.seed for r in variant]:
        raise CompareError("both runs must have played the same seeds")
    wins_by_seat = []
    for seat in range(players):
        entry: dict[str, Any] = {"seat": seat + 1}
        entry.update(metric_test(baseline, variant, f"wins:{seat + 1}"))
        wins_by_seat.append(entry)
    score = metric_test(baseline, variant, "score")
    all_b = [float(s) for r in baseline for s in r.scores]
    all_v = [float(s) for r in variant for s in r.scores]
    score["sd"] = {
        "baseline": stats.num(statistics.stdev(all_b)),
        "variant": stats.num(statistics.stdev(all_v)),
    }
    names = sorted({c for r in (*baseline, *variant) for per in r.categories for c in per})
    categories = {name: metric_test(baseline, variant, f"category:{name}") for name in names}
    length = {key: metric_test(baseline, variant, key) for key in ("rounds", "actions")}
    positions = _positions(baseline, variant, players)
    turns = _turn_positions(baseline, variant, players)
    entries = [*wins_by_seat, score, *categories.values(), *length.values()]
    for position in positions:
        entries += [position["wins"], position["score"]]
    entries += [turn["wins"] for turn in turns]
    more = {metric: metric_test(baseline, variant, metric) for metric in extra}
    entries += more.values()
    for entry, adjusted in zip(entries, stats.holm([e["p_value"] for e in entries]), strict=True):
        entry["p_holm"] = stats.pval(adjusted)
        entry["significant"] = adjusted < stats.ALPHA
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "seeds": [r.seed for r in baseline],
        "baseline_plugins": list(baseline_plugins),
        "variant_plugins": list(variant_plugins),
        "confidence": stats.CONFIDENCE,
        "correction": {"method": "holm", "metrics": len(entries)},
        "wins_by_seat": wins_by_seat,
        "score": score,
        "categories": categories,
        "length": length,
        "by_position": positions,
        "by_turn_position": turns,
        **({"extra": more} if extra else {}),
        "position_fairness": {
            "baseline": _fairness(baseline, players) if positions else None,
            "variant": _fairness(variant, players) if positions else None,
        },
    }


def _positions(
    baseline: Sequence[GameResult], variant: Sequence[GameResult], players: int
) -> list[dict[str, Any]]:
    """Wins (McNemar) and final score (paired t) of the player at each first-round bidding
    position, both sides paired by seed; empty when a game did not record the order."""
    if not all(len(r.start_order) == players for r in (*baseline, *variant)):
        return []
    return [
        {
            "position": k,
            "wins": metric_test(baseline, variant, f"position:{k}"),
            "score": metric_test(baseline, variant, f"position-score:{k}"),
        }
        for k in range(1, players + 1)
    ]


def _turn_positions(
    baseline: Sequence[GameResult], variant: Sequence[GameResult], players: int
) -> list[dict[str, Any]]:
    """Per turn position, the paired t-test of the share of rounds 2 and later its player
    went on to win; empty unless every game recorded its turn order after round 1."""
    games = (*baseline, *variant)
    if not all(
        _later_orders(r) and all(len(o) == players for o in _later_orders(r)) for r in games
    ):
        return []
    return [
        {"position": k, "wins": metric_test(baseline, variant, f"turn-position:{k}")}
        for k in range(1, players + 1)
    ]


def _fairness(results: Sequence[GameResult], players: int) -> dict[str, Any] | None:
    """Within one side: the chi-square test that every bidding position wins equally often
    (not paired, so outside Holm's family)."""
    return stats.seat_balance(start_position_wins(results, players), len(results))


@attrs.frozen
class Sequential:
    """``--until-significant``: up to ``looks`` looks at ``metric``, maximum = the games."""

    metric: str = DEFAULT_METRIC
    looks: int = 5


def _sequential_run(
    baseline: Study,
    variant: Study,
    games: int,
    executor: Executor,
    plan: Sequential,
    advance: Advance | None,
) -> tuple[Run, dict[str, Any]]:
    counts = sequential.schedule(games, plan.looks)
    levels = sequential.levels(counts, stats.ALPHA)
    sides: list[list[GameResult]] = [[], []]
    looked: list[dict[str, Any]] = []
    interrupted = False
    rejected = False
    for count, level in zip(counts, levels, strict=True):
        start = len(sides[0])
        more, interrupted = play_indices(
            (baseline, variant), range(start, count), executor, advance
        )
        sides[0] += more[0]
        sides[1] += more[1]
        if interrupted:
            break
        p = float(metric_test(sides[0], sides[1], plan.metric)["p_value"])
        rejected = p < level
        looked.append({"games": count, "level": float(f"{level:.4g}"), "p_value": p})
        if rejected:
            break
    run = Run((tuple(sides[0]), tuple(sides[1])), games, interrupted)
    info = {
        "metric": plan.metric,
        "method": "alpha spending, O'Brien-Fleming type (Lan-DeMets), union bound",
        "alpha": stats.ALPHA,
        "planned_looks": counts,
        "looks": looked,
        "stopped_early": rejected and len(sides[0]) < games,
        "significant": rejected,
    }
    return run, info


def compare(
    baseline: Study,
    variant: Study,
    games: int,
    executor: Executor,
    *,
    advance: Advance | None = None,
    until_significant: Sequential | None = None,
    labels: Callable[[Study], Sequence[str]] | None = None,
) -> tuple[dict[str, Any], Run]:
    """Play both sides' games through ``executor``: the report and the games themselves
    (the same arguments give the same report on any executor). Interrupted runs report
    the games both sides finished, with ``partial`` true; ``sequential`` describes the
    stopping, if any."""
    check(baseline, variant, games)
    if until_significant is not None:
        metric_values([], until_significant.metric)  # refuse an unknown metric now
        run, info = _sequential_run(baseline, variant, games, executor, until_significant, advance)
    else:
        sides, interrupted = play_indices((baseline, variant), range(games), executor, advance)
        run, info = Run((tuple(sides[0]), tuple(sides[1])), games, interrupted), None
    if run.games < 2:
        raise CompareError(f"only {run.games} game(s) finished on both sides: nothing to report")
    label = labels or (lambda study: study.check().ruleset)
    result = report(
        run.sides[0],
        run.sides[1],
        baseline.players,
        baseline.seed,
        label(baseline),
        label(variant),
    )
    extra = {
        "requested": games,
        "partial": run.interrupted,
        "seats": list(baseline.seats),
        "rotate": baseline.rotate,
        "baseline_without": list(baseline.ruleset.without),
        "variant_without": list(variant.ruleset.without),
        "sequential": info,
    }
    return {**result, **extra}, run
