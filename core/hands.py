"""The cards a player holds, one hand per deck, read and written in one place.

Resource cards live in ``PlayerState.cards``, djinns in ``PlayerState.djinns`` and cards
of plugin decks (items, whims) in ``PlayerState.held``. Code that treats every deck alike
(views, determinization) goes through these functions, so a change in how hands are
stored touches only this module.
"""

from __future__ import annotations

from naqala.core.engine import DJINNS, RESOURCES, Rules
from naqala.core.state import PlayerState, evolve


def deck_of(rules: Rules, card: str) -> int:
    """The index of the deck ``card`` belongs to."""
    if card in rules.djinn_specs:
        return DJINNS
    spec = rules.card_specs.get(card)
    if spec is not None:
        return rules.deck_index[spec.deck]
    return RESOURCES


def hand(rules: Rules, player: PlayerState, deck: int) -> tuple[str, ...]:
    """The cards of deck ``deck`` in ``player``'s hand (resources and held cards sorted,
    djinns in the order taken)."""
    if deck == RESOURCES:
        return player.cards
    if deck == DJINNS:
        return player.djinns
    name = rules.deck_names[deck]
    return tuple(c for c in player.held if rules.card_specs[c].deck == name)


def with_hand(rules: Rules, player: PlayerState, deck: int, cards: tuple[str, ...]) -> PlayerState:
    """``player`` holding exactly ``cards`` of deck ``deck``."""
    if deck == RESOURCES:
        return evolve(player, cards=tuple(sorted(cards)))
    if deck == DJINNS:
        return evolve(player, djinns=cards)
    name = rules.deck_names[deck]
    others = tuple(c for c in player.held if rules.card_specs[c].deck != name)
    return evolve(player, held=tuple(sorted((*others, *cards))))
