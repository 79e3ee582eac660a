"""CPU seconds of a cold ``naqala actions STATE``: a new process each time, as a script
calling the command once per position pays it.

The same for a one-game ``naqala simulate --json``, the smallest study: it should pay
for the rules and one game, not for the lab's statistics (scipy is imported only when a
statistic is computed, and one game computes none). Its target is 0.6 CPU-seconds.

Each run is a fresh interpreter; its CPU time (user + system) is read from the
children's resource usage, so other work on a shared machine inflates it far less than
wall time. Printed: the median and range of the command, of the same command through the
full command-line app (typer, what every other command goes through) and of a bare
``python -c pass`` for scale. The issue's target is 0.2 CPU-seconds.

A cold start of an installed program reads its modules' cached bytecode (``pip install``
writes it; Python writes it on first import). With ``PYTHONDONTWRITEBYTECODE`` set, as on
some sandboxes and CI machines, every run compiles every module from source again, which
costs more than the rest of the command (0.27 s instead of 0.18 s on the project's
machine). So the runs read their bytecode from a cache folder of their own
(``PYTHONPYCACHEPREFIX``), which one run fills before the measured ones.

    python bench/startup.py [--runs 9] [STATE.json]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET = 0.2
#: the target of a one-game ``naqala simulate --json``
SIMULATE_TARGET = 0.6
#: the arguments of that case
SIMULATE = ["simulate", "--games", "1", "--json"]


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``command`` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def summary(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} s (range {min(times):.3f}–{max(times):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("state", nargs="?", help="a state file (default: a new 4-player game)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        state = args.state
        if state is None:
            from naqala.core.engine import build_rules
            from naqala.core.serialize import state_to_json

            rules = build_rules()
            state = str(Path(tmp) / "state.json")
            Path(state).write_text(state_to_json(rules, rules.new_game(4, 1)), encoding="utf-8")
        python = sys.executable
        cases = {
            "naqala actions STATE": [python, "-c", "from naqala.cli.entry import main; main()"],
            "the same through the typer app": [
                python,
                "-c",
                "from naqala.cli.app import main; main()",
            ],
            "python -c pass": [python, "-c", "pass"],
        }
        arguments = {name: ["actions", state] for name in cases}
        arguments["python -c pass"] = []
        cases["naqala simulate --games 1 --json"] = cases["the same through the typer app"]
        arguments["naqala simulate --games 1 --json"] = SIMULATE
        # the bytecode goes to a folder of our own, filled by one run of each command
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(tmp) / "bytecode"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name, command in cases.items():
            cpu_of(command + arguments[name], env)
        results: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):  # interleaved, so load changes hit every case alike
            for name, command in cases.items():
                results[name].append(cpu_of(command + arguments[name], env))
    print(
        f"CPU seconds of a cold start, {args.runs} runs each, bytecode cached "
        f"(targets: actions ≤ {TARGET} s, simulate ≤ {SIMULATE_TARGET} s):"
    )
    for name, times in results.items():
        print(f"  {name:<32} {summary(times)}")


if __name__ == "__main__":
    main()
