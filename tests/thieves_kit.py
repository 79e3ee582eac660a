"""The positions the Thieves' scenario tests start from (tests/test_thieves_*.py).

A 3-player game (seats 0, 1, 2; seat 0 to pick) on an otherwise empty 5×6 board. c3 is
a sacred place. ``move(colour)`` puts two meeples of that colour on b3 and c3, so
``pick b3``, ``drop c3 <letter>`` ends the move on c3 collecting two of them (the tribe
action of that colour) and takes control of c3. a1 holds a merchant and f5 a builder far
away, so moves stay possible. Every card a test hands to a player is taken out of its
deck first, so every component can still be counted (``conserved``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

import attrs

from naqala.core.engine import Rules, build_rules
from naqala.core.state import Deck, State, replace_at
from naqala.plugins.artisans.layout import chasms, mountains
from naqala.testing.invariants import assert_invariants
from naqala.testing.scenario import board, out_of_deck, player, turn_of

SEED = 11
THIEVES = "thieves"
TILES = {"c3": "sacred-place-1", "d4": "village-1", "e1": "oasis-1", "f1": "village-2"}
BACKGROUND = {"a1": "G", "f5": "B"}
ARTISANS_TILES = {"f6": "chasm-1", "a6": "workshop-1", "b6": "workshop-2", "c6": "workshop-3"}
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W", "purple": "P"}


@functools.cache
def thieves_rules(*others: str) -> Rules:
    """The base game with the Thieves (and ``others``), built once and shared."""
    return build_rules([THIEVES, *others])


def position(
    rules: Rules | None = None,
    *,
    players: int = 3,
    meeples: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
    tiles: Mapping[str, str] = TILES,
) -> tuple[Rules, State]:
    """The standard position (module docstring) with more ``meeples`` and tiles owned
    (each with a camel of its owner's)."""
    rules = rules or thieves_rules()
    state = rules.new_game(players, SEED)
    laid = {**BACKGROUND, **(meeples or {})}
    artisans = "artisans" in rules.ruleset
    if artisans:  # the Artisans' 6×6 board: the chasm and workshops away from the play
        tiles = {**tiles, **ARTISANS_TILES}
    state = board(rules, state, laid, clear=True, tiles=tiles, owners=owners)
    if artisans:
        layout = state.layout
        layout = attrs.evolve(layout, blocked=chasms(layout), walls=mountains(layout))
        state = attrs.evolve(state, layout=layout)
    for seat in set((owners or {}).values()):
        camels = state.players[seat].camels - list((owners or {}).values()).count(seat)
        state = player(rules, state, seat, camels=camels)
    return rules, turn_of(rules, state, 0)


def move(colour: str) -> tuple[str, str]:
    """The actions of a move collecting two meeples of ``colour`` on c3."""
    return ("pick b3", f"drop c3 {LETTER[colour]}")


def move_meeples(colour: str) -> dict[str, str]:
    return {"b3": LETTER[colour], "c3": LETTER[colour]}


def hold(rules: Rules, state: State, seat: int, deck: str, cards: Iterable[str]) -> State:
    """``seat`` also holds ``cards`` of ``deck``, taken out of that deck."""
    cards = tuple(cards)
    state = out_of_deck(rules, state, deck, cards)
    index = rules.deck_index[deck]
    return player(rules, state, seat, hands={deck: (*state.players[seat].hand(index), *cards)})


def lay_thieves(
    rules: Rules, state: State, row: Iterable[str] = (), draw: Iterable[str] | None = None
) -> State:
    """The thieves deck shows ``row`` face up; ``draw`` (top first) is its draw pile, or
    every other thief not held; nothing in the discards unless ``draw`` leaves some out."""
    index = rules.deck_index[THIEVES]
    deck = state.decks[index]
    loose = [*deck.draw, *deck.row, *deck.discard]
    row = tuple(row)
    for card in row:
        loose.remove(card)
    if draw is None:
        pile, rest = tuple(loose), ()
    else:
        pile = tuple(draw)
        rest_list = list(loose)
        for card in pile:
            rest_list.remove(card)
        rest = tuple(rest_list)
    new = Deck(draw=pile, row=row, discard=rest)
    return attrs.evolve(state, decks=replace_at(state.decks, index, new))


def thieves_of(rules: Rules, state: State, seat: int) -> tuple[str, ...]:
    return state.players[seat].hand(rules.deck_index[THIEVES])


def thieves_deck(rules: Rules, state: State) -> Deck:
    return state.decks[rules.deck_index[THIEVES]]


def conserved(rules: Rules, state: State) -> None:
    """Every component is still somewhere exactly once, and the thieves' own checks pass."""
    assert_invariants(rules, state)
