"""How far the rules let a metric go (``naqala extremes``), with a replayable witness.

A metric (``METRICS``, the shipped ones, and the plugins' through the hook
``naqala_metrics``: ``metrics_of``, refusing a second metric of the same name) measures
one finished game's path: the most points a player gained in one turn, the most coins, the
number of rounds. A turn is a run of consecutive decisions of the same player, and its
value is what that player's quantity (score, coins) changed by over the run.

The search plays candidate games, each a pure function of its ``Candidate`` (game seed,
agent seed, how much of it is random): a prefix of random actions, then a player that
takes, at each decision, the option with the largest immediate gain of the metric
(``MetricGreedy``), with a seeded share of random moves. Candidates come first from a
plain sweep of seeds, then from hypothesis (the seeds drawn by a strategy the caller
gives: ``naqala extremes`` passes ``naqala.testing.strategies.seeds()``) with
``hypothesis.target`` on the value, whose targeted phase mutates the candidates that went
furthest. Everything stops at the budget: a wall-clock time, or a number of candidate
games (``Budget``), the latter the same result on every machine.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from naqala.core.actions import Action, format_action
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.metrics import Metric
from naqala.core.plugins import PluginError
from naqala.core.record import GameRecord, new_record, with_final_scores
from naqala.core.rng import MAX_SEED, Rng
from naqala.core.state import State

#: the share of random moves a candidate may mix into the metric's greedy play
EPSILONS = (0.0, 0.05, 0.2, 0.5)
#: the longest random prefix a candidate plays before the greedy player takes over
MAX_PREFIX = 120


class ExtremesError(ValueError):
    """A search that cannot run: an unknown metric, a malformed budget."""


METRICS: dict[str, Metric] = {}


def register_metric(metric: Metric) -> Metric:
    """Add ``metric`` to the shipped ``METRICS``; a second metric of the same name is
    refused. A plugin offers its own through the hook ``naqala_metrics`` instead."""
    if metric.name in METRICS:
        raise ExtremesError(f"a metric named {metric.name!r} is already registered")
    METRICS[metric.name] = metric
    return metric


register_metric(
    Metric(
        "points-in-a-turn",
        "the most points one player gained in one turn",
        lambda rules, state, player: rules.scores(state)[player],
        "turn",
    )
)
register_metric(
    Metric(
        "coins-in-a-turn",
        "the most coins one player gained in one turn",
        lambda rules, state, player: state.players[player].coins,
        "turn",
    )
)
register_metric(
    Metric("rounds", "the number of rounds of the game", lambda r, state, p: state.round, "game")
)


class _Shipped:
    """The shipped ``METRICS`` as an answer to ``naqala_metrics``, so they merge with the
    plugins' by the rules' own registry (clashes, ``REPLACES``, providers)."""

    @staticmethod
    def naqala_metrics() -> Iterable[Metric]:
        return list(METRICS.values())


def metrics_of(rules: Rules) -> dict[str, Metric]:
    """The metrics a search of ``rules`` can push: the shipped ``METRICS`` and those the
    rules' plugins offer (hook ``naqala_metrics``), by name. A name offered twice is an
    ``ExtremesError`` naming both, unless one plugin lists ``metric:<name>`` in its
    ``REPLACES`` (then its metric is the one searched)."""
    try:
        return dict(rules.metrics([(__name__, _Shipped)]))
    except PluginError as exc:
        raise ExtremesError(str(exc)) from exc


def metric_named(name: str, rules: Rules) -> Metric:
    """The metric ``name`` among the shipped ones and the plugins' of ``rules``."""
    known = metrics_of(rules)
    if name not in known:
        raise ExtremesError(f"unknown metric {name!r}; known: {', '.join(sorted(known))}")
    return known[name]


@attrs.frozen
class Budget:
    """``60s`` (seconds of wall-clock time) or ``40g`` (candidate games)."""

    seconds: float | None = None
    games: int | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        match = re.fullmatch(r"(\d+(?:\.\d+)?)(s|g)", text.strip())
        if match is None or float(match.group(1)) <= 0:
            raise ExtremesError(f"--budget {text!r}: write seconds (60s) or candidate games (40g)")
        number, unit = match.groups()
        return cls(seconds=float(number)) if unit == "s" else cls(games=int(float(number)))

    def share(self, fraction: float) -> Budget:
        if self.seconds is not None:
            return Budget(seconds=self.seconds * fraction)
        return Budget(games=max(1, round((self.games or 1) * fraction)))


@attrs.frozen
class Candidate:
    """One candidate game: everything that decides it."""

    seed: int
    agent_seed: int
    epsilon: float
    prefix: int


