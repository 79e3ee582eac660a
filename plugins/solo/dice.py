"""Yazid's dice (facts Y6, Y13–Y16): each round a white die picks the column (1 leftmost)
and a black die the tile in it (1 bottom, 5 top) of the 5×6 base board. A black 6 means
two tiles: each is found by rolling both dice again, a black 6 or the first tile again
being rolled once more (the sheet's procedure was not found: UNCONFIRMED). Every roll
draws from the state's own generator, so a game replays exactly."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State, evolve, get_extra, set_extra

WHITE = "sultan.white"
BLACK = "sultan.black"
#: the round the dice were last rolled in
ROLLED = "sultan.rolled"
#: the target tiles, as board index + 1 (0: none)
TARGETS = ("sultan.target.1", "sultan.target.2")


def die(rules: Rules, rng: Rng) -> tuple[int, Rng]:
    face, rng = rng.below(rules.content.setting("die_sides"))
    return face + 1, rng


def tile_of(state: State, white: int, black: int) -> int:
    """The board index the dice name: column ``white`` from the left, tile ``black``
    from the bottom (row 1 of the board is its top row)."""
    rows, cols = state.layout.rows, state.layout.cols
    return (rows - black) * cols + (white - 1)


def roll_tile(rules: Rules, state: State, rng: Rng, avoid: int) -> tuple[int, Rng]:
    """Both dice again until they name a tile other than ``avoid``."""
    while True:
        white, rng = die(rules, rng)
        black, rng = die(rules, rng)
        if black <= state.layout.rows:
            tile = tile_of(state, white, black)
            if tile != avoid:
                return tile, rng


def roll(rules: Rules, state: State) -> State:
    """This round's roll: the dice and Yazid's one or two target tiles."""
    rng = state.rng
    white, rng = die(rules, rng)
    black, rng = die(rules, rng)
    if black == rules.content.setting("two_tiles_on"):
        first, rng = roll_tile(rules, state, rng, -1)
        second, rng = roll_tile(rules, state, rng, first)
        targets = [first, second]
    else:
        targets = [tile_of(state, white, black)]
    extras = set_extra(state.extras, WHITE, white)
    extras = set_extra(extras, BLACK, black)
    extras = set_extra(extras, ROLLED, state.round)
    for key, tile in zip(TARGETS, [*targets, -1][: len(TARGETS)], strict=True):
        extras = set_extra(extras, key, tile + 1)
    return evolve(state, rng=rng, extras=extras)


def rolled_this_round(state: State) -> bool:
    return get_extra(state.extras, ROLLED) == state.round


def dice(state: State) -> tuple[int, int]:
    return get_extra(state.extras, WHITE), get_extra(state.extras, BLACK)


def targets(state: State) -> list[int]:
    """Yazid's target tiles this round (board indices)."""
    return [get_extra(state.extras, key) - 1 for key in TARGETS if get_extra(state.extras, key)]


def outbid_cost(state: State) -> int:
    """What outbidding Yazid costs: the sum of the two dice (Y17)."""
    white, black = dice(state)
    return white + black
