"""Items: precious items score their VP at the end; magic items are played any time in
the owner's turn, at most one item a turn, then discarded (face up)."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.engine import DJINNS, RESOURCES, Rules
from naqala.core.events import ScoreLine
from naqala.core.powers import Power, deck_cards_held, deck_options
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, State, count_effect, evolve
from naqala.plugins.base.common import (
    current,
    discard_held,
    draw_cards,
    give_held,
    set_deck,
    take_tile,
)
from naqala.plugins.base.djinns.common import draw_resource, own_turn
from naqala.plugins.base.tiles import take_djinn_card

ITEMS = "items"
USED_ITEM = "item"  # marks the turn in which an item was played


def items_index(rules: Rules) -> int:
    return rules.deck_index[ITEMS]


def draw_items(rules: Rules, state: State, n: int) -> tuple[State, tuple[str, ...]]:
    """The top ``n`` items (the discards reshuffled when the pile runs out)."""
    return draw_cards(state, items_index(rules), n)


def items_left(rules: Rules, state: State) -> bool:
    deck = state.decks[items_index(rules)]
    return bool(deck.draw or deck.discard)


def give_items(state: State, player: int, items: Iterable[str]) -> State:
    return give_held(state, player, tuple(items))


def discard_item(rules: Rules, state: State, player: int, item: str) -> State:
    return discard_held(state, player, items_index(rules), item)


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
        state = give_items(state, current(state), (action.args[0],))
        state = evolve(state, turn=evolve(turn, revealed=()))
        return rules.proceed(state, "tribe:purple")


class Precious(Power):
    when = "at final scoring"
    effect = "Worth its VP at the end."

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: str, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        spec = rules.card_specs[card]
        return [ScoreLine("items", spec.vp, card, spec.name)]


class Magic(Power):
    """A one-use item: ``<item> [target]``; once per turn for all items together."""

    stages: frozenset[str] | None = None

    def targets(self, rules: Rules, state: State, owner: int) -> Iterable[tuple[str, ...]]:
        return [()]

    def options(self, rules: Rules, state: State, owner: int, card: str) -> Iterable[Action]:
        turn = own_turn(state, owner)
        if turn is None or USED_ITEM in turn.used:
            return ()
        if self.stages is not None and state.decision.stage not in self.stages:
            return ()
        return [Action(card, target) for target in self.targets(rules, state, owner)]

    def apply(self, rules: Rules, state: State, owner: int, card: str, action: Action) -> State:
        turn = state.turn
        assert turn is not None
        state = evolve(state, turn=evolve(turn, used=tuple(sorted((*turn.used, USED_ITEM)))))
        state = count_effect(discard_item(rules, state, owner, card), card)
        return self.act(rules, state, owner, action.args)

    def act(self, rules: Rules, state: State, owner: int, target: tuple[str, ...]) -> State:
        raise NotImplementedError


class FabulousLamp(Magic):
    when = "any time in your turn"
    effect = "Take one face-up djinn without paying for it."

    def targets(self, rules: Rules, state: State, owner: int) -> Iterable[tuple[str, ...]]:
        return [(djinn,) for djinn in sorted(set(state.decks[DJINNS].row))]

    def act(self, rules: Rules, state: State, owner: int, target: tuple[str, ...]) -> State:
        deck = state.decks[DJINNS]
        row = list(deck.row)
        row.remove(target[0])
        state = set_deck(state, DJINNS, evolve(deck, row=tuple(row)))
        return take_djinn_card(rules, state, owner, target[0])


class BurningScimitar(Magic):
    stages = frozenset({"pick", "drop", "tribe:red", "kill"})
    when = "in your turn, before your assassins kill"
    effect = "Your assassins kill one more meeple this turn (same tile or same opponent)."

    def targets(self, rules: Rules, state: State, owner: int) -> Iterable[tuple[str, ...]]:
        turn = state.turn
        return [()] if turn is not None and not turn.target else []

    def act(self, rules: Rules, state: State, owner: int, target: tuple[str, ...]) -> State:
        turn = state.turn
        assert turn is not None
        return evolve(state, turn=evolve(turn, kills=turn.kills + 1))


class HornOfPlenty(Magic):
    when = "any time in your turn"
    effect = "Take the top 2 resource cards (the discards are reshuffled when needed)."

    def targets(self, rules: Rules, state: State, owner: int) -> Iterable[tuple[str, ...]]:
        # like Sloar: with no card in the pile or the discards it would do nothing
        deck = state.decks[RESOURCES]
        return [()] if deck.draw or deck.discard else []

    def act(self, rules: Rules, state: State, owner: int, target: tuple[str, ...]) -> State:
        for _ in range(rules.card_specs["horn-of-plenty"].param("cards")):
            state, _drawn = draw_resource(state, owner)
        return state


class TempestTalisman(Magic):
    when = "any time in your turn, with a camel left"
    effect = "Take control of an empty tile (no camel, meeple, palm tree or palace)."

    def targets(self, rules: Rules, state: State, owner: int) -> Iterable[tuple[str, ...]]:
        if state.players[owner].camels == 0:
            return []
        geo = state.geometry
        return [
            (geo.name(t),)
            for t in range(geo.size)
            if t not in state.layout.blocked
            and state.board.owners[t] == NOBODY
            and not any(state.board.meeples[t])
            and not any(state.board.tokens[t])
        ]

    def act(self, rules: Rules, state: State, owner: int, target: tuple[str, ...]) -> State:
        return take_tile(rules, state, owner, state.geometry.parse(target[0]))


def item_powers() -> dict[str, Power]:
    return {
        "precious": Precious(),
        "fabulous-lamp": FabulousLamp(),
        "burning-scimitar": BurningScimitar(),
        "horn-of-plenty": HornOfPlenty(),
        "tempest-talisman": TempestTalisman(),
    }


def item_options(rules: Rules, state: State) -> list[Action]:
    return deck_options(rules, state, ITEMS)


def apply_item(rules: Rules, state: State, action: Action) -> State | None:
    player = state.decision.player
    if action.kind not in state.players[player].held:
        return None
    power = rules.card_powers[rules.card_specs[action.kind].kind]
    return power.apply(rules, state, player, action.kind, action)


def item_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    found: list[ScoreLine] = []
    for card, power in deck_cards_held(rules, state, player, ITEMS):
        found.extend(power.score_lines(rules, state, player, card, ()))
    return found
