"""Where a meeple move under way can end, for the page of the seat moving: each end tile
with the colour it collects and how many, whether it takes the tile and what comes next
there (the meeples' action or the tile's), so a person sees the move's outcomes before
dropping. Nothing is worked out here: the ends are those the greedy AI weighs
(``agents.greedy_full.distinct_moves``, one walk per start, end and colour), each played
out through the rules in use (so a house rule that forbids a walk drops it), and the
outcome is read from the state that follows."""

from __future__ import annotations

from typing import Any

from naqala.agents.greedy_full import distinct_moves
from naqala.core.actions import Action
from naqala.core.board import tile_name
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.display.decisions import decision_title

__all__ = ["drop_warnings", "move_preview"]


def _plural(word: str, count: int) -> str:
    return word if count == 1 else word + "s"


def move_preview(rules: Rules, state: State) -> list[dict[str, Any]]:
    """The ends of the move under way (empty outside a move's drops), by end tile then
    colour: ``end``, ``tile`` (its kind), ``colour`` (its name) and ``letter``, ``taken``
    (meeples collected), ``captures`` (the mover claims the tile), ``then`` (the next
    decision there, in words, or ""), ``first`` (a first drop that leads there) and all
    of it in ``words``."""
    if state.is_over or state.decision.stage != "drop" or state.turn is None:
        return []
    player = state.decision.player
    cols = state.geometry.cols
    ends: dict[tuple[int, int], dict[str, Any]] = {}
    for plan in distinct_moves(rules, state):
        current = state
        before_last = state
        legal = True
        for action in plan:
            if not rules.is_legal(current, action):
                legal = False
                break
            before_last = current
            current = rules.apply(current, action)
        if not legal:
            continue
        last = plan[-1]
        end = before_last.geometry.parse(last.args[0])
        colour = rules.letters.index(last.args[1])
        if (end, colour) in ends:
            continue
        taken = before_last.board.meeples[end][colour] + 1
        captures = state.board.owners[end] != player and current.board.owners[end] == player
        mine = not current.is_over and current.decision.player == player
        then = decision_title(rules, current) if mine and current.decision.stage != "pick" else ""
        name = rules.colours[colour].name
        tile = rules.tile(state.layout.tiles[end]).kind.replace("-", " ").capitalize()
        ends[(end, colour)] = {
            "end": tile_name(end, cols),
            "tile": tile,
            "colour": name,
            "letter": rules.letters[colour],
            "taken": taken,
            "captures": captures,
            "then": then,
            "first": str(plan[0]),
            "words": f"{tile_name(end, cols)} ({tile}): {taken} {_plural(name, taken)}"
            + (", takes the tile" if captures else "")
            + (f"; then {then}" if then else ""),
        }
    return [ends[key] for key in sorted(ends)]


def drop_warnings(rules: Rules, state: State, options: list[Action]) -> dict[str, str]:
    """A warning for each drop of ``options`` that leaves its tile (with the hand going on)
    holding meeples of one colour only and no owner: the next player who ends a move
    there with that colour takes it. By the option's notation."""
    if state.is_over or state.decision.stage != "drop":
        return {}
    player = state.decision.player
    found = {}
    for option in options:
        if option.kind != "drop" or len(option.args) != 2:
            continue
        after = rules.apply(state, option)
        if after.decision.player != player or after.decision.stage != "drop":
            continue  # the last drop: its tile is collected
        tile = after.geometry.parse(option.args[0])
        meeples = after.board.meeples[tile]
        colours = [index for index, count in enumerate(meeples) if count]
        if len(colours) != 1 or after.board.owners[tile] != NOBODY:
            continue
        count, name = meeples[colours[0]], rules.colours[colours[0]].name
        found[str(option)] = (
            f"leaves {option.args[0]} with {count} {_plural(name, count)} only: a move "
            f"ending there with {'a' if name[0] not in 'AEIOU' else 'an'} {name} takes it"
        )
    return found
