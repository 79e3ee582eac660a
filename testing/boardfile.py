"""Board files for move counting (``naqala perft``).

A board file is JSON: ``{"rows": R, "cols": C, "meeples": ["RWY", "", …], "impassable":
[tile indices], "walls": [[a, b], …]}`` — meeples row-major, one string of colour letters
per tile (Y W G B R P). Only the movement rule is involved, so no other content is needed.
Part of the testing kit, beside the counts it feeds (``naqala.testing.perft``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from naqala.core.board import Geometry, geometry
from naqala.core.documents import DocumentError, parse_json
from naqala.core.files import BOARD_LIMIT, FileRefused, decode_utf8, read_bounded
from naqala.core.state import Counts
from naqala.testing.perft import Engine, Progress, count_moves, count_moves_fast

LETTERS = "YWGBRP"


class BoardFileError(ValueError):
    """A board file that cannot be read; the message names the file and the field."""


def parse_board(data: Any, source: str = "board") -> tuple[Geometry, tuple[Counts, ...]]:
    """Geometry and meeples of a board document."""

    def fail(where: str, reason: str) -> BoardFileError:
        return BoardFileError(f"{source}: $.{where}: {reason}")

    if not isinstance(data, dict):
        raise BoardFileError(f"{source}: $: expected a JSON object")
    extra = set(data) - {"rows", "cols", "meeples", "impassable", "walls"}
    if extra:
        raise fail(sorted(extra)[0], "unknown field")
    rows, cols = data.get("rows"), data.get("cols")
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 26:
            raise fail(name, "expected an integer from 1 to 26")
    assert isinstance(rows, int) and isinstance(cols, int)
    size = rows * cols
    meeples_raw = data.get("meeples")
    if not isinstance(meeples_raw, list) or len(meeples_raw) != size:
        raise fail("meeples", f"expected a list of {size} strings (row-major)")
    meeples: list[Counts] = []
    for i, text in enumerate(meeples_raw):
        if not isinstance(text, str) or any(ch not in LETTERS for ch in text):
            raise fail(f"meeples[{i}]", f"expected a string of the letters {LETTERS}")
        meeples.append(tuple(text.count(ch) for ch in LETTERS))
    for name in ("impassable", "walls"):
        if not isinstance(data.get(name, []), list):
            raise fail(name, "expected a list")
    blocked: set[int] = set()
    for i, tile in enumerate(data.get("impassable", [])):
        if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < size:
            raise fail(f"impassable[{i}]", f"expected a tile index from 0 to {size - 1}")
        if any(meeples[tile]):
            raise fail(f"impassable[{i}]", "an impassable tile cannot hold meeples")
        blocked.add(tile)
    walls: set[tuple[int, int]] = set()
    for i, pair in enumerate(data.get("walls", [])):
        ok = (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t < size for t in pair)
        )
        if not ok:
            raise fail(f"walls[{i}]", "expected a pair of tile indices")
        a, b = sorted(pair)
        if abs(a // cols - b // cols) + abs(a % cols - b % cols) != 1:
            raise fail(f"walls[{i}]", "a wall must separate two orthogonally adjacent tiles")
        walls.add((a, b))
    return geometry(rows, cols, frozenset(blocked), frozenset(walls)), tuple(meeples)


def load_board(path: Path) -> tuple[Geometry, tuple[Counts, ...]]:
    """Geometry and meeples of the board file ``path`` (a regular file of at most
    ``BOARD_LIMIT`` bytes); ``BoardFileError`` naming the file otherwise."""
    try:
        raw = read_bounded(path, BOARD_LIMIT, "board file")
    except FileRefused as exc:
        raise BoardFileError(str(exc)) from None
    try:
        data = parse_json(decode_utf8(raw, str(path)))
    except FileRefused as exc:
        raise BoardFileError(f"{path}: not JSON: {str(exc).removeprefix(f'{path}: ')}") from None
    except DocumentError as exc:
        raise BoardFileError(f"{path}: {exc}") from None
    return parse_board(data, str(path))


def perft(
    path: Path,
    enumerate_moves: bool = False,
    max_seconds: float | None = None,
    progress: Progress | None = None,
    engine: Engine = "python",
) -> dict[str, int]:
    """``{"moves": M, "paths": P}`` for the board file at ``path``: counted per target
    tile (polynomial) on ``engine``, or with ``enumerate_moves`` by listing every move
    (exponential, the cross-check, on the Python engine: ``ValueError`` with a native
    ``engine``). ``PerftTimeout`` after ``max_seconds`` of CPU time."""
    if enumerate_moves and engine != "python":
        raise ValueError("listing every move (--enumerate) runs on the Python engine only")
    geo, meeples = load_board(path)
    if enumerate_moves:
        moves, paths = count_moves(geo, meeples, max_seconds, progress)
    else:
        moves, paths = count_moves_fast(geo, meeples, max_seconds, progress, engine)
    return {"moves": moves, "paths": paths}
