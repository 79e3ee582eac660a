"""Tents: each player has one, placed instead of a camel on a tile they take control of.

The choice is offered, for the rest of the turn, on each tile taken this turn: ``tent
<tile>`` puts the tent there and the camel back in the player's supply. The last-camel
end trigger waits for the tent too (a ``piece.tent`` counter). A tent scores 1 VP per
red-valued tile in the 3×3 area around it, its own tile included (mountains ignored)."""

from __future__ import annotations

from naqala.core.actions import Action, action_of
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.state import (
    NOBODY,
    State,
    add_at,
    evolve,
    get_extra,
    replace_at,
    set_extra,
)
from naqala.core.turnfields import tiles_field
from naqala.core.validate import Problem, shown
from naqala.plugins.base.api import PIECES, TILE_TAKEN

TENT = "tent"
PIECE = PIECES + TENT
#: the tiles the player took control of this turn, where the tent may still go (hook
#: ``naqala_turn_fields``); written in the state JSON after ``resume``, where the core's
#: ``Turn`` kept it before 0.3
CLAIMED = tiles_field("claimed", "tiles the player took control of this turn", "resume")


def give_tents(state: State) -> State:
    players = tuple(evolve(p, extras=set_extra(p.extras, PIECE, 1)) for p in state.players)
    return evolve(state, players=players)


def note_claimed(state: State, event: Event) -> State | None:
    """A tile the turn's own player takes (``tile-taken``) joins the turn's ``claimed``
    tiles; one taken for another player (a thief's) does not."""
    turn = state.turn
    if event.name != TILE_TAKEN or turn is None or state.markers[turn.marker] != event.player:
        return None
    return evolve(state, turn=CLAIMED.on(turn, (*CLAIMED.of(turn), event.tile)))


def tent_options(rules: Rules, state: State) -> list[Action]:
    turn = state.turn
    player = state.decision.player
    if turn is None or turn.revealed or turn.resume:
        return []  # not while revealed cards are being chosen from
    if player < 0 or state.markers[turn.marker] != player:
        return []
    if get_extra(state.players[player].extras, PIECE) == 0:
        return []
    tent = rules.token_index[TENT]
    return [
        action_of(TENT, state.geometry.name(tile))
        for tile in sorted(set(CLAIMED.of(turn)))
        if state.board.owners[tile] == player and not state.board.tokens[tile][tent]
    ]


def pitch_tent(rules: Rules, state: State, action: Action) -> State | None:
    if action.kind != TENT:
        return None
    player = state.decision.player
    tile = state.geometry.parse(action.args[0])
    tent = rules.token_index[TENT]
    p = state.players[player]
    p = evolve(p, camels=p.camels + 1, extras=set_extra(p.extras, PIECE, 0))
    tokens = replace_at(state.board.tokens, tile, add_at(state.board.tokens[tile], tent, 1))
    state = state.replace_player(player, p)
    return evolve(
        state, board=evolve(state.board, tokens=tokens), pool=add_at(state.pool, tent, -1)
    )


def tent_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    tent = rules.token_index[TENT]
    per_tile = rules.content.setting("tent_red_tile_vp")
    lines = []
    for tile, owner in enumerate(state.board.owners):
        if owner != player or not state.board.tokens[tile][tent]:
            continue
        red = sum(
            1 for t in state.geometry.area[tile] if rules.tile(state.layout.tiles[t]).value == "red"
        )
        name = state.geometry.name(tile)
        lines.append(
            ScoreLine("tent", red * per_tile, "artisans", f"{red} red tiles around {name}")
        )
    return lines


def tent_problems(rules: Rules, state: State) -> list[Problem]:
    """Each player has one tent: still to place (``piece.tent`` 1) or on a tile they own."""
    tent = rules.token_index[TENT]
    problems = []
    for tile, placed in enumerate(state.board.tokens):
        if placed[tent] and (placed[tent] > 1 or state.board.owners[tile] == NOBODY):
            problems.append(
                Problem(
                    f"$.board.tiles[{tile}].tokens.{TENT}",
                    "a tent stands alone on a tile its player owns",
                )
            )
    for seat, player in enumerate(state.players):
        pitched = sum(
            1
            for tile, owner in enumerate(state.board.owners)
            if owner == seat and state.board.tokens[tile][tent]
        )
        if get_extra(player.extras, PIECE) + pitched != 1:
            problems.append(
                Problem(
                    f"$.players[{seat}].extras.{PIECE}",
                    f"the player's one tent: {shown(get_extra(player.extras, PIECE))} to place and "
                    f"{pitched} pitched",
                )
            )
    return problems
