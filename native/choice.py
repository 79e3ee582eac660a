"""Which engine plays a command's games: ``auto``, ``native`` or ``python``, and why.

A command asks for an engine (``--engine``, else the environment's ``NAQALA_ENGINE``,
else ``auto``). ``auto`` plays native when the game can and says in one line why not when
it cannot; ``native`` refuses rules it cannot play natively (``EngineError``, the same
line); ``python`` always plays on the reference engine. Both engines play the same game,
so the choice changes how long a command takes, never what it prints. What can play
natively — the game, each seat — is the engine plan's answer (``naqala.native.plan``);
this module only weighs it against what was asked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import attrs

from naqala.core.engine import Rules
from naqala.native.plan import NATIVE as NATIVE
from naqala.native.plan import PYTHON as PYTHON
from naqala.native.plan import plan
from naqala.native.support import called_back_words

AUTO = "auto"
#: what ``--engine`` and ``NAQALA_ENGINE`` may say
ENGINES = (AUTO, NATIVE, PYTHON)
#: the environment variable that sets the engine when a command does not
ENVIRONMENT = "NAQALA_ENGINE"


class EngineError(ValueError):
    """The native engine was asked for and cannot play these games, or the engine asked
    for is no engine (one line saying which and why)."""


@attrs.frozen
class EngineChoice:
    """The engine that plays (``native`` or ``python``) and, when auto chose Python, why
    (the one line a command prints on stderr); on native, the plugins' hooks the kernel
    calls back (``naqala.native.callbacks``), said in one line too."""

    engine: str
    fallback: str | None = None
    called_back: str | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        """What a command says on stderr about this choice: the fallback, or the hooks
        called back."""
        return tuple(line for line in (self.fallback, self.called_back) if line is not None)


def requested_engine(option: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The engine asked for: the option if given, else ``NAQALA_ENGINE``, else ``auto``;
    ``EngineError`` for a value that names no engine."""
    if option is not None:
        asked, where = option, "--engine"
    else:
        asked, where = environ.get(ENVIRONMENT, AUTO), ENVIRONMENT
    engine = asked.strip().lower()
    if engine not in ENGINES:
        raise EngineError(f"{where} {asked!r}: the engine is one of {', '.join(ENGINES)}")
    return engine


def choose(
    rules: Rules, requested: str, seats: Sequence[str] = (), players: int | None = None
) -> EngineChoice:
    """The engine for games of ``rules`` with ``seats`` (``players`` of them, by default
    one per seat) when ``requested`` (``auto``, ``native`` or ``python``) was asked for;
    ``EngineError`` when native was asked for and cannot play them."""
    if requested == PYTHON:
        return EngineChoice(PYTHON)
    planned = plan(rules, seats, players)
    reason = planned.reason
    if reason is None:
        players_asked = [
            f"the player {kind!r} of plugin {plugin!r} at its seats"
            for kind, plugin in planned.called_back_seats
        ]
        asked = ", ".join(filter(None, [called_back_words(rules), *players_asked]))
        line = f"playing natively, calling back {asked}" if asked else None
        return EngineChoice(NATIVE, called_back=line)
    if requested == NATIVE:
        raise EngineError(f"the native engine cannot play these games: {reason}")
    return EngineChoice(PYTHON, f"playing on the Python engine: {reason}")
