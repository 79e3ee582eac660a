"""How the Djinns of Naqala box looks in a picture (hook ``naqala_display``): Fabulous
Cities with the whim lying on each, the Great Lake, and the whims' draw pile."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display.hints import Display, Look
from naqala.plugins.whims.cities import offered, whims_index

TILES = {
    "city": Look("#f5e39a", "City", "Fabulous City"),
    "great-lake": Look("#86bedf", "Great Lake", "Great Lake (impassable)"),
}


def display(rules: Rules, state: State) -> Display:
    notes = {
        tile: rules.card_specs[card].name if card else "no whim"
        for tile, card in offered(rules, state)
    }
    pile = len(state.decks[whims_index(rules)].draw)
    return Display(
        tiles=TILES,
        tile_notes=notes,
        rows=(("Sultan's Whims", f"one on each city; {pile} in the pile"),),
    )
