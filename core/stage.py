"""Stages: the units of game flow, each owning one kind of decision.

A plugin describes its flow as named stages. A stage is entered (it does its automatic work,
then either waits for a decision or hands on to the next stage), offers legal actions while
it waits, and applies the action chosen. Tribe actions and tile actions are stages too,
named ``tribe:<colour>`` and ``tile:<kind>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from naqala.core.actions import Action
from naqala.core.state import Decision, State, evolve

if TYPE_CHECKING:
    from naqala.core.engine import Rules


class Stage:
    """Base class for a stage. Subclasses override what they need."""

    #: set when the stage is registered (``tribe:red``, ``bid``…)
    name: str = ""
    #: whether the decision belongs to a turn in progress (``state.turn`` set, decided by
    #: the turn's owner); a state that says otherwise is refused when loaded
    in_turn: bool = True
    #: whether the turn's owner makes this decision; False for a step of the turn that
    #: another player decides (an opponent choosing what to give up to a thief), so a
    #: state waiting at it with another player deciding is sound
    owner_decides: bool = True

    def enter(self, rules: Rules, state: State) -> State:
        """Do the automatic part; by default wait for the current player to decide."""
        if state.decision.stage == self.name:
            return state  # already waiting here: keep the very object (cached options)
        return evolve(state, decision=Decision(self.name, state.decision.player))

    def legal(self, rules: Rules, state: State) -> list[Action]:
        """The options of this stage's decision (order does not matter; the engine sorts)."""
        return []

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        """The state after ``action`` (already known to be legal)."""
        raise NotImplementedError(f"stage {self.name} takes no actions")

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        """Why ``action`` is not legal here, if the stage can say more than the engine."""
        return None

    def title(self, rules: Rules, state: State) -> str | None:
        """The decision in plain words for people at the table (``Builders: discard
        Fakirs?``, ``Small market: buy one card for 3 coins``); None shows the stage's
        name instead."""
        return None

    def summary(self, rules: Rules) -> str | None:
        """What the stage does, said with no game under way, for a page's list of what
        each tile does (``Oasis: place a palm tree``); None says nothing. A tile action
        whose title needs no state gives its title here."""
        return None

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        """A few words shown after one of this stage's options when it is listed for
        people, such as what it costs (``3 coins``, ``2 elders``); None for nothing."""
        return None

    def __repr__(self) -> str:
        return f"<stage {self.name}>"


class Flow:
    """The order of play. ``proceed`` is called by every stage when it has finished."""

    def start(self, rules: Rules, state: State) -> State:
        """Enter the first decision of a freshly set-up game."""
        raise NotImplementedError

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        """Enter whatever follows stage ``finished`` and return the state that waits."""
        raise NotImplementedError


class WrappedFlow(Flow):
    """A flow that changes another one: it hands everything it does not change on to
    ``inner``. What a flow wrapper (``hookimpl(wrapper=True)`` on ``naqala_flow``) returns,
    so that several variants each splice their own step into the same game."""

    def __init__(self, inner: Flow) -> None:
        self.inner = inner

    def start(self, rules: Rules, state: State) -> State:
        return self.inner.start(rules, state)

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        return self.inner.proceed(rules, state, finished)
