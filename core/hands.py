"""The cards a player holds, one hand per deck, read and written in one place.

Code that treats every deck alike (views, determinization) goes through these functions:
they keep each deck's order policy (``[[deck]] order``: sorted, or in the order taken), so
a hand dealt again reads as one the rules themselves would have built.
"""

from __future__ import annotations

from naqala.core.content import RESOURCES
from naqala.core.engine import Rules
from naqala.core.state import PlayerState


def deck_of(rules: Rules, card: str) -> int:
    """The index of the deck ``card`` belongs to (resources for an unknown id)."""
    spec = rules.card_specs.get(card)
    return rules.deck_index[RESOURCES if spec is None else spec.deck]


def hand(rules: Rules, player: PlayerState, deck: int) -> tuple[str, ...]:
    """The cards of deck ``deck`` in ``player``'s hand."""
    return player.hand(deck)


def with_hand(rules: Rules, player: PlayerState, deck: int, cards: tuple[str, ...]) -> PlayerState:
    """``player`` holding exactly ``cards`` of deck ``deck``, in the deck's order."""
    if rules.deck_specs[deck].order == "sorted":
        cards = tuple(sorted(cards))
    return player.with_hand(deck, cards)
