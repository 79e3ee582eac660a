"""A study's games on both engines: CPU time per game in one process, and the whole
``naqala simulate --games 1000 --players 4 --json`` command, with the same JSON.

Games: ``play_task`` over the same study (random players, 4 players, base game) on the
Python engine and on the native one (``Study.engine``), interleaved in CPU-time slices in
this process, so a shared machine's load falls on both alike. Printed: the median ratio
of games per CPU-second and its range, the CPU per game on each engine, and where a
native game's time goes (the kernel's call: setup and every decision; the final state
back to Python; the result read from it).

Command: the whole command in a new process each run (``--jobs 1``: one process, whose
CPU time, user + system, is read from the children's resource usage), on each engine;
the two engines' outputs must be byte for byte the same. The issue's target is 2 CPU-s
on native.

    python bench/simulate_engines.py [--rounds 5] [--slice 1.0] [--runs 3] [--games 1000]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import attrs

from naqala import native as kernel
from naqala.core.simulate import agent_seed
from naqala.lab.results import result_of
from naqala.lab.study import Ruleset, Study, play_task, rules_of

#: the issue's target for the native 1000-game command, CPU seconds
TARGET = 2.0
PLAYERS = 4


def games_in(study: Study, first: int, budget: float) -> tuple[int, float]:
    """Games of ``study`` from index ``first`` until ``budget`` CPU-s are spent: how many
    and the CPU-s they took."""
    started = time.process_time()
    played = 0
    while time.process_time() - started < budget:
        play_task((study, first + played))
        played += 1
    return played, time.process_time() - started


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f}× (range {min(values):.1f}–{max(values):.1f}×)"


def measure_games(rounds: int, budget: float, out: Callable[[str], None]) -> None:
    python = Study(Ruleset(), ("random",) * PLAYERS, seed=0)
    native = attrs.evolve(python, engine="native")
    play_task((python, 0))  # rules and kernel built before the clock runs
    play_task((native, 0))
    ratios: list[float] = []
    games = {"python": 0, "native": 0}
    spent = {"python": 0.0, "native": 0.0}
    first = 1
    for _ in range(rounds):
        py_games, py_spent = games_in(python, first, budget)
        nat_games, nat_spent = games_in(native, first, budget)
        first += max(py_games, nat_games)
        ratios.append((nat_games / nat_spent) / (py_games / py_spent))
        games["python"] += py_games
        games["native"] += nat_games
        spent["python"] += py_spent
        spent["native"] += nat_spent
    py_ms = spent["python"] / games["python"] * 1e3
    nat_ms = spent["native"] / games["native"] * 1e3
    out(
        f"study games, {PLAYERS} players base, random: native/Python {spread(ratios)} over "
        f"{rounds} rounds; Python {py_ms:.2f} ms/game, native {nat_ms:.3f} ms/game"
    )
    out("  a native game: " + breakdown(native, 200))


def breakdown(study: Study, games: int) -> str:
    """Where a native game's CPU goes, over ``games`` games: the kernel's call, the
    result read from the kernel's plain data (what the lab does, ``read_natively``), and
    for comparison the final state back to Python and the result read from it."""
    from naqala.lab.native import read_natively
    from naqala.native.support import native_rules

    rules = rules_of(study.ruleset)
    bridge = native_rules(rules)
    spent = [0.0, 0.0, 0.0, 0.0]
    for seed in range(games):
        t0 = time.process_time()
        start = bridge.new_game(PLAYERS, seed)
        seats = [("random", agent_seed(seed, seat)) for seat in range(PLAYERS)]
        final, actions, rounds = start.play(seats)
        t1 = time.process_time()
        first = tuple(start.first_bidders())
        played = [tuple(r) for r in rounds]
        read_natively(rules, final, seed, actions, study.seats, first, played)
        t2 = time.process_time()
        state = bridge.to_python(final, meaning=False)
        t3 = time.process_time()
        result_of(rules, state, seed, actions, study.seats, first, played)
        t4 = time.process_time()
        for i, (a, b) in enumerate(((t0, t1), (t1, t2), (t2, t3), (t3, t4))):
            spent[i] += b - a
    kernel_ms, read_ms, back_ms, result_ms = (s / games * 1e3 for s in spent)
    return (
        f"kernel {kernel_ms:.3f} ms, result read natively {read_ms:.3f} ms "
        f"(through a Python state it would be: state back {back_ms:.3f} ms, "
        f"result {result_ms:.3f} ms)"
    )


def command_cpu(engine: str, games: int) -> tuple[float, bytes]:
    """CPU seconds of one ``naqala simulate`` in a new process, and what it printed."""
    command = [
        sys.executable, "-c", "from naqala.cli.entry import main; main()",
        "simulate", "--games", str(games),
        "--players", str(PLAYERS), "--json", "--jobs", "1", "--engine", engine,
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, done.stdout


def measure_command(runs: int, python_runs: int, games: int, out: Callable[[str], None]) -> bool:
    outputs = set()
    times: dict[str, list[float]] = {"native": [], "python": []}
    for engine, count in (("native", runs), ("python", python_runs)):
        for _ in range(count):
            spent, printed = command_cpu(engine, games)
            times[engine].append(spent)
            outputs.add(printed)
    for engine, spent in times.items():
        if spent:
            out(
                f"naqala simulate --games {games} --players {PLAYERS} --json --jobs 1 "
                f"--engine {engine}: {statistics.median(spent):.2f} CPU-s "
                f"(range {min(spent):.2f}–{max(spent):.2f}, {len(spent)} runs)"
            )
    same = len(outputs) == 1 and b'"games"' in next(iter(outputs))
    out(f"the same JSON on both engines: {'yes' if same else 'NO'}")
    if games == 1000:
        met = statistics.median(times["native"]) <= TARGET
        out(f"target {TARGET} CPU-s on native: {'met' if met else 'NOT met'}")
    return same


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="slices per engine (default 5)")
    parser.add_argument("--slice", type=float, default=1.0, help="CPU-s per slice (1.0)")
    parser.add_argument("--runs", type=int, default=3, help="native command runs (3)")
    parser.add_argument("--python-runs", type=int, default=1, help="Python command runs (1)")
    parser.add_argument("--games", type=int, default=1000, help="the command's games (1000)")
    args = parser.parse_args(argv)
    if not kernel.available():
        out(f"the native engine is not available: {kernel.unavailable_reason()}")
        return 2
    if args.rounds < 1 or args.slice <= 0 or args.runs < 1 or args.games < 1:
        parser.error("--rounds, --runs and --games must be at least 1 and --slice positive")
    measure_games(args.rounds, args.slice, out)
    same = measure_command(args.runs, args.python_runs, args.games, out)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
