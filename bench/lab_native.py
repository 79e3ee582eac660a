"""``naqala simulate --json`` on the native engine against the Python engine, through the
command's own code path, in one process.

Each round runs the command (``naqala.cli.entry.main``, output captured) on the Python
engine and then on the native one over the same games, measuring each run's CPU time
(``time.process_time``) so a shared machine's load falls on both alike; the two JSON
outputs must be the same text. One warm-up run of each comes first: the imports and the
rules (and the kernel) are built once per process, so the ratio is that of the games and
their results, what a long study pays. Printed: the median ratio of CPU (Python / native)
and its range, per case: 4 players, base game; and 5 players with the Artisans and the
Djinns (Whims) box. The issue's target is 30× in each; the games are few (``--games``)
for a shared machine, and the figure is a ratio.

    python bench/lab_native.py [--games 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time

from naqala.cli.entry import main as naqala

#: the cases: a name and the command's options beyond --games, --json and --engine
CASES = (
    ("4 players, base", ["--players", "4"]),
    ("5 players, Artisans + Djinns", ["--players", "5", "-x", "artisans", "-x", "djinns"]),
)


def run(options: list[str], games: int, engine: str) -> tuple[float, str]:
    """CPU-seconds of one ``naqala simulate`` on ``engine`` and its JSON output."""
    argv = ["simulate", "--games", str(games), "--json", "--jobs", "1", "--engine", engine]
    captured = io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stdout(captured):
        try:
            naqala([*argv, *options])
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise
    return time.process_time() - started, captured.getvalue()


def measure(name: str, options: list[str], games: int, rounds: int) -> str:
    run(options, 2, "python")  # imports, rules and kernel built before the clock runs
    run(options, 2, "native")
    ratios: list[float] = []
    native_ms: list[float] = []
    for _ in range(rounds):
        python_cpu, python_out = run(options, games, "python")
        native_cpu, native_out = run(options, games, "native")
        if native_out != python_out:
            raise SystemExit(f"{name}: the engines' JSON differ")
        ratios.append(python_cpu / native_cpu)
        native_ms.append(native_cpu / games * 1e3)
    return (
        f"simulate --json, {name}, {games} games: native {statistics.median(ratios):.1f}× "
        f"the Python engine (range {min(ratios):.1f}–{max(ratios):.1f}× over {rounds} rounds), "
        f"native {statistics.median(native_ms):.2f} ms a game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    for name, options in CASES:
        print(measure(name, options, args.games, args.rounds), flush=True)


if __name__ == "__main__":
    sys.exit(main())
