"""``naqala render``: draw a state for the terminal, or as an SVG picture with ``--svg``.

Added to the ``naqala`` command by ``register(app)``. Hidden information (coins, cards)
is shown only for the seat given with ``--seat``, or for everybody once the game is over.
"""

from __future__ import annotations

from typing import Annotated

import typer

SeatOpt = Annotated[
    int | None,
    typer.Option(
        "--seat",
        min=1,
        help="Show the picture as player N sees it (their own coins and cards).",
    ),
]


def render_command(
    state: Annotated[str, typer.Argument(help="State JSON file, or - for standard input.")],
    svg: Annotated[bool, typer.Option("--svg", help="Print an SVG picture.")] = False,
    seat: SeatOpt = None,
) -> None:
    """Draw a state: the terminal picture, or an SVG document with --svg."""
    from naqala.cli.common import fail, read_state

    rules, current = read_state(state)
    viewer = None
    if seat is not None:
        if seat > len(current.players):
            fail(f"--seat {seat}: the game has {len(current.players)} players")
        viewer = seat - 1
    if svg:
        from naqala.display.svg import board_svg

        typer.echo(board_svg(rules, current, seat=viewer), nl=False)
        return
    from rich.console import Console

    from naqala.display.text import render_state

    Console(highlight=False).print(render_state(rules, current, viewer, reveal=current.is_over))


def register(app: typer.Typer) -> None:
    """Add the ``render`` command to ``app``."""
    app.command("render")(render_command)
