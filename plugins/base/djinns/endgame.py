"""Djinns that change final scoring; each adds a score line naming itself."""

from __future__ import annotations

import re
from collections.abc import Iterable

from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.powers import Power
from naqala.core.state import State
from naqala.plugins.base.common import FAKIR, owned_tiles
from naqala.plugins.base.merchandise import best_suits, merchandise_types, suit_value

#: a better count's printed text: "worth 4 VP each instead of 2"
PRINTED_BONUS = re.compile(r"worth (?P<value>\d+) VP.*? instead of (?P<base>\d+)")


class BetterCount(Power):
    """Haurvatat, Jafaar, Shamhat: one kind of holding is worth more per piece."""

    when = "at final scoring"

    def __init__(self, category: str, param: str, base_value: str, what: str) -> None:
        self.category = category
        self.param = param
        self.base_value = base_value  # settings key, or "token:<id>"
        self.what = what

    def describe(self, rules: Rules, card: CardSpec) -> str:
        value = card.param(self.param)
        return f"Each of your {self.what} is worth {value} VP instead of {self._base(rules)}."

    def broken_promise(self, rules: Rules, card: CardSpec) -> str | None:
        """The text says how much more a piece is worth ("worth 4 VP each instead of
        2": 2 more); a setting or an override that changes the difference breaks it."""
        printed = PRINTED_BONUS.search(card.text)
        if printed is None:
            return None
        promised = int(printed["value"]) - int(printed["base"])
        value, base = card.param(self.param), self._base(rules)
        if value - base == promised:
            return None
        if value < base:
            now = f"a penalty of {base - value} VP"
        else:
            now = "nothing more" if value == base else f"{value - base} VP more"
        return (
            f"djinn {card.id!r}: its text promises each of your {self.what} "
            f"{promised} VP more ({card.text!r}), but these rules make it {now} "
            f"({value} instead of {base}): write params.{self.param} relative to what it "
            "improves on, or say so in the rule's description"
        )

    def _base(self, rules: Rules) -> int:
        if self.base_value.startswith("token:"):
            return rules.tokens[rules.token_index[self.base_value[6:]]].vp
        return rules.content.setting(self.base_value)

    def _count(self, rules: Rules, state: State, owner: int) -> int:
        if self.category == "palm-trees":
            palm = rules.token_index["palm-tree"]
            return sum(state.board.tokens[t][palm] for t in owned_tiles(state, owner))
        colour = rules.colour_index["yellow" if self.category == "viziers" else "white"]
        return state.players[owner].meeples[colour]

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        value = card.param(self.param)
        base = self._base(rules)
        count = self._count(rules, state, owner)
        return [
            ScoreLine(
                self.category,
                count * (value - base),
                card.id,
                f"{count} {self.what} worth {value} instead of {base}",
            )
        ]


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
