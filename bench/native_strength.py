"""Native ``mcts:deep`` against today's ``mcts`` on the Python engine, two players, seats
swapped in each pair of games (the same game seed twice): the win rate of the native
seat with its 95% Wilson interval, and each side's CPU a decision.

Both seats play one game on the Python engine: at the native seat's decisions the state
is handed to the kernel (``NativePlayer``), at the other seat's ``MctsAgent`` decides.
Each finished game is appended to ``--out`` as one JSON line, so a study cut short keeps
its games (run again, it plays only the games missing) and a second process can share
the pairs (``--part K --parts N``).

    python bench/native_strength.py --pairs 100 --out /tmp/strength.jsonl
    python bench/native_strength.py --summary /tmp/strength.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from naqala.agents.mcts import MctsAgent
from naqala.core.actions import format_action
from naqala.core.engine import build_rules
from naqala.core.simulate import agent_seed
from naqala.lab.results import wilson
from naqala.native import available, native, unavailable_reason
from naqala.native.bridge import NativeRules

#: the first game seed of the study (pair k plays seed BASE_SEED + k twice)
BASE_SEED = 7000


def play_pair_game(seed: int, native_seat: int, budget: str) -> dict[str, object]:
    """One two-player game: the native ``mcts:<budget>`` at ``native_seat``, today's
    Python ``mcts`` at the other seat."""
    rules = build_rules()
    bridge = NativeRules(rules)
    python_seat = 1 - native_seat
    searcher = MctsAgent(agent_seed(seed, python_seat))
    name = f"mcts:{budget}" if budget else "mcts"
    player = native().NativePlayer(name, agent_seed(seed, native_seat))
    cpu = [0.0, 0.0]
    decisions = [0, 0]
    state = rules.new_game(2, seed)
    while not state.is_over:
        options = rules.legal_actions(state)
        seat = state.decision.player
        started = time.process_time()
        if seat == native_seat:
            handed = bridge.to_native(state)
            chosen = handed.legal_actions()[player.choose(handed)]
            action = next(a for a in options if format_action(a) == chosen)
        else:
            action = searcher.choose(rules, state, options)
        cpu[seat] += time.process_time() - started
        decisions[seat] += 1
        state = rules.apply(state, action)
    scores = rules.scores(state)
    winners = rules.winners(state)
    won = 1.0 / len(winners) if native_seat in winners else 0.0
    return {
        "seed": seed,
        "native_seat": native_seat,
        "scores": list(scores),
        "native_won": won,
        "native_cpu": cpu[native_seat],
        "python_cpu": cpu[python_seat],
        "native_decisions": decisions[native_seat],
        "python_decisions": decisions[python_seat],
    }


def summary(paths: list[Path]) -> dict[str, object]:
    """The games of ``paths`` added up: games, native wins (shared wins split), the win
    rate and its Wilson interval, and CPU a decision on each side."""
    games = [json.loads(line) for path in paths for line in path.read_text().splitlines()]
    n = len(games)
    wins = sum(float(g["native_won"]) for g in games)
    low, high = wilson(wins, n) if n else (0.0, 0.0)
    native_cpu = sum(g["native_cpu"] for g in games)
    python_cpu = sum(g["python_cpu"] for g in games)
    return {
        "games": n,
        "native_wins": wins,
        "win_rate": round(wins / n, 4) if n else None,
        "wilson_95": [round(low, 4), round(high, 4)],
        "native_ms_per_decision": round(
            1000 * native_cpu / max(1, sum(g["native_decisions"] for g in games)), 1
        ),
        "python_ms_per_decision": round(
            1000 * python_cpu / max(1, sum(g["python_decisions"] for g in games)), 1
        ),
        "native_cpu_over_python": round(native_cpu / python_cpu, 3) if python_cpu else None,
    }


def played(path: Path) -> set[tuple[int, int]]:
    """The games already in ``path`` (seed, native seat), so a study run again skips them."""
    if not path.exists():
        return set()
    games = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {(int(g["seed"]), int(g["native_seat"])) for g in games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100, help="pairs of games (each seed twice)")
    parser.add_argument("--budget", default="deep", help="the native seat's mcts budget")
    parser.add_argument("--out", type=Path, help="append each game to this JSON-lines file")
    parser.add_argument("--part", type=int, default=0, help="this process plays pairs k ≡ part")
    parser.add_argument("--parts", type=int, default=1, help="… modulo parts")
    parser.add_argument("--minutes", type=float, default=120.0, help="stop starting games after")
    parser.add_argument("--summary", type=Path, nargs="+", help="only add up these files")
    args = parser.parse_args(argv)
    if args.summary:
        print(json.dumps(summary(args.summary), indent=2))
        return 0
    if not available():
        print(f"native_strength: {unavailable_reason()}", file=sys.stderr)
        return 2
    if args.out is None:
        print("native_strength: --out is needed to keep the games", file=sys.stderr)
        return 2
    stop = time.monotonic() + 60 * args.minutes
    done = played(args.out)
    for pair in range(args.part, args.pairs, args.parts):
        for native_seat in (0, 1):
            if (BASE_SEED + pair, native_seat) in done:
                continue  # a study run again goes on where it stopped
            if time.monotonic() >= stop:
                return 0
            game = play_pair_game(BASE_SEED + pair, native_seat, args.budget)
            with args.out.open("a") as out:
                out.write(json.dumps(game) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
