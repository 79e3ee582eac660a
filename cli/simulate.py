"""``naqala simulate``: play many complete games with chosen agents and summarise them.

Runs on every core by default (``--jobs``), or on a Dask cluster (``--dask``), with the
same results as a serial run, and on the native engine where it can (``--engine``), with
the same results as on the Python engine. Ctrl-C stops and reports the games finished,
marked partial.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from naqala.cli import study as common
from naqala.cli.common import Expansions, check_game_seeds, seed_option
from naqala.cli.engine import Engine, on_engine
from naqala.lab import LabExtraMissing
from naqala.lab.results import split_wins, start_position_wins, summarise
from naqala.lab.runner import run_studies
from naqala.lab.study import Ruleset, Study, StudyError, default_players, seats_of
from naqala.native.choice import NATIVE

HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house-rule file, .py or .toml content (repeatable)."),
]


def seat_test(wins: list[float], games: int) -> dict[str, Any] | None:
    """The chi-square test of equal win rates by seat, or None without scipy. ``wins``
    are exact split wins, not the summary's rounded ones."""
    try:
        from naqala.lab.stats import seat_balance

        return seat_balance(wins, games)
    except LabExtraMissing:
        return None


def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Players per game (default 4, or 1 with -x solo)."),
    ] = None,
    seed: Annotated[int, seed_option("Seed of the first game.")] = 0,
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seats: common.Seats = None,
    rotate: common.Rotate = False,
    without: common.Without = None,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    plots: common.PlotsDir = None,
    engine: Engine = None,
    games_out: common.GamesOut = None,
    engine_report: common.EngineReport = False,
) -> None:
    """Play complete games (random players unless --seats says otherwise) and summarise
    them: wins and win rate by seat with intervals, scores, categories, game length,
    card effects."""
    check_game_seeds(seed, games)
    with common.ctrl_c_ends_cleanly():
        try:
            ruleset = Ruleset.of(expansion or [], house_rules or [], without or [])
            built = ruleset.build()  # seats are resolved by the rules: a house rule may add one
            default = default_players(built) if seats is None and players is None else 4
            study = Study(ruleset, seats_of(built, seats, players, default), seed, rotate)
            rules = study.check()
        except StudyError as exc:
            common.fail(str(exc))
        (study,) = on_engine([study], engine)
        study = attrs.evolve(study, record=games_out is not None)  # the summary reads none
        common.need_figures(report, plots)
        common.need_games_out(games_out)
        jobs = common.reported_jobs(engine_report, jobs, dask)
        executor = common.executor_for(jobs, dask, games, native=study.engine == NATIVE)
        show = not as_json and sys.stderr.isatty()
        measured = common.EngineMeter([study.ruleset], study.engine)
        try:
            with common.progress_bar(show, games, "Simulating") as advance:
                run = run_studies([study], games, executor, advance)
        finally:
            executor.close()
        results = list(run.sides[0])
        if engine_report:
            measured.say(len(results))
        if not results:
            typer.echo("naqala: interrupted before any game finished", err=True)
            raise typer.Exit(130)
        common.write_games(games_out, [("simulate", rules.ruleset, results)])
        summary = summarise(
            results,
            study.players,
            seed,
            rules.ruleset,
            tuple(c.id for c in rules.content.deck("djinns")),
            tuple(c.id for c in rules.content.cards if c.deck not in ("djinns", "resources")),
        )
        summary.update(
            {
                "requested": games,
                "partial": run.interrupted,
                "seats": list(study.seats),
                "rotate": rotate,
                "without": list(study.ruleset.without),
                "seat_test": seat_test(split_wins(results, study.players), len(results)),
            }
        )
        if "wins_by_start_position" in summary:
            summary["start_position_test"] = seat_test(
                start_position_wins(results, study.players), len(results)
            )
        if report is not None or plots is not None:
            from naqala.lab.report import SIMULATE_FIGURES, simulate_figures

            figures = simulate_figures(results, study.players)
            title = f"naqala simulate: {' + '.join(rules.ruleset)}"
            common.write_outputs(report, plots, figures, title, summary, SIMULATE_FIGURES)
        if as_json:
            typer.echo(json.dumps(summary, indent=2))
        else:
            print_summary(summary)
        if run.interrupted:
            common.interrupted_note(len(results), games)
            raise typer.Exit(130)


