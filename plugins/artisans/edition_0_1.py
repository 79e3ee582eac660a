"""Version 0.1.0 of the Artisans as a plugin of its own: today's plugin with the 0.1.0
items and their powers, all content (content/artisans-items-0.1.0.toml). A record that
names artisans 0.1.0, or a state file of naqala 0.1 (state JSON version 1), is rebuilt
with it, so a game saved with naqala 0.1 still loads and replays as it was played."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from naqala.content import content_path
from naqala.core.hookspecs import hookimpl
from naqala.plugins import artisans

NAME = artisans.NAME
VERSION = "0.1.0"
EDITION = True  # a kept older version: state documents name its version
DESCRIPTION = f"{artisans.DESCRIPTION} (version 0.1.0: the designed items of naqala 0.1)"
REQUIRES = artisans.REQUIRES
REPLACES = artisans.REPLACES


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    return [content_path("artisans-items-0.1.0.toml"), content_path("artisans.toml")]


# every other hook is today's plugin's, unchanged (its items' powers too: the 0.1 items
# whose powers are content, as the Burning Scimitar, have none in code)
naqala_card_powers = artisans.naqala_card_powers
naqala_board_layout = artisans.naqala_board_layout
naqala_blocked_edges = artisans.naqala_blocked_edges
naqala_tribe_actions = artisans.naqala_tribe_actions
naqala_tile_actions = artisans.naqala_tile_actions
naqala_stages = artisans.naqala_stages
naqala_check_rules = artisans.naqala_check_rules
naqala_check_state = artisans.naqala_check_state
naqala_turn_fields = artisans.naqala_turn_fields
naqala_player_counters = artisans.naqala_player_counters
naqala_state_counters = artisans.naqala_state_counters
naqala_event = artisans.naqala_event
naqala_adjust_new_game = artisans.naqala_adjust_new_game
naqala_extra_options = artisans.naqala_extra_options
naqala_apply_extra = artisans.naqala_apply_extra
naqala_score_lines = artisans.naqala_score_lines
naqala_display = artisans.naqala_display
naqala_hidden_decks = artisans.naqala_hidden_decks
naqala_action_kinds = artisans.naqala_action_kinds
naqala_observation_parts = artisans.naqala_observation_parts
