"""Events that triggers react to, and the score lines that scoring produces."""

from __future__ import annotations

import attrs

from naqala.core.state import NOBODY


@attrs.frozen(slots=True)
class Event:
    """Something that happened, for triggers (djinns, items) to react to.

    ``name`` is one of the event names documented in docs/hooks.md (``tile-taken``,
    ``meeple-dropped``, ``djinn-taken``, ``palace-placed``, ``palm-placed``, ``kill``…).
    ``player`` is who caused it; ``tile``, ``colour``, ``count`` and ``what`` say more.
    """

    name: str
    player: int
    tile: int = NOBODY
    colour: int = NOBODY
    count: int = 1
    what: str = ""
    victim: int = NOBODY


@attrs.frozen(slots=True)
class ScoreLine:
    """Points one player scores from one source, in one category."""

    category: str  # coins, viziers, elders, djinns, palm-trees, palaces, tiles, merchandise…
    points: int
    source: str  # the plugin or card that produced the line
    detail: str = ""
