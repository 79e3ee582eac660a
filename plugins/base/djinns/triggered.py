"""Djinns without a cost that react to events, and Boaz's protection."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.powers import Power
from naqala.core.state import NOBODY, State, count_effect
from naqala.plugins.base import events
from naqala.plugins.base.common import TARGET, change_kept, gain_coins
from naqala.plugins.base.djinns.common import draw_resource, pays_self_or_opponent
from naqala.plugins.base.tribes import ELDER, VIZIER, blue_tiles_around


class Nekir(Power):
    """Pays per meeple killed, or once per assassination when its ``per_assassination``
    param is 1 (the card's "kill Meeple(s)"; docs/rules-notes.md): then only the first
    kill of the turn's assassination pays, an Iblis double kill pays once."""

    when = "whenever assassins kill"
    effect = "You gain {self} coin(s) if they were your assassins, {opponent} if an opponent's"

    def describe(self, rules: Rules, card: CardSpec) -> str:
        how = (
            "once per assassination, even for a double kill (Iblis)"
            if card.param("per_assassination")
            else "for each meeple killed, so twice for a double kill (Iblis)"
        )
        return f"{self.effect.format(**card.params)}: {how}."

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        if event.name != events.KILL:
            return None
        later_kill = state.turn is not None and bool(TARGET.of(state.turn))
        if card.param("per_assassination") and later_kill:
            return None
        return pays_self_or_opponent(rules, state, owner, card, event.player)


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


class Boaz(Power):
    when = "always"
    effect = "Assassins cannot kill the viziers and elders in front of you."

    def protects(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[str]:
        return (VIZIER, ELDER)

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        if event.name == events.KILL_PREVENTED and event.victim == owner:
            return count_effect(state, card.id)
        return None
