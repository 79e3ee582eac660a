"""Items: precious items score their VP at the end; magic items are played any time in
the owner's turn, at most one item a turn, then discarded (face up) — the items deck's
policy in content/artisans.toml, followed by the one card router."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import CardSpec
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
    card_score_lines,
    current,
    draw_cards,
    give_cards,
    set_deck,
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


def item_powers() -> dict[str, Power]:
    powers: dict[str, Power] = {
        "precious": Precious(),
        "enchanting-flute": board_items.EnchantingFlute(),
        "flying-carpet": board_items.FlyingCarpet(),
    }
    return {f"{ITEMS}:{kind}": power for kind, power in powers.items()}


def item_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """The precious items' lines, placed among the expansion's own."""
    return card_score_lines(rules, state, player, (), ITEMS)
