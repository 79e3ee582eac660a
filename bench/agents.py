"""Seat-rotated tournaments between AI players: win rates with 95% intervals, mean
scores and CPU time per decision, per kind of player.

Each deal (game seed) is played once per rotation of the seats, so every kind sits in
every seat of the same deals. Shared wins count as a fraction for each winner; a kind's
win rate is its wins per seat held (parity is 1/players), with a Wilson interval over
those seats (seats of one kind in the same game are not independent, so the interval of
a kind holding several seats is only indicative). Times are
CPU seconds (``time.process_time``) of ``choose`` calls, so a busy machine inflates them
less than wall time would; compare kinds within one run.

    python bench/agents.py --seats mcts:200,greedy --deals 10
    python bench/agents.py --seats mcts:1s,greedy,greedy,greedy --deals 5
    python bench/agents.py --seats greedy,greedy-full --deals 8
    python bench/agents.py --seats mcts:300,greedy,greedy,greedy,greedy -x artisans -x djinns
    python bench/agents.py --from-logs run1.out run2.out   # combine runs' per-game lines
    python bench/agents.py --seats mcts,greedy --times t.txt   # every decision's CPU time
    python bench/agents.py --from-times t1.txt t2.txt   # CPU times of several runs together

Long runs can be split over processes (different ``--seed``s) and stopped with Ctrl-C
(the games so far are reported); ``--from-logs`` adds up the per-game lines of several
runs (a tie on the score lines counts as shared there, as the tie-break is not logged).
"""

from __future__ import annotations

import argparse
import ast
import math
import re
import statistics
import time
from collections import defaultdict

from naqala.core.actions import Action
from naqala.core.agents import Agent, make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.simulate import agent_seed
from naqala.core.state import State


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def p_above_parity(wins: float, seats: int, parity: float) -> str:
    """The one-sided binomial test's p-value that the win rate is no better than parity
    (shared wins rounded), with scipy (``pip install 'naqala[lab]'``); "n/a" without."""
    try:
        from scipy.stats import binomtest
    except ImportError:
        return "n/a (pip install 'naqala[lab]')"
    return f"{binomtest(round(wins), seats, parity, alternative='greater').pvalue:.2g}"


class Timed:
    """An agent whose ``choose`` calls are timed in CPU seconds (``times``) and wall
    seconds (``walls``); ``searched`` keeps the CPU times of decisions with more than one
    option (the ones a player has to think about)."""

    def __init__(
        self,
        agent: Agent,
        times: list[float],
        walls: list[float],
        searched: list[float],
        log: list[str] | None = None,
        kind: str = "",
    ) -> None:
        self.agent = agent
        self.times = times
        self.walls = walls
        self.searched = searched
        self.log = log
        self.kind = kind

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        start, wall = time.process_time(), time.perf_counter()
        action = self.agent.choose(rules, state, options)
        spent = time.process_time() - start
        self.times.append(spent)
        self.walls.append(time.perf_counter() - wall)
        if len(options) > 1:
            self.searched.append(spent)
        if self.log is not None:
            self.log.append(f"{self.kind} {state.decision.stage} {len(options)} {spent:.6f}")
        return action


def tournament(
    rules: Rules,
    kinds: list[str],
    deals: int,
    seed: int,
    verbose: bool = True,
    times_path: str | None = None,
) -> dict[str, dict[str, float]]:
    """Play ``deals`` deals × every seat rotation; per kind: games, wins, scores, times
    (each decision's CPU time also appended to ``times_path`` after each game, if given:
    ``kind stage options seconds``)."""
    players = len(kinds)
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    scores: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    walls: dict[str, list[float]] = defaultdict(list)
    searched: dict[str, list[float]] = defaultdict(list)
    games = 0
    try:
        for deal in range(deals):
            game_seed = seed + deal
            for shift in range(players):
                seated = kinds[shift:] + kinds[:shift]
                log: list[str] | None = [] if times_path else None
                agents = [
                    Timed(
                        make_agent(rules, kind, agent_seed(game_seed, seat)),
                        times[kind],
                        walls[kind],
                        searched[kind],
                        log,
                        kind,
                    )
                    for seat, kind in enumerate(seated)
                ]
                state = rules.new_game(players, game_seed)
                while not state.is_over:
                    options = rules.legal_actions(state)
                    state = rules.apply(
                        state, agents[state.decision.player].choose(rules, state, options)
                    )
                final = rules.scores(state)
                winners = rules.winners(state)
                for seat, kind in enumerate(seated):
                    seats[kind] += 1
                    scores[kind].append(final[seat])
                    if seat in winners:
                        wins[kind] += 1 / len(winners)
                games += 1
                if times_path and log:
                    with open(times_path, "a", encoding="utf-8") as out:
                        out.write("".join(line + "\n" for line in log))
                if verbose:
                    first = kinds[0]
                    print(
                        f"deal {game_seed} seats {','.join(seated)}: scores {list(final)}"
                        f"  | {first} so far {wins[first]:.1f}/{seats[first]}",
                        flush=True,
                    )
    except KeyboardInterrupt:  # stopped early: report the games played so far
        print(f"stopped after {games} games")
    report: dict[str, dict[str, float]] = {}
    for kind in dict.fromkeys(kinds):
        if not seats[kind]:
            continue
        ts = sorted(times[kind])
        report[kind] = {
            "seats": seats[kind],
            "wins": wins[kind],
            "mean_score": statistics.fmean(scores[kind]),
            "decisions": len(ts),
            "mean_ms": 1000 * statistics.fmean(ts) if ts else 0.0,
            "p99_ms": 1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))] if ts else 0.0,
            "wall_ms": 1000 * statistics.fmean(walls[kind]) if walls[kind] else 0.0,
            "searched": len(searched[kind]),
            "searched_ms": 1000 * statistics.fmean(searched[kind]) if searched[kind] else 0.0,
            "searched_max_ms": 1000 * max(searched[kind]) if searched[kind] else 0.0,
            "searched_p99_ms": percentile_ms(searched[kind], 0.99),
        }
    return report


