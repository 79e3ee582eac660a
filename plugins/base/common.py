"""Small state edits shared by the base game's stages (coins, cards, tiles, tokens)."""

from __future__ import annotations

from naqala.core.content import DECK_NAMES, DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.rng import Rng
from naqala.core.state import (
    NOBODY,
    Deck,
    PlayerState,
    State,
    add_at,
    evolve,
    get_extra,
    replace_at,
    set_extra,
)
from naqala.core.turnfields import count_field, text_field
from naqala.plugins.base import events

#: the resources deck's place in ``State.decks`` and in each hand, for the edits below
#: that are given no rules: found by name among the decks every game has (``DECK_NAMES``)
_RESOURCE_DECK = DECK_NAMES.index(RESOURCES)

#: prefix of player counters of pieces still to place besides camels (``piece.tent``): a
#: tile taken without a camel gets one of them, and the last-camel end trigger waits until
#: a player has placed all of them too (declared as ``piece.*`` player counters)
PIECES = "piece."

#: the assassins' turn fields (hook ``naqala_turn_fields``), written in the state JSON
#: where the core's ``Turn`` kept them before 0.3, after ``taken``
REACH = count_field("reach", 0, "the assassins' range: assassins plus Fakirs discarded", "taken")
KILLS = count_field("kills", 1, "how many meeples the assassins kill this turn", "reach")
TARGET = text_field("target", "where the first kill was (a tile or p<seat>)", "kills")

FAKIR = "fakir"
#: the decision keeping one of the djinns drawn (``draw_djinns``: Sibittis)
KEEP_DJINN = "keep-djinn"
#: the decision taking one of the face-up djinns (``take_djinn``)
TAKE_DJINN = "take-djinn"
#: what a card of the resources deck is: a merchandise of its own type, or a Fakir
RESOURCE_KINDS = ("merchandise", FAKIR)


def pieces_left(player: PlayerState) -> int:
    """Camels and other pieces (``piece.*`` counters) the player has still to place."""
    return player.camels + sum(v for k, v in player.extras if k.startswith(PIECES))


def current(state: State) -> int:
    """The player whose decision is pending."""
    return state.decision.player


def gain_coins(state: State, player: int, amount: int) -> State:
    p = state.players[player]
    return state.replace_player(player, evolve(p, coins=p.coins + amount))


def add_cards(state: State, player: int, cards: tuple[str, ...]) -> State:
    """Resource cards go into a player's hand (kept sorted)."""
    p = state.players[player]
    hand = tuple(sorted(p.cards + cards))
    return state.replace_player(player, p.with_hand(_RESOURCE_DECK, hand))


def remove_cards(cards: tuple[str, ...], remove: tuple[str, ...]) -> tuple[str, ...]:
    """``cards`` without one copy of each card in ``remove`` (which must all be there)."""
    left = list(cards)
    for card in remove:
        left.remove(card)
    return tuple(left)


def discard_cards(state: State, player: int, cards: tuple[str, ...]) -> State:
    """Move cards from a player's hand to the resource discard pile."""
    return discard_from_hand(state, player, _RESOURCE_DECK, cards)


def give_cards(rules: Rules, state: State, player: int, deck: int, cards: tuple[str, ...]) -> State:
    """Cards of deck number ``deck`` go into a player's hand: sorted, or after the others
    in the order taken, as the deck's policy says."""
    p = state.players[player]
    hand = (*p.hand(deck), *cards)
    if rules.deck_specs[deck].order == "sorted":
        hand = tuple(sorted(hand))
    return state.replace_player(player, p.with_hand(deck, hand))


def discard_from_hand(state: State, player: int, deck: int, cards: tuple[str, ...]) -> State:
    """Cards of a player's hand of deck number ``deck`` go face up to its discard pile
    (Fakirs spent, a suit sold, an item played, a whim fulfilled)."""
    p = state.players[player]
    state = state.replace_player(player, p.with_hand(deck, remove_cards(p.hand(deck), cards)))
    pile = state.decks[deck]
    return set_deck(state, deck, evolve(pile, discard=(*pile.discard, *cards)))


def tiles_around(rules: Rules, state: State, tile: int, value: str) -> int:
    """Tiles of ``value`` (``"blue"``, ``"red"``) in the 3×3 block around ``tile``, ``tile``
    included: the builders' pay counts the blue ones."""
    tiles = state.layout.tiles
    return sum(1 for t in state.geometry.area[tile] if rules.tile(tiles[t]).value == value)


def owned_tiles(state: State, player: int) -> list[int]:
    """The tiles ``player`` controls (a camel or another piece of theirs on it)."""
    return [t for t, owner in enumerate(state.board.owners) if owner == player]


def fakirs_held(state: State, player: int) -> int:
    return state.players[player].cards.count(FAKIR)


def kept(state: State, player: int, colour: int) -> int:
    return state.players[player].meeples[colour]


