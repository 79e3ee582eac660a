"""Forced chance: script what the game's chance will give next in a scenario.

Chance in naqala comes from two places: the order of the decks' draw piles (cards are
drawn from the top) and the state's seeded generator (``State.rng``), which draws meeples
from the bag (weighted by how many of each colour it holds) and reshuffles discard piles.
These helpers set both up *without creating or destroying anything*:

- ``stack_deck`` moves cards that are already in a deck onto the top of its draw pile.
- ``fill_bag`` makes the bag hold exactly the given meeples by swapping meeples between
  the bag and one *holding tile* the test names, so meeple totals stay conserved.
- ``next_draws`` shows the next raw values of the generator; ``reseed`` replaces it.

A bag holding a single colour makes every bag draw certain; a stacked draw pile makes
every card draw certain until the stacked cards run out.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State, replace_at

__all__ = ["ChanceError", "fill_bag", "next_draws", "reseed", "stack_deck"]


class ChanceError(ValueError):
    """Chance cannot be forced that way (a card or meeple that is not there to move)."""


def stack_deck(rules: Rules, state: State, deck_name: str, top: Sequence[str]) -> State:
    """Put the cards ``top`` (top card first) on top of the draw pile of the deck called
    ``deck_name`` (``resources`` or ``djinns``), so they are the next cards drawn.

    Each card is taken out of that same deck, searched in this order: the draw pile, the
    discard pile, then the face-up row (which then shows one card fewer, as after a card is
    taken from it). The rest of the draw pile keeps its order under the stacked cards.
    Nothing is created: a card named more often than the deck holds it (for example one
    that a player holds) is a ``ChanceError``, and the state is left as it was."""
    if deck_name not in rules.deck_names:
        raise ChanceError(
            f"no deck called {deck_name!r}; the decks are {', '.join(rules.deck_names)}"
        )
    index = rules.deck_index[deck_name]
    deck = state.decks[index]
    piles = {"draw": list(deck.draw), "discard": list(deck.discard), "row": list(deck.row)}
    for card in top:
        for pile in piles.values():
            if card in pile:
                pile.remove(card)
                break
        else:
            wanted = list(top).count(card)
            held = len([c for c in (*deck.draw, *deck.discard, *deck.row) if c == card])
            raise ChanceError(
                f"cannot stack {wanted} {card!r} on the {deck_name} deck: its draw pile, "
                f"discard pile and row hold {held}"
            )
    new = attrs.evolve(
        deck,
        draw=(*top, *piles["draw"]),
        discard=tuple(piles["discard"]),
        row=tuple(piles["row"]),
    )
    return attrs.evolve(state, decks=replace_at(state.decks, index, new))


def fill_bag(rules: Rules, state: State, letters: str, *, holding: str) -> State:
    """Make the bag hold exactly the meeples ``letters`` (``"RR"``: two red), swapping
    meeples with the tile ``holding`` (``"f5"``) so meeple totals stay conserved: meeples
    the bag holds beyond ``letters`` are put on the holding tile, and meeples it lacks are
    taken from the holding tile. Nothing else changes.

    A ``ChanceError`` if a letter is not a colour, the holding tile is impassable, or the
    holding tile lacks a meeple the bag needs. To fill the bag from an empty one (as at the
    start of a game, when every meeple is on the board), first put the meeples on the
    holding tile, e.g. ``scenario.board(rules, state, {...}, clear=True)`` returns every
    other tile's meeples to the bag, then ``fill_bag`` moves the surplus to the holding
    tile. The holding tile is a real tile: choose one the scenario does not look at."""
    unknown = sorted({ch for ch in letters if ch not in rules.letters})
    if unknown:
        raise ChanceError(
            f"{''.join(unknown)!r}: not meeple colour letters (the colours are {rules.letters})"
        )
    geo = state.geometry
    try:
        tile = geo.parse(holding)
    except ValueError as exc:
        raise ChanceError(str(exc)) from None
    if tile in geo.impassable:
        raise ChanceError(f"holding tile {holding} is impassable and cannot hold meeples")
    want = tuple(letters.count(ch) for ch in rules.letters)
    here = state.board.meeples[tile]
    # the bag gives (bag - want) to the holding tile, which may be negative (it takes)
    new_here = tuple(h + b - w for h, b, w in zip(here, state.bag, want, strict=True))
    short = [
        f"{-n} {rules.colours[c].id}" for c, n in enumerate(new_here) if n < 0
    ]  # what the holding tile would have to give but does not hold
    if short:
        raise ChanceError(
            f"the bag cannot hold {letters!r}: it and holding tile {holding} together lack "
            f"{', '.join(short)}"
        )
    board = attrs.evolve(state.board, meeples=replace_at(state.board.meeples, tile, new_here))
    return attrs.evolve(state, board=board, bag=want)


def next_draws(state: State | Rng, n: int) -> list[int]:
    """The next ``n`` raw 64-bit values the state's generator will give (the state is not
    changed). Stage code turns them into choices with ``Rng.below``, ``shuffled`` and
    ``choice_weighted``; a test can assert on them or replay them through an ``Rng``."""
    if n < 0:
        raise ValueError(f"next_draws() needs n >= 0, got {n}")
    rng = state.rng if isinstance(state, State) else state
    values: list[int] = []
    for _ in range(n):
        value, rng = rng.next64()
        values.append(value)
    return values


def reseed(state: State, seed: int, counter: int = 0) -> State:
    """The state with its generator replaced by ``Rng(seed, counter)``: the same position,
    a different (but again fully determined) chance from here on."""
    return attrs.evolve(state, rng=Rng(seed, counter))
