"""Where a thief may be used: right after its owner's tribe action of its colour, a step
(``thief``) spliced into whatever flow is in use (a wrapper, so other variants that
change the turn combine with it)."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.stage import WrappedFlow
from naqala.core.state import Decision, State, evolve, turn_owner
from naqala.plugins.thieves.steal import OFFERED, STEP, mark


def usable_thieves(rules: Rules, state: State) -> bool:
    """Whether the turn's owner, deciding at the thief step, could use a thief there."""
    index = rules.deck_index.get("thieves")
    if index is None or state.turn is None:
        return False
    owner = turn_owner(state)
    probe = evolve(state, decision=Decision(STEP, owner))
    specs = rules.card_specs
    for card_id in dict.fromkeys(state.players[owner].hand(index)):
        card = specs[card_id]
        power = rules.power_of(card)
        if power is not None and any(True for _ in power.options(rules, probe, owner, card)):
            return True
    return False


class ThiefFlow(WrappedFlow):
    """After a tribe action (once a turn), offer the thief step when a thief can be used."""

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        turn = state.turn
        if finished.startswith("tribe:") and turn is not None and OFFERED not in turn.used:
            state = evolve(state, turn=mark(turn, OFFERED))
            if usable_thieves(rules, state):
                owner = turn_owner(state)
                state = evolve(state, decision=Decision(state.decision.stage, owner))
                return rules.call(state, STEP, finished)
        return self.inner.proceed(rules, state, finished)
