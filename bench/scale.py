"""Games per second of a study on 1 job and on N jobs, and the speed-up.

The same games (seeds 0 … games − 1) are played once serially and once on ``--jobs``
through the executor the lab's commands pick (``make_executor``: worker processes for the
Python engine, threads of this process for games on the native kernel, which plays a
whole game without the GIL); the results must be identical, and the script says so.
Parallel speed-up is a matter of elapsed time, so this script measures wall time
(``time.perf_counter``); on a machine shared with other work the ratio is only as good as
the cores that were free. It also prints the CPU time per game of both runs (measured on
whichever thread played each game), which the load hardly changes: equal values mean the
workers do the same work, so the speed-up is bounded by the free cores alone.

    python bench/scale.py [--games 32] [--jobs 2] [--seats greedy,greedy] [-x artisans]
    python bench/scale.py --engine native --games 2000 --seats random,random,random,random
"""

from __future__ import annotations

import argparse
import time

from naqala.lab.executors import Executor, SerialExecutor, default_jobs, make_executor
from naqala.lab.results import GameResult
from naqala.lab.study import Ruleset, Study, play_task, seats_of
from naqala.native.choice import NATIVE, PYTHON


def timed_task(task: tuple[Study, int]) -> tuple[GameResult, float]:
    """One game and the CPU seconds it took on the thread that played it."""
    start = time.thread_time()
    result = play_task(task)
    return result, time.thread_time() - start


def timed(study: Study, games: int, executor: Executor) -> tuple[list[GameResult], float, float]:
    """The results in game order, the wall time, and the CPU time the games took in
    whichever processes played them."""
    start = time.perf_counter()
    done: dict[int, tuple[GameResult, float]] = {}
    try:
        for position, pair in executor.imap(timed_task, [(study, i) for i in range(games)]):
            done[position] = pair
    finally:
        executor.close()
    wall = time.perf_counter() - start
    return [done[i][0] for i in range(games)], wall, sum(cpu for _, cpu in done.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # enough games that starting the workers (imports, rules) is a small part of the run:
    # a greedy game takes about a second since the fast path
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--seats", default="greedy,greedy")
    parser.add_argument("-x", "--expansion", action="append", default=[])
    parser.add_argument("--engine", choices=(PYTHON, NATIVE), default=PYTHON)
    args = parser.parse_args()
    ruleset = Ruleset.of(args.expansion, [])
    seats = seats_of(ruleset.build(), args.seats, None)
    study = Study(ruleset, seats, seed=0, engine=args.engine)
    study.check()
    serial, one, cpu_one = timed(study, args.games, SerialExecutor())
    executor = make_executor(args.jobs, None, args.games, native=args.engine == NATIVE)
    parallel, many, cpu_many = timed(study, args.games, executor)
    same = "identical" if serial == parallel else "DIFFERENT (a bug)"
    print(f"{args.games} games, seats {args.seats}, plugins {study.check().ruleset}, {args.engine}")
    print(f"executor: {executor.description}")
    print(f"1 job:     {args.games / one:.3f} games/s ({one:.1f} s)")
    print(f"{args.jobs} jobs:    {args.games / many:.3f} games/s ({many:.1f} s)")
    print(f"speed-up:  {one / many:.2f}x; results {same}")
    games = args.games
    print(
        f"CPU per game: 1 job {cpu_one / games:.2f} s, {args.jobs} jobs {cpu_many / games:.2f} s "
        f"(ratio {cpu_many / cpu_one:.2f})"
    )


if __name__ == "__main__":
    main()
