"""What every ``naqala`` command shares: the one way to fail on bad input, the
``--expansion``, ``--without`` and ``--house-rules`` options, reading house-rule files,
building the rules from the command line's plugins and cards left out, and reading a state
file (bounded: ``naqala.core.files``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.files import (
    STATE_LIMIT,
    FileRefused,
    decode_utf8,
    read_bounded,
    read_stdin_bounded,
)
from naqala.core.plugins import HouseRuleFile, PluginError, read_house_rule
from naqala.core.rng import SeedError, check_seed, check_seeds
from naqala.core.serialize import StateFormatError, state_from_json
from naqala.core.state import State
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


def _checked_seed(value: int | None) -> int | None:
    """``--seed`` as given, once it is a seed of a game (``naqala.core.rng.check_seed``:
    the same domain and words in every command, a state file, a record and the web)."""
    if value is not None:
        try:
            check_seed(value, "--seed")
        except SeedError as exc:
            fail(str(exc))
    return value


def seed_option(help: str, short: bool = True) -> Any:
    """The ``--seed`` option of a command (also ``-s`` where ``short``), checked as it is
    read."""
    names = ("--seed", "-s") if short else ("--seed",)
    return typer.Option(*names, help=help, callback=_checked_seed)


def check_game_seeds(first: int, games: int) -> None:
    """``fail`` unless the seeds of games ``first … first + games − 1`` (a study's game
    ``i`` has seed ``first + i``) are all seeds of a game."""
    try:
        check_seeds(first, games, "--seed")
    except SeedError as exc:
        fail(str(exc))


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


def read_state(source: str) -> tuple[Rules, State]:
    """The rules and state of the state file ``source`` (``-``: standard input), or
    ``fail`` in one line naming it: not a regular file, more than ``STATE_LIMIT`` bytes,
    not UTF-8, not JSON, or not a state these rules can hold."""
    try:
        if source == "-":
            data = read_stdin_bounded(STATE_LIMIT, "state", source)
        else:
            data = read_bounded(source, STATE_LIMIT, "state")
    except FileRefused as exc:
        fail(str(exc))
    try:
        text = decode_utf8(data, source)
    except FileRefused as exc:
        fail(f"{source}: not a naqala state: {str(exc).removeprefix(f'{source}: ')}")
    try:
        return state_from_json(text)
    except StateFormatError as exc:
        fail(f"{source}: not a naqala state: {exc}")


def read_house_rules(paths: list[Path] | None) -> list[HouseRuleFile]:
    """Each ``--house-rules`` file read once (what is hashed is what runs), or ``fail``
    naming the one that cannot be read."""
    try:
        return [read_house_rule(path) for path in paths or []]
    except PluginError as exc:
        fail(f"--house-rules {exc}")
