"""AI seats at the table whose decisions the kernel makes.

``naqala play`` keeps the game itself on the Python engine (the table shows it, takes it
back, saves it), but a greedy or ``mcts`` seat's decision is a whole search: there the
kernel pays. ``NativeSeat`` lets the kernel's player of the same name, setting and seed
decide on the native state its ``NativeTable`` keeps beside the Python one (told each
action the table applies, ``follow_play``; handed over as JSON only when it lost track),
and returns the same action the Python player would have chosen (the kernel's players are
proven decision by decision equal, tests/test_native_agents.py). A random seat stays a
Python ``RandomAgent``: its choice costs less than the kernel's, and its draws carry from
decision to decision, which a resumed or undone game replays (``core.session.replay_draws``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from naqala.core.actions import Action, format_action
from naqala.core.agents import HUMAN, Agent
from naqala.core.engine import Rules
from naqala.core.record import GameRecord
from naqala.core.session import seat_agents
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.native import native
from naqala.native.choice import AUTO, PYTHON, EngineChoice, choose
from naqala.native.plan import plugin_player
from naqala.native.profiles import kernel_seat
from naqala.native.support import native_rules

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.native._native import NativeState

#: the players that stay Python at the table (see the module's docstring)
PYTHON_AT_THE_TABLE = ("random",)


class NativeTable:
    """The table's game kept natively beside its Python one, for its native seats.

    The table tells it every action it applies (``follow``), and it applies the same
    action to its native state, so a native seat finds the state it must decide on
    already in the kernel. A state it did not follow (the first decision, after an undo,
    a resumed game) is handed over once through state JSON, and followed from there.
    """

    def __init__(self, rules: Rules) -> None:
        self._bridge = native_rules(rules)
        self._python: State | None = None
        self._native: NativeState | None = None
        #: how many states were handed over as JSON (the rest were followed natively)
        self.handovers = 0

    def native(self, state: State) -> NativeState:
        """The native state of ``state``: the one followed to it, else handed over."""
        if state is not self._python or self._native is None:
            self._native = self._bridge.to_native(state)
            self._python = state
            self.handovers += 1
        return self._native

    def follow(self, before: State, action: Action, after: State) -> None:
        """The table applied ``action`` to ``before`` and got ``after``: the native state
        takes the same step if it stood at ``before`` (the engines are proven to play one
        game), and is forgotten otherwise, to be handed over when a seat next asks."""
        followed = None
        if before is self._python and self._native is not None:
            try:
                followed = self._native.apply(format_action(action))
            except (ValueError, NotImplementedError):
                followed = None  # a kernel bug or a gap: the next seat hands the state over
        self._python = after if followed is not None else None
        self._native = followed


class NativeSeat:
    """An AI seat played by the kernel's player ``name`` (``greedy``, ``mcts:200``)."""

    def __init__(
        self, rules: Rules, name: str, seed: int, table: NativeTable | None = None
    ) -> None:
        """``table``: the native game the table keeps for its native seats (one of its
        own when none is shared)."""
        self.name = name
        self.table = table if table is not None else NativeTable(rules)
        self._player = native().NativePlayer(kernel_seat(rules, name), seed)

    def choose(self, rules: Rules, state: State, options: Sequence[Action]) -> Action:
        """The kernel player's choice. ``options`` are ``rules.legal_actions(state)``,
        which the kernel lists in the same order (the differential harness proves it), so
        its index names the action; a list of another length is a kernel bug."""
        handed = self.table.native(state)
        index: int = self._player.choose(handed)
        if not 0 <= index < len(options):
            raise RuntimeError(
                f"the native player {self.name!r} chose option {index} of "
                f"{len(options)}: the engines' legal actions differ"
            )
        return options[index]


def follow_play(
    agents: Sequence[Agent | None], before: State, action: Action, after: State
) -> None:
    """Tell the native game of a table's seats ``agents`` (if any) the action the table
    applied, so its native seats need no handover at their next decision."""
    tables = {id(a.table): a.table for a in agents if isinstance(a, NativeSeat)}
    for table in tables.values():
        table.follow(before, action, after)


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
    table = NativeTable(rules) if chosen else None
    seated: list[Agent | None] = []
    for index, (seat, agent) in enumerate(zip(seats, agents, strict=True)):
        name = seat.removeprefix("ai:")
        if agent is not None and name in chosen:
            seated.append(NativeSeat(rules, name, agent_seed(seed, index), table))
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