def print_summary(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    if summary.get("partial"):
        console.print(f"PARTIAL: {summary['games']} of {summary['requested']} games", markup=False)
    console.print(
        f"{summary['games']} games, {summary['players']} players, seed {summary['seed']}, "
        f"plugins {', '.join(summary['plugins'])}",
        markup=False,
    )
    seats = summary.get("seats") or []
    if seats:
        rotation = " (rotated)" if summary.get("rotate") else ""
        console.print(f"seats: {', '.join(seats)}{rotation}", markup=False)
    console.print(
        f"mean rounds {summary['mean_rounds']}, mean actions {summary['mean_actions']}, "
        f"mean score {summary['mean_score']} (sd {summary['stdev_score']})"
    )
    table = Table(title="Wins by seat (shared wins split)", min_width=40)
    for column in ("seat", "wins", "win rate (95% CI)", "mean score"):
        table.add_column(column, justify="right")
    for seat, (wins, rate, score) in enumerate(
        zip(
            summary["wins_by_seat"],
            summary["win_rate_by_seat"],
            summary["mean_score_by_seat"],
            strict=True,
        ),
        start=1,
    ):
        low, high = rate["ci"]
        table.add_row(
            str(seat),
            str(wins),
            f"{rate['rate'] * 100:.1f}% ({low * 100:.1f}–{high * 100:.1f})",
            str(score),
        )
    console.print(table)
    test = summary.get("seat_test")
    if test:
        console.print(f"equal win rates by seat: chi2 {test['chi2']}, p = {test['p_value']}")
    if "win_rate_by_start_position" in summary:
        rates = [
            f"{k}: {e['rate'] * 100:.1f}% ({e['ci'][0] * 100:.1f}–{e['ci'][1] * 100:.1f})"
            for k, e in enumerate(summary["win_rate_by_start_position"], start=1)
        ]
        console.print("win rate by first-round bidding position: " + ", ".join(rates))
        test = summary.get("start_position_test")
        if test:
            console.print(
                f"equal win rates by position: chi2 {test['chi2']}, p = {test['p_value']}"
            )
    if "wins_by_agent" in summary:
        agents = Table(title="Wins by agent (per seat played)", min_width=40)
        for column in ("agent", "seats played", "wins", "win rate (95% CI)"):
            agents.add_column(column, justify="right")
        for name, entry in summary["wins_by_agent"].items():
            low, high = entry["ci"]
            agents.add_row(
                name,
                str(entry["games"]),
                str(entry["wins"]),
                f"{entry['rate'] * 100:.1f}% ({low * 100:.1f}–{high * 100:.1f})",
            )
        console.print(agents)
    categories = Table(title="Mean score per player by category", min_width=40)
    categories.add_column("category")
    categories.add_column("points", justify="right")
    for name, points in summary["mean_score_by_category"].items():
        categories.add_row(name, str(points))
    console.print(categories)
    console.print(f"end triggers: {summary['end_triggers']}")
    low, q1, median, q3, high = summary["score_quantiles"] or [0.0] * 5
    console.print(f"scores: least {low:g}, quartiles {q1:g} / {median:g} / {q3:g}, most {high:g}")
    if "verdicts" in summary:
        console.print(
            "outcomes: " + ", ".join(f"{kind} {n}" for kind, n in summary["verdicts"].items())
        )
    for key, label in (("djinn_effects", "djinn effects"), ("card_effects", "card effects")):
        effects = summary[key]
        if effects:
            console.print(
                f"{label}: " + ", ".join(f"{name} {count}" for name, count in effects.items())
            )


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""
    app.command("simulate")(simulate)
