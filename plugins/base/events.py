"""The names of the events the base game fires (``naqala_event``), declared once.

Plugins fire and compare events through these names, never through string literals, so a
misspelt event is an import error rather than a trigger that silently never runs. The
table in docs/hooks.md lists them with their fields (a test keeps the two in step).
"""

from __future__ import annotations

#: a meeple dropped during a move: ``player`` (mover), ``tile``, ``colour``
MEEPLE_DROPPED = "meeple-dropped"
#: a camel placed on a tile: ``player``, ``tile``
TILE_TAKEN = "tile-taken"
#: the assassins killed a meeple: ``player``, ``colour``, and ``tile`` or ``victim``
KILL = "kill"
#: builders were paid: ``player``, ``tile``, ``count`` (coins)
BUILDERS_PAID = "builders-paid"
#: a player took a djinn: ``player``, ``what`` (djinn id)
DJINN_TAKEN = "djinn-taken"
#: a protection hid an opponent's meeples from the assassins: ``player``, ``victim``
KILL_PREVENTED = "kill-prevented"
#: a suit sold: ``player``, ``count`` (the coins it paid)
SOLD = "sell"
#: the end of a round, once the rows are refilled, fired once for each player in seat
#: order (before ``clean-up``): ``player``
ROUND_END = "round-end"
#: the end of a round, once the resource and djinn rows are refilled; ``player`` is -1
CLEAN_UP = "clean-up"
#: the end of a turn, once the sale is done: ``player`` (whose turn it was)
TURN_END = "turn-end"
#: the start of a turn, its marker taken off the turn-order track, before the move (and
#: before the game asks whether a move is left): ``player`` (whose turn it is)
TURN_START = "turn-start"
#: the move done, before its tribe acts: ``player`` (whose turn it is), ``tile`` (where
#: the last meeple was dropped)
BEFORE_TRIBE_ACTION = "before-tribe-action"
#: the tribe's action done (and a thief's step after it), before the tile's action:
#: ``player`` (whose turn it is), ``tile``
AFTER_TRIBE_ACTION = "after-tribe-action"


def token_placed(token: str) -> str:
    """The event fired when a token of content id ``token`` is placed from the bank
    (``player``, ``tile``, ``what``: the token): ``palace-placed``, ``palm-tree-placed``."""
    return f"{token}-placed"


#: a palace placed from the bank
PALACE_PLACED = token_placed("palace")
#: a palm tree placed from the bank
PALM_TREE_PLACED = token_placed("palm-tree")

#: every event the base game fires
EVENTS = (
    MEEPLE_DROPPED,
    TILE_TAKEN,
    KILL,
    BUILDERS_PAID,
    PALACE_PLACED,
    PALM_TREE_PLACED,
    DJINN_TAKEN,
    KILL_PREVENTED,
    SOLD,
    ROUND_END,
    CLEAN_UP,
    TURN_START,
    BEFORE_TRIBE_ACTION,
    AFTER_TRIBE_ACTION,
    TURN_END,
)
