"""What the other players did since a seat last decided, so that it is still on the page
when the seat's turn comes: each other player's turn with its meeple path (start first),
the tiles it took and its actions in words. The page draws the paths over the board until
the seat decides again; the log says every action in the same words as the options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from naqala.core.actions import NotationError, parse_action
from naqala.core.board import tile_name
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.display.svg import last_move, seat_colour, seat_label
from naqala.web.words import option_words

__all__ = ["logged_words", "turns_since"]


def logged_words(rules: Rules, before: State, text: str) -> str:
    """A recorded action as the options say it, its notation after it when they differ
    (a text that is no notation, such as a card hidden from the seat, as it is)."""
    try:
        words = option_words(rules, before, parse_action(text))
    except NotationError:
        return text
    return text if words == text else f"{words} ({text})"


def _since(states: Sequence[State], seat: int) -> int:
    """The index of the first action after ``seat``'s latest one (0 if it has none)."""
    for index in range(len(states) - 2, -1, -1):
        if states[index].decision.player == seat:
            return index + 1
    return 0


def turns_since(
    states: Sequence[State], count: int, seat: int, words_of: Callable[[int], str]
) -> list[dict[str, Any]]:
    """The other players' turns since ``seat`` last decided, oldest first: ``by`` (the
    label), ``colour``, ``path`` (tile names of its meeple move, start first; empty for a
    turn without one), ``took`` (tiles it claimed) and ``words`` (its actions in words).
    ``states`` holds the state before each of the ``count`` actions and the current one;
    ``words_of(i)`` says action ``i`` as the seat may know it."""
    turns: list[dict[str, Any]] = []
    index = _since(states, seat)
    while index < count:
        player = states[index].decision.player
        first = index
        move: tuple[int, ...] = ()
        while index < count and states[index].decision.player == player:
            move = last_move(states[index + 1]) or move
            index += 1
        if player in (seat, NOBODY):
            continue
        before, after = states[first], states[index]
        cols = before.geometry.cols
        owners = zip(before.board.owners, after.board.owners, strict=True)
        took = [tile_name(t, cols) for t, (a, b) in enumerate(owners) if a != b and b == player]
        turns.append(
            {
                "by": seat_label(player),
                "colour": seat_colour(player),
                "path": [tile_name(t, cols) for t in move],
                "took": took,
                "words": [words_of(i) for i in range(first, index)],
            }
        )
    return turns
