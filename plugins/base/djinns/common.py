"""What djinn powers share: drawing a resource card, the usual triggered payout."""

from __future__ import annotations

from naqala.core.content import RESOURCES, CardSpec
from naqala.core.engine import Rules
from naqala.core.state import State, count_effect
from naqala.plugins.base.common import add_cards, draw_cards, gain_coins


def draw_resource(rules: Rules, state: State, player: int) -> tuple[State, bool]:
    """``player`` takes the top card of the resource pile (reshuffling the discards if the
    pile is empty); False if there is no card at all."""
    state, drawn = draw_cards(state, rules.deck_index[RESOURCES], 1)
    return add_cards(state, player, drawn), bool(drawn)


def pays_self_or_opponent(
    rules: Rules, state: State, owner: int, card: CardSpec, actor: int
) -> State:
    """The usual triggered payout: ``params.self`` coins when the owner caused the event,
    ``params.opponent`` when somebody else did."""
    amount = card.param("self") if actor == owner else card.param("opponent")
    return count_effect(gain_coins(state, owner, amount), card.id)
