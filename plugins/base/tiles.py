"""The five tile actions (rulebook 2.5), on the tile where the move ended.

Villages and oases are mandatory (skipped when the bank is out of palaces or palm trees);
markets and sacred places are optional: their decision always offers ``skip``.
"""

from __future__ import annotations

import itertools
import sys

from naqala.core.actions import Action, action_of
from naqala.core.content import DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.plugins.base import events
from naqala.plugins.base.common import (
    FAKIR,
    add_cards,
    change_kept,
    current,
    discard_cards,
    fakirs_held,
    gain_coins,
    give_cards,
    kept,
    place_token,
    take_from_row,
)
from naqala.plugins.base.costs import payment_words
from naqala.plugins.base.tribes import ELDER

SKIP = Action("skip")


def kind_title(stage_name: str) -> str:
    """``tile:small-market`` → ``Small market``."""
    return stage_name.rpartition(":")[2].replace("-", " ").capitalize()


def final_tile(state: State) -> int:
    assert state.turn is not None
    return state.turn.here


class PlaceToken(Stage):
    """Village (a palace) and oasis (a palm tree): mandatory, ignored if none is left.

    The token is placed at once unless some plugin offers an alternative at this point
    (a djinn that moves it to a neighbouring tile); then the player decides, and
    ``place <tile>`` puts it on the final tile."""

    def __init__(self, token: str) -> None:
        self.token = token

    def enter(self, rules: Rules, state: State) -> State:
        if state.pool[rules.token_index[self.token]] == 0:
            return rules.proceed(state, self.name)
        waiting = super().enter(rules, state)
        if any(
            True
            for group in rules.hook.naqala_extra_options(rules=rules, state=waiting)
            for _ in group
        ):
            return waiting
        return self.apply(rules, waiting, self.legal(rules, waiting)[0])

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [action_of("place", state.geometry.name(final_tile(state)))]

    def title(self, rules: Rules, state: State) -> str:
        return self.summary(rules)

    def summary(self, rules: Rules) -> str:
        token = rules.tokens[rules.token_index[self.token]].name.lower()
        return f"{kind_title(self.name)}: place a {token}"

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        state = place_token(rules, state, current(state), self.token, final_tile(state))
        return rules.proceed(state, self.name)


#: a market's reach when it is the whole row, however long (the Artisans' specialized
#: market)
WHOLE_ROW = sys.maxsize


class Market(Stage):
    """Pay ``cost`` coins to take ``take`` cards of your choice among the first ``reach``
    of the resource row: ``buy <card>[+<card>]``, or ``skip``. With fewer cards left you
    take what there is and still pay in full."""

    def __init__(self, size: str) -> None:
        self.size = size

    def numbers(self, rules: Rules) -> tuple[int, int, int]:
        """Its cost, how far into the row it reaches and how many cards it takes."""
        s = rules.content.setting
        return (
            s(f"{self.size}_market_cost"),
            s(f"{self.size}_market_reach"),
            s(f"{self.size}_market_take"),
        )

    def enter(self, rules: Rules, state: State) -> State:
        cost, _, _ = self.numbers(rules)
        if state.players[current(state)].coins < cost or not rules.deck_in(state, RESOURCES).row:
            return rules.proceed(state, self.name)
        return super().enter(rules, state)

    def title(self, rules: Rules, state: State) -> str:
        return self.summary(rules)

    def summary(self, rules: Rules) -> str:
        cost, reach, take = self.numbers(rules)
        cards = "one card" if take == 1 else f"{take} cards"
        return f"{kind_title(self.name)}: buy {cards} for {cost} coins (of the first {reach})"

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        return f"{self.numbers(rules)[0]} coins" if action.kind == "buy" else None

    def legal(self, rules: Rules, state: State) -> list[Action]:
        cost, reach, take = self.numbers(rules)
        if state.players[current(state)].coins < cost:
            return [SKIP]  # an effect took coins since the market was entered
        visible = rules.deck_in(state, RESOURCES).row[:reach]
        count = min(take, len(visible))
        choices = {tuple(sorted(c)) for c in itertools.combinations(visible, count)}
        return [SKIP, *(action_of("buy", "+".join(c)) for c in choices)]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action == SKIP:
            return rules.proceed(state, self.name)
        cost, reach, _ = self.numbers(rules)
        player = current(state)
        state = gain_coins(state, player, -cost)
        bought: list[str] = []
        for card in action.args[0].split("+"):
            row = rules.deck_in(state, RESOURCES).row
            position = row.index(card, 0, reach)
            state, taken = take_from_row(state, rules.deck_index[RESOURCES], position)
            bought.append(taken)
        state = add_cards(state, player, tuple(bought))
        return rules.proceed(state, self.name)


