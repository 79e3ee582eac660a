"""Which engine plays each part of a command's games, and why: the one place that decides.

A plan is made from the rules, the seats and the player count. It says the engine of each
part — the rules and the game loop, each AI seat, the learning environments — with its
reason when the part stays on the Python engine, in one line each:

- **the game**: native when the installed kernel implements the provider of every rule
  or calls the plugin's hook back (``naqala.native.support``: the extension, who provides
  each rule, unproven pairs, the content; ``naqala.native.callbacks``) and can set up and
  play out a game of that many players;
- **a seat**: native when the game is and either the rules seat the shipped player of
  that name (``agents``) and the kernel has it, with that setting, or the player comes
  from a plugin (``naqala_agents``): the kernel then calls it back at its own seat's
  decisions with a read-only view (``naqala.native.callbacks.seat_function``) and plays
  every other seat natively (``Part.called_back`` names its plugin);
- **the environments**: native when the game's rules are and no plugin the kernel does
  not implement adds to the observation or the actions (``naqala_observation_parts``,
  ``naqala_action_kinds``), which the kernel computes natively and would drop, and no
  hook is called back (the environments' kernel calls none).

The command line, the lab, the environments and the web server read the plan
(``naqala.native.choice.choose``, ``naqala.native.seated.table_engine``,
``naqala.envs.native.native_blocker``); nothing else decides an engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from naqala.core.engine import Rules
from naqala.native.profiles import kernel_seat
from naqala.native.support import called_back_words, foreign_rules, native_obstacle, native_rules

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.native._native import NativeState

NATIVE = "native"
PYTHON = "python"
#: the plugin name of the shipped AI players (entry point ``agents`` of ``naqala.agents``)
SHIPPED_PLAYERS = "agents"
#: the read-only hooks whose answers the native environments compute themselves
ENVIRONMENT_HOOKS = ("naqala_observation_parts", "naqala_action_kinds")


@attrs.frozen
class Part:
    """The engine of one part (``native`` or ``python``) and, on Python, why; a native
    seat whose player the kernel calls back names the plugin of that player."""

    engine: str
    reason: str | None = None
    called_back: str | None = None

    @staticmethod
    def of(reason: str | None) -> Part:
        return Part(NATIVE) if reason is None else Part(PYTHON, reason)


@attrs.frozen
class EnginePlan:
    """The engine of each part of games of some rules: the game (rules and loop), each
    AI seat (by seat name, as given), the environments."""

    game: Part
    seats: tuple[tuple[str, Part], ...]
    envs: Part

    @property
    def reason(self) -> str | None:
        """Why the games (with their seats) do not all play natively: the game's reason,
        else the first seat's, in seat order; None when they do."""
        parts = [self.game, *(part for _, part in self.seats)]
        return next((part.reason for part in parts if part.reason is not None), None)

    @property
    def called_back_seats(self) -> tuple[tuple[str, str], ...]:
        """``(player, plugin)`` of each seat whose player the kernel calls back, in seat
        order (the player as the kernel seat names it: ``coiny``)."""
        named = ((seat.partition(":")[0], part.called_back) for seat, part in self.seats)
        return tuple(dict.fromkeys((kind, by) for kind, by in named if by is not None))

    @property
    def reasons(self) -> tuple[str, ...]:
        """Every part's reason, each once, in the order game, seats, environments."""
        parts = [self.game, *(part for _, part in self.seats), self.envs]
        return tuple(dict.fromkeys(p.reason for p in parts if p.reason is not None))


def plan(rules: Rules, seats: Sequence[str] = (), players: int | None = None) -> EnginePlan:
    """The engine of each part of games of ``rules`` with ``seats`` (agent names as a
    study keeps them: ``random``, ``mcts:200``), ``players`` of them (by default one per
    seat; with neither, the game's part asks only the rules)."""
    count = players or len(seats)
    rules_reason = native_obstacle(rules)
    reason = rules_reason
    if reason is None and count:
        reason = game_obstacle(rules, count)
    game = Part.of(reason)
    seated = tuple(
        (seat, game if reason is not None else seat_part(rules, seat, count))
        for seat in dict.fromkeys(seats)
    )
    envs = Part.of(rules_reason if rules_reason is not None else envs_obstacle(rules))
    return EnginePlan(game, seated, envs)


