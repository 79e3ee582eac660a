"""Long runs of ``simulate`` and ``compare`` with their HTML reports, for every player kind
and every expansion set: each case runs the real commands (``--json``, ``--report``) and
checks what they print and write, then says how long it took. Ties and shared wins are
common at scale, so a statistic that breaks on them fails here.

    python bench/long_runs.py                      # every case, 40 games each
    python bench/long_runs.py --games 2000 -k random
    python bench/long_runs.py --kinds greedy,mcts:2 --games 20

The test suite runs a sample of the cases with a few games (``tests/test_long_runs.py``);
the whole matrix, with the slow players (``greedy-full``, ``mcts``), is for this bench.
Times are wall seconds of whole commands on all cores (``--jobs``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import attrs
from typer.testing import CliRunner

from naqala.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
#: the variant every comparison plays against the plain rules
VARIANT = ROOT / "plugins" / "house" / "big_viziers.toml"
#: the boxes a set is drawn from; the solo mode plays alone
BOXES = ("artisans", "djinns", "thieves")
#: every kind of player (an mcts or ismcts with a small budget keeps a game within seconds)
KINDS = ("random", "greedy", "greedy-nobid", "greedy-full", "mcts:2", "ismcts:2")


@attrs.frozen
class Case:
    """One run: the expansions, and the kind of player at seat 1 (random players fill the
    other seats, so a slow kind costs one seat's decisions)."""

    expansions: tuple[str, ...]
    kind: str

    @property
    def seats(self) -> tuple[str, ...]:
        if "solo" in self.expansions:
            return (self.kind,)
        return (self.kind, "random", "random")

    def __str__(self) -> str:
        return f"{'+'.join(self.expansions) or 'base'} / {','.join(self.seats)}"


def expansion_sets() -> list[tuple[str, ...]]:
    """Every subset of the boxes, and the solo mode."""
    subsets = [c for n in range(len(BOXES) + 1) for c in itertools.combinations(BOXES, n)]
    return [*subsets, ("solo",)]


def cases(kinds: Sequence[str] = KINDS) -> list[Case]:
    return [Case(x, kind) for x in expansion_sets() for kind in kinds]


def _options(case: Case, games: int, seed: int, jobs: int | None) -> list[str]:
    options = ["--games", str(games), "--seed", str(seed), "--seats", ",".join(case.seats)]
    options += [a for x in case.expansions for a in ("-x", x)]
    return [*options, "--jobs", str(jobs)] if jobs else options


def _run(args: list[str]) -> dict[str, object]:
    got = CliRunner().invoke(app, args)
    if got.exit_code != 0:
        raise AssertionError(f"naqala {' '.join(args)}: exit {got.exit_code}: {got.stderr}")
    data: dict[str, object] = json.loads(got.stdout)
    json.dumps(data, allow_nan=False)  # every number is finite or null
    return data


def check_case(
    case: Case, games: int, folder: Path, seed: int = 0, jobs: int | None = None
) -> None:
    """Run ``simulate`` and ``compare`` of ``case`` with their reports; AssertionError with
    the command line if one fails, prints a NaN, or leaves out a game or a statistic."""
    options = _options(case, games, seed, jobs)
    report = folder / "simulate.html"
    summary = _run(["simulate", *options, "--json", "--report", str(report)])
    assert summary["games"] == games and not summary["partial"], summary
    if len(case.seats) > 1:
        assert summary["seat_test"] is not None, f"{case}: no seat test"
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    report = folder / "compare.html"
    compared = _run(
        ["compare", *options, "--house-rules", str(VARIANT), "--json", "--report", str(report)]
    )
    assert compared["games"] == games and not compared["partial"], compared
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("-k", "--only", default="", help="only the cases whose name has this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for case in cases(args.kinds.split(",")):
            if args.only not in str(case):
                continue
            start = time.perf_counter()
            check_case(case, args.games, Path(folder), args.seed, args.jobs)
            wall = time.perf_counter() - start
            rate = 3 * args.games / wall  # simulate's games and both sides of compare's
            print(f"{case}: {args.games} games, ok in {wall:.1f} s ({rate:.1f} games/s)")


if __name__ == "__main__":
    main()