def percentile_ms(seconds: list[float], q: float) -> float:
    """The ``q`` quantile of some times, in ms (nearest rank below)."""
    if not seconds:
        return 0.0
    ordered = sorted(seconds)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def from_times(paths: list[str]) -> None:
    """CPU time per decision with a choice, per kind, over the ``--times`` files of runs."""
    searched: dict[str, list[float]] = defaultdict(list)
    for path in paths:
        with open(path, encoding="utf-8") as log:
            for line in log:
                kind, _stage, options, seconds = line.split()
                if int(options) > 1:
                    searched[kind].append(float(seconds))
    for kind, ts in searched.items():
        print(
            f"{kind:>14}: {len(ts)} decisions with a choice: CPU {1000 * statistics.fmean(ts):.1f}"
            f" ms mean, {percentile_ms(ts, 0.5):.1f} median, {percentile_ms(ts, 0.99):.1f} p99,"
            f" {1000 * max(ts):.1f} max"
        )


GAME_LINE = re.compile(r"^deal (\d+) seats (\S+): scores (\[[^\]]*\])")


def from_logs(paths: list[str]) -> None:
    """Win rates over the per-game lines of several runs' output."""
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    scores: dict[str, list[int]] = defaultdict(list)
    games: set[tuple[str, str, str]] = set()
    for path in paths:
        with open(path, encoding="utf-8") as log:
            for line in log:
                match = GAME_LINE.match(line)
                if not match:
                    continue
                deal, seated, final_text = match.groups()
                kinds = seated.split(",")
                if (deal, seated, path) in games:
                    continue
                games.add((deal, seated, path))
                final = ast.literal_eval(final_text)
                top = max(final)
                winners = [seat for seat, score in enumerate(final) if score == top]
                for seat, kind in enumerate(kinds):
                    seats[kind] += 1
                    scores[kind].append(final[seat])
                    if seat in winners:
                        wins[kind] += 1 / len(winners)
    players = len(next(iter(games))[1].split(",")) if games else 1
    print(f"{len(games)} games from {len(paths)} logs")
    for kind, held in seats.items():
        low, high = wilson(wins[kind], held)
        print(
            f"{kind:>14}: wins {wins[kind]:.1f}/{held} seats = {wins[kind] / held:.3f} "
            f"[95% {low:.3f}, {high:.3f}] p(≤ parity) "
            f"{p_above_parity(wins[kind], held, 1 / players)}  "
            f"mean score {statistics.fmean(scores[kind]):.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", default="mcts,greedy", help="one agent name per seat")
    parser.add_argument("--deals", type=int, default=10, help="deals, each played per rotation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-x", "--expansion", action="append", default=[])
    parser.add_argument("-q", "--quiet", action="store_true", help="no line per game")
    parser.add_argument("--from-logs", nargs="+", help="add up the games of these outputs")
    parser.add_argument("--times", help="append each decision's CPU time to this file")
    parser.add_argument("--from-times", nargs="+", help="CPU times of these --times files")
    args = parser.parse_args()
    if args.from_logs:
        from_logs(args.from_logs)
        return
    if args.from_times:
        from_times(args.from_times)
        return
    kinds = [k.strip() for k in args.seats.split(",")]
    rules = build_rules(args.expansion)
    started = time.process_time()
    report = tournament(
        rules, kinds, args.deals, args.seed, verbose=not args.quiet, times_path=args.times
    )
    game = "+".join(["base", *args.expansion])
    print(
        f"{len(kinds)}-player {game}, {args.deals} deals × {len(kinds)} rotations, seed {args.seed}"
    )
    for kind, r in report.items():
        seats = int(r["seats"])
        low, high = wilson(r["wins"], seats)
        better = p_above_parity(r["wins"], seats, 1 / len(kinds))
        print(
            f"{kind:>14}: wins {r['wins']:.1f}/{seats} seats = {r['wins'] / seats:.3f} "
            f"[95% {low:.3f}, {high:.3f}] p(≤ parity) {better}  mean score {r['mean_score']:.1f}  "
            f"decision {r['mean_ms']:.1f} ms CPU mean, {r['p99_ms']:.1f} ms p99, "
            f"{r['wall_ms']:.1f} ms wall mean ({int(r['decisions'])} decisions); "
            f"with a choice {r['searched_ms']:.1f} ms CPU mean, "
            f"{r['searched_p99_ms']:.1f} ms p99, "
            f"{r['searched_max_ms']:.0f} ms max ({int(r['searched'])})"
        )
    print(f"total CPU {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
