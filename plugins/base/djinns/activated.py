"""Djinns with a cost, used once per turn during the owner's own turn (rulebook p. 7 and
the djinn summary sheet). Payments: ``E`` an elder, ``F`` a Fakir, ``EE``/``EF``."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action, action_of
from naqala.core.content import DJINNS, CardSpec
from naqala.core.encoding import player_counts
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import State, count_effect, evolve
from naqala.plugins.base.bidding import (
    BidStage,
    costs_in_play,
    distinct_costs,
    free_spots,
    place_bid,
    turn_order_costs,
)
from naqala.plugins.base.cards import (
    Activated,
    mark_used_this_round,
    resume_interrupted,
    round_limited,
    used_this_round,
)
from naqala.plugins.base.common import (
    FAKIR,
    current,
    discard_cards,
    fakirs_held,
    set_deck,
)
from naqala.plugins.base.tiles import take_djinn, take_djinn_card


class KeepDjinn(Stage):
    """The decision ``draw_djinns`` asks (Sibittis's): ``keep <djinn>`` among the djinns
    drawn; the rest are discarded, then the interrupted decision continues."""

    def title(self, rules: Rules, state: State) -> str:
        return "Keep one of the djinns drawn"

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        spec = rules.card_specs.get(action.args[0]) if action.args else None
        return spec.name if spec else None

    def legal(self, rules: Rules, state: State) -> list[Action]:
        assert state.turn is not None
        return [Action("keep", (card,)) for card in state.turn.revealed]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        turn = state.turn
        assert turn is not None
        player = current(state)
        kept_card = action.args[0]
        others = list(turn.revealed)
        others.remove(kept_card)
        deck = rules.deck_in(state, DJINNS)
        state = set_deck(
            state, rules.deck_index[DJINNS], evolve(deck, discard=deck.discard + tuple(others))
        )
        state = resume_interrupted(evolve(state, turn=evolve(turn, revealed=())), player)
        return take_djinn_card(rules, state, player, kept_card)


class TakeDjinn(KeepDjinn):
    """The decision ``take_djinn`` asks: ``keep <djinn>`` among the face-up djinns, taken
    free; then the interrupted decision continues."""

    def title(self, rules: Rules, state: State) -> str:
        return "Take one of the face-up djinns"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [Action("keep", (card,)) for card in rules.deck_in(state, DJINNS).row]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        player = current(state)
        position = rules.deck_in(state, DJINNS).row.index(action.args[0])
        return take_djinn(rules, resume_interrupted(state, player), player, position)


def discounted(costs: tuple[int, ...], cost: int, fakirs: int) -> int:
    """The price of the spot costing ``cost`` with ``fakirs`` discarded: each Fakir steps
    down to the next cheaper cost of the track (never below the cheapest)."""
    steps = distinct_costs(costs)
    return steps[min(steps.index(cost) + fakirs, len(steps) - 1)]


class Kumarbi(Activated):
    """Used while bidding, not in the turn: so it overrides who may use it and when."""

    when = "when you bid for turn order"
    effect = (
        "Discard Fakirs as you bid: each one lets you pay the price of the next cheaper "
        "spot (spot 12 with 3 Fakirs costs 3). It cannot buy a zero spot when those are full."
    )

    def options(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[Action]:
        bidding = isinstance(rules.stages[state.decision.stage], BidStage)
        if not bidding or current(state) != owner:
            return ()
        if round_limited(rules, state, card) and used_this_round(state, owner, card):
            return ()
        fakirs = fakirs_held(state, owner)
        if not fakirs:
            return ()
        costs = costs_in_play(rules, state)
        coins = state.players[owner].coins
        found = []
        for spot in free_spots(rules, state):
            if costs[spot] == 0:
                continue
            for used in range(1, fakirs + 1):
                price = discounted(costs, costs[spot], used)
                if price <= coins:
                    found.append(action_of(card.id, str(costs[spot]), "F" * used))
                if price == 0:
                    break
        return found

    def arguments(self, rules: Rules, card: CardSpec) -> list[tuple[tuple[str, ...], ...]]:
        """A spot's cost (of any player count's track) and one to all the Fakirs."""
        costs = {c for n in player_counts(rules) for c in turn_order_costs(rules, n) if c}
        fakirs = sum(c.count for c in rules.content.deck("resources") if c.id == FAKIR)
        return [
            (
                tuple(str(c) for c in sorted(costs)),
                tuple("F" * n for n in range(1, fakirs + 1)),
            )
        ]

    def apply(
        self, rules: Rules, state: State, owner: int, card: CardSpec, action: Action
    ) -> State:
        cost, payment = int(action.args[0]), action.args[1]
        price = discounted(costs_in_play(rules, state), cost, len(payment))
        state = discard_cards(state, owner, (FAKIR,) * len(payment))
        if round_limited(rules, state, card):
            state = mark_used_this_round(state, owner, card)
        state = count_effect(place_bid(rules, state, cost, price), card.id)
        return rules.proceed(state, state.decision.stage)  # the bid stage in use