def djinn_payments(rules: Rules, state: State, player: int) -> list[str]:
    """How a player can pay at a sacred place: ``EE`` (2 elders), ``EF`` (elder + Fakir)."""
    elders = kept(state, player, rules.colour_index[ELDER])
    payments = []
    if elders >= rules.content.setting("sacred_place_elders"):
        payments.append("EE")
    if elders >= 1 and fakirs_held(state, player) >= 1:
        payments.append("EF")
    return payments


def pay_elders_fakirs(rules: Rules, state: State, player: int, payment: str) -> State:
    """Pay a cost written as letters: each ``E`` an elder to the bag, each ``F`` a Fakir to
    the discard pile."""
    elder = rules.colour_index[ELDER]
    if payment.count("E"):
        state = change_kept(state, player, elder, -payment.count("E"))
    if payment.count("F"):
        state = discard_cards(state, player, (FAKIR,) * payment.count("F"))
    return state


def take_djinn(rules: Rules, state: State, player: int, position: int) -> State:
    """A player takes the face-up djinn at ``position``; fires ``djinn-taken``."""
    state, djinn = take_from_row(state, rules.deck_index[DJINNS], position)
    return take_djinn_card(rules, state, player, djinn)


def take_djinn_card(rules: Rules, state: State, player: int, djinn: str) -> State:
    """``player`` acquires ``djinn`` (already out of the deck); fires ``djinn-taken``."""
    state = give_cards(rules, state, player, rules.deck_index[DJINNS], (djinn,))
    return rules.fire(state, Event(events.DJINN_TAKEN, player, what=djinn))


class SacredPlace(Stage):
    """Pay 2 elders, or 1 elder and 1 Fakir, to take a face-up djinn:
    ``djinn <id> EE|EF``, or ``skip``."""

    def enter(self, rules: Rules, state: State) -> State:
        if not rules.deck_in(state, DJINNS).row or not djinn_payments(rules, state, current(state)):
            return rules.proceed(state, self.name)
        return super().enter(rules, state)

    def title(self, rules: Rules, state: State) -> str:
        return self.summary(rules)

    def summary(self, rules: Rules) -> str:
        return f"{kind_title(self.name)}: take a djinn for 2 elders, or 1 elder and 1 Fakir"

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "djinn":
            return None
        spec = rules.card_specs.get(action.args[0])
        pay = payment_words(action.args[1]) or action.args[1]
        return f"{spec.name}, {pay}" if spec else pay

    def legal(self, rules: Rules, state: State) -> list[Action]:
        payments = djinn_payments(rules, state, current(state))
        return [SKIP] + [
            action_of("djinn", djinn, pay)
            for djinn in rules.deck_in(state, DJINNS).row
            for pay in payments
        ]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action == SKIP:
            return rules.proceed(state, self.name)
        djinn, payment = action.args
        player = current(state)
        state = pay_elders_fakirs(rules, state, player, payment)
        state = take_djinn(rules, state, player, rules.deck_in(state, DJINNS).row.index(djinn))
        return rules.proceed(state, self.name)


def tile_actions() -> dict[str, Stage]:
    return {
        "village": PlaceToken("palace"),
        "oasis": PlaceToken("palm-tree"),
        "small-market": Market("small"),
        "large-market": Market("large"),
        "sacred-place": SacredPlace(),
    }
