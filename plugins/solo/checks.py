"""What the solo mode checks: a board the dice can address, and Yazid's camels."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.engine import Rules
from naqala.core.state import NON_PLAYER, State, get_extra
from naqala.core.validate import Problem, shown
from naqala.plugins.base.api import board_shape
from naqala.plugins.solo.dice import BLACK, ROLLED, TARGETS, WHITE
from naqala.plugins.solo.rounds import AFTER, OUTBID
from naqala.plugins.solo.sultan import CAMELS, LOSSES, LOST, camels_left


def rules_problems(rules: Rules) -> Iterable[str]:
    """The white die must count the columns and the black die, less its two-tile face,
    the rows (Y14–Y16: the 5×6 base board)."""
    sides = rules.content.setting("die_sides")
    two = rules.content.setting("two_tiles_on")
    rows, cols = board_shape(rules)
    if (rows, cols) != (sides - 1, sides):
        yield (
            f"settings.die_sides: {sides}-sided dice address a {sides - 1}×{sides} board, "
            f"but these rules lay out {rows}×{cols}"
        )
    if two != sides:
        yield f"settings.two_tiles_on: {two} must be the black die's last face, {sides}"
    for key in ("assassins_lose", "djinns_lose", "non_player_camels"):
        if rules.content.setting(key) < 1:
            yield f"settings.{key}: must be at least 1"


#: the counters the solo mode keeps in a state's ``extras`` (hook ``naqala_state_counters``)
STATE_COUNTERS = (WHITE, BLACK, ROLLED, *TARGETS, OUTBID, AFTER, CAMELS, LOST)


def state_problems(rules: Rules, state: State) -> Iterable[Problem]:
    """Yazid's camels in supply and on his tiles make ``non_player_camels``; his dice,
    targets and round counters are values they can take."""
    placed = sum(1 for owner in state.board.owners if owner == NON_PLAYER)
    want = rules.content.setting("non_player_camels")
    if camels_left(state) + placed != want:
        yield Problem(
            f"$.extras.{CAMELS}",
            f"{camels_left(state)} in supply and {placed} on tiles; Yazid has {want}",
        )
    sides = rules.content.setting("die_sides")
    tiles = len(state.layout.tiles)
    ranges = {
        WHITE: (0, sides, f"a face of the {sides}-sided die (0: not rolled)"),
        BLACK: (0, sides, f"a face of the {sides}-sided die (0: not rolled)"),
        ROLLED: (0, state.round, "a round played so far (0: never)"),
        OUTBID: (0, state.round, "a round played so far (0: never)"),
        AFTER: (0, 1, "0 or 1"),
        **{key: (0, tiles, "a tile of the board, counted from 1 (0: none)") for key in TARGETS},
    }
    for key, (least, most, meaning) in ranges.items():
        value = get_extra(state.extras, key)
        if not least <= value <= most:
            yield Problem(f"$.extras.{key}", f"{shown(value)} is not {meaning}")
    lost = get_extra(state.extras, LOST)
    if lost and lost not in LOSSES:
        known = ", ".join(f"{code} ({why})" for code, why in LOSSES.items())
        yield Problem(f"$.extras.{LOST}", f"{shown(lost)} is no reason to lose ({known})")
