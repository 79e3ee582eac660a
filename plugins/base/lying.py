"""Cards lying on tiles: a deck whose face-up row is laid on the tiles of one kind
(``[[deck]]`` ``lies_on``: the Whims box's whims on its cities), one place per tile of
that kind in board order, an empty place ``""``. The effects language reads what lies on
a tile (``lying("whims")``) and takes it (``take_lying``); the box that lays the row
fills its places (at setup, at clean-up)."""

from __future__ import annotations

from naqala.core.content import DeckSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.state import State, evolve, replace_at
from naqala.plugins.base.common import give_cards, set_deck

#: an empty place of a row lying on tiles
EMPTY = ""


def deck_spec(rules: Rules, deck: str) -> DeckSpec:
    return rules.deck_specs[rules.deck_index[deck]]


def places(rules: Rules, state: State, deck: str) -> list[int]:
    """The tiles the deck's row lies on, in board order (its places' order)."""
    kind = deck_spec(rules, deck).lies_on
    return [i for i, t in enumerate(state.layout.tiles) if rules.tile(t).kind == kind]


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
