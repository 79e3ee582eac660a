"""The Thieves' djinn: its owner cannot be targeted by thieves (fact T15). The real card's
name, VP and cost were not found (T16); this one, Hafiz, is designed (content)."""

from __future__ import annotations

from naqala.core.content import DJINNS
from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.state import State


class Hafiz(Power):
    """Passive: a player holding it is no thief's victim."""

    when = "always (designed: the real djinn's numbers are unknown)"
    effect = "Thieves cannot target you."


def immune(rules: Rules, state: State, seat: int) -> bool:
    """Whether thieves cannot target ``seat`` (they hold a djinn with Hafiz's power)."""
    specs = rules.card_specs
    return any(
        isinstance(rules.power_of(specs[d]), Hafiz)
        for d in state.players[seat].hand(rules.deck_index[DJINNS])
    )
