"""``--engine auto|native|python``: the one option every command that plays games shares.

Without the option the environment's ``NAQALA_ENGINE`` decides, and without that ``auto``
(``naqala.native.choice``). ``auto`` plays native where it can and otherwise says once, on
stderr, what keeps the games on the Python engine; ``native`` refuses what it cannot play
in one line, exit 2. Both engines give the same results, so output never depends on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import attrs
import typer

from naqala.cli.common import fail
from naqala.core.engine import Rules

if TYPE_CHECKING:  # the lab is imported only by the commands that run studies
    from naqala.lab.study import Study

#: ``--engine`` (the same words as ``naqala.native.choice.ENGINES``, kept here so that
#: building the command line imports nothing of the kernel)
Engine = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help="The engine that plays: auto (native where it can), native or python "
        "(default: $NAQALA_ENGINE, else auto).",
        show_default=False,
    ),
]


def engine_for(
    rules: Rules, option: str | None, seats: Sequence[str] = (), players: int | None = None
) -> str:
    """``native`` or ``python`` for games of ``rules`` with ``seats`` (agent names), as
    ``--engine`` (``option``) or ``NAQALA_ENGINE`` asks: auto's fallback said on stderr in
    one line, an impossible ``native`` or an unknown engine a ``fail`` (exit 2)."""
    return _chosen([(rules, seats, players)], option)[0]


def on_engine(studies: Sequence[Study], option: str | None) -> list[Study]:
    """``studies`` each on the engine ``option`` asks for its rules and seats (as
    ``engine_for``; a fallback shared by several studies is said once)."""
    engines = _chosen(_sides(studies), option)
    return [attrs.evolve(study, engine=e) for study, e in zip(studies, engines, strict=True)]


def engine_of_plan(studies: Sequence[Study], option: str | None) -> str:
    """The engine for a lab plan whose many studies differ in rules or seats (skill
    cells, interaction arms, tuning trials): the engine asked for, after saying once each
    what keeps some of ``studies`` on the Python engine, or failing when native cannot
    play one of them. The plan's studies play with ``Study.engine`` set to it, and auto
    decides study by study in the workers as it did here."""
    _chosen(_sides(studies), option)
    return asked_engine(option)


def asked_engine(option: str | None) -> str:
    """The engine ``--engine`` (``option``), else ``NAQALA_ENGINE``, else auto asks for;
    a value that names no engine is a ``fail`` (exit 2) before anything starts."""
    from naqala.native.choice import EngineError, requested_engine

    try:
        return requested_engine(option)
    except EngineError as exc:
        fail(str(exc))


def _sides(studies: Sequence[Study]) -> list[tuple[Rules, Sequence[str], int | None]]:
    """Each distinct study's rules (built once per thread, as the games build them),
    seats and player count."""
    from naqala.lab.study import StudyError, rules_of

    distinct = dict.fromkeys((study.ruleset, study.seats) for study in studies)
    try:  # a study whose rules cannot be built is said as the study itself says it
        found = {key: (rules_of(key[0]), key[1], len(key[1])) for key in distinct}
    except StudyError as exc:
        fail(str(exc))
    return [found[(study.ruleset, study.seats)] for study in studies]


def _chosen(
    sides: Sequence[tuple[Rules, Sequence[str], int | None]], option: str | None
) -> list[str]:
    """The engine of each side, each fallback said once on stderr."""
    from naqala.native.choice import EngineError, choose, requested_engine

    try:
        requested = requested_engine(option)
        choices = [choose(rules, requested, seats, players) for rules, seats, players in sides]
    except EngineError as exc:
        fail(str(exc))
    for line in dict.fromkeys(line for c in choices for line in c.lines):
        typer.echo(f"naqala: {line}", err=True)
    return [choice.engine for choice in choices]
