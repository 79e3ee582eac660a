"""Final scoring of the base game (rulebook "Victory Points"), as score lines."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import State
from naqala.plugins.base.common import owned_tiles
from naqala.plugins.base.merchandise import best_suits, merchandise_types, suit_value
from naqala.plugins.base.tribes import ELDER, VIZIER

SOURCE = "base"


def score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    content = rules.content
    me = state.players[player]
    vizier = rules.colour_index[VIZIER]
    elder = rules.colour_index[ELDER]
    viziers = me.meeples[vizier]
    beaten = sum(
        1
        for other, p in enumerate(state.players)
        if other != player and p.meeples[vizier] < viziers
    )
    owned = owned_tiles(state, player)
    lines = [
        ScoreLine("coins", me.coins, SOURCE, f"{me.coins} coins"),
        ScoreLine("viziers", viziers * content.setting("vizier_vp"), SOURCE, f"{viziers} viziers"),
        ScoreLine(
            "vizier-majority",
            beaten * content.setting("vizier_bonus"),
            SOURCE,
            f"{beaten} opponents with fewer viziers",
        ),
        ScoreLine(
            "elders",
            me.meeples[elder] * content.setting("elder_vp"),
            SOURCE,
            f"{me.meeples[elder]} elders",
        ),
        ScoreLine(
            "djinns",
            sum(rules.card_specs[d].vp for d in me.djinns),
            SOURCE,
            f"{len(me.djinns)} djinns",
        ),
    ]
    for index, token in enumerate(rules.tokens):
        if not token.vp:
            continue  # a marker such as a tent scores by its own rule
        count = sum(state.board.tokens[t][index] for t in owned)
        lines.append(ScoreLine(f"{token.id}s", count * token.vp, SOURCE, f"{count} on your tiles"))
    tile_vp = sum(rules.tile(state.layout.tiles[t]).vp for t in owned)
    lines.append(ScoreLine("tiles", tile_vp, SOURCE, f"{len(owned)} tiles"))
    kinds = merchandise_types(rules)
    suits = best_suits(c for c in me.cards if c in kinds)
    lines.append(
        ScoreLine(
            "merchandise",
            sum(suit_value(rules, n) for n in suits),
            SOURCE,
            "suits of " + (", ".join(map(str, suits)) if suits else "none"),
        )
    )
    return lines