def _finished(rules: Rules, players: int) -> NativeState | str:
    """A game of ``players`` of ``rules`` set up and played out by the kernel (kept with
    the rules), or why the kernel cannot (a player count or a board it has not ported)."""
    key = f"naqala.native.finished:{','.join(rules.without)}:{players}"
    if key not in rules.memo:
        try:
            start = native_rules(rules).new_game(players, 0)
            rules.memo[key] = start.random_playout(list(range(players)))[0]
        except (NotImplementedError, ValueError) as exc:  # unported, or refused by the rules
            rules.memo[key] = str(exc)
    found: NativeState | str = rules.memo[key]
    return found


def game_obstacle(rules: Rules, players: int) -> str | None:
    """Why the kernel cannot set up and play out a game of ``players`` of ``rules``, or
    None (``native_obstacle(rules)`` must be None)."""
    found = _finished(rules, players)
    return found if isinstance(found, str) else None


def plugin_player(rules: Rules, seat: str) -> str | None:
    """The plugin whose player (``naqala_agents``) sits at ``seat`` (``coiny``,
    ``mcts:200``, ``ai:coiny``), which the kernel calls back; None for the shipped
    players (and for a name no player answers to)."""
    rules.agents  # noqa: B018 - fills rules.providers with every player's plugin
    kind = seat.removeprefix("ai:").partition(":")[0]
    provider = rules.providers.get(f"ai:{kind}")
    if provider is None or provider == SHIPPED_PLAYERS:
        return None
    return provider


def seat_part(rules: Rules, seat: str, players: int) -> Part:
    """The engine of the seat ``seat`` in a native game of ``players``: native, with the
    plugin called back for a plugin's player; else as ``seat_obstacle`` says."""
    plugin = plugin_player(rules, seat)
    if plugin is not None and game_obstacle(rules, players) is None:
        return Part(NATIVE, called_back=plugin)
    return Part.of(seat_obstacle(rules, seat, players))


def seat_obstacle(rules: Rules, seat: str, players: int) -> str | None:
    """Why the seat ``seat`` (``random``, ``mcts:200``) cannot play natively in a game of
    ``players``, or None (the game itself must run native: ``game_obstacle``). A plugin's
    player is called back (``seat_part``); the shipped players' seats are the kernel's
    own, when the shipped players are not also loaded as a plugin of the game."""
    finished = _finished(rules, players)
    if isinstance(finished, str):
        return finished
    if plugin_player(rules, seat) is not None:
        return None
    game = [info.name for info in rules.plugins]
    kind = seat.partition(":")[0]
    provider = rules.providers.get(f"ai:{kind}")
    if provider != SHIPPED_PLAYERS or SHIPPED_PLAYERS in game:
        return f"the player {kind!r} comes from plugin {provider!r}, not the shipped players"
    try:  # the kernel makes every seat's player before the first decision
        finished.play([(kernel_seat(rules, seat), 0)])
    except NotImplementedError:
        return f"the native engine has no player {seat!r}"
    return None


def envs_obstacle(rules: Rules) -> str | None:
    """Why the environments of ``rules`` (whose rules run native) cannot compute their
    observations and actions natively: a plugin the kernel does not implement adds to
    them, and the kernel would leave its parts out; None when none does."""
    adding = [p for p in foreign_rules(rules) if p.hook in ENVIRONMENT_HOOKS]
    hooks = called_back_words(rules)
    if not adding and hooks is not None:
        return f"the native environments do not call back the hooks of {hooks}"
    if not adding:
        return None
    named = ", ".join(f"plugin {p.plugin!r} ({p.hook})" for p in adding)
    return (
        f"the native environments compute the observation and the actions themselves, "
        f"and do not read what {named} adds to them"
    )
