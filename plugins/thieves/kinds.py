"""The six thieves' powers, one per kind of thing stolen (``content/thieves.toml``):
a tile (red), a palm tree or palace (blue), resource cards (green), viziers (yellow),
djinns (white), items (purple). Each opponent chooses what they give up; the owner
chooses what to keep (docs/rules-notes.md, "The Thieves of Naqala")."""

from __future__ import annotations

import itertools

from naqala.core.content import DJINNS, CardSpec
from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.state import NOBODY, State, add_at, evolve, replace_at
from naqala.plugins.base.api import (
    change_kept,
    give_cards,
    kept,
    marked_by_stand_in,
    owned_tiles,
    pieces_left,
    place_token,
    release_tile,
    set_deck,
    take_djinn_card,
    take_tile,
)
from naqala.plugins.thieves.steal import (
    Theft,
    add_given,
    given,
    given_keys,
)

#: what the blue thief steals: a palm tree or a palace
TOKENS = ("palm-tree", "palace")
THIEVES = "thieves"


def joined(cards: tuple[str, ...]) -> str:
    return "+".join(cards)


def choices_of(cards: tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    """The distinct ways to choose ``n`` of ``cards`` (all of them when fewer), as
    ``a+b`` arguments."""
    size = min(n, len(cards))
    if size == 0:
        return []
    return [(joined(c),) for c in sorted(set(itertools.combinations(sorted(cards), size)))]


def without(cards: tuple[str, ...], remove: tuple[str, ...]) -> tuple[str, ...]:
    left = list(cards)
    for card in remove:
        left.remove(card)
    return tuple(left)


class TileThief(Theft):
    """Red: each opponent gives up a tile they control (its camel goes back to them); the
    owner takes one of those tiles with a camel. A tile marked by a piece standing in for
    a camel (the Artisans' tent) cannot be given up."""

    effect = "Each opponent gives up a tile; take one of those tiles with your camel."
    keep_verb = "take"

    def gifts(
        self, rules: Rules, state: State, victim: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        return [
            (state.geometry.name(t),)
            for t in owned_tiles(state, victim)
            if not marked_by_stand_in(rules, state, t)
        ]

    def give(
        self, rules: Rules, state: State, victim: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        tile = state.geometry.parse(choice[0])
        return add_given(release_tile(state, tile), f"tile.{tile}", 1)

    def can_keep(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        return pieces_left(state.players[owner]) > 0

    def keeps(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        if not self.can_keep(rules, state, owner, card):
            return []
        tiles = sorted(int(k[5:]) for k in given_keys(state) if k.startswith("tile."))
        return [(state.geometry.name(t),) for t in tiles if state.board.owners[t] == NOBODY]

    def keep(
        self, rules: Rules, state: State, owner: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        return take_tile(rules, state, owner, state.geometry.parse(choice[0]))


class TokenThief(Theft):
    """Blue: each opponent removes a palm tree or a palace from a tile they control (back
    to the bank); the owner places one of them, on a tile they control — or on any tile,
    with ``blue_thief_own_tile = 0``."""

    effect = "Each opponent loses a palm tree or palace; place one of them."
    keep_verb = "place"

    def gifts(
        self, rules: Rules, state: State, victim: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        kinds = [
            (token, rules.token_index[token]) for token in TOKENS if token in rules.token_index
        ]
        return [
            (token, state.geometry.name(t))
            for t in owned_tiles(state, victim)
            for token, k in kinds
            if state.board.tokens[t][k] > 0
        ]

    def give(
        self, rules: Rules, state: State, victim: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        token, tile = choice[0], state.geometry.parse(choice[1])
        k = rules.token_index[token]
        tokens = replace_at(state.board.tokens, tile, add_at(state.board.tokens[tile], k, -1))
        state = evolve(
            state, board=evolve(state.board, tokens=tokens), pool=add_at(state.pool, k, 1)
        )
        return add_given(state, f"token.{token}", 1)

    def places(self, rules: Rules, state: State, owner: int) -> list[int]:
        if rules.content.setting("blue_thief_own_tile"):
            return owned_tiles(state, owner)
        return [t for t in range(len(state.layout.tiles)) if t not in state.layout.blocked]

    def can_keep(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        return bool(self.places(rules, state, owner))

    def keeps(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        tokens = [
            token
            for token in TOKENS
            if given(state, f"token.{token}") and state.pool[rules.token_index[token]]
        ]
        return [
            (token, state.geometry.name(t))
            for token in tokens
            for t in self.places(rules, state, owner)
        ]

    def keep(
        self, rules: Rules, state: State, owner: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        return place_token(rules, state, owner, choice[0], state.geometry.parse(choice[1]))


class MeepleThief(Theft):
    """Yellow: each opponent loses ``give`` meeples of the thief's colour (viziers) to the
    bag; the owner takes ``keep`` of them from the bag."""

    effect = "Each opponent loses {give} vizier(s); keep {keep} of them."

    def gifts(
        self, rules: Rules, state: State, victim: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        return [()] if kept(state, victim, rules.colour_index[card.subject]) else []

    def give(
        self, rules: Rules, state: State, victim: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        colour = rules.colour_index[card.subject]
        count = min(card.param("give"), kept(state, victim, colour))
        return add_given(change_kept(state, victim, colour, -count), "meeples", count)

    def keeps(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        return [()] if given(state, "meeples") else []

    def keep(
        self, rules: Rules, state: State, owner: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        count = min(card.param("keep"), given(state, "meeples"))
        return change_kept(state, owner, rules.colour_index[card.subject], count)


class CardThief(Theft):
    """Green, white, purple: each opponent gives up ``give`` cards of the deck the kind
    names (resources, djinns, items) — all they have when fewer; the owner keeps
    ``keep`` of them and the rest go to that deck's discard pile. A djinn kept is taken
    (``djinn-taken`` fires)."""

    effect = "Each opponent gives up {give} card(s); keep {keep} of them."

    def hand_deck(self, rules: Rules, card: CardSpec) -> int | None:
        return rules.deck_index.get(card.kind)

    def gifts(
        self, rules: Rules, state: State, victim: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        deck = self.hand_deck(rules, card)
        if deck is None:
            return []
        return choices_of(state.players[victim].hand(deck), card.param("give"))

    def give(
        self, rules: Rules, state: State, victim: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        deck = self.hand_deck(rules, card)
        assert deck is not None
        cards = tuple(choice[0].split("+"))
        p = state.players[victim]
        state = state.replace_player(victim, p.with_hand(deck, without(p.hand(deck), cards)))
        turn = state.turn
        assert turn is not None
        return evolve(state, turn=evolve(turn, revealed=(*turn.revealed, *cards)))

    def keeps(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        turn = state.turn
        assert turn is not None
        return choices_of(turn.revealed, card.param("keep"))

    def keep(
        self, rules: Rules, state: State, owner: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        deck = self.hand_deck(rules, card)
        assert deck is not None and state.turn is not None
        cards = tuple(choice[0].split("+"))
        state = evolve(state, turn=evolve(state.turn, revealed=without(state.turn.revealed, cards)))
        if deck == rules.deck_index[DJINNS]:
            for djinn in cards:
                state = take_djinn_card(rules, state, owner, djinn)
            return state
        return give_cards(rules, state, owner, deck, cards)

    def put_away(self, rules: Rules, state: State, card: CardSpec) -> State:
        deck = self.hand_deck(rules, card)
        turn = state.turn
        assert turn is not None
        if deck is None or not turn.revealed:
            return state
        pile = state.decks[deck]
        state = set_deck(state, deck, evolve(pile, discard=(*pile.discard, *turn.revealed)))
        return evolve(state, turn=evolve(turn, revealed=()))


def thief_powers() -> dict[str, Power]:
    powers: dict[str, Power] = {
        "tile": TileThief(),
        "token": TokenThief(),
        "meeples": MeepleThief(),
        "resources": CardThief(),
        "djinns": CardThief(),
        "items": CardThief(),
    }
    return {f"{THIEVES}:{kind}": power for kind, power in powers.items()}
