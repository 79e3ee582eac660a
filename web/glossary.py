"""What each tile and piece on the board does, for the page's list beside the options: a
tile kind's action with these rules' numbers (``Stage.summary``: ``Small market: buy one
card for 3 coins (of the first 3)``, the specialized market's, the city's), and each
piece whose look says what it means in play (the tent's scoring)."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display.hints import collect, tile_summary

__all__ = ["glossary"]


def glossary(rules: Rules, state: State) -> list[str]:
    """One line per tile kind on the board, in board order of first sight, then one per
    piece with words of its own."""
    display = collect(rules, state)
    kinds = dict.fromkeys(rules.tile(tile).kind for tile in state.layout.tiles)
    lines = []
    for kind in kinds:
        look = display.tiles.get(kind)
        name = (look.name if look is not None and look.name else kind).replace("-", " ")
        summary = tile_summary(rules, kind)
        if summary:
            lines.append(summary)
        elif f"tile:{kind}" in rules.stages:
            lines.append(f"{name.capitalize()}: its action is offered when a move ends there")
        else:
            lines.append(f"{name.capitalize()}: no action")
    for token in rules.tokens:
        look = display.tokens.get(token.id)
        if look is not None and look.says:
            lines.append(f"{token.name}: {look.says}")
    return lines
