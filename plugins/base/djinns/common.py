"""What djinn powers share: who may use a power now, paying its cost, counting effects."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import DjinnSpec
from naqala.core.engine import RESOURCES, Rules
from naqala.core.powers import Power
from naqala.core.state import State, Turn, count_effect, evolve
from naqala.plugins.base.common import (
    add_cards,
    draw_cards,
    fakirs_held,
    gain_coins,
    kept,
)
from naqala.plugins.base.tiles import pay_elders_fakirs
from naqala.plugins.base.tribes import ELDER

#: payments a cost code allows, in the order offered (see content/base.toml)
COST_PAYMENTS = {
    "": ("",),
    "E/F": ("E", "F"),
    "E+(E/F)": ("EE", "EF"),
    "F": ("F",),
}


def spec(rules: Rules, card: str) -> DjinnSpec:
    return rules.djinn_specs[card]


def can_pay(rules: Rules, state: State, player: int, payment: str) -> bool:
    elders = kept(state, player, rules.colour_index[ELDER])
    return elders >= payment.count("E") and fakirs_held(state, player) >= payment.count("F")


def payments(rules: Rules, state: State, player: int, card: str) -> list[str]:
    """The ways ``player`` can pay ``card``'s cost now (empty if they cannot)."""
    cost = spec(rules, card).cost
    return [p for p in COST_PAYMENTS[cost] if can_pay(rules, state, player, p)]


def own_turn(state: State, player: int) -> Turn | None:
    """The turn in progress if it is ``player``'s and they are deciding, outside any
    power's own decision; None otherwise."""
    turn = state.turn
    if (
        turn is None
        or turn.resume
        or turn.revealed  # cards are being chosen from: finish that first
        or state.decision.player != player
        or state.markers[turn.marker] != player
    ):
        return None
    return turn


def mark_used(state: State, card: str) -> State:
    turn = state.turn
    assert turn is not None
    return evolve(state, turn=evolve(turn, used=tuple(sorted((*turn.used, card)))))


def draw_resource(state: State, player: int) -> tuple[State, bool]:
    """``player`` takes the top card of the resource pile (reshuffling the discards if the
    pile is empty); False if there is no card at all."""
    state, drawn = draw_cards(state, RESOURCES, 1)
    return add_cards(state, player, drawn), bool(drawn)


class Activated(Power):
    """A power with a cost, used at most once per turn during the owner's own turn.

    Options are ``<card> [target…] <payment>``; ``stages`` limits the decisions where it
    is offered (None: every decision of the owner's turn)."""

    stages: frozenset[str] | None = None

    def targets(
        self, rules: Rules, state: State, owner: int, card: str
    ) -> Iterable[tuple[str, ...]]:
        """Argument tuples naming what the power acts on (``(tile,)``…); ``[()]`` if none."""
        return [()]

    def usable(self, rules: Rules, state: State, owner: int, card: str) -> bool:
        turn = own_turn(state, owner)
        return (
            turn is not None
            and card not in turn.used
            and (self.stages is None or state.decision.stage in self.stages)
        )

    def options(self, rules: Rules, state: State, owner: int, card: str) -> Iterable[Action]:
        if not self.usable(rules, state, owner, card):
            return ()
        ways = payments(rules, state, owner, card)
        if not ways:
            return ()
        return [
            Action(card, (*target, way) if way else target)
            for target in self.targets(rules, state, owner, card)
            for way in ways
        ]

    def apply(self, rules: Rules, state: State, owner: int, card: str, action: Action) -> State:
        target, payment = list(action.args), ""
        if spec(rules, card).cost:
            payment = target.pop()
        state = pay_elders_fakirs(rules, state, owner, payment)
        state = count_effect(mark_used(state, card), card)
        return self.act(rules, state, owner, card, tuple(target))

    def act(
        self, rules: Rules, state: State, owner: int, card: str, target: tuple[str, ...]
    ) -> State:
        """The effect, once paid for."""
        raise NotImplementedError


def pays_self_or_opponent(rules: Rules, state: State, owner: int, card: str, actor: int) -> State:
    """The usual triggered payout: ``params.self`` coins when the owner caused the event,
    ``params.opponent`` when somebody else did."""
    params = spec(rules, card)
    amount = params.param("self") if actor == owner else params.param("opponent")
    return count_effect(gain_coins(state, owner, amount), card)
