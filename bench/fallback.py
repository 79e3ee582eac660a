"""What falling back to the Python engine costs: ``naqala simulate`` in one process, a
house rule the native engine does not implement against the base game it does.

Each case runs the whole command in this process (``--jobs 1``, typer's test runner) and
reads its CPU time (``time.process_time``), so the two sides of a ratio share the
machine's load alike. ``plugins/examples/double_palms.py`` replaces the oasis tile
action (in Python): on ``auto`` it falls back to Python (the one line on stderr is
checked); the base game plays natively. The same pair is timed with greedy players,
whose searches are where a falling-back game pays most, and a house rule whose only code
hook reads a state (``naqala_public_notes``) is timed on ``auto`` (native) against
``--engine python``, what it cost before read-only hooks kept a game native. Each result
is the same JSON on both engines where both can play it.

    python bench/fallback.py [--games 200] [--greedy-games 20]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from typer.testing import CliRunner

from naqala import native as kernel
from naqala.cli.app import app

CODED_RULE = Path(__file__).resolve().parents[1] / "plugins" / "examples" / "double_palms.py"
#: a house rule whose only code hook reads a state
NOTES = """
from naqala.core.hookspecs import hookimpl

NAME = "round-notes"
VERSION = "1.0"


@hookimpl
def naqala_public_notes(rules, state):
    return [f"round {state.round}"]
"""


def simulate(args: Sequence[str]) -> tuple[float, str, str]:
    """CPU seconds of ``naqala simulate args`` in this process, its stdout and stderr."""
    runner = CliRunner()
    started = time.process_time()
    got = runner.invoke(
        app, ["simulate", "--json", "--jobs", "1", *args], env={"NAQALA_ENGINE": None}
    )
    spent = time.process_time() - started
    if got.exit_code != 0:
        raise SystemExit(f"simulate {' '.join(args)} failed: {got.stderr}")
    return spent, got.stdout, got.stderr


def pair(label: str, slow: Sequence[str], fast: Sequence[str]) -> None:
    """Time ``slow`` and ``fast`` (each warmed by one game: rules and kernel built, a
    later ``--games`` taking the place of the first), print both and their ratio."""
    simulate([*slow, "--games", "1"])
    simulate([*fast, "--games", "1"])
    slow_cpu, _, said = simulate(slow)
    fast_cpu, _, _ = simulate(fast)
    print(f"{label}: {slow_cpu:.2f} CPU-s against {fast_cpu:.2f} CPU-s: {slow_cpu / fast_cpu:.1f}×")
    for line in said.splitlines():
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--greedy-games", type=int, default=20)
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit(f"no native engine: {kernel.unavailable_reason()}")
    rich = ["--house-rules", str(CODED_RULE)]
    random = ["--games", str(args.games), "--players", "4"]
    greedy = [
        "--games",
        str(args.greedy_games),
        "--players",
        "4",
        "--seats",
        ",".join(["greedy"] * 4),
    ]
    print(f"naqala simulate --json --jobs 1, one process, {args.games} random games of 4")
    pair("double-palms on auto (falls back) / base game on auto (native)", [*random, *rich], random)
    print(f"the same with greedy seats, {args.greedy_games} games of 4")
    pair("double-palms on auto (falls back) / base game on auto (native)", [*greedy, *rich], greedy)
    with tempfile.TemporaryDirectory() as folder:
        notes = Path(folder) / "round_notes.py"
        notes.write_text(NOTES, encoding="utf-8")
        rule = ["--house-rules", str(notes)]
        _, native, said = simulate([*random, *rule])
        _, python, _ = simulate([*random, *rule, "--engine", "python"])
        if said or native != python:
            raise SystemExit("the read-only house rule did not play natively with the same JSON")
        print(f"a read-only hook (naqala_public_notes), {args.games} random games of 4")
        pair(
            "--engine python (before) / auto, now native",
            [*random, *rule, "--engine", "python"],
            [*random, *rule],
        )


if __name__ == "__main__":
    main()
