"""How the Artisans' components look in a picture (hook ``naqala_display``): workshops,
specialized markets, the chasm, the purple artisans and the tents (in their owner's
colour)."""

from __future__ import annotations

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
