"""``naqala tournament``: a round robin of AI seats and its rated ladder
(``naqala.lab.tournament``).

Added to the ``naqala`` command by ``register(app)``. Bad input (an unknown player, too
few entrants, a player count the rules refuse, openskill missing) is one line on stderr
and exit 2.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from naqala.cli import study as common
from naqala.cli.common import Expansions, check_game_seeds, seed_option
from naqala.lab import LabExtraMissing, require
from naqala.lab.tournament import Tournament, TournamentError, run_games

Entrants = Annotated[
    str,
    typer.Option(
        "--seats",
        help="The entrants, comma-separated (random,greedy,mcts,ismcts,ismcts:strong; "
        "names as in naqala play).",
    ),
]


def tournament(
    seats: Entrants = "random,greedy,mcts,ismcts",
    players: Annotated[int, typer.Option("--players", "-p", help="Players a table.")] = 2,
    deals: Annotated[
        int,
        typer.Option("--deals", "-n", min=1, help="Deals a table, each played once a seating."),
    ] = 4,
    seed: Annotated[int, seed_option("Seed of the first deal.")] = 0,
    expansion: Expansions = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    games_out: common.GamesOut = None,
) -> None:
    """Play every table of entrants over the same deals with the seats rotated, and rate
    them (openskill, with 95% intervals): the strength ladder."""
    entrants = tuple(name.strip().removeprefix("ai:") for name in seats.split(",") if name.strip())
    plan = Tournament(entrants, players, deals, seed, tuple(expansion or []))
    try:
        plan.check()
        require("openskill", "naqala tournament")
    except (TournamentError, LabExtraMissing) as exc:
        common.fail(str(exc))
    common.need_games_out(games_out)
    games = plan.schedule()
    check_game_seeds(seed, games[-1].seed - seed + 1)
    executor = common.executor_for(jobs, dask, len(games))
    show = not as_json and sys.stderr.isatty()
    try:
        with common.progress_bar(show, len(games), "Tournament") as advance:
            standings, results = run_games(plan, executor, advance or (lambda: None))
    except KeyboardInterrupt:
        common.fail("interrupted before the ladder was rated", 130)
    finally:
        executor.close()
    data: dict[str, Any] = {
        "entrants": list(entrants),
        "players": players,
        "deals": deals,
        "seed": seed,
        "expansions": list(expansion or []),
        "games": len(results),
        "ladder": [standing.as_dict() for standing in standings],
    }
    common.write_games(games_out, [("tournament", plan.ruleset(), results)])
    common.show_answer(data, as_json, print_ladder)


def print_ladder(data: dict[str, Any]) -> None:
    """The ladder as a rich table, best rating first."""
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{data['games']} games, {data['players']} players, {data['deals']} deals a "
        f"table from seed {data['seed']}, seats rotated"
    )
    for column in ("rank", "player", "rating (95%)", "games", "wins (95%)"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, line in enumerate(data["ladder"], start=1):
        low, high = line["rating_interval"]
        w_low, w_high = line["win_interval"]
        table.add_row(
            str(rank),
            line["name"],
            f"{line['mu']:.1f} [{low:.1f}, {high:.1f}]",
            str(line["games"]),
            f"{line['win_rate']:.2f} [{w_low:.2f}, {w_high:.2f}]",
        )
    Console(highlight=False).print(table)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
