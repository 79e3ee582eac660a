"""Light updates for a page that already shows the game: a page following a game asks
for the seat's page at every change, and the picture (about 60 KB) and the card catalogue
(about 11 KB) were sent whole each time. A page names what it holds — the digest of its
picture and of its catalogue — and gets the picture as its pieces, each either new text
or the index of the same piece in the picture it holds, and the catalogue only when it
changed. Pieces are remembered by the digest of the picture they make, so a stale or
unknown digest (a restarted server, an evicted picture) simply gets everything."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

__all__ = ["Pictures", "catalogue_digest", "digest", "lighten"]

#: pictures remembered per game: each seat's latest few (pages may be a version behind)
REMEMBERED = 16


def digest(text: str) -> str:
    """A short digest naming a picture or a catalogue."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Pictures:
    """A game's recent pictures, as pieces, by their digest (oldest forgotten first)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, list[str]] = OrderedDict()

    def keep(self, parts: list[str]) -> str:
        name = digest("".join(parts))
        self._kept[name] = parts
        self._kept.move_to_end(name)
        while len(self._kept) > REMEMBERED:
            self._kept.popitem(last=False)
        return name

    def get(self, name: str) -> list[str] | None:
        return self._kept.get(name)


def lighten(
    page: dict[str, Any], parts: list[str], held: list[str] | None, cards_held: str
) -> dict[str, Any]:
    """``page`` without its whole picture and, if the page holds it, its catalogue:
    ``svg_parts`` (each piece's text, or the index of that piece in ``held``, the pieces
    of the picture the page shows), ``svg_hash`` and ``cards_hash`` to name them next
    time; ``cards`` is None when ``cards_held`` names the catalogue as it is."""
    light = dict(page)
    where = {part: index for index, part in enumerate(held or [])}
    light["svg"] = None
    light["svg_parts"] = [where.get(part, part) for part in parts]
    if cards_held and cards_held == page["cards_hash"]:
        light["cards"] = None
    return light


def catalogue_digest(cards: dict[str, Any]) -> str:
    """The digest of a card catalogue as the page receives it."""
    return digest(json.dumps(cards, sort_keys=True))
