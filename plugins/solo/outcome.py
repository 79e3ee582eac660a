"""How a solo game ends and is shown: the verdict (Y8–Y12), the vizier bonus against
Yazid, and the lines that show his area and dice to the player."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine, Verdict
from naqala.core.state import State
from naqala.display.hints import Display
from naqala.plugins.solo import dice
from naqala.plugins.solo.sultan import (
    ASSASSIN,
    ELDER,
    LOSSES,
    LOST_TO_ASSASSINS,
    LOST_TO_DEBT,
    LOST_TO_DJINNS,
    LOST_TO_VIZIERS,
    PLAYER,
    VIZIER,
    camels_left,
    djinns_held,
    fakirs_held,
    held,
    lost_reason,
)

SOURCE = "solo"


def player_viziers(rules: Rules, state: State) -> int:
    return state.players[PLAYER].meeples[rules.colour_index[VIZIER]]


def loss(rules: Rules, state: State) -> int:
    """Why the player lost the finished game ``state``, or 0 if they won: an immediate
    loss, or at the end fewer viziers than Yazid or as many (Y12)."""
    reason = lost_reason(state)
    if reason:
        return reason
    return LOST_TO_VIZIERS if player_viziers(rules, state) <= held(state, VIZIER) else 0


def verdict(rules: Rules, state: State) -> Verdict:
    reason = loss(rules, state)
    if not reason:
        return Verdict(
            (PLAYER,),
            f"you outlasted Sultan Yazid with more viziers ({player_viziers(rules, state)} "
            f"to {held(state, VIZIER)})",
            "won",
        )
    settings = rules.content.settings
    why = {
        LOST_TO_ASSASSINS: f"Sultan Yazid gathered {held(state, ASSASSIN)} assassins "
        f"(you lose at {settings['assassins_lose']})",
        LOST_TO_DJINNS: f"Sultan Yazid gathered {len(djinns_held(rules, state))} djinns "
        f"(you lose at {settings['djinns_lose']})",
        LOST_TO_DEBT: "you could not pay Sultan Yazid for his builders",
        LOST_TO_VIZIERS: f"Sultan Yazid's council has {held(state, VIZIER)} viziers to your "
        f"{player_viziers(rules, state)}: you need more",
    }[reason]
    return Verdict((), why, f"lost: {LOSSES[reason]}")


def vizier_bonus(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """The base game's vizier majority bonus with Yazid as the one opponent (Y1, Y8;
    ``yazid_vizier_bonus``, UNCONFIRMED)."""
    if not rules.content.setting("yazid_vizier_bonus"):
        return []
    if player_viziers(rules, state) <= held(state, VIZIER):
        return []
    return [
        ScoreLine(
            "vizier-majority",
            rules.content.setting("vizier_bonus"),
            SOURCE,
            "more viziers than Sultan Yazid",
        )
    ]


def sultan_lines(rules: Rules, state: State) -> list[tuple[str, str]]:
    """Yazid's area and this round's dice, as labelled lines of public information."""
    settings = rules.content.settings
    djinns = djinns_held(rules, state)
    names = ", ".join(rules.card_specs[d].name or d for d in djinns)
    area = (
        f"{held(state, VIZIER)} viziers, {held(state, ELDER)} elders, "
        f"{held(state, ASSASSIN)}/{settings['assassins_lose']} assassins, "
        f"{fakirs_held(state)} Fakirs, {len(djinns)}/{settings['djinns_lose']} djinns"
        + (f" ({names})" if names else "")
        + f", {camels_left(state)} camels left"
    )
    lines = [("Sultan Yazid", area)]
    if dice.rolled_this_round(state):
        white, black = dice.dice(state)
        tiles = " and ".join(state.geometry.name(t) for t in dice.targets(state))
        lines.append(("Yazid's dice", f"white {white}, black {black}: {tiles}"))
    return lines


def notes(rules: Rules, state: State) -> list[str]:
    return [f"{label}: {text}" for label, text in sultan_lines(rules, state)]


def display(rules: Rules, state: State) -> Display:
    """Yazid's area is drawn as the panel of what is set aside beside the board (his
    meeples as chips, his cards by name), with his camels and how near he is to a win;
    this round's dice go to the side panel."""
    settings = rules.content.settings
    lines = (
        f"Camels left {camels_left(state)}",
        f"Assassins {held(state, ASSASSIN)} of {settings['assassins_lose']} · "
        f"Djinns {len(djinns_held(rules, state))} of {settings['djinns_lose']} "
        "(you lose at either)",
    )
    dice_rows = [row for row in sultan_lines(rules, state) if row[0] != "Sultan Yazid"]
    return Display(rows=tuple(dice_rows), aside_title="Sultan Yazid", aside_lines=lines)
