"""Djinns that change final scoring; each adds a score line naming itself."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.powers import Power
from naqala.core.state import State
from naqala.plugins.base.common import FAKIR
from naqala.plugins.base.merchandise import best_suits, merchandise_types, suit_value


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
        alone[n] = max(value(k) + alone[n - k] for k in range(1, min(n, types) + 1))
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


class AlAmin(Power):
    when = "at final scoring"
    effect = (
        "Every {fakirs_per_wild} Fakirs you hold count as one merchandise of any type you "
        "choose, in your final suits."
    )

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        cards = state.players[owner].cards
        wilds = cards.count(FAKIR) // card.param("fakirs_per_wild")
        kinds = merchandise_types(rules)
        goods = [c for c in cards if c in kinds]
        plain = sum(suit_value(rules, n) for n in best_suits(goods))
        gain = best_with_wilds(rules, goods, wilds) - plain
        return [ScoreLine("merchandise", gain, card.id, f"{wilds} pairs of Fakirs as wild goods")]
