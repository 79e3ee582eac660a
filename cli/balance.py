"""``naqala balance``: the balance card of a rule set (``naqala.lab.balance``), with the
skill matrix of ``naqala skill`` on it.

Added to the ``naqala`` command by ``register(app)``. Bad input is one line on stderr
and exit 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from naqala.cli import study as common
from naqala.cli.common import Expansions, check_game_seeds, seed_option
from naqala.cli.engine import Engine, engine_of_plan
from naqala.lab import LabExtraMissing, require
from naqala.lab.balance import card
from naqala.lab.compare import CompareError, check
from naqala.lab.compare import report as paired_report
from naqala.lab.results import GameResult
from naqala.lab.runner import play_indices
from naqala.lab.skill import (
    Ladder,
    SkillError,
    compare_matrices,
    matrix_report,
    play_matrices,
)
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
Against = Annotated[
    list[str] | None,
    typer.Option(
        "--against",
        help="The card's baseline: a house-rule file in place of --house-rules "
        "(repeatable), or 'base' for none; the card then pairs both rule sets game by game.",
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
    ] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="Print the card as JSON.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    engine: Engine = None,
    games_out: common.GamesOut = None,
    against: Against = None,
    engine_report: common.EngineReport = False,
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
        studies = [study]
        if against is not None:
            require("scipy.stats", "naqala balance --against")
            files = [Path(name) for name in against if name != "base"]
            base_rules = Ruleset.of(expansion or [], files, without or [])
            studies.append(Study(base_rules, seat_names, seed, rotate=True))
            check(studies[1], study, games)
    except (StudyError, SkillError, LabExtraMissing) as exc:
        common.fail(str(exc))
    except CompareError as exc:
        common.fail(f"--against: {exc}")
    rulesets = [s.ruleset for s in studies]
    cell_studies = [c for r in rulesets for c in skill.studies(r)]
    chosen = engine_of_plan([*studies, *cell_studies], engine)
    studies = [attrs.evolve(s, engine=chosen) for s in studies]
    skill = attrs.evolve(skill, engine=chosen)
    common.need_figures(report, None)
    common.need_games_out(games_out)
    total = (games + skill_games * len(skill.cells)) * len(studies)
    jobs = common.reported_jobs(engine_report, jobs, dask)
    executor = common.executor_for(jobs, dask, total)
    measured = common.EngineMeter(rulesets, chosen)
    show = not as_json and sys.stderr.isatty()
    try:
        with common.progress_bar(show, total, "Balance card") as advance:
            sides, interrupted = play_indices(studies, range(games), executor, advance)
            matrices: list[list[list[Any]]] = []
            if not interrupted:
                matrices, interrupted = play_matrices(skill, rulesets, executor, advance)
    finally:
        executor.close()
    if engine_report:
        played = sum(len(side) for side in sides)
        measured.say(played + sum(len(cell) for matrix in matrices for cell in matrix))
    results = sides[0]
    if not results:
        typer.echo("naqala: interrupted before any game finished", err=True)
        raise typer.Exit(130)
    checked = [s.check() for s in studies]
    names = ("card", "against")
    common.write_games(
        games_out,
        [
            *(
                (name, r.ruleset, side)
                for name, r, side in zip(names, checked, sides, strict=False)
            ),
            *(
                (f"{name} skill {one} vs {field}", r.ruleset, cell)
                for name, r, matrix in zip(names, checked, matrices, strict=False)
                for (one, field), cell in zip(skill.cells, matrix, strict=False)
            ),
        ],
    )
    # stopped before every cell of the skill matrix had a game: the card without it
    complete = bool(matrices) and all(all(matrix) for matrix in matrices)
    skill_part = skill_of(skill, matrices, checked) if complete else None
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
    data.update(position_tests(data))
    if against is not None and len(sides[1]) >= 2:
        data.update(paired_card(data, checked[1].ruleset, sides[1], results, djinn_deck))
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


def skill_of(skill: Ladder, matrices: list[list[Any]], checked: list[Any]) -> dict[str, Any]:
    """The skill part of the card: one matrix, or with ``--against`` both and their paired
    differences (the baseline first)."""
    reports = [
        matrix_report(skill, matrix, r.ruleset) for matrix, r in zip(matrices, checked, strict=True)
    ]
    if len(reports) == 1:
        return reports[0]
    return compare_matrices(skill, (matrices[1], reports[1]), (matrices[0], reports[0]))


def paired_card(
    data: dict[str, Any],
    base_plugins: Sequence[str],
    base: Sequence[GameResult],
    results: Sequence[GameResult],
    djinn_deck: Sequence[str],
) -> dict[str, Any]:
    """``--against``: the baseline's own card, and every paired item of both (the same
    seeds and seats): wins by seat and by bidding position, scores by position and by
    category, length, lead changes and margin, with Holm's correction over them all."""
    games = min(len(base), len(results))
    baseline_card: dict[str, Any] = {
        **{k: data[k] for k in ("seed", "seats", "without", "requested", "partial")},
        "plugins": list(base_plugins),
        **card(base[:games], data["players"], djinn_deck),
        "skill": None,
    }
    baseline_card.update(position_tests(baseline_card))
    paired = paired_report(
        base[:games],
        results[:games],
        data["players"],
        data["seed"],
        base_plugins,
        data["plugins"],
        extra=paired_extras(base[:games], results[:games]),
    )
    paired.update(
        requested=data["requested"],
        partial=data["partial"],
        seats=data["seats"],
        rotate=True,
        baseline_without=data["without"],
        variant_without=data["without"],
        sequential=None,
    )
    return {"against": baseline_card, "paired": paired}


