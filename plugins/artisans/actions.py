"""The artisans' tribe action and the two new tile actions."""

from __future__ import annotations

from naqala.core.actions import Action, action_of
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import State, evolve
from naqala.plugins.artisans.items import draw_items, give_items, items_left
from naqala.plugins.base.api import (
    FAKIR,
    SKIP,
    WHOLE_ROW,
    Market,
    change_kept,
    current,
    discard_cards,
    fakirs_held,
    keep_meeples,
    kept,
)

ARTISAN = "purple"


class Artisans(Stage):
    """Keep the artisans; reveal as many items as artisans collected and keep one (the
    ``keep-item`` decision); the others go face up to the discard pile."""

    def enter(self, rules: Rules, state: State) -> State:
        turn = state.turn
        assert turn is not None
        player = current(state)
        state = keep_meeples(state, player, turn.colour, turn.taken)
        state, drawn = draw_items(rules, state, turn.taken)
        if not drawn:
            return rules.proceed(state, self.name)
        turn = state.turn
        assert turn is not None
        return rules.call(evolve(state, turn=evolve(turn, revealed=drawn)), "keep-item", self.name)


class Workshop(Stage):
    """Pay 1 artisan (``workshop P``) or 2 Fakirs (``workshop FF``) to take the top item;
    or ``skip``."""

    def _payments(self, rules: Rules, state: State) -> list[str]:
        player = current(state)
        setting = rules.content.setting
        ways = []
        if kept(state, player, rules.colour_index[ARTISAN]) >= setting("workshop_artisans"):
            ways.append("P" * setting("workshop_artisans"))
        if fakirs_held(state, player) >= setting("workshop_fakirs"):
            ways.append("F" * setting("workshop_fakirs"))
        return ways

    def enter(self, rules: Rules, state: State) -> State:
        if not items_left(rules, state) or not self._payments(rules, state):
            return rules.proceed(state, self.name)
        return super().enter(rules, state)

    def title(self, rules: Rules, state: State) -> str:
        return self.summary(rules)

    def summary(self, rules: Rules) -> str:
        setting = rules.content.setting
        return (
            f"Workshop: take the top item for {setting('workshop_artisans')} artisan(s) "
            f"or {setting('workshop_fakirs')} Fakirs"
        )

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "workshop":
            return None
        way = action.args[0]
        return f"{len(way)} {'artisan' if way.startswith('P') else 'Fakir'}(s)"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [SKIP, *(action_of("workshop", way) for way in self._payments(rules, state))]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action == SKIP:
            return rules.proceed(state, self.name)
        player = current(state)
        payment = action.args[0]
        if payment.startswith("P"):
            state = change_kept(state, player, rules.colour_index[ARTISAN], -len(payment))
        else:
            state = discard_cards(state, player, (FAKIR,) * len(payment))
        state, drawn = draw_items(rules, state, 1)
        return rules.proceed(give_items(rules, state, player, drawn), self.name)


class SpecializedMarket(Market):
    """Pay ``specialized_market_cost`` coins (4) to take any one face-up resource card:
    ``buy <card>``, or ``skip``. A market whose reach is the whole row, so it buys, and
    skips when its buyer lost coins since entering, as the base game's markets do."""

    def __init__(self) -> None:
        super().__init__("specialized")

    def numbers(self, rules: Rules) -> tuple[int, int, int]:
        return rules.content.setting("specialized_market_cost"), WHOLE_ROW, 1

    def summary(self, rules: Rules) -> str:
        cost = rules.content.setting("specialized_market_cost")
        return f"Specialized market: buy any one face-up resource card for {cost} coins"