@attrs.frozen
class Found:
    """A candidate's game: the metric's value, the action after which it was reached
    (the witness's length that matters), and every action."""

    candidate: Candidate
    value: int
    reached_at: int
    actions: tuple[Action, ...]
    final_scores: tuple[int, ...]

    def better_than(self, other: Found | None) -> bool:
        """A higher value, or the same value reached in fewer actions (a shorter witness)."""
        if other is None:
            return True
        return (self.value, -self.reached_at) > (other.value, -other.reached_at)


class MetricGreedy:
    """Takes the option whose application raises the actor's quantity most (a turn
    metric), with a share ``epsilon`` of uniformly random moves; ties go to a seeded
    random pick, so the player is a function of its seed."""

    def __init__(self, metric: Metric, seed: int, epsilon: float) -> None:
        self.metric = metric
        self.rng = Rng(seed)
        self.epsilon = epsilon

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        roll, self.rng = self.rng.below(1000)
        if self.metric.per != "turn" or roll < self.epsilon * 1000 or len(options) == 1:
            index, self.rng = self.rng.below(len(options))
            return options[index]
        player = state.decision.player
        before = self.metric.quantity(rules, state, player)
        gains = [
            self.metric.quantity(rules, rules.apply(state, option), player) - before
            for option in options
        ]
        best = max(gains)
        ties = [o for o, g in zip(options, gains, strict=True) if g == best]
        index, self.rng = self.rng.below(len(ties))
        return ties[index]


def play_candidate(rules: Rules, players: int, metric: Metric, candidate: Candidate) -> Found:
    """Play ``candidate`` to the end and measure it."""
    state = rules.new_game(players, candidate.seed)
    random = RandomAgent(candidate.agent_seed)
    greedy = MetricGreedy(metric, candidate.agent_seed + 1, candidate.epsilon)
    actions: list[Action] = []
    best, reached_at = 0, 0
    run_player, run_start = -1, 0
    while not state.is_over:
        player = state.decision.player
        if metric.per == "turn" and player != run_player:
            run_player, run_start = player, metric.quantity(rules, state, player)
        options = rules.legal_actions(state)
        agent = random if len(actions) < candidate.prefix else greedy
        action = agent.choose(rules, state, options)
        state = rules.apply(state, action)
        actions.append(action)
        if metric.per == "turn" and player >= 0:
            gain = metric.quantity(rules, state, player) - run_start
            if gain > best:
                best, reached_at = gain, len(actions)
    if metric.per == "game":
        best, reached_at = metric.quantity(rules, state, -1), len(actions)
    return Found(candidate, best, reached_at, tuple(actions), rules.scores(state))


class SearchInterrupted(Exception):
    """Ctrl-C during a search that had found something: the best candidate so far and how
    many candidates were played, for the command to report as a partial result."""

    def __init__(self, found: Found, candidates: int) -> None:
        super().__init__("interrupted")
        self.found, self.candidates = found, candidates


class _OutOfBudget(BaseException):
    """Raised inside hypothesis' test when the budget is spent: not an ``Exception``, so
    hypothesis does not take it for a failure to shrink, and the run ends at once."""


class _Clock:
    """The budget's account: candidates played, time used, whether there is more."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.start = time.monotonic()
        self.played = 0

    def more(self) -> bool:
        if self.budget.games is not None:
            return self.played < self.budget.games
        return time.monotonic() - self.start < (self.budget.seconds or 0.0)


def _hypothesis_search(
    rules: Rules,
    players: int,
    metric: Metric,
    seed: int,
    clock: _Clock,
    keep: Callable[[Found], None],
    seeds: Any,
) -> None:
    """Candidates drawn by hypothesis, steered by ``target`` towards larger values, until
    the budget is spent."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    @hypothesis_seed(seed)
    @settings(
        max_examples=10_000,
        deadline=None,
        database=None,
        verbosity=Verbosity.quiet,
        phases=[Phase.generate, Phase.target],
        suppress_health_check=list(HealthCheck),
    )
    @given(
        seeds,
        seeds,
        st.sampled_from(EPSILONS),
        st.integers(min_value=0, max_value=MAX_PREFIX),
    )
    def explore(game_seed: int, agent_seed: int, epsilon: float, prefix: int) -> None:
        if not clock.more():
            raise _OutOfBudget
        found = play_candidate(
            rules, players, metric, Candidate(game_seed, agent_seed, epsilon, prefix)
        )
        clock.played += 1  # after the game: a candidate stopped by Ctrl-C does not count
        keep(found)
        target(float(found.value))

    with contextlib.suppress(_OutOfBudget):
        explore()


