"""A game at the table, whatever the front end: the seats of its record, the AI players
that sit in them, and when a person may take a decision back.

The terminal (``naqala play``) and the web server (``naqala.web.games``) both wrap these
functions, so a seat, an AI's turn and an undo mean the same in both. Nothing here
knows a front end, a picture or a plugin: it builds on the rules, the record and the
agents of the core (``naqala.core.agents`` resolves a seat's name).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import attrs

from naqala.core.actions import Action
from naqala.core.agents import Agent, RandomAgent, SeatError, canonical_seat, seat_agent
from naqala.core.engine import Rules
from naqala.core.record import GameRecord, RecordError
from naqala.core.simulate import agent_seed
from naqala.core.state import State

__all__ = [
    "UndoRefused",
    "ai_move",
    "drew_since",
    "replay_draws",
    "seat_agents",
    "undo_point",
    "with_canonical_seats",
]


def with_canonical_seats(rules: Rules, record: GameRecord, source: str) -> GameRecord:
    """``record`` with its seats in canonical form for its ``rules`` (whose plugins may
    add players); ``RecordError`` naming ``source`` and the seat's path if one names no
    player of the rules or a setting its player refuses (a budget beyond the bound)."""
    canonical = []
    for index, seat in enumerate(record.seats):
        try:
            canonical.append(canonical_seat(rules, seat))
        except SeatError as exc:
            raise RecordError(f"{source}: $.seats[{index}]: {exc}") from None
    return attrs.evolve(record, seats=tuple(canonical))


def seat_agents(rules: Rules, record: GameRecord) -> list[Agent | None]:
    """A fresh agent for every AI seat of ``record`` (None for a person), each seeded from
    the game's seed and its seat, so the same game seats the same players everywhere."""
    return [
        seat_agent(rules, seat, agent_seed(record.seed, index))
        for index, seat in enumerate(record.seats)
    ]


def replay_draws(rules: Rules, agents: Sequence[Agent | None], history: Sequence[State]) -> None:
    """Let each random AI make again the draws it made at the decisions of ``history``,
    so a resumed or undone game goes on exactly as the uninterrupted one would have (the
    greedy AI has no chance in it and needs nothing)."""
    for past in history:
        agent = None if past.is_over else agents[past.decision.player]
        if isinstance(agent, RandomAgent):
            agent.choose(rules, past, rules.legal_actions(past))


def ai_move(rules: Rules, state: State, agent: Agent) -> Action:
    """An AI's turn: what ``agent`` chooses among the legal options of ``state`` (the
    front end applies it, and may run this away from its event loop: it can search)."""
    return agent.choose(rules, state, rules.legal_actions(state))


def drew_since(before: State, after: State) -> bool:
    """True if chance revealed something between two states: the generator advanced (a
    shuffle, meeples drawn from the bag) or a card left a draw pile (the piles are shuffled
    at setup, so drawing from them does not advance the generator)."""
    return before.rng != after.rng or any(
        old.draw != new.draw for old, new in zip(before.decks, after.decks, strict=True)
    )


class UndoRefused(Exception):
    """An undo the policy does not allow; ``reason`` says why in one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def undo_point(
    earlier: Sequence[State], now: State, seat: int, people: Collection[int] = ()
) -> int:
    """The index in ``earlier`` (the decisions before ``now``, oldest first) of ``seat``'s
    previous decision, the one an undo goes back to. Refused when there is none, when
    chance revealed something since (no one may take back a decision to draw again), and
    when one of the other ``people`` decided since (their decision is not ours to undo)."""
    mine = [index for index, state in enumerate(earlier) if state.decision.player == seat]
    if not mine:
        raise UndoRefused("nothing to undo: this is your first decision")
    target = mine[-1]
    if drew_since(earlier[target], now):
        raise UndoRefused("cannot undo: cards or meeples were drawn since your previous decision")
    others = set(people) - {seat}
    if any(state.decision.player in others for state in earlier[target + 1 :]):
        raise UndoRefused("cannot undo: another person has decided since your previous decision")
    return target
