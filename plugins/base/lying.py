"""Cards lying on tiles: a deck whose face-up row is laid on the tiles of one kind
(``[[deck]]`` ``lies_on``: the Whims box's whims on its cities), one place per tile of
that kind in board order, an empty place ``""``. The base game fills the empty places
from the deck's draw pile at setup and at clean-up (``fill_places``); the effects
language reads what lies on a tile (``lying("whims")``) and takes it (``take_lying``).
So a deck lying on tiles is content alone: no plugin lays it."""

from __future__ import annotations

from naqala.core.content import DeckSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.state import State, evolve, replace_at
from naqala.core.validate import Problem
from naqala.plugins.base.common import give_cards, set_deck

#: an empty place of a row lying on tiles
EMPTY = ""


def deck_spec(rules: Rules, deck: str) -> DeckSpec:
    return rules.deck_specs[rules.deck_index[deck]]


def places(rules: Rules, state: State, deck: str) -> list[int]:
    """The tiles the deck's row lies on, in board order (its places' order)."""
    kind = deck_spec(rules, deck).lies_on
    return [i for i, t in enumerate(state.layout.tiles) if rules.tile(t).kind == kind]


def fill_places(rules: Rules, state: State) -> State:
    """The top card of the draw pile on every empty place of each deck lying on tiles, in
    board order (at setup, and at clean-up for the places taken in the round); a place
    stays empty when the pile runs out. Nothing is shuffled back."""
    for spec in rules.deck_specs:
        if not spec.lies_on:
            continue
        index = rules.deck_index[spec.id]
        deck = state.decks[index]
        spots = len(places(rules, state, spec.id))
        row, draw = list(deck.row) + [EMPTY] * (spots - len(deck.row)), deck.draw
        for place, card in enumerate(row):
            if card == EMPTY and draw:
                row[place], draw = draw[0], draw[1:]
        state = set_deck(state, index, evolve(deck, row=tuple(row), draw=draw))
    return state


def place_problems(rules: Rules, state: State) -> list[Problem]:
    """A row lying on tiles has one place per tile of its kind."""
    problems = []
    for spec in rules.deck_specs:
        if spec.lies_on:
            row = state.decks[rules.deck_index[spec.id]].row
            spots = len(places(rules, state, spec.id))
            if len(row) != spots:
                where = f"{len(row)} places for the {spots} {spec.lies_on} tiles"
                problems.append(Problem(f"$.decks.{spec.id}.row", where))
    return problems


def lying_on(rules: Rules, state: State, deck: str, tile: int) -> str:
    """The card of ``deck`` lying on ``tile`` ("" if none, or no place of it there)."""
    row = state.decks[rules.deck_index[deck]].row
    spots = places(rules, state, deck)
    place = spots.index(tile) if tile in spots else len(row)
    return row[place] if place < len(row) else EMPTY


def take_lying(rules: Rules, state: State, player: int, deck: str, tile: int) -> State:
    """``player`` takes the card of ``deck`` lying on ``tile`` into their hand, and the
    deck's ``taken_event`` fires (``tile``: where it lay, ``what``: the card). Nothing
    happens if none lies there."""
    card = lying_on(rules, state, deck, tile)
    if card == EMPTY:
        return state
    index = rules.deck_index[deck]
    pile = state.decks[index]
    place = places(rules, state, deck).index(tile)
    state = set_deck(state, index, evolve(pile, row=replace_at(pile.row, place, EMPTY)))
    state = give_cards(rules, state, player, index, (card,))
    event = deck_spec(rules, deck).taken_event
    return rules.fire(state, Event(event, player, tile=tile, what=card)) if event else state
