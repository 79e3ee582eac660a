"""House rule: the village action also pays coins (``rich_village_coins`` in
rich_villages.toml) besides placing its palace.

It replaces the base game's ``tile:village`` stage, so it says so in ``REPLACES``.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.plugins.base.api import PlaceToken, current, gain_coins

NAME = "rich-villages"
VERSION = "1.0"
DESCRIPTION = "The village action also pays 2 coins (tile action)"
REPLACES = ("tile:village",)


class RichVillage(PlaceToken):
    """Pay the coins first, then do the usual village action (a palace)."""

    def enter(self, rules: Rules, state: State) -> State:
        coins = rules.content.setting("rich_village_coins")
        return super().enter(rules, gain_coins(state, current(state), coins))


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("rich_villages.toml")]


@hookimpl
def naqala_tile_actions() -> dict[str, Stage]:
    return {"village": RichVillage("palace")}
