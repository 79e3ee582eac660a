"""``naqala skill``: the skill matrix of a rule set, or of two (``naqala.lab.skill``).

Added to the ``naqala`` command by ``register(app)``. Bad input (an unknown kind, one
kind only, a player count the rules refuse) is one line on stderr and exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from naqala.cli import study as common
from naqala.cli.common import Expansions, check_game_seeds, seed_option
from naqala.cli.engine import Engine, engine_of_plan
from naqala.lab import LabExtraMissing, require
from naqala.lab.skill import Ladder, SkillError, compare_matrices, matrix_report, play_matrices
from naqala.lab.study import Ruleset, StudyError, seats_of

Kinds = Annotated[
    str,
    typer.Option(
        "--seats",
        help="The kinds of player, weakest first, comma-separated "
        "(random,greedy,mcts,mcts:strong; names as in naqala play).",
    ),
]
Games = Annotated[
    int,
    typer.Option(
        "--games", "-n", min=1, help="Games a cell (a multiple of the player count is fair)."
    ),
]
Players = Annotated[int, typer.Option("--players", "-p", help="Players per game.")]
HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house-rule file of the rules studied (repeatable)."),
]
VariantHouseRules = Annotated[
    list[Path] | None,
    typer.Option(
        "--variant-house-rules", help="Compare with these house rules added (repeatable)."
    ),
]
VariantExpansions = Annotated[
    list[str] | None,
    typer.Option("--variant-x", help="Compare with this expansion added (repeatable)."),
]
VariantWithout = Annotated[
    list[str] | None,
    typer.Option("--variant-without", help="Compare with this card left out: djinn:ID."),
]


def skill(
    seats: Kinds = "random,greedy",
    games: Games = 20,
    players: Players = 2,
    seed: Annotated[int, seed_option("Seed of the first game.")] = 0,
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    without: common.Without = None,
    variant_x: VariantExpansions = None,
    variant_house_rules: VariantHouseRules = None,
    variant_without: VariantWithout = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    engine: Engine = None,
    games_out: common.GamesOut = None,
    engine_report: common.EngineReport = False,
) -> None:
    """Play every kind of player alone against a field of every other kind: the win-rate
    matrix with intervals, the skill gradient and the first bidder's advantage; with a
    --variant-… option, the same for both rule sets and their paired differences."""
    check_game_seeds(seed, games)
    try:
        baseline = Ruleset.of(expansion or [], house_rules or [], without or [])
        variant = None
        if variant_x or variant_house_rules or variant_without:
            variant = Ruleset.of(
                [*(expansion or []), *(variant_x or [])],
                [*(house_rules or []), *(variant_house_rules or [])],
                [*(without or []), *(variant_without or [])],
            )
        rulesets = [baseline] if variant is None else [baseline, variant]
        kinds = seats_of(baseline.build(), seats, None)
        ladder = Ladder(kinds, players, games, seed)
        checked = [ladder.studies(r)[0].check() for r in rulesets]
        if variant is not None:
            require("scipy.stats", "comparing two skill matrices")
            if games < 2:
                raise SkillError("comparing two matrices needs at least 2 games a cell")
    except (StudyError, SkillError, LabExtraMissing) as exc:
        common.fail(str(exc))
    cells = [study for ruleset in rulesets for study in ladder.studies(ruleset)]
    ladder = attrs.evolve(ladder, engine=engine_of_plan(cells, engine))
    common.need_figures(report, None)
    common.need_games_out(games_out)
    total = games * len(ladder.cells) * len(rulesets)
    jobs = common.reported_jobs(engine_report, jobs, dask)
    executor = common.executor_for(jobs, dask, total)
    measured = common.EngineMeter(rulesets, ladder.engine)
    show = not as_json and sys.stderr.isatty()
    try:
        with common.progress_bar(show, total, "Skill matrix") as advance:
            sides, interrupted = play_matrices(ladder, rulesets, executor, advance)
    except StudyError as exc:
        common.fail(str(exc))
    finally:
        executor.close()
    if engine_report:
        measured.say(sum(len(cell) for side in sides for cell in side))
    played = min(len(cell) for side in sides for cell in side)
    if played == 0:
        typer.echo("naqala: interrupted before any game finished", err=True)
        raise typer.Exit(130)
    names = ("baseline", "variant") if variant is not None else ("skill",)
    common.write_games(
        games_out,
        [
            (f"{name} {one} vs {field}", rules.ruleset, cell)
            for name, side, rules in zip(names, sides, checked, strict=True)
            for (one, field), cell in zip(ladder.cells, side, strict=True)
        ],
    )
    reports = [
        matrix_report(ladder, side, rules.ruleset)
        for side, rules in zip(sides, checked, strict=True)
    ]
    data: dict[str, Any]
    if variant is None:
        data = reports[0]
    else:
        try:
            data = compare_matrices(ladder, (sides[0], reports[0]), (sides[1], reports[1]))
        except SkillError as exc:
            common.fail(str(exc))
    data.update({"requested": games, "partial": interrupted})
    if report is not None:
        from naqala.lab.report import html_report
        from naqala.lab.skill_report import SKILL_FIGURES, describe, skill_figures, skill_tables

        title = "naqala skill: " + " + ".join(reports[-1]["plugins"])
        page = html_report(
            title, data, skill_figures(data), SKILL_FIGURES, skill_tables(data), describe(data)
        )
        common.write_report(report, page)
    common.show_answer(data, as_json, print_skill)
    if interrupted:
        common.interrupted_note(played, games)
        raise typer.Exit(130)


def _matrix(report: dict[str, Any], title: str) -> Any:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("one \\ field")
    for kind in report["kinds"]:
        table.add_column(kind, justify="right")
    for a in report["kinds"]:
        cells = []
        for b in report["kinds"]:
            cell = report["matrix"][a].get(b)
            cells.append(
                "–"
                if cell is None
                else f"{cell['rate'] * 100:.0f}% ({cell['ci'][0] * 100:.0f}–"
                f"{cell['ci'][1] * 100:.0f})"
            )
        table.add_row(a, *cells)
    return table


def _report_lines(report: dict[str, Any]) -> list[str]:
    gradient = report["gradient"]
    steps = ", ".join(
        f"{s['stronger']} vs {s['weaker']} {s['rate'] * 100:.0f}% ({s['edge'] * 100:+.0f})"
        for s in gradient["steps"]
    )
    first = report["first_bidder"]
    width = report["precision"]
    warning = (
        [
            f"TOO FEW GAMES: the widest cell interval is {width['widest_interval'] * 100:.0f} "
            f"points (readable: {width['readable_width'] * 100:.0f}); about "
            f"{width['games_needed']} games a cell would do"
        ]
        if width["too_wide"]
        else []
    )
    return [
        *warning,
        f"skill gradient: {steps}; mean edge {gradient['mean_edge'] * 100:+.1f} points over "
        f"the fair share {report['fair_share'] * 100:.0f}%"
        + ("" if gradient["ordered"] else " (NOT ordered: a rung loses to the one below)"),
        f"first bidder: {first['rate'] * 100:.1f}% ({first['ci'][0] * 100:.1f}–"
        f"{first['ci'][1] * 100:.1f}) of {first['games']} games, fair share "
        f"{first['fair_share'] * 100:.0f}%",
    ]


def print_skill(data: dict[str, Any]) -> None:
    """The matrix (or both) as rich tables, then the gradient and first bidder lines."""
    from rich.console import Console

    console = Console(highlight=False)
    sides = (
        [("", data)]
        if "differences" not in data
        else [
            ("baseline: ", data["baseline"]),
            ("variant: ", data["variant"]),
        ]
    )
    first = sides[0][1]
    if data.get("partial"):
        console.print(f"PARTIAL: {first['games_per_cell']} of {data['requested']} games a cell")
    console.print(
        f"{first['games_per_cell']} games a cell, {first['players']} players, seeds from "
        f"{first['seed']}; one player against a field of another, seats rotated",
        markup=False,
    )
    for label, report in sides:
        plugins = " + ".join(report["plugins"])
        console.print(_matrix(report, f"{label}win rate of the one player ({plugins})"))
        for line in _report_lines(report):
            console.print(line, markup=False)
    if "differences" in data:
        edge = data["mean_edge"]
        star = " *" if edge["significant"] else ""
        console.print(
            f"mean edge, variant − baseline: {edge['difference'] * 100:+.1f} points "
            f"({edge['ci'][0] * 100:+.1f}…{edge['ci'][1] * 100:+.1f}), p Holm "
            f"{edge['p_holm']}{star}",
            markup=False,
        )


def register(app: typer.Typer) -> None:
    """Add the ``skill`` command to ``app``."""
    app.command("skill")(skill)
