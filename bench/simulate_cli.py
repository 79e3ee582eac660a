"""``naqala simulate --json`` through the command line on both engines: the CPU time of
the whole command in a new process (user + system, from the children's resource usage),
native on ``--games`` games and Python on ``--python-games`` of the same games. Each run
also times both commands on one game (the start): Python's games beyond its start are
scaled to ``--games`` and its start counted once, and the ratio without either start is
printed beside the whole one. Runs alternate the
engines, so a shared machine's load falls on both alike.

    python bench/simulate_cli.py [--games 6000] [--python-games 400] [--players 4] [--runs 3]
    python bench/simulate_cli.py --players 5 -x artisans -x djinns
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys


def command_cpu(engine: str, games: int, players: int, expansions: list[str]) -> float:
    """CPU seconds of one ``naqala simulate`` on ``engine`` in a new process."""
    command = [
        sys.executable, "-c", "from naqala.cli.entry import main; main()",
        "simulate", "--games", str(games), "--players", str(players),
        "--json", "--jobs", "1", "--engine", engine,
    ]  # fmt: skip
    for name in expansions:
        command += ["-x", name]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--python-games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("-x", dest="expansions", action="append", default=[])
    args = parser.parse_args()
    if min(args.games, args.python_games, args.players, args.runs) < 1:
        parser.error("--games, --python-games, --players and --runs must be at least 1")
    scale = args.games / args.python_games
    for run in range(1, args.runs + 1):
        native = command_cpu("native", args.games, args.players, args.expansions)
        python = command_cpu("python", args.python_games, args.players, args.expansions)
        native_start = command_cpu("native", 1, args.players, args.expansions)
        python_start = command_cpu("python", 1, args.players, args.expansions)
        python_scaled = python_start + (python - python_start) * scale
        whole = python_scaled / native
        games_only = (python - python_start) * scale / (native - native_start)
        print(
            f"run {run}: native {args.games} games {native:.2f} CPU-s, Python "
            f"{args.python_games} games {python:.2f} CPU-s (scaled {python_scaled:.1f}): "
            f"{whole:.1f}× ({games_only:.1f}× without the starts, "
            f"{native_start:.2f} and {python_start:.2f} CPU-s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
