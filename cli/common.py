"""What every ``naqala`` command shares: the one way to fail on bad input, the
``--expansion``, ``--without`` and ``--house-rules`` options, reading house-rule files, and
building the rules from the command line's plugins and cards left out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import HouseRuleFile, PluginError, read_house_rule
from naqala.core.without import WithoutError, leave_out

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

#: ``--without KIND:ID``, repeatable: a card left out of the game (``naqala.core.without``)
Without = Annotated[
    list[str] | None,
    typer.Option("--without", help="Leave a card out: djinn:ID or card:ID (repeatable)."),
]


#: ``--house-rules FILE``, repeatable, of a command that replays a record: the only house-rule
#: code it runs (a record names its house rules by sha256, never code to load)
RecordHouseRules = Annotated[
    list[Path] | None,
    typer.Option(
        "--house-rules",
        help="A house-rule file the record was played with, matched by its sha256 "
        "(repeatable, any order).",
    ),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` on stderr and exit with ``code`` (2: bad input), printing nothing
    on stdout and no traceback."""
    typer.echo(f"naqala: {message}", err=True)
    raise typer.Exit(code)


def make_rules(
    expansions: list[str] | None,
    house_rules: list[Path] | None = None,
    without: list[str] | None = None,
) -> Rules:
    """The rules for the plugins named on the command line, without the cards it leaves
    out, or ``fail`` saying why not."""
    try:
        return leave_out(build_rules(expansions or [], house_rules or []), without or [])
    except (PluginError, ContentError, WithoutError) as exc:
        fail(str(exc))


def read_house_rules(paths: list[Path] | None) -> list[HouseRuleFile]:
    """Each ``--house-rules`` file read once (what is hashed is what runs), or ``fail``
    naming the one that cannot be read."""
    try:
        return [read_house_rule(path) for path in paths or []]
    except PluginError as exc:
        fail(f"--house-rules {exc}")
