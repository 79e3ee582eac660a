"""AI players: what an agent is, and the one place a seat's name becomes a player.

An agent chooses among the legal options; an ``AgentFactory`` makes one from a seed and
the setting written after its name (``mcts:200``). The players a game can seat are the
rules' registry, ``Rules.agents``: the installed players (entry-point group
``naqala.agents``: the shipped ``random``, ``greedy``, ``mcts``…) and those the game's
plugins add (hook ``naqala_agents``, a house rule's own player). Seats are resolved here
only, after the rules are built, so every command and front end accepts the same seats
with the same messages. Random agents draw from their own seeded generator, so a
simulated game is a pure function of the game seed and the agent seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from naqala.core.actions import Action, shorten
from naqala.core.rng import Rng

if TYPE_CHECKING:
    from naqala.core.engine import Rules
    from naqala.core.state import State

#: the seat of a person
HUMAN = "human"
#: the player a bare ``ai`` seat means
DEFAULT_AI = "greedy"


class Agent(Protocol):
    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action: ...


class AgentFactory(Protocol):
    """Makes an agent from its seed and its setting (``""`` when the seat names none);
    ``ValueError`` with a one-line reason for a setting it refuses."""

    def __call__(self, seed: int, setting: str) -> Agent: ...


class SeatError(ValueError):
    """A seat that names no player these rules know, or a setting the player refuses."""


class RandomAgent:
    """Chooses uniformly among the legal options."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        index, self.rng = self.rng.below(len(options))
        return options[index]


def without_setting(make: Callable[[int], Agent], what: str) -> AgentFactory:
    """A factory for an agent that takes only a seed (``what`` names it in the refusal
    of a setting): the shape of most players."""

    def build(seed: int, setting: str) -> Agent:
        if setting:
            raise ValueError(f"the {what} takes no setting (got {shorten(setting)!r})")
        return make(seed)

    return build


def canonical_seat(rules: Rules, raw: str) -> str:
    """The canonical form of a seat: ``human``, or ``ai:<name>[:<setting>]`` of a player
    of ``rules``. ``ai`` alone is ``ai:greedy``; a player's name alone (``mcts:200``) is
    its AI seat. ``SeatError`` naming the seat if no player answers to it, or saying why
    its player refuses the setting. The words are read in any case; the setting keeps
    its own, since it may name a file (``greedy:profile=/Users/Ann/taste.toml``)."""
    seat = raw.strip()
    lowered = seat.lower()
    if lowered == HUMAN:
        return HUMAN
    name = DEFAULT_AI if lowered == "ai" else seat[3:] if lowered.startswith("ai:") else seat
    kind, colon, setting = name.partition(":")
    kind = kind.lower()
    factory = rules.agents.get(kind)
    if factory is None:
        known = ", ".join([HUMAN, "ai", *(f"ai:{n}" for n in sorted(rules.agents))])
        raise SeatError(f"unknown seat {shorten(raw.strip())!r}; seats are {known}")
    try:
        factory(0, setting)
    except ValueError as exc:
        raise SeatError(f"seat {shorten(raw.strip())!r}: {exc}") from None
    return f"ai:{kind}{colon}{setting}"


def make_agent(rules: Rules, seat: str, seed: int) -> Agent:
    """The player of an AI seat, in any spelling ``canonical_seat`` accepts (``greedy``,
    ``ai:mcts:200``); ``SeatError`` for a person's seat or one no player answers to."""
    name = canonical_seat(rules, seat)
    if name == HUMAN:
        raise SeatError(f"seat {shorten(seat.strip())!r} is a person's, not an AI player")
    kind, _, setting = name.removeprefix("ai:").partition(":")
    return rules.agents[kind](seed, setting)


def seat_agent(rules: Rules, seat: str, seed: int) -> Agent | None:
    """The player of a seat, None for a person's."""
    return None if canonical_seat(rules, seat) == HUMAN else make_agent(rules, seat, seed)