def keep_meeples(state: State, player: int, colour: int, count: int) -> State:
    """A player puts ``count`` meeples they collected in front of them."""
    p = state.players[player]
    return state.replace_player(player, evolve(p, meeples=add_at(p.meeples, colour, count)))


def change_kept(state: State, player: int, colour: int, delta: int) -> State:
    """Meeples in front of a player change by ``delta``; the bag takes the opposite."""
    p = state.players[player]
    state = state.replace_player(player, evolve(p, meeples=add_at(p.meeples, colour, delta)))
    return evolve(state, bag=add_at(state.bag, colour, -delta))


def take_tile(rules: Rules, state: State, player: int, tile: int) -> State:
    """``player`` puts a camel on an unowned tile; fires ``tile-taken``. Out of camels, a
    piece still to place (a ``piece.<name>`` counter, e.g. a tent) is put there instead,
    as a token of that name; with neither, nothing happens."""
    p = state.players[player]
    if state.board.owners[tile] != NOBODY:
        return state
    if p.camels:
        p = evolve(p, camels=p.camels - 1)
    else:
        piece = next((k for k, v in p.extras if k.startswith(PIECES) and v > 0), None)
        if piece is None:
            return state
        p = evolve(p, extras=set_extra(p.extras, piece, get_extra(p.extras, piece) - 1))
        state = _put_token(rules, state, piece[len(PIECES) :], tile)
    board = evolve(state.board, owners=replace_at(state.board.owners, tile, player))
    state = evolve(state, board=board)
    state = state.replace_player(player, p)
    return rules.fire(state, Event(events.TILE_TAKEN, player, tile=tile))


def marked_by_stand_in(rules: Rules, state: State, tile: int) -> bool:
    """Whether a token standing in for a camel (the Artisans' tent) marks ``tile``."""
    here = state.board.tokens[tile]
    return any(here[k] for k, token in enumerate(rules.tokens) if token.replaces_camel)


def release_tile(state: State, tile: int) -> State:
    """The camel on ``tile`` goes back to its owner, and the tile is no one's (a tile no
    player holds: nothing; a tile a stand-in marks is the caller's to refuse)."""
    owner = state.board.owners[tile]
    if owner < 0:
        return state
    board = evolve(state.board, owners=replace_at(state.board.owners, tile, NOBODY))
    p = state.players[owner]
    return evolve(state, board=board).replace_player(owner, evolve(p, camels=p.camels + 1))


def _put_token(rules: Rules, state: State, token: str, tile: int) -> State:
    """A token from the bank on ``tile`` (nothing if the rules have no such token)."""
    index = rules.token_index.get(token)
    if index is None:
        return state
    tokens = replace_at(state.board.tokens, tile, add_at(state.board.tokens[tile], index, 1))
    return evolve(
        state, board=evolve(state.board, tokens=tokens), pool=add_at(state.pool, index, -1)
    )


def place_token(rules: Rules, state: State, player: int, token: str, tile: int) -> State:
    """Put one token (palm tree, palace) from the bank on ``tile``; nothing if none is left."""
    if state.pool[rules.token_index[token]] == 0:
        return state
    state = _put_token(rules, state, token, tile)
    return rules.fire(state, Event(events.token_placed(token), player, tile=tile, what=token))


def refill(deck: Deck, size: int, rng: Rng) -> tuple[Deck, Rng]:
    """Slide the row to the front and fill it to ``size`` from the draw pile, reshuffling
    the discards when the pile runs out; stop when both are empty."""
    row, draw, discard = list(deck.row), deck.draw, deck.discard
    while len(row) < size:
        if not draw:
            if not discard:
                break
            draw, rng = rng.shuffled(discard)
            discard = ()
        row.append(draw[0])
        draw = draw[1:]
    return Deck(draw=draw, row=tuple(row), discard=discard), rng


def draw_cards(state: State, index: int, n: int) -> tuple[State, tuple[str, ...]]:
    """Take the top ``n`` cards of a deck's draw pile, reshuffling its discards when the
    pile runs out; fewer when both run out."""
    deck, rng = state.decks[index], state.rng
    drawn: list[str] = []
    for _ in range(n):
        if not deck.draw and deck.discard:
            pile, rng = rng.shuffled(deck.discard)
            deck = evolve(deck, draw=pile, discard=())
        if not deck.draw:
            break
        drawn.append(deck.draw[0])
        deck = evolve(deck, draw=deck.draw[1:])
    return evolve(set_deck(state, index, deck), rng=rng), tuple(drawn)


def set_deck(state: State, index: int, deck: Deck) -> State:
    return evolve(state, decks=replace_at(state.decks, index, deck))


def take_from_row(state: State, index: int, position: int) -> tuple[State, str]:
    """Remove the card at ``position`` of a deck's face-up row. The row is a list of the
    cards still visible, so "the first three" always means the first three left."""
    deck = state.decks[index]
    card = deck.row[position]
    deck = evolve(deck, row=deck.row[:position] + deck.row[position + 1 :])
    return set_deck(state, index, deck), card


__all__ = ["DJINNS", "RESOURCES"]
