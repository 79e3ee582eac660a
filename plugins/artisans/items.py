"""Items: precious items score their VP at the end; magic items are played any time in
the owner's turn, at most one item a turn, then discarded (face up) — the items deck's
policy in content/artisans.toml, followed by the one card router."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import DJINNS, CardSpec
from naqala.core.encoding import card_ids
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.powers import Power
from naqala.core.stage import Stage
from naqala.core.state import (
    State,
    evolve,
)
from naqala.plugins.artisans import board_items
from naqala.plugins.base.api import (
    Activated,
    card_score_lines,
    current,
    draw_cards,
    give_cards,
    set_deck,
    take_djinn_card,
)

ITEMS = "items"


def items_index(rules: Rules) -> int:
    return rules.deck_index[ITEMS]


def draw_items(rules: Rules, state: State, n: int) -> tuple[State, tuple[str, ...]]:
    """The top ``n`` items (the discards reshuffled when the pile runs out)."""
    return draw_cards(state, items_index(rules), n)


def items_left(rules: Rules, state: State) -> bool:
    deck = state.decks[items_index(rules)]
    return bool(deck.draw or deck.discard)


def give_items(rules: Rules, state: State, player: int, items: Iterable[str]) -> State:
    return give_cards(rules, state, player, items_index(rules), tuple(items))


class KeepItem(Stage):
    """After the artisans' tribe action: ``keep <item>`` among the items revealed; the
    others go face up to the discard pile."""

    def title(self, rules: Rules, state: State) -> str:
        return "Artisans: keep one of the items revealed"

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        spec = rules.card_specs.get(action.args[0]) if action.args else None
        return spec.text or spec.name if spec else None

    def legal(self, rules: Rules, state: State) -> list[Action]:
        assert state.turn is not None
        return [Action("keep", (item,)) for item in sorted(set(state.turn.revealed))]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        turn = state.turn
        assert turn is not None
        others = list(turn.revealed)
        others.remove(action.args[0])
        index = items_index(rules)
        deck = state.decks[index]
        state = set_deck(state, index, evolve(deck, discard=deck.discard + tuple(others)))
        state = give_items(rules, state, current(state), (action.args[0],))
        state = evolve(state, turn=evolve(turn, revealed=()))
        return rules.return_to_caller(state)


class Precious(Power):
    when = "at final scoring"
    effect = "Worth its VP at the end."

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        return [ScoreLine("items", card.vp, card.id, card.name)]


class FabulousLamp(Activated):
    when = "any time in your turn"
    effect = "Take one face-up djinn without paying for it."

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (card_ids(rules, DJINNS),)

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        return [(djinn,) for djinn in sorted(set(rules.deck_in(state, DJINNS).row))]

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        deck = rules.deck_in(state, DJINNS)
        row = list(deck.row)
        row.remove(target[0])
        state = set_deck(state, rules.deck_index[DJINNS], evolve(deck, row=tuple(row)))
        return take_djinn_card(rules, state, owner, target[0])


class RebirthRing(Activated):
    when = "any time in your turn"
    effect = "Take back one item of your choice from the item discard pile."

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (card_ids(rules, ITEMS),)

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        return [(item,) for item in sorted(set(state.decks[items_index(rules)].discard))]

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        index = items_index(rules)
        deck = state.decks[index]
        discard = list(deck.discard)
        discard.remove(target[0])
        state = set_deck(state, index, evolve(deck, discard=tuple(discard)))
        return give_items(rules, state, owner, target)


def item_powers() -> dict[str, Power]:
    powers: dict[str, Power] = {
        "precious": Precious(),
        "fabulous-lamp": FabulousLamp(),
        "burning-scimitar": board_items.BurningScimitar(),
        "enchanting-flute": board_items.EnchantingFlute(),
        "flying-carpet": board_items.FlyingCarpet(),
        "rebirth-ring": RebirthRing(),
        "tempest-talisman": board_items.TempestTalisman(),
    }
    return {f"{ITEMS}:{kind}": power for kind, power in powers.items()}


def item_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """The precious items' lines, placed among the expansion's own."""
    return card_score_lines(rules, state, player, (), ITEMS)
