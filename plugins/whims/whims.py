"""Sultan's Whims: what the box keeps of them in code, the count of those fulfilled.

Each whim is content (``content/whims.toml``): a card of the whims deck, its own kind,
whose power says in the effects language what it measures (``if = 'held("yellow") >=
param.at_least'``) and what claiming it does: ``claim <whim>`` (the deck's verb) counts it
in the player's ``whims.claimed``, pays its ``coins`` and fires ``whim-claimed``; the deck
lays it face up. The box declares that counter, which its content alone writes
(``naqala_writable_counters``), and its events (``naqala_events``).
"""

from __future__ import annotations

from naqala.core.state import State, get_extra

#: player counter: how many whims the player has fulfilled
CLAIMED = "whims.claimed"


def claimed(state: State, player: int) -> int:
    return get_extra(state.players[player].extras, CLAIMED)
