"""What a game's decisions say about its play: the coins paid for turn order, the turn
order of every round, and the decision load of every seat (``PlayStats``).

Both engines record the same decisions: a Python game through ``TimedAgent`` (each seat's
agent wrapped, its choices timed), a native one inside the kernel's game loop
(``kernel/src/stats.rs``, handed back by ``NativeState.play``). A decision is its round,
seat, stage, number of legal options, the coins the seat paid at a ``bid`` stage, the
player whose turn it is (-1 while bidding) and the seconds the player took; ``play_stats``
sums them the same way for either, so everything but the time is equal game for game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs

from naqala.core.actions import Action
from naqala.core.agents import Agent
from naqala.core.engine import Rules
from naqala.core.state import State

#: one decision: (round, seat, stage, options, coins paid, turn's player or -1, seconds)
Decision = tuple[int, int, str, int, int, int, float]

#: the stage whose coins are paid for turn order
BID = "bid"


@attrs.frozen
class PlayStats:
    """What the decisions of one game add up to. ``turn_order``: by round, the players in
    the order of their turns; ``turn_paid``: by round, the coins each player paid for its
    place; ``options``: by seat, the number of legal options at each of its decisions, by
    stage (the branching factor); ``seconds``: by seat, the time its AI took in all (it
    differs between engines and runs, so it is not part of equality)."""

    turn_order: tuple[tuple[int, ...], ...]
    turn_paid: tuple[tuple[int, ...], ...]
    options: tuple[dict[str, tuple[int, ...]], ...]
    seconds: tuple[float, ...] = attrs.field(eq=False)

    @property
    def paid(self) -> tuple[int, ...]:
        """The coins each player paid for turn order over the game."""
        return tuple(sum(column) for column in zip(*self.turn_paid, strict=True))

    @property
    def paid_by_position(self) -> tuple[int, ...]:
        """The coins paid for each turn position (first, second, …) over the game."""
        players = len(self.options)
        totals = [0] * players
        for order, paid in zip(self.turn_order, self.turn_paid, strict=True):
            for position, who in enumerate(order):
                totals[position] += paid[who]
        return tuple(totals)

    @property
    def decisions(self) -> tuple[int, ...]:
        """The number of decisions each seat took."""
        return tuple(sum(len(counts) for counts in seat.values()) for seat in self.options)


def play_stats(decisions: Sequence[Decision], players: int, rounds: int) -> PlayStats:
    """The ``PlayStats`` of a game of ``players`` that lasted ``rounds`` rounds, from its
    decisions in order. A player who had no decision in a round's turns (a turn with no
    legal move) follows the others, by seat."""
    firsts: list[list[int]] = [[] for _ in range(rounds)]
    paid = [[0] * players for _ in range(rounds)]
    options: list[dict[str, list[int]]] = [{} for _ in range(players)]
    seconds = [0.0] * players
    for round_, seat, stage, count, coins, turn, spent in decisions:
        if not (1 <= round_ <= rounds and 0 <= seat < players):
            continue  # no decision of a game this long: nothing to count
        if stage == BID:
            paid[round_ - 1][seat] += coins
        if 0 <= turn < players and turn not in firsts[round_ - 1]:
            firsts[round_ - 1].append(turn)
        options[seat].setdefault(stage, []).append(count)
        seconds[seat] += spent
    orders = tuple((*order, *(p for p in range(players) if p not in order)) for order in firsts)
    return PlayStats(
        turn_order=orders,
        turn_paid=tuple(tuple(row) for row in paid),
        options=tuple(
            {stage: tuple(counts) for stage, counts in sorted(seat.items())} for seat in options
        ),
        seconds=tuple(seconds),
    )


class DecisionLog:
    """The decisions of a Python game as its agents take them (``TimedAgent``): a bid's
    coins are known at the next decision, or at the end (``close``)."""

    def __init__(self) -> None:
        self.decisions: list[Decision] = []
        self._bid: tuple[int, int] | None = None  # (index, coins before) of a bid

    def _settle(self, state: State) -> None:
        if self._bid is not None:
            index, before = self._bid
            round_, seat, stage, count, _, turn, spent = self.decisions[index]
            paid = before - state.players[seat].coins
            self.decisions[index] = (round_, seat, stage, count, paid, turn, spent)
            self._bid = None

    def note(self, state: State, options: int, seconds: float) -> None:
        """The decision taken at ``state`` among ``options`` options in ``seconds``."""
        self._settle(state)
        seat = state.decision.player
        stage = state.decision.stage
        turn = -1 if state.turn is None else state.markers[state.turn.marker]
        if stage == BID:
            self._bid = (len(self.decisions), state.players[seat].coins)
        self.decisions.append((state.round, seat, stage, options, 0, turn, seconds))

    def close(self, final: State) -> list[Decision]:
        """The decisions of the game that ended in ``final``."""
        self._settle(final)
        return self.decisions


class TimedAgent:
    """An agent whose every choice is noted in ``log`` with the time it took."""

    def __init__(self, agent: Agent, log: DecisionLog) -> None:
        self.agent = agent
        self.log = log

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        started = time.perf_counter()
        action = self.agent.choose(rules, state, options)
        self.log.note(state, len(options), time.perf_counter() - started)
        return action


def stats_fields(stats: PlayStats | None) -> dict[str, Any]:
    """The row fields of ``stats`` (``None`` for each when a row has none)."""
    if stats is None:
        return dict.fromkeys(STATS_FIELDS)
    return {
        "turn_order": [list(order) for order in stats.turn_order],
        "turn_paid": [list(paid) for paid in stats.turn_paid],
        "paid": list(stats.paid),
        "paid_by_position": list(stats.paid_by_position),
        "decisions": list(stats.decisions),
        "options": [{stage: list(c) for stage, c in seat.items()} for seat in stats.options],
        "ai_seconds": [round(s, 6) for s in stats.seconds],
    }


#: the row fields of ``PlayStats`` (rows of version 1 have none of them)
STATS_FIELDS = (
    "turn_order",
    "turn_paid",
    "paid",
    "paid_by_position",
    "decisions",
    "options",
    "ai_seconds",
)


def stats_of_row(row: dict[str, Any]) -> PlayStats | None:
    """The ``PlayStats`` a row holds (None for a row written before them)."""
    if row.get("turn_order") is None:
        return None
    return PlayStats(
        turn_order=tuple(tuple(o) for o in row["turn_order"]),
        turn_paid=tuple(tuple(p) for p in row["turn_paid"]),
        options=tuple({k: tuple(v) for k, v in seat.items()} for seat in row["options"]),
        seconds=tuple(float(s) for s in row["ai_seconds"]),
    )


def stats_problem(row: dict[str, Any], players: int, rounds: int) -> str:
    """What makes a row's play fields wrong ('' when right or absent)."""
    if row.get("turn_order") is None:
        return ""
    orders, paid = row.get("turn_order"), row.get("turn_paid")
    if not isinstance(orders, list) or not isinstance(paid, list):
        return "turn_order and turn_paid must be lists by round"
    if len(orders) != rounds or len(paid) != rounds:
        return f"turn_order and turn_paid need one entry per round ({rounds})"
    for order, coins in zip(orders, paid, strict=True):
        if not isinstance(order, list) or sorted(order) != list(range(players)):
            return "a round's turn_order must list every player once"
        if not isinstance(coins, list) or len(coins) != players:
            return f"a round's turn_paid must give {players} players' coins"
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in coins):
            return "turn_paid must hold whole numbers of coins"
    options, seconds = row.get("options"), row.get("ai_seconds")
    if not isinstance(options, list) or len(options) != players:
        return f"options must be one object per seat ({players})"
    for seat in options:
        if not isinstance(seat, dict) or not all(
            isinstance(v, list) and all(isinstance(n, int) and n >= 1 for n in v)
            for v in seat.values()
        ):
            return "options must map each stage to option counts ≥ 1"
    if not isinstance(seconds, list) or len(seconds) != players:
        return f"ai_seconds must give {players} seats' seconds"
    if not all(isinstance(s, int | float) and s >= 0 for s in seconds):
        return "ai_seconds must be numbers ≥ 0"
    return ""
