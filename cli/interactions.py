"""``naqala interactions``: which components interact, from a paired 2×2 factorial per
pair (``naqala.lab.interactions``).

Added to the ``naqala`` command by ``register(app)``. Bad input (a malformed or unknown
component, one component only or more than ``MAX_COMPONENTS``, a house-rule file that
does not load) is one line on stderr and exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from naqala.cli import study as common
from naqala.cli.common import Expansions
from naqala.cli.engine import Engine, engine_of_plan
from naqala.lab import LabExtraMissing, require
from naqala.lab.interactions import (
    ArmGames,
    InteractionError,
    TooFewGames,
    design_of,
    interactions,
)
from naqala.lab.study import Ruleset, StudyError, seats_of

Components = Annotated[
    str,
    typer.Option(
        "--components",
        help="What to pair, comma-separated: djinn:ID, item:ID, rule:FILE, or all-djinns.",
    ),
]
HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house rule in every arm (repeatable)."),
]
Games = Annotated[int, typer.Option("--games", "-n", min=2, help="Games an arm.")]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
]


def interactions_command(
    components: Components,
    games: Games = 100,
    players: Players = None,
    seats: common.Seats = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")] = 0,
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    without: common.Without = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    engine: Engine = None,
    games_out: common.GamesOut = None,
    engine_report: common.EngineReport = False,
) -> None:
    """Play every pair of components with both, each alone and neither on the same seeds:
    the interaction (both − A − B + neither) on mean score, the holders' win rate and game
    length, with 95% intervals and Holm-adjusted significance over the pairs."""
    try:
        require("scipy.stats", "naqala interactions")
    except LabExtraMissing as exc:
        common.fail(str(exc))
    base = Ruleset.of(expansion or [], house_rules or [], without or [])
    try:
        seat_names = seats_of(base.build(), seats, players)
        design = design_of(base, components, seat_names, seed, games)
    except (StudyError, InteractionError) as exc:
        common.fail(str(exc))
    design = attrs.evolve(design, engine=engine_of_plan(design.studies(), engine))
    common.need_figures(report, None)
    common.need_games_out(games_out)
    total = games * design.cost()["distinct_arms"]
    jobs = common.reported_jobs(engine_report, jobs, dask)
    executor = common.executor_for(jobs, dask, total)
    measured = common.EngineMeter([s.ruleset for s in design.studies()], design.engine)
    show = not as_json and sys.stderr.isatty()
    try:
        with common.progress_bar(show, total, "Interactions") as advance:
            arms: list[ArmGames] = []
            data = interactions(design, executor, advance, arms)
    except TooFewGames as exc:
        common.fail(
            f"interrupted: {exc}" if exc.interrupted else str(exc), 130 if exc.interrupted else 2
        )
    except (StudyError, InteractionError) as exc:
        common.fail(str(exc))
    finally:
        executor.close()
    if engine_report:
        measured.say(sum(len(arm[2]) for arm in arms))
    common.write_games(games_out, arms)
    if report is not None:
        write_report(report, data)
    common.show_answer(data, as_json, print_cells)
    if data["partial"]:
        common.interrupted_note(data["games"], games)
        raise typer.Exit(130)


def write_report(path: Path, data: dict[str, Any]) -> None:
    from naqala.lab.interactions_report import (
        INTERACTION_FIGURES,
        describe,
        interaction_figures,
        interaction_tables,
    )
    from naqala.lab.report import html_report

    title = "naqala interactions: " + ", ".join(data["components"])
    page = html_report(
        title,
        data,
        interaction_figures(data),
        INTERACTION_FIGURES,
        interaction_tables(data),
        describe(data),
    )
    common.write_report(path, page)


def print_cells(data: dict[str, Any]) -> None:
    """The significant cells, then how many were tested."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    cost = data["cost"]
    console.print(
        f"{data['games']} games an arm, {data['players']} players, seeds from {data['seed']}; "
        f"{cost['pairs']} pairs, {cost['distinct_arms']} distinct arms, "
        f"{cost['games_played']} games played",
        markup=False,
    )
    table = Table(title="interaction: both − A − B + neither (95% CI, Holm over the pairs)")
    for name in ("A", "B", "metric", "interaction", "95% CI", "p Holm"):
        table.add_column(name)
    for c in data["cells"]:
        low, high = c["ci"]
        star = " *" if c["significant"] else ""
        table.add_row(
            c["a"],
            c["b"],
            c["metric"],
            f"{c['interaction']}",
            f"{low} … {high}",
            f"{c['p_holm']}{star}",
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``interactions`` command to ``app``."""
    app.command("interactions")(interactions_command)
