"""AI seats at the table whose decisions the kernel makes.

``naqala play`` keeps the game itself on the Python engine (the table shows it, takes it
back, saves it), but a greedy or ``mcts`` seat's decision is a whole search: there the
kernel pays. ``NativeSeat`` hands the state over, lets the kernel's player of the same
name, setting and seed decide, and returns the same action the Python player would have
chosen (the kernel's players are proven decision by decision equal,
tests/test_native_agents.py). A random seat stays a Python ``RandomAgent``: its choice
costs less than handing the state over, and its draws carry from decision to decision,
which a resumed or undone game replays (``core.session.replay_draws``).
"""

from __future__ import annotations

from collections.abc import Sequence

from naqala.core.actions import Action, format_action
from naqala.core.agents import HUMAN, Agent
from naqala.core.engine import Rules
from naqala.core.record import GameRecord
from naqala.core.session import seat_agents
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.kernel import native
from naqala.kernel.choice import AUTO, PYTHON, EngineChoice, choose
from naqala.kernel.plan import plugin_player
from naqala.kernel.support import native_rules

#: the players that stay Python at the table (see the module's docstring)
PYTHON_AT_THE_TABLE = ("random",)


class NativeSeat:
    """An AI seat played by the kernel's player ``name`` (``greedy``, ``mcts:200``)."""

    def __init__(self, rules: Rules, name: str, seed: int) -> None:
        self.name = name
        self._bridge = native_rules(rules)
        self._player = native().NativePlayer(name, seed)

    def choose(self, rules: Rules, state: State, options: Sequence[Action]) -> Action:
        handed = self._bridge.to_native(state)
        notation = handed.legal_actions()[self._player.choose(handed)]
        for action in options:
            if format_action(action) == notation:
                return action
        raise RuntimeError(  # the harness proves the lists equal: this is a kernel bug
            f"the native player {self.name!r} chose {notation!r}, which the Python engine "
            "does not offer"
        )


def kernel_seats(seats: Sequence[str]) -> list[str]:
    """The players (as the kernel names them: ``greedy``, ``mcts:200``) of the AI seats
    of ``seats`` (canonical: ``human``, ``ai:greedy``) that the kernel would play."""
    names = [seat.removeprefix("ai:") for seat in seats if seat != HUMAN]
    return [name for name in names if name.partition(":")[0] not in PYTHON_AT_THE_TABLE]


def plugin_seats(rules: Rules, seats: Sequence[str]) -> set[str]:
    """The kernel names of the seats of ``seats`` whose player comes from a plugin: at the
    table, whose game is Python's, they stay Python agents (a study calls them back)."""
    names = kernel_seats(seats)
    return {name for name in names if plugin_player(rules, name) is not None}


def natively_seated(
    rules: Rules, seats: Sequence[str], seed: int, agents: Sequence[Agent | None]
) -> list[Agent | None]:
    """``agents`` (one per seat of a game of ``seed``, None for a person) with each seat
    the kernel plays replaced by its ``NativeSeat``, seeded as the Python player was
    (``agent_seed(seed, seat)``)."""
    chosen = set(kernel_seats(seats)) - plugin_seats(rules, seats)
    seated: list[Agent | None] = []
    for index, (seat, agent) in enumerate(zip(seats, agents, strict=True)):
        name = seat.removeprefix("ai:")
        if agent is not None and name in chosen:
            seated.append(NativeSeat(rules, name, agent_seed(seed, index)))
        else:
            seated.append(agent)
    return seated


def table_engine(rules: Rules, seats: Sequence[str], requested: str) -> EngineChoice:
    """The engine of a table's AI seats ``seats`` (canonical: ``human``, ``ai:greedy``)
    when ``requested`` (``auto``, ``native`` or ``python``) was asked for. The table's
    game itself stays on the Python engine (it is shown, taken back and saved there); on
    native the kernel makes the greedy and ``mcts`` seats' decisions, the same ones. Auto
    with no seat the kernel would play has nothing to decide and says nothing.
    ``EngineError`` when native was asked for and cannot play them."""
    names = [name for name in kernel_seats(seats) if name not in plugin_seats(rules, seats)]
    if requested == PYTHON or (requested == AUTO and not names):
        return EngineChoice(PYTHON)
    return choose(rules, requested, names, len(seats))


def table_agents(rules: Rules, record: GameRecord, engine: str) -> list[Agent | None]:
    """The AI seats' players of a table's game of ``record`` on ``engine`` (``native``
    or ``python``, as ``table_engine`` chose it), None for a person."""
    agents = seat_agents(rules, record)
    if engine == PYTHON:
        return agents
    return natively_seated(rules, record.seats, record.seed, agents)
