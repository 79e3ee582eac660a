"""``naqala balance``: the balance card of a rule set (``naqala.lab.balance``), with the
skill matrix of ``naqala skill`` on it.

Added to the ``naqala`` command by ``register(app)``. Bad input is one line on stderr
and exit 2.
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
from naqala.lab.balance import card
from naqala.lab.runner import play_indices
from naqala.lab.skill import Ladder, SkillError, matrix_report, play_matrices
from naqala.lab.study import Ruleset, Study, StudyError, seats_of

HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house-rule file (repeatable)."),
]
Seats = Annotated[
    str | None,
    typer.Option(
        "--seats",
        help="Agent per seat of the card's games, rotated (default: greedy at every seat).",
    ),
]
LadderOption = Annotated[
    str,
    typer.Option("--ladder", help="The skill matrix's kinds of player, weakest first."),
]


def balance(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games of the card.")] = 40,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
    ] = None,
    seats: Seats = None,
    seed: Annotated[int, seed_option("Seed of the first game.")] = 0,
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    without: common.Without = None,
    ladder: LadderOption = "random,greedy",
    skill_games: Annotated[
        int, typer.Option("--skill-games", min=1, help="Games a cell of the skill matrix.")
    ] = 8,
    as_json: Annotated[bool, typer.Option("--json", help="Print the card as JSON.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    engine: Engine = None,
) -> None:
    """The balance card of a rule set: seat and bidding-position advantage, the skill
    matrix, length and score distributions, lead changes and comebacks, margins, each
    djinn's take rate and holders' win rate, and each tile kind's points."""
    check_game_seeds(seed, max(games, skill_games))
    try:
        ruleset = Ruleset.of(expansion or [], house_rules or [], without or [])
        built = ruleset.build()
        if seats is None:
            seat_names = ("greedy",) * (4 if players is None else players)
        else:
            seat_names = seats_of(built, seats, players)
        study = Study(ruleset, seat_names, seed, rotate=True)
        rules = study.check()
        skill = Ladder(seats_of(built, ladder, None), study.players, skill_games, seed)
        for cell in skill.studies(ruleset):
            cell.check()
    except (StudyError, SkillError) as exc:
        common.fail(str(exc))
    chosen = engine_of_plan([study, *skill.studies(ruleset)], engine)
    study = attrs.evolve(study, engine=chosen)
    skill = attrs.evolve(skill, engine=chosen)
    common.need_figures(report, None)
    total = games + skill_games * len(skill.cells)
    executor = common.executor_for(jobs, dask, total)
    show = not as_json and sys.stderr.isatty()
    try:
        with common.progress_bar(show, total, "Balance card") as advance:
            sides, interrupted = play_indices([study], range(games), executor, advance)
            cells: list[list[Any]] = []
            if not interrupted:
                (cells,), interrupted = play_matrices(skill, [ruleset], executor, advance)
    finally:
        executor.close()
    results = sides[0]
    if not results:
        typer.echo("naqala: interrupted before any game finished", err=True)
        raise typer.Exit(130)
    # stopped before every cell of the skill matrix had a game: the card without it
    skill_part = matrix_report(skill, cells, rules.ruleset) if cells and all(cells) else None
    djinn_deck = tuple(c.id for c in rules.content.deck("djinns"))
    data: dict[str, Any] = {
        "seed": seed,
        "seats": list(study.seats),
        "plugins": list(rules.ruleset),
        "without": list(ruleset.without),
        "requested": games,
        "partial": interrupted,
        **card(results, study.players, djinn_deck),
        "skill": skill_part,
    }
    data.update(_tests(data))
    if report is not None:
        from naqala.lab.balance_report import (
            BALANCE_FIGURES,
            balance_figures,
            balance_tables,
            describe,
        )
        from naqala.lab.report import html_report

        title = "naqala balance: " + " + ".join(rules.ruleset)
        page = html_report(
            title,
            data,
            balance_figures(data, results),
            BALANCE_FIGURES,
            balance_tables(data),
            describe(data),
        )
        common.write_report(report, page)
    common.show_answer(data, as_json, print_card)
    if interrupted:
        common.interrupted_note(len(results), games)
        raise typer.Exit(130)


def _tests(data: dict[str, Any]) -> dict[str, Any]:
    """The chi-square tests of equal win rates by seat and by position (None without
    scipy or with fewer than 2 games)."""
    from naqala.cli.simulate import seat_test

    seats = data["seats_and_positions"]
    return {
        "seat_test": seat_test(seats["wins_by_seat"], data["games"]),
        "position_test": seat_test(seats["wins_by_position"], data["games"]),
    }


def _rate(entry: dict[str, Any]) -> str:
    if entry["rate"] is None:
        return "–"
    low, high = entry["ci"]
    return f"{entry['rate'] * 100:.0f}% ({low * 100:.0f}–{high * 100:.0f})"


def print_card(data: dict[str, Any]) -> None:
    """The card as lines of text (the report has the figures)."""
    from rich.console import Console

    from naqala.cli.skill import print_skill

    console = Console(highlight=False)

    def say(text: str) -> None:
        console.print(text, markup=False)

    if data.get("partial"):
        say(f"PARTIAL: {data['games']} of {data['requested']} games")
    say(
        f"{data['games']} games, {data['players']} players, seed {data['seed']}, seats "
        f"{', '.join(data['seats'])} (rotated), plugins {', '.join(data['plugins'])}"
    )
    seats = data["seats_and_positions"]
    say("win rate by seat: " + ", ".join(_rate(e) for e in seats["win_rate_by_seat"]))
    say(
        "win rate by first-round bidding position: "
        + ", ".join(_rate(e) for e in seats["win_rate_by_position"])
    )
    for key, label in (("seat_test", "seat"), ("position_test", "position")):
        if data.get(key):
            say(f"equal win rates by {label}: chi2 {data[key]['chi2']}, p = {data[key]['p_value']}")
    if data["skill"] is not None:
        print_skill(data["skill"])
    rounds, scores, margin = data["length"]["rounds"], data["scores"], data["margin"]
    say(f"rounds: mean {rounds['mean']}, least/quartiles/most {rounds['quantiles']}")
    say(f"final scores: mean {scores['mean']} (sd {scores['sd']}), {scores['quantiles']}")
    lead = data["lead"]
    say(
        f"lead changes per game: mean {lead['lead_changes']['mean']}; games with one: "
        f"{_rate(lead['games_with_a_lead_change'])}; leader at two thirds lost: "
        f"{_rate(lead['comebacks'])} of {lead['comebacks']['games']}"
    )
    say(f"margin: mean {margin['mean']}, least/quartiles/most {margin['quantiles']}")
    if data["djinns"]:
        say(
            "djinns (taken; holders' win rate): "
            + ", ".join(
                f"{name} {_rate(e['taken'])}; {_rate(e['holders_win_rate'])}"
                for name, e in data["djinns"].items()
            )
        )
    say(
        "tile kinds (points per player per game): "
        + ", ".join(f"{k} {e['points_per_player']}" for k, e in data["tile_kinds"].items())
    )


def register(app: typer.Typer) -> None:
    """Add the ``balance`` command to ``app``."""
    app.command("balance")(balance)
