"""``naqala compare``: the same random games under the baseline rules and under the
baseline plus house rules, side by side, with confidence intervals and significance.

Added to the ``naqala`` command by ``register(app)``. Like every command, input that is
wrong (an unreadable house rule, an unknown expansion, an unsupported player count, a
variant that is the baseline) gives one message on stderr, nothing on stdout and exit
code 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from naqala.cli.common import ExpansionsBothSides, fail, make_rules
from naqala.core.compare import CONFIDENCE, CompareError, Progress, check, compare
from naqala.core.simulate import GameResult

HouseRules = Annotated[
    list[Path],
    typer.Option(
        "--house-rules", help="House-rule file of the variant (repeatable, at least one)."
    ),
]
Games = Annotated[int, typer.Option("--games", "-n", min=2, help="Games on each side.")]
Players = Annotated[int, typer.Option("--players", "-p", help="Players per game.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


def wants_progress(as_json: bool, stdout: TextIO, stderr: TextIO) -> bool:
    """A progress bar only on a terminal: never with ``--json``, nor when either output
    is piped or redirected."""
    return not as_json and stdout.isatty() and stderr.isatty()


def _progress_bar(games: int) -> Progress:
    from rich.console import Console
    from rich.progress import track

    console = Console(stderr=True)

    def wrap(results: Iterable[GameResult], label: str) -> Iterable[GameResult]:
        return track(results, total=games, description=f"Simulating {label}", console=console)

    return wrap


def compare_command(
    house_rules: HouseRules,
    expansion: ExpansionsBothSides = None,
    games: Games = 100,
    players: Players = 4,
    seed: Seed = 0,
    as_json: AsJson = False,
) -> None:
    """Play the same random games with and without house rules and compare them: win
    rate by seat, scores, score by category and game length, with 95% confidence
    intervals and significance tests (p < 0.05)."""
    baseline = make_rules(expansion, [])
    variant = make_rules(expansion, house_rules)
    try:
        check(baseline, variant, games, players)
    except CompareError as exc:
        fail(str(exc))
    progress = _progress_bar(games) if wants_progress(as_json, sys.stdout, sys.stderr) else None
    result = compare(baseline, variant, games, players, seed, progress=progress)
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    print_report(result)


# -- the terminal report -------------------------------------------------------------------


def _p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _with_ci(entry: dict[str, Any], side: str, percent: bool) -> str:
    low, high = entry["ci"][side]
    if percent:  # a Wilson interval is not symmetric
        return f"{entry[side] * 100:.1f}% ({low * 100:.1f}–{high * 100:.1f})"
    return f"{entry[side]:.2f} ± {(high - low) / 2:.2f}"


def _difference(entry: dict[str, Any], percent: bool) -> str:
    d = entry["difference"] * (100 if percent else 1)
    text = f"{d:+.1f}" if percent else f"{d:+.2f}"
    return f"{text} *" if entry["significant"] else text


def _table(
    title: str, label: str, rows: list[tuple[str, dict[str, Any]]], note: str, percent: bool
) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    level = f"{CONFIDENCE:.0%}"
    table = Table(title=title, caption=f"* p < {1 - CONFIDENCE:.2f}, {note}", box=box.SIMPLE_HEAD)
    table.add_column(label)
    table.add_column(f"baseline ({level} CI)", justify="right")
    table.add_column(f"variant ({level} CI)", justify="right")
    table.add_column("difference", justify="right")
    table.add_column("p", justify="right")
    for name, entry in rows:
        table.add_row(
            Text(name),
            _with_ci(entry, "baseline", percent),
            _with_ci(entry, "variant", percent),
            _difference(entry, percent),
            _p_text(entry["p_value"]),
        )
    return table


def print_report(result: dict[str, Any]) -> None:
    """The report as rich tables, one per section; significant differences are starred."""
    from rich.console import Console

    console = Console(highlight=False)
    console.print(
        f"{result['games']} games, {result['players']} players, seeds {result['seed']}–"
        f"{result['seed'] + result['games'] - 1}, random agents",
        markup=False,
    )
    console.print(f"baseline: {', '.join(result['baseline_plugins'])}", markup=False)
    console.print(f"variant:  {', '.join(result['variant_plugins'])}", markup=False)
    welch = "Welch's t-test"
    seats = [(f"seat {e['seat']}", e) for e in result["wins_by_seat"]]
    z_test = "two-proportion z-test; differences in percentage points"
    console.print(_table("Win rate by seat (shared wins split)", "seat", seats, z_test, True))
    score = result["score"]
    console.print(_table("Final score (all seats)", "", [("mean", score)], welch, False))
    sd = score["sd"]
    console.print(f"standard deviation: baseline {sd['baseline']:.2f}, variant {sd['variant']:.2f}")
    categories = list(result["categories"].items())
    console.print(
        _table("Mean score by category (per player per game)", "category", categories, welch, False)
    )
    length = [("rounds", result["length"]["rounds"]), ("actions", result["length"]["actions"])]
    console.print(_table("Game length (mean per game)", "", length, welch, False))


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app``."""
    app.command("compare")(compare_command)