def search(
    rules: Rules,
    players: int,
    metric: Metric,
    budget: Budget,
    seed: int = 0,
    seeds: Any = None,
) -> tuple[Found, int]:
    """The best candidate found within ``budget`` (a higher value, then a shorter
    witness) and how many candidates were played. A quarter of the budget is a plain sweep
    of seeds from ``seed`` (modulo 2**64) with the greedy player, the rest hypothesis'
    targeted exploration, drawing game and agent seeds from ``seeds`` (a hypothesis
    strategy: the command passes the testing kit's ``seeds()``, which the lab may not
    import; by default any 32-bit seed). Ctrl-C raises ``SearchInterrupted`` with the best
    so far (KeyboardInterrupt before the first candidate finished)."""
    best: list[Found] = []

    def keep(found: Found) -> None:
        if found.better_than(best[0] if best else None):
            best[:] = [found]

    sweep = _Clock(budget.share(0.25))
    rest = _Clock(budget.share(0.75))
    index = 0
    try:
        while sweep.more() or not best:
            epsilon = EPSILONS[index % len(EPSILONS)]
            swept = (seed + index) & MAX_SEED  # past the last seed, the sweep goes on from 0
            keep(play_candidate(rules, players, metric, Candidate(swept, swept, epsilon, 0)))
            sweep.played += 1
            index += 1
        rest.start = time.monotonic()
        if seeds is None:
            from hypothesis import strategies as st

            seeds = st.integers(min_value=0, max_value=2**32 - 1)
        _hypothesis_search(rules, players, metric, seed, rest, keep, seeds)
    except KeyboardInterrupt:
        if not best:
            raise
        raise SearchInterrupted(best[0], sweep.played + rest.played) from None
    return best[0], sweep.played + rest.played


def plain_value(rules: Rules, players: int, metric: Metric, seed: int) -> int:
    """The metric of one ordinary game (random play at ``seed``): the scale of a search
    run without house rules to compare with."""
    return play_candidate(rules, players, metric, Candidate(seed, seed, 1.0, 0)).value


def summary(metric: Metric, found: Found, candidates: int, baseline: int | None) -> dict[str, Any]:
    """The JSON of a search (without the witness's path, which the caller writes);
    ``baseline`` None when an interrupted search measured no scale."""
    c = found.candidate
    return {
        "metric": metric.name,
        "description": metric.description,
        "value": found.value,
        "reached_at_action": found.reached_at,
        "candidates": candidates,
        "candidate": {
            "seed": c.seed,
            "agent_seed": c.agent_seed,
            "epsilon": c.epsilon,
            "prefix": c.prefix,
        },
        "baseline": baseline,
    }


def witness_record(rules: Rules, players: int, found: Found) -> GameRecord:
    """The finished game of ``found`` as a record that ``naqala replay --verify`` accepts."""
    record = new_record(rules, found.candidate.seed, players, ("search",) * players)
    record = attrs.evolve(record, actions=tuple(format_action(a) for a in found.actions))
    return with_final_scores(record, found.final_scores)


def scenario_test(
    metric: Metric, record_name: str, value: int, house_rules: Sequence[str] = ()
) -> str:
    """A test to paste into a test file next to the witness: it replays and reaches the
    value (house-rule files by the paths given here)."""
    name = metric.name.replace("-", "_")
    files = ", ".join(f"Path({path!r})" for path in house_rules)
    return (
        "from pathlib import Path\n\n"
        "from naqala.core.record import load_record, replay, rules_for_record\n"
        "from naqala.lab.extremes import measure_states, metric_named\n\n\n"
        f"def test_{name}_reaches_{value}() -> None:\n"
        f'    record = load_record(Path(__file__).with_name("{record_name}"))\n'
        f"    rules = rules_for_record(record, [{files}])\n"
        f'    metric = metric_named("{metric.name}", rules)\n'
        f"    assert measure_states(rules, metric, replay(record, rules)) == {value}\n"
    )


def measure_states(rules: Rules, metric: Metric, states: Sequence[State]) -> int:
    """The metric of a replayed game, from its states (the first the new game)."""
    if metric.per == "game":
        return metric.quantity(rules, states[-1], -1)
    best = 0
    run_player, run_start = -1, 0
    for before, after in itertools.pairwise(states):
        player = before.decision.player
        if player != run_player:
            run_player, run_start = player, metric.quantity(rules, before, player)
        if player >= 0:
            best = max(best, metric.quantity(rules, after, player) - run_start)
    return best
