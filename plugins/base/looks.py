"""How the base game's components look in a picture (hook ``naqala_display``): tile
kinds, value badges, the five tribes, palm trees and palaces, the turn-order costs, the
words of the djinns' cost codes."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display.hints import Display, Look
from naqala.plugins.base.bidding import costs_in_play
from naqala.plugins.base.common import PIECES

DARK = "#222222"
LIGHT = "#ffffff"

TILES = {
    "village": Look("#ecd9b4", "Village", "village"),
    "sacred-place": Look("#dcd6ee", "Sacred place", "sacred place"),
    "oasis": Look("#cfe6c1", "Oasis", "oasis"),
    "small-market": Look("#f6dccb", "Small market", "small market"),
    "large-market": Look("#efc4a9", "Large market", "large market"),
}
VALUES = {
    "blue": Look("#2f6db5", "", "blue value", LIGHT, "disc"),
    "red": Look("#c0392b", "", "red value", LIGHT, "diamond"),
}
MEEPLES = {
    "yellow": Look("#f2c230", "Y", "Vizier (yellow)"),
    "white": Look("#fbfbf7", "W", "Elder (white)"),
    "green": Look("#3d9a4a", "G", "Merchant (green)", LIGHT),
    "blue": Look("#2e6fbd", "B", "Builder (blue)", LIGHT),
    "red": Look("#cc3333", "R", "Assassin (red)", LIGHT),
}
TOKENS = {
    "palm-tree": Look("#2e8b3e", "T", "palm tree", LIGHT, "tree"),
    "palace": Look("#f1d27a", "H", "palace", DARK, "palace"),
}


def display(rules: Rules, state: State) -> Display:
    return Display(
        tiles=TILES,
        values=VALUES,
        meeples=MEEPLES,
        tokens=TOKENS,
        turn_spots=tuple(str(cost) for cost in costs_in_play(rules, state)),
        costs={code: entry.words for code, entry in rules.cost_codes.items()},
        counter_lines={PIECES: "To place"},
    )
