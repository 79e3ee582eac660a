"""What every ``naqala`` command shares: the one way to fail on bad input, the
``--expansion`` option, and building the rules from the command line's plugins."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import PluginError

#: ``-x NAME`` / ``--expansion NAME``, repeatable
Expansions = Annotated[
    list[str] | None,
    typer.Option("--expansion", "-x", help="Enable an expansion (repeatable)."),
]
#: the same option for commands that play a baseline and a variant (``naqala compare``)
ExpansionsBothSides = Annotated[
    list[str] | None,
    typer.Option("--expansion", "-x", help="Enable an expansion on both sides (repeatable)."),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` on stderr and exit with ``code`` (2: bad input), printing nothing
    on stdout and no traceback."""
    typer.echo(f"naqala: {message}", err=True)
    raise typer.Exit(code)


def make_rules(expansions: list[str] | None, house_rules: list[Path] | None = None) -> Rules:
    """The rules for the plugins named on the command line, or ``fail`` saying why not."""
    try:
        return build_rules(expansions or [], house_rules or [])
    except (PluginError, ContentError) as exc:
        fail(str(exc))
