"""Merchandise suits: selling them during the game (rulebook 2.6) and scoring them.

A suit is a set of all-different merchandise cards (Fakirs never count); its value comes
from the ``suit_values`` table (1, 3, 7, 13, 21, 30, 40, 50, 60), in coins when sold and
in VP at the end.
"""

from __future__ import annotations

import itertools
import weakref
from collections import Counter
from collections.abc import Iterable

from naqala.core.actions import Action, action_of
from naqala.core.content import RESOURCES
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.plugins.base import events
from naqala.plugins.base.common import current, discard_cards, gain_coins

END = Action("end")


def merchandise_types(rules: Rules) -> frozenset[str]:
    """The ids of the merchandise cards (remembered per rules and content: every sale
    decision asks)."""
    known = _TYPES.get(rules)
    if known is None or known[0] is not rules.content:
        types = frozenset(c.id for c in rules.content.deck("resources") if c.kind == "merchandise")
        known = _TYPES[rules] = (rules.content, types)
    return known[1]


_TYPES: weakref.WeakKeyDictionary[Rules, tuple[object, frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)


def suit_value(rules: Rules, size: int) -> int:
    if size == 0:
        return 0
    return rules.content.table("suit_values")[size - 1]


def best_suits(cards: Iterable[str]) -> list[int]:
    """Sizes of the suits that score most: take one of every type held, again and again.

    The value table rises by ever larger (never smaller) steps, so making each suit as large
    as possible is optimal."""
    left = Counter(cards)
    sizes = []
    while left:
        sizes.append(len(left))
        left = Counter({card: n - 1 for card, n in left.items() if n > 1})
    return sizes


def best_with_wilds(rules: Rules, cards: Iterable[str], wilds: int) -> int:
    """The best merchandise score when ``wilds`` jokers may stand for any merchandise.

    The largest-possible suits of the real cards are kept, and every way of adding the
    jokers to them (or making suits of jokers alone) is tried by dynamic programming."""
    types = len(merchandise_types(rules))
    suits = best_suits(cards)

    def value(size: int) -> int:
        return suit_value(rules, size)

    # wild-only suits: best split of n jokers into suits of at most `types` cards
    alone = [0] * (wilds + 1)
    for n in range(1, wilds + 1):
        alone[n] = max((value(k) + alone[n - k] for k in range(1, min(n, types) + 1)), default=0)
    # best[w]: the suits seen so far with w jokers spent on them
    best = [0] + [-1] * wilds
    for size in suits:
        nxt = [-1] * (wilds + 1)
        for used, score in enumerate(best):
            if score < 0:
                continue
            for extra in range(0, min(types - size, wilds - used) + 1):
                total = score + value(size + extra)
                if total > nxt[used + extra]:
                    nxt[used + extra] = total
        best = nxt
    return max(score + alone[wilds - used] for used, score in enumerate(best) if score >= 0)


class SellStage(Stage):
    """After the tile action: ``sell <card>+<card>…`` sells one all-different suit for
    coins (repeat for more suits), ``end`` ends the turn."""

    def title(self, rules: Rules, state: State) -> str:
        return "Sell a set of different merchandise, or end your turn"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        kinds = merchandise_types(rules)
        held = sorted({c for c in state.players[current(state)].cards if c in kinds})
        options = [END]
        for size in range(1, len(held) + 1):
            options.extend(
                action_of("sell", "+".join(suit)) for suit in itertools.combinations(held, size)
            )
        return options

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action == END:
            return rules.proceed(state, self.name)
        suit = tuple(action.args[0].split("+"))
        player = current(state)
        state = discard_cards(state, player, suit)
        value = suit_value(rules, len(suit))
        state = gain_coins(state, player, value)
        return rules.fire(state, Event(events.SOLD, player, count=value))


__all__ = ["RESOURCES", "SellStage", "best_suits", "suit_value"]
