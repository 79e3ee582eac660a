"""Move counts of small boards, written as text or as board-file dicts (``naqala perft``).

A board as text is one line per row, one space-separated word per tile: the colour letters
of its meeples (``YW``), ``.`` for an empty tile, ``#`` for an impassable one::

    count_moves('''
        YW . R
        W  # Y
    ''')  # -> {"moves": M, "paths": P}

Walls between tiles cannot be written in text; use a board-file dict (see
``naqala.testing.boardfile``) for them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from naqala.testing.boardfile import LETTERS, BoardFileError, parse_board
from naqala.testing.perft import count_moves as count_engine_moves

__all__ = ["EMPTY", "IMPASSABLE", "board_file", "count_moves"]

EMPTY = "."
IMPASSABLE = "#"


def board_file(text: str) -> dict[str, Any]:
    """The board-file dict of a board written as text (leading indentation and blank lines
    around it are ignored). A ``BoardFileError`` names the row and column of a bad word."""
    lines = [line.split() for line in textwrap.dedent(text).strip("\n").splitlines()]
    rows = [words for words in lines if words]
    if not rows:
        raise BoardFileError("board text: no rows")
    cols = len(rows[0])
    meeples: list[str] = []
    impassable: list[int] = []
    for r, words in enumerate(rows):
        if len(words) != cols:
            raise BoardFileError(
                f"board text: row {r + 1} has {len(words)} tiles, the first row has {cols}"
            )
        for c, word in enumerate(words):
            if word == EMPTY:
                meeples.append("")
            elif word == IMPASSABLE:
                meeples.append("")
                impassable.append(r * cols + c)
            elif all(ch in LETTERS for ch in word):
                meeples.append(word)
            else:
                raise BoardFileError(
                    f"board text: row {r + 1}, column {c + 1}: {word!r} is not meeple "
                    f"letters ({LETTERS}), {EMPTY!r} or {IMPASSABLE!r}"
                )
    return {
        "rows": len(rows),
        "cols": cols,
        "meeples": meeples,
        "impassable": impassable,
        "walls": [],
    }


def count_moves(board: str | Mapping[str, Any]) -> dict[str, int]:
    """``{"moves": M, "paths": P}`` of a board given as text or as a board-file dict, from
    the engine's own step-wise move lister (``naqala perft --enumerate``; plain ``naqala
    perft`` counts the same numbers without listing): M distinct legal moves (start, path,
    colour sequence), P distinct (start, path) pairs."""
    data = board_file(board) if isinstance(board, str) else dict(board)
    geo, meeples = parse_board(data, "board text" if isinstance(board, str) else "board")
    moves, paths = count_engine_moves(geo, meeples)
    return {"moves": moves, "paths": paths}
