"""Fabulous Cities and the Sultan's Whims lying on them.

The whims deck's face-up row lies on the cities (``lies_on = "city"``), one slot per city
in board order (a1, b1, … f7); an empty slot is ``""`` (taken this round, or the deck ran
out). The city's action and Dalhan take the whim lying on a city (content, in the effects
language: ``take_lying``), and the base game fills each empty slot from the draw pile
at setup and clean-up (``lying.fill_places``). Claimed whims go face up to the deck's
discard pile and are never shuffled back.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import NOBODY, State
from naqala.plugins.base.api import places

CITY = "city"
WHIMS = "whims"
#: the source of the cities' score lines: the box's id (``ID`` in ``__init__``), as the
#: sheet names each plugin by what states store
SOURCE = "djinns"


def whims_index(rules: Rules) -> int:
    return rules.deck_index[WHIMS]


def city_tiles(rules: Rules, state: State) -> list[int]:
    """Board positions of the cities, in board order (the order of the whim slots)."""
    return places(rules, state, WHIMS)


def offered(rules: Rules, state: State) -> list[tuple[int, str]]:
    """Each city's position with the whim lying on it ("" if none), in board order."""
    return list(zip(city_tiles(rules, state), state.decks[whims_index(rules)].row, strict=True))


def cities_owned(rules: Rules, state: State, player: int) -> int:
    return sum(1 for t in city_tiles(rules, state) if state.board.owners[t] == player)


def city_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """Owning n cities scores ``city_vp`` · n² (5, 20, 45, 80, 125), in place of a tile
    value (the cities' own ``vp`` is 0)."""
    n = cities_owned(rules, state, player)
    points = rules.content.setting("city_vp") * n * n
    return [ScoreLine("cities", points, SOURCE, f"{n} cities")]


def city_notes(rules: Rules, state: State) -> list[str]:
    """A heading, then one line per city: its whim, what the whim asks and what it pays."""
    geo = state.geometry
    deck = state.decks[whims_index(rules)]
    lines = [f"Whims on cities ({len(deck.draw)} in the pile):"]
    for tile, card in offered(rules, state):
        owner = state.board.owners[tile]
        mark = f" (P{owner + 1})" if owner != NOBODY else ""
        lines.append(f"{geo.name(tile)}{mark} {whim_line(rules, card)}")
    return lines


def whim_line(rules: Rules, card: str) -> str:
    """``Blue Domes: control at least 3 blue-valued tiles → 10 coins``."""
    if not card:
        return "no whim"
    spec = rules.card_specs[card]
    condition = spec.text.rstrip(".")
    reward = spec.params.get("coins")
    paid = f" → {reward} coins" if reward is not None else ""
    return f"{spec.name}: {condition}{paid}"
