"""``naqala compare``: the same games under the baseline rules and under a variant (house
rules, expansions or cards left out), paired game by game, with effect sizes, intervals,
Holm-adjusted significance and optional sequential stopping.

Added to the ``naqala`` command by ``register(app)``. Like every command, input that is
wrong (an unreadable house rule, an unknown expansion, an unsupported player count, a
variant that is the baseline) gives one message on stderr, nothing on stdout and exit
code 2. The statistics need the lab extra (``pip install 'naqala[lab]'``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from naqala.cli import study as common
from naqala.cli.common import ExpansionsBothSides, check_game_seeds, seed_option
from naqala.cli.engine import Engine, on_engine
from naqala.lab import LabExtraMissing, require
from naqala.lab.compare import DEFAULT_METRIC, CompareError, Sequential, check, compare
from naqala.lab.stats import CONFIDENCE
from naqala.lab.study import Ruleset, Study, StudyError, seats_of
from naqala.native.choice import NATIVE

HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="House-rule file of the variant (repeatable)."),
]
VariantExpansions = Annotated[
    list[str] | None,
    typer.Option("--variant-x", help="Enable an expansion on the variant only (repeatable)."),
]
VariantWithout = Annotated[
    list[str] | None,
    typer.Option(
        "--variant-without", help="Leave a card out of the variant only: djinn:ID or card:ID."
    ),
]
Games = Annotated[
    int,
    typer.Option(
        "--games", "-n", min=2, help="Games on each side (the maximum with --until-significant)."
    ),
]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
]
Seed = Annotated[int, seed_option("Seed of the first game.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
UntilSignificant = Annotated[
    bool,
    typer.Option(
        "--until-significant",
        help="Stop at the first planned look where --metric differs significantly "
        "(a valid sequential test; --games is the maximum).",
    ),
]
Metric = Annotated[
    str,
    typer.Option(
        "--metric",
        help="What --until-significant watches: score, rounds, actions, category:NAME, "
        "wins:SEAT, position:K, position-score:K, turn-position:K (docs/cli.md).",
    ),
]
Looks = Annotated[
    int, typer.Option("--looks", min=1, help="Planned looks for --until-significant.")
]


def wants_progress(as_json: bool, stdout: TextIO, stderr: TextIO) -> bool:
    """A progress bar only on a terminal: never with ``--json``, nor when either output
    is piped or redirected."""
    return not as_json and stdout.isatty() and stderr.isatty()


def compare_command(
    house_rules: HouseRules = None,
    expansion: ExpansionsBothSides = None,
    games: Games = 100,
    players: Players = None,
    seed: Seed = 0,
    as_json: AsJson = False,
    seats: common.Seats = None,
    rotate: common.Rotate = False,
    without: common.Without = None,
    variant_x: VariantExpansions = None,
    variant_without: VariantWithout = None,
    until_significant: UntilSignificant = False,
    metric: Metric = DEFAULT_METRIC,
    looks: Looks = 5,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    plots: common.PlotsDir = None,
    engine: Engine = None,
    games_out: common.GamesOut = None,
    engine_report: common.EngineReport = False,
) -> None:
    """Play the same games under the baseline and a variant and compare them pair by
    pair: win rate by seat, scores, score by category and game length, with effect sizes,
    95% intervals and Holm-adjusted significance."""
    check_game_seeds(seed, games)
    with common.ctrl_c_ends_cleanly():
        try:
            require("scipy.stats", "naqala compare")
        except LabExtraMissing as exc:
            common.fail(str(exc))
        both = list(expansion or [])
        baseline_rules = Ruleset.of(both, [], without or [])
        try:  # seats are resolved by the rules (both sides' are checked by check below)
            seat_names = seats_of(baseline_rules.build(), seats, players)
        except StudyError as exc:
            common.fail(str(exc))
        baseline = Study(baseline_rules, seat_names, seed, rotate)
        try:  # the variant's house-rule files are read here, once
            variant_rules = Ruleset.of(
                [*both, *(variant_x or [])],
                house_rules or [],
                [*(without or []), *(variant_without or [])],
            )
        except StudyError as exc:
            common.fail(str(exc))
        variant = Study(variant_rules, seat_names, seed, rotate)
        if not (house_rules or variant_x or variant_without):
            common.fail(
                "give the variant: --house-rules FILE, --variant-x NAME or --variant-without"
            )
        try:
            check(baseline, variant, games)
        except CompareError as exc:
            common.fail(str(exc))
        baseline, variant = on_engine([baseline, variant], engine)
        plan = Sequential(metric, looks) if until_significant else None
        common.need_figures(report, plots)
        common.need_games_out(games_out)
        native = baseline.engine == variant.engine == NATIVE
        jobs = common.reported_jobs(engine_report, jobs, dask)
        executor = common.executor_for(jobs, dask, games * 2, native=native)
        measured = common.EngineMeter([baseline.ruleset, variant.ruleset], baseline.engine)
        show = wants_progress(as_json, sys.stdout, sys.stderr)
        try:
            with common.progress_bar(show, games * 2, "Comparing") as advance:
                result, run = compare(
                    baseline, variant, games, executor, advance=advance, until_significant=plan
                )
        except CompareError as exc:
            common.fail(str(exc))
        finally:
            executor.close()
        if engine_report:
            measured.say(result["games"] * 2)
        common.write_games(
            games_out,
            [
                ("baseline", result["baseline_plugins"], run.sides[0]),
                ("variant", result["variant_plugins"], run.sides[1]),
            ],
        )
        if report is not None or plots is not None:
            from naqala.lab.report import COMPARE_FIGURES, compare_figures

            figures = compare_figures(run.sides[0], run.sides[1], result)
            title = "naqala compare: " + " + ".join(result["variant_plugins"])
            common.write_outputs(report, plots, figures, title, result, COMPARE_FIGURES)
        if as_json:
            typer.echo(json.dumps(result, indent=2))
        else:
            print_report(result)
        if result["partial"]:
            common.interrupted_note(result["games"], games)
            raise typer.Exit(130)


# -- the terminal report -------------------------------------------------------------------


def _p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _value(x: float, percent: bool) -> str:
    return f"{x * 100:.1f}%" if percent else f"{x:.2f}"


def _difference(entry: dict[str, Any], percent: bool) -> str:
    text = f"{entry['difference'] * 100:+.1f}" if percent else f"{entry['difference']:+.2f}"
    return f"{text} *" if entry["significant"] else text


def _interval(entry: dict[str, Any], percent: bool) -> str:
    low, high = entry["ci"]
    if percent:
        return f"{low * 100:+.1f}…{high * 100:+.1f}"
    return f"{low:+.2f}…{high:+.2f}"


def _effect(entry: dict[str, Any]) -> str:
    if "effect_size" in entry:
        dz = entry["effect_size"]["dz"]
        return "–" if dz is None else f"{dz:+.2f}"
    odds = entry.get("odds_ratio")
    if odds is None or odds["value"] is None:
        return "–"
    return f"OR {odds['value']:.2f}"


def _table(
    title: str, label: str, rows: list[tuple[str, dict[str, Any]]], note: str, percent: bool
) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    level = f"{CONFIDENCE:.0%}"
    table = Table(
        title=title,
        caption=f"* significant after Holm's correction (p < {1 - CONFIDENCE:.2f}); {note}",
        box=box.SIMPLE_HEAD,
    )
    table.add_column(label, no_wrap=True)
    table.add_column("baseline", justify="right")
    table.add_column("variant", justify="right")
    table.add_column("diff", justify="right")
    table.add_column(f"{level} CI", justify="right")
    table.add_column("effect", justify="right")
    table.add_column("p Holm", justify="right")
    for name, entry in rows:
        table.add_row(
            Text(name),
            _value(entry["baseline"], percent),
            _value(entry["variant"], percent),
            _difference(entry, percent),
            _interval(entry, percent),
            _effect(entry),
            _p_text(entry["p_holm"]),
        )
    return table


def print_report(result: dict[str, Any]) -> None:
    """The report as rich tables, one per section; significant differences are starred."""
    from rich.console import Console

    console = Console(highlight=False)
    if result["partial"]:
        console.print(f"PARTIAL: {result['games']} of {result['requested']} games", markup=False)
    seats = ", ".join(result["seats"]) + (" (rotated)" if result["rotate"] else "")
    console.print(
        f"{result['games']} games, {result['players']} players, seeds from {result['seed']}, "
        f"seats {seats}; pairs: the same seed under both rule sets",
        markup=False,
    )
    console.print(f"baseline: {', '.join(result['baseline_plugins'])}", markup=False)
    console.print(f"variant:  {', '.join(result['variant_plugins'])}", markup=False)
    for key, label in (("baseline_without", "baseline"), ("variant_without", "variant")):
        if result[key]:
            console.print(f"left out of the {label}: {', '.join(result[key])}", markup=False)
    paired = "paired t-test; effect d_z = mean difference / sd of the differences"
    seats_rows = [(f"seat {e['seat']}", e) for e in result["wins_by_seat"]]
    mcnemar = "McNemar's exact test; percentage points; OR: odds ratio; ties count as wins"
    console.print(_table("Win rate by seat", "seat", seats_rows, mcnemar, True))
    score = result["score"]
    console.print(
        _table("Final score (mean of the seats, per game)", "", [("mean", score)], paired, False)
    )
    sd = score["sd"]
    console.print(f"standard deviation: baseline {sd['baseline']:.2f}, variant {sd['variant']:.2f}")
    categories = list(result["categories"].items())
    console.print(
        _table(
            "Mean score by category (per player per game)", "category", categories, paired, False
        )
    )
    print_positions(console, result, paired, mcnemar)
    length = [("rounds", result["length"]["rounds"]), ("actions", result["length"]["actions"])]
    console.print(_table("Game length (per game)", "", length, paired, False))
    extra = list((result.get("extra") or {}).items())
    if extra:
        console.print(_table("Lead changes and margin (per game)", "", extra, paired, False))
    info = result.get("sequential")
    if info:
        verdict = "significant" if info["significant"] else "not significant"
        console.print(
            f"sequential test of {info['metric']}: {verdict} after {result['games']} games "
            f"(looks planned at {info['planned_looks']})",
            markup=False,
        )


def print_positions(console: Any, result: dict[str, Any], paired: str, mcnemar: str) -> None:
    """Wins and scores by first-round bidding position, paired, and each side's test of
    equal positions (seat says nothing in Five Tribes: the order is drawn at set-up)."""
    positions = result.get("by_position") or []
    if not positions:
        return
    wins = [(f"position {e['position']}", e["wins"]) for e in positions]
    console.print(_table("Win rate by first-round bidding position", "", wins, mcnemar, True))
    scores = [(f"position {e['position']}", e["score"]) for e in positions]
    console.print(_table("Final score by first-round bidding position", "", scores, paired, False))
    turns = [(f"turn {e['position']}", e["wins"]) for e in result.get("by_turn_position") or []]
    if turns:
        title = "Share of rounds 2+ won by the player in each turn position"
        console.print(_table(title, "", turns, paired, True))
    fairness = result.get("position_fairness") or {}
    for side in ("baseline", "variant"):
        test = fairness.get(side)
        if test:
            console.print(
                f"equal win rates by position, {side}: chi2 {test['chi2']}, p = {test['p_value']}",
                markup=False,
            )


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app``."""
    app.command("compare")(compare_command)
