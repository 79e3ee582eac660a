"""The search ladder on the native engine: how much a seat's thought buys.

``duel``: seat A against seat B at 2 players (or one A against B in every other seat at
more), whole native games, each deal played twice with the seats swapped (at 4 players
A takes seat 0 then seat 2 of the same deal). Prints A's win rate (a shared win split)
with its 95% Wilson interval, and each side's CPU a decision.

``latency``: CPU seconds of each decision of seat A at 4 players with the Artisans and
the Djinns (the others greedy): mean, p99 and max, in one process.

    python bench/search_ladder.py duel ismcts:strong ismcts --pairs 20
    python bench/search_ladder.py duel ismcts greedy --players 4 --pairs 10
    python bench/search_ladder.py latency ismcts --games 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from naqala.core.engine import build_rules
from naqala.core.simulate import agent_seed
from naqala.lab.results import wilson
from naqala.native import available, native, unavailable_reason
from naqala.native.bridge import NativeRules

#: the first deal of a duel by default (pair k plays deal --seed + k twice)
BASE_SEED = 9100


def decider(state: object) -> int:
    """The seat whose decision ``state`` (a ``NativeState``) waits for."""
    return int(json.loads(state.to_json())["decision"]["player"])  # type: ignore[attr-defined]


def duel_game(
    a: str, b: str, players: int, seed: int, a_seat: int, expansions: tuple[str, ...]
) -> tuple[float, float, int, float, int]:
    """One native game, ``a`` at ``a_seat`` and ``b`` elsewhere: A's share of the win,
    and CPU seconds and decisions of A and of the B seats."""
    bridge = NativeRules(build_rules(list(expansions)))
    names = [a if seat == a_seat else b for seat in range(players)]
    seated = [native().NativePlayer(n, agent_seed(seed, i)) for i, n in enumerate(names)]
    state = bridge.new_game(players, seed)
    cpu = [0.0, 0.0]
    count = [0, 0]
    while not state.is_over():
        options = state.legal_actions()
        seat = decider(state)
        side = 0 if seat == a_seat else 1
        started = time.process_time()
        index = seated[seat].choose(state) if len(options) > 1 else 0
        cpu[side] += time.process_time() - started
        count[side] += 1
        state = state.apply(options[index])
    scores = state.scores()
    top = max(scores)
    winners = [s for s, v in enumerate(scores) if v == top]
    won = 1.0 / len(winners) if a_seat in winners else 0.0
    return won, cpu[0], count[0], cpu[1], count[1]


def duel(args: argparse.Namespace) -> int:
    seats = [0, args.players // 2] if args.players > 2 else [0, 1]
    jobs = [(args.seed + k, seat) for k in range(args.pairs) for seat in seats]
    expansions = tuple(args.expansion)
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(duel_game, args.a, args.b, args.players, seed, seat, expansions)
            for seed, seat in jobs
        ]
        results = [future.result() for future in futures]
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    a_cpu = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    b_cpu = sum(r[3] for r in results) / max(1, sum(r[4] for r in results))
    print(
        f"{args.a} vs {args.b} at {args.players} players: {len(results)} games, "
        f"win rate {wins / len(results):.3f} [{low:.3f}, {high:.3f}]; CPU a decision "
        f"{a_cpu * 1000:.1f} ms vs {b_cpu * 1000:.1f} ms"
    )
    return 0


def latency(args: argparse.Namespace) -> int:
    times: list[float] = []
    bridge = NativeRules(build_rules(["artisans", "djinns"]))
    for game in range(args.games):
        seed = BASE_SEED + game
        seated = [
            native().NativePlayer(args.a if i == 0 else "greedy", agent_seed(seed, i))
            for i in range(4)
        ]
        state = bridge.new_game(4, seed)
        while not state.is_over():
            options = state.legal_actions()
            seat = decider(state)
            started = time.process_time()
            index = seated[seat].choose(state) if len(options) > 1 else 0
            if seat == 0 and len(options) > 1:
                times.append(time.process_time() - started)
            state = state.apply(options[index])
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(
        f"{args.a} at 4 players, artisans+djinns: {len(times)} decisions, mean "
        f"{statistics.mean(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max "
        f"{times[-1] * 1000:.1f} ms"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("duel", help="A against B, deals paired with seats swapped")
    one.add_argument("a")
    one.add_argument("b")
    one.add_argument("--players", type=int, default=2)
    one.add_argument("--pairs", type=int, default=20)
    one.add_argument("--jobs", type=int, default=1)
    one.add_argument("--seed", type=int, default=BASE_SEED, help="the first deal")
    one.add_argument("--expansion", "-e", action="append", default=[])
    two = sub.add_parser("latency", help="CPU a decision at 4 players with both boxes")
    two.add_argument("a")
    two.add_argument("--games", type=int, default=2)
    args = parser.parse_args(argv)
    if not available():
        print(f"the native kernel is not available: {unavailable_reason()}", file=sys.stderr)
        return 1
    return duel(args) if args.command == "duel" else latency(args)


if __name__ == "__main__":
    sys.exit(main())
