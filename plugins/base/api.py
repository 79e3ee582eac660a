"""The base game's public surface: everything expansions, house rules, the command line
and the testing kit may build on, in one module.

Import from here, never from the base plugin's other modules: those are free to change,
these names are kept (docs/plugin-api.md describes each group). import-linter checks it
(``lint-imports``; the contracts are in pyproject.toml).
"""

from __future__ import annotations

from naqala.plugins.base.bidding import turn_order_costs
from naqala.plugins.base.cards import (
    MEEPLES_SETTLED,
    Activated,
    leaves_a_pick,
    own_turn,
    resume_interrupted,
)
from naqala.plugins.base.cards import score_lines as card_score_lines
from naqala.plugins.base.checks import shape_problems, uses_board_shape
from naqala.plugins.base.common import (
    FAKIR,
    KILLS,
    PIECES,
    REACH,
    TARGET,
    add_cards,
    change_kept,
    current,
    discard_cards,
    discard_from_hand,
    draw_cards,
    fakirs_held,
    gain_coins,
    give_cards,
    keep_meeples,
    kept,
    marked_by_stand_in,
    owned_tiles,
    pieces_left,
    place_token,
    release_tile,
    set_deck,
    take_from_row,
    take_tile,
    tiles_around,
)
from naqala.plugins.base.costs import PAYMENT_UNITS, cost_payments, cost_words, payment_words
from naqala.plugins.base.djinns.common import draw_resource
from naqala.plugins.base.events import (
    AFTER_TRIBE_ACTION,
    BEFORE_TRIBE_ACTION,
    BUILDERS_PAID,
    CLEAN_UP,
    DJINN_TAKEN,
    KILL,
    KILL_PREVENTED,
    MEEPLE_DROPPED,
    PALACE_PLACED,
    PALM_TREE_PLACED,
    ROUND_END,
    SOLD,
    TILE_TAKEN,
    TURN_END,
    TURN_START,
    token_placed,
)
from naqala.plugins.base.events import EVENTS as BASE_EVENTS
from naqala.plugins.base.flow import BaseFlow
from naqala.plugins.base.lying import lying_on, places, take_lying
from naqala.plugins.base.merchandise import merchandise_types
from naqala.plugins.base.movement import (
    DropStage,
    PickStage,
    colour_masks,
    legal_drops,
    legal_starts,
)
from naqala.plugins.base.placing import place_token_for
from naqala.plugins.base.setup import board_shape
from naqala.plugins.base.tiles import (
    SKIP,
    WHOLE_ROW,
    Market,
    PlaceToken,
    final_tile,
    take_djinn_card,
)

__all__ = [
    "AFTER_TRIBE_ACTION",
    "BASE_EVENTS",
    "BEFORE_TRIBE_ACTION",
    "BUILDERS_PAID",
    "CLEAN_UP",
    "DJINN_TAKEN",
    "FAKIR",
    "KILL",
    "KILLS",
    "KILL_PREVENTED",
    "MEEPLES_SETTLED",
    "MEEPLE_DROPPED",
    "PALACE_PLACED",
    "PALM_TREE_PLACED",
    "PAYMENT_UNITS",
    "PIECES",
    "REACH",
    "ROUND_END",
    "SKIP",
    "SOLD",
    "TARGET",
    "TILE_TAKEN",
    "TURN_END",
    "TURN_START",
    "WHOLE_ROW",
    "Activated",
    "BaseFlow",
    "DropStage",
    "Market",
    "PickStage",
    "PlaceToken",
    "add_cards",
    "board_shape",
    "card_score_lines",
    "change_kept",
    "colour_masks",
    "cost_payments",
    "cost_words",
    "current",
    "discard_cards",
    "discard_from_hand",
    "draw_cards",
    "draw_resource",
    "fakirs_held",
    "final_tile",
    "gain_coins",
    "give_cards",
    "keep_meeples",
    "kept",
    "leaves_a_pick",
    "legal_drops",
    "legal_starts",
    "lying_on",
    "marked_by_stand_in",
    "merchandise_types",
    "own_turn",
    "owned_tiles",
    "payment_words",
    "pieces_left",
    "place_token",
    "place_token_for",
    "places",
    "release_tile",
    "resume_interrupted",
    "set_deck",
    "shape_problems",
    "take_djinn_card",
    "take_from_row",
    "take_lying",
    "take_tile",
    "tiles_around",
    "token_placed",
    "turn_order_costs",
    "uses_board_shape",
]
