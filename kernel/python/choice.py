"""Which engine plays a command's games: ``auto``, ``native`` or ``python``, and why.

A command asks for an engine (``--engine``, else the environment's ``NAQALA_ENGINE``,
else ``auto``). ``auto`` plays native when the game can and says in one line why not when
it cannot; ``native`` refuses rules it cannot play natively (``EngineError``, the same
line); ``python`` always plays on the reference engine. Both engines play the same game,
so the choice changes how long a command takes, never what it prints.

Seats matter too: a seat is native when the kernel has a player of that name and setting
(it says so itself) and the rules seat the shipped player of that name (the installed
players ``agents``, not a plugin's player that replaces it, which the kernel cannot know).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from naqala.core.engine import Rules
from naqala.kernel.support import native_obstacle, native_rules

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.kernel._native import NativeState

AUTO = "auto"
NATIVE = "native"
PYTHON = "python"
#: what ``--engine`` and ``NAQALA_ENGINE`` may say
ENGINES = (AUTO, NATIVE, PYTHON)
#: the environment variable that sets the engine when a command does not
ENVIRONMENT = "NAQALA_ENGINE"
#: the plugin name of the shipped AI players (entry point ``agents`` of ``naqala.agents``)
SHIPPED_PLAYERS = "agents"


class EngineError(ValueError):
    """The native engine was asked for and cannot play these games, or the engine asked
    for is no engine (one line saying which and why)."""


@attrs.frozen
class EngineChoice:
    """The engine that plays (``native`` or ``python``) and, when auto chose Python, why
    (the one line a command prints on stderr)."""

    engine: str
    fallback: str | None = None


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


def _finished(rules: Rules, players: int) -> NativeState | str:
    """A game of ``players`` of ``rules`` set up and played out by the kernel (kept with
    the rules), or why the kernel cannot (a player count or a board it has not ported)."""
    key = f"naqala.kernel.finished:{','.join(rules.without)}:{players}"
    if key not in rules.memo:
        try:
            start = native_rules(rules).new_game(players, 0)
            rules.memo[key] = start.random_playout(list(range(players)))[0]
        except NotImplementedError as exc:
            rules.memo[key] = str(exc)
    found: NativeState | str = rules.memo[key]
    return found


def game_obstacle(rules: Rules, players: int) -> str | None:
    """Why the kernel cannot set up and play out a game of ``players`` of ``rules``, or
    None (``native_obstacle(rules)`` must be None)."""
    found = _finished(rules, players)
    return found if isinstance(found, str) else None


def seat_obstacle(rules: Rules, seats: Sequence[str], players: int) -> str | None:
    """Why the seats named ``seats`` (agent names as a study keeps them: ``random``,
    ``mcts:200``) cannot all play natively in a game of ``players``, or None (the game
    itself must run native: ``game_obstacle``)."""
    finished = _finished(rules, players)
    if isinstance(finished, str):
        return finished
    rules.agents  # noqa: B018 - fills rules.providers with every player's plugin
    game = [info.name for info in rules.plugins]
    for seat in dict.fromkeys(seats):
        kind = seat.partition(":")[0]
        provider = rules.providers.get(f"ai:{kind}")
        if provider != SHIPPED_PLAYERS or SHIPPED_PLAYERS in game:
            return f"the player {kind!r} comes from plugin {provider!r}, not the shipped players"
        try:  # the kernel makes every seat's player before the first decision
            finished.play([(seat, 0)])
        except NotImplementedError:
            return f"the native engine has no player {seat!r}"
    return None


def choose(
    rules: Rules, requested: str, seats: Sequence[str] = (), players: int | None = None
) -> EngineChoice:
    """The engine for games of ``rules`` with ``seats`` (``players`` of them, by default
    one per seat) when ``requested`` (``auto``, ``native`` or ``python``) was asked for;
    ``EngineError`` when native was asked for and cannot play them."""
    if requested == PYTHON:
        return EngineChoice(PYTHON)
    count = players or len(seats)
    reason = native_obstacle(rules)
    if reason is None and count:
        reason = game_obstacle(rules, count)
    if reason is None and seats:
        reason = seat_obstacle(rules, seats, count)
    if reason is None:
        return EngineChoice(NATIVE)
    if requested == NATIVE:
        raise EngineError(f"the native engine cannot play these games: {reason}")
    return EngineChoice(PYTHON, f"playing on the Python engine: {reason}")