def paired_extras(*sides: Sequence[GameResult]) -> tuple[str, ...]:
    """The card's paired per-game metrics: lead changes and margin, and the coins paid
    for turn order and the decisions per game when every game recorded its play."""
    recorded = all(r.play is not None for side in sides for r in side)
    return ("lead_changes", "margin", *(("turn_paid", "decisions") if recorded else ()))


def position_tests(data: dict[str, Any]) -> dict[str, Any]:
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
    """The card as lines of text (the report has the figures); with ``--against`` the
    baseline's card first, then this one, then the paired tests of both."""
    if "paired" in data:
        from naqala.cli.compare import print_report

        typer.echo("baseline (--against):")
        print_one_card(data["against"])
        typer.echo("this rule set:")
        print_one_card(data)
        typer.echo("paired, game by game (baseline: --against; variant: this rule set):")
        print_report(data["paired"])
        return
    print_one_card(data)


def print_one_card(data: dict[str, Any]) -> None:
    """One rule set's card."""
    from rich.console import Console

    from naqala.cli.skill import print_skill

    console = Console(highlight=False)

    def say(text: str) -> None:
        console.print(text, markup=False)

    if data.get("partial"):
        say(f"PARTIAL: {data['games']} of {data['requested']} games")
    say(
        f"{data['games']} games, {data['players']} players, seed {data['seed']}, seats "
        f"{', '.join(data['seats']) or 'mixed'}{' (rotated)' if data.get('rotate', True) else ''}"
        f", plugins {', '.join(data['plugins'])}"
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
    print_play(say, data)


def print_play(say: Any, data: dict[str, Any]) -> None:
    """The card's lines that read the games' decisions: score by category, the winner's
    decisive round, turn money, turn positions in later rounds, decision load."""
    categories = data.get("score_by_category") or {}
    say("score by category (per player per game): "
        + ", ".join(f"{k} {v}" for k, v in categories.items()))  # fmt: skip
    decided = data["lead"].get("decided_at_share")
    if decided and decided["mean"] is not None:
        say(
            f"winner led for good from: mean {decided['mean'] * 100:.0f}% of the game, "
            f"quartiles {[round(q * 100) for q in decided['quantiles'][1:4]]}%"
        )
    money = data.get("turn_money")
    if money:
        say(
            f"coins paid for turn order: per game {money['per_game']['mean']} "
            f"(per player {money['per_player']}); per game by turn position "
            + ", ".join(f"{k + 1}. {c}" for k, c in enumerate(money["per_position"]))
        )
    positions = data.get("turn_positions")
    if positions:
        say(
            f"win rate by turn position, rounds 2+ ({positions['rounds']} rounds): "
            + ", ".join(_rate(e) for e in positions["win_rate_by_turn_position"])
        )
    load = data.get("decision_load")
    if load:
        say(
            f"decisions per game {load['decisions_per_game']}, options per decision: "
            f"mean {load['branching']['mean']}, p90 {load['branching']['p90']}"
        )
        say(
            "  by stage (decisions/game; options mean, p90): "
            + ", ".join(
                f"{stage} {e['decisions_per_game']}; {e['mean']}, {e['p90']}"
                for stage, e in load["by_stage"].items()
            )
        )
        say(
            "  AI time per decision: "
            + ", ".join(
                f"{name} {_milliseconds(e['seconds_per_decision'])}"
                for name, e in load["by_agent"].items()
            )
        )


def _milliseconds(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1000:.3g} ms"


def register(app: typer.Typer) -> None:
    """Add the ``balance`` command to ``app``."""
    app.command("balance")(balance)
