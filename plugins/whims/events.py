"""The names of the events the Whims box fires (``naqala_event``), declared once beside
the base game's (``naqala.plugins.base.api``: ``TILE_TAKEN``, ``CLEAN_UP``…)."""

from __future__ import annotations

#: a whim went into a hand: ``player``, ``tile`` (the city), ``what`` (the whim)
WHIM_TAKEN = "whim-taken"
#: a whim was fulfilled: ``player``, ``what`` (the whim), ``count`` (coins paid)
WHIM_CLAIMED = "whim-claimed"

#: every event the Whims box fires
EVENTS = (WHIM_TAKEN, WHIM_CLAIMED)
