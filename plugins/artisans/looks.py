"""How the Artisans' components look in a picture (hook ``naqala_display``): workshops,
specialized markets, the chasm, the purple artisans and the tents (in their owner's
colour)."""

from __future__ import annotations

import attrs

from naqala.core.engine import Rules
from naqala.display.hints import Display, Look

LIGHT = "#ffffff"

DISPLAY = Display(
    tiles={
        "workshop": Look("#d5dbe3", "Workshop", "workshop"),
        "specialized-market": Look("#f3cfe0", "Special market", "specialized market"),
        "chasm": Look("#5a4535", "Chasm", "chasm (impassable)", LIGHT),
    },
    meeples={"purple": Look("#7d4fa6", "P", "Artisan (purple)", LIGHT)},
    tokens={"tent": Look("#8a6d3b", "t", "tent (owner's colour)", LIGHT, "tent", owned=True)},
)


def display(rules: Rules) -> Display:
    """The looks, the tent saying how it scores with these rules' number."""
    vp = rules.content.setting("tent_red_tile_vp")
    says = (
        "put instead of a camel on a tile you take this turn; scores "
        f"{vp} VP for each red-valued tile in the 3×3 area around it, its own included"
    )
    tokens = {id_: attrs.evolve(look, says=says) for id_, look in DISPLAY.tokens.items()}
    return attrs.evolve(DISPLAY, tokens=tokens)
