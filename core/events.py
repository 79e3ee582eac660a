"""Events that triggers react to, and the score lines that scoring produces."""

from __future__ import annotations

import attrs

from naqala.core.state import NOBODY


@attrs.frozen(slots=True)
class Event:
    """Something that happened, for triggers (djinns, items) to react to.

    ``name`` is one of the names the plugin that fires it declares (the base game's in
    ``naqala.plugins.base.api``: ``TILE_TAKEN``, ``KILL``, ``PALM_TREE_PLACED``…), listed
    in docs/hooks.md. ``player`` is who caused it; ``tile``, ``colour``, ``count``, ``what``
    and ``victim`` say more.
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


@attrs.frozen(slots=True)
class Verdict:
    """Who won a finished game and why: ``winners`` (seats; empty when nobody did, as
    when the solo player loses to the Sultan), ``reason`` in words for the end screen and
    ``kind``, a short name of the outcome that ``naqala simulate`` counts (``assassins``)."""

    winners: tuple[int, ...]
    reason: str = ""
    kind: str = ""
