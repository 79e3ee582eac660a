"""Djinns without a cost that react to events (Kandicha)."""

from __future__ import annotations

from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.powers import Power
from naqala.core.state import NOBODY, State, count_effect
from naqala.plugins.base import events
from naqala.plugins.base.common import change_kept, gain_coins
from naqala.plugins.base.djinns.common import draw_resource
from naqala.plugins.base.tribes import ELDER, VIZIER, blue_tiles_around


class Kandicha(Power):
    when = "whenever your assassins kill a merchant, builder, vizier or elder"
    effect = (
        "A merchant: take the top resource card. A builder: gain the coins it would have "
        "earned ({coins_per_blue_tile} per blue tile around the tile it stood on). A vizier or "
        "elder: put it in "
        "front of you instead of in the bag. Each meeple of a double kill counts."
    )

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        if event.name != events.KILL or event.player != owner:
            return None
        colour = rules.colours[event.colour].id
        if colour == "green":
            state, drawn = draw_resource(rules, state, owner)
            if not drawn:
                return None
        elif colour == "blue" and event.tile != NOBODY:
            coins = card.param("coins_per_blue_tile") * blue_tiles_around(rules, state, event.tile)
            if not coins:
                return None
            state = gain_coins(state, owner, coins)
        elif colour in (VIZIER, ELDER):
            state = change_kept(state, owner, event.colour, 1)  # out of the bag again
        else:
            return None
        return count_effect(state, card.id)
