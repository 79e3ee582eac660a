"""Every game of a study as one row of data (``--games-out FILE``), and back.

A question the lab did not foresee should need a data frame, not new code: each row is
what the game recorded (``GameResult``) with the study it belongs to (``side``: the run's
label, e.g. ``baseline``/``variant`` of a comparison or a skill matrix's cell) and its
rule set, written as JSON Lines, or as Parquet when the file name ends in ``.parquet``
(pyarrow, from the ``lab`` extra). The file is written atomically: whole or untouched.
``read_rows`` takes the rows back (checked: one line naming the file and row when one
is not a game row) and ``result_of_row`` rebuilds the ``GameResult`` the lab's reports
read, so ``naqala report`` builds them again without replaying a game.

Since version 2 a row also has what the game's decisions add up to (recorded alike by
both engines, ``naqala.lab.game_stats``): each round's turn order and the coins each
player paid for it, the coins paid by player and by turn position, and by seat the number
of decisions, the legal options at each (by stage) and the AI's seconds. Rows of version 1
are still read; their reports leave those items out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from naqala.core.record import write_atomically
from naqala.lab import require
from naqala.lab.game_stats import STATS_FIELDS, stats_fields, stats_of_row, stats_problem
from naqala.lab.results import GameResult

#: the row format's version, in every row
VERSION = 2
#: the versions still read (1: no play fields)
READ_VERSIONS = (1, 2)

#: the fields of a row, in the order they are written
FIELDS = (
    "version",
    "side",
    "rules",
    "seed",
    "players",
    "seats",
    "bid_order",
    "bid_position",
    "rounds",
    "actions",
    "scores",
    "winners",
    "verdict",
    "end",
    "categories",
    "round_scores",
    "djinns",
    "tile_points",
    "effects",
    *STATS_FIELDS,
)


class GameRowsError(ValueError):
    """A games file that cannot be written or read back: one line naming it."""


def row_of(result: GameResult, side: str, rules: Sequence[str]) -> dict[str, Any]:
    """The row of one game: ``side`` names the study it belongs to, ``rules`` its rule set
    (plugin names). ``bid_order`` lists the players by first-round bidding position (the
    order drawn at set-up) and ``bid_position`` gives each seat's, from 1."""
    players = len(result.scores)
    position = [0] * players
    for k, who in enumerate(result.start_order, start=1):
        if 0 <= who < players:
            position[who] = k
    return {
        "version": VERSION,
        "side": side,
        "rules": list(rules),
        "seed": result.seed,
        "players": players,
        "seats": list(result.agents),
        "bid_order": list(result.start_order),
        "bid_position": position if result.start_order else [],
        "rounds": result.rounds,
        "actions": result.actions,
        "scores": list(result.scores),
        "winners": list(result.winners),
        "verdict": result.verdict,
        "end": list(result.flags),
        "categories": [dict(sorted(c.items())) for c in result.categories],
        "round_scores": [list(s) for s in result.round_scores],
        "djinns": [list(held) for held in result.djinns],
        "tile_points": [dict(p) for p in result.tile_points],
        "effects": dict(sorted(result.effects.items())),
        **stats_fields(result.play),
    }


def rows_of(
    sides: Iterable[tuple[str, Sequence[str], Sequence[GameResult]]],
) -> list[dict[str, Any]]:
    """The rows of several studies: ``(side, rules, results)`` each, in that order."""
    return [row_of(r, side, rules) for side, rules, results in sides for r in results]


def is_parquet(path: Path) -> bool:
    return path.name.lower().endswith(".parquet")


def check_target(path: Path) -> None:
    """Refuse, before any game is played, a file that could not be written: Parquet
    without pyarrow (naming the extra), a folder, a missing directory."""
    if is_parquet(path):
        require("pyarrow", "--games-out FILE.parquet")
    if path.is_dir():
        raise GameRowsError(f"--games-out {path}: is a folder, not a file")
    if not path.parent.is_dir():
        raise GameRowsError(f"--games-out {path}: no folder {path.parent}")


def write_rows(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` to ``path`` atomically: JSON Lines, or Parquet for ``.parquet``."""
    data = _parquet(rows) if is_parquet(path) else _jsonl(rows)
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise GameRowsError(f"--games-out {path}: {exc.strerror or exc}") from None


def _jsonl(rows: Sequence[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()


def _parquet_schema() -> Any:
    pa = require("pyarrow", "--games-out FILE.parquet")
    ints = pa.list_(pa.int64())
    points = pa.map_(pa.string(), pa.int64())
    return pa.schema(
        [
            ("version", pa.int64()),
            ("side", pa.string()),
            ("rules", pa.list_(pa.string())),
            ("seed", pa.uint64()),
            ("players", pa.int64()),
            ("seats", pa.list_(pa.string())),
            ("bid_order", ints),
            ("bid_position", ints),
            ("rounds", pa.int64()),
            ("actions", pa.int64()),
            ("scores", ints),
            ("winners", ints),
            ("verdict", pa.string()),
            ("end", pa.list_(pa.string())),
            ("categories", pa.list_(points)),
            ("round_scores", pa.list_(ints)),
            ("djinns", pa.list_(pa.list_(pa.string()))),
            ("tile_points", pa.list_(points)),
            ("effects", points),
            ("turn_order", pa.list_(ints)),
            ("turn_paid", pa.list_(ints)),
            ("paid", ints),
            ("paid_by_position", ints),
            ("decisions", ints),
            ("options", pa.list_(pa.map_(pa.string(), ints))),
            ("ai_seconds", pa.list_(pa.float64())),
        ]
    )


def _parquet(rows: Sequence[dict[str, Any]]) -> bytes:
    pa = require("pyarrow", "--games-out FILE.parquet")
    parquet = require("pyarrow.parquet", "--games-out FILE.parquet")
    table = pa.Table.from_pylist(list(rows), schema=_parquet_schema())
    sink = pa.BufferOutputStream()
    parquet.write_table(table, sink)
    data: bytes = sink.getvalue().to_pybytes()
    return data


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a games file (JSON Lines, or Parquet by its name), each checked."""
    try:
        if is_parquet(path):
            parquet = require("pyarrow.parquet", "reading a .parquet games file")
            try:
                rows = parquet.read_table(path).to_pylist()
            except (
                OSError,
                ValueError,
                TypeError,
            ) as exc:  # pyarrow's own errors for a file that is no Parquet
                raise GameRowsError(f"{path}: not a Parquet games file ({exc})") from None
            rows = [_from_parquet(row) for row in rows]
        else:
            rows = []
            with path.open(encoding="utf-8") as handle:
                for number, line in enumerate(handle, start=1):
                    if line.strip():
                        rows.append(_json_row(path, number, line))
    except OSError as exc:
        raise GameRowsError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GameRowsError(f"{path}: not a text file of JSON lines") from None
    for number, row in enumerate(rows, start=1):
        problem = _problem(row)
        if problem:
            raise GameRowsError(f"{path}, row {number}: {problem}")
    return rows


def _json_row(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise GameRowsError(f"{path}, line {number}: not JSON ({exc.msg})") from None
    if not isinstance(row, dict):
        raise GameRowsError(f"{path}, line {number}: not a game row (an object)")
    return row


def _from_parquet(row: dict[str, Any]) -> dict[str, Any]:
    """Parquet's maps come back as lists of pairs: dicts again."""
    for key in ("categories", "tile_points"):
        row[key] = [dict(pairs) for pairs in row.get(key) or []]
    row["effects"] = dict(row.get("effects") or [])
    if row.get("options") is not None:
        row["options"] = [dict(pairs) for pairs in row["options"]]
    return row


def _is_ints(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    )


def _problem(row: dict[str, Any]) -> str:
    """What makes ``row`` no game row of this version ('' when it is one)."""
    version = row.get("version")
    if version not in READ_VERSIONS:
        return f"version {version!r}, not {VERSION} (a naqala game row)"
    expected = FIELDS if version == VERSION else FIELDS[: -len(STATS_FIELDS)]
    missing = [f for f in expected if f not in row]
    if missing:
        return f"missing {', '.join(missing)}"
    players = row["players"]
    if not isinstance(players, int) or not 1 <= players <= 16:
        return f"players {players!r} is not a player count"
    if not isinstance(row["side"], str) or not _is_ints([row["seed"]]) or row["seed"] < 0:
        return "side must be text and seed a whole number ≥ 0"
    for key in ("scores", "winners", "bid_order", "bid_position"):
        if not _is_ints(row[key]):
            return f"{key} must be a list of whole numbers"
    if len(row["scores"]) != players:
        return f"{len(row['scores'])} scores for {players} players"
    if any(not 0 <= w < players for w in [*row["winners"], *row["bid_order"]]):
        return "a winner or bidder is not a seat of the game"
    if len(row["categories"]) != players or not all(isinstance(c, dict) for c in row["categories"]):
        return f"categories must be one object of points per player ({players})"
    if not all(_is_ints(s) and len(s) == players for s in row["round_scores"]):
        return f"round_scores must be lists of {players} scores"
    for key in ("rounds", "actions"):
        if not _is_ints([row[key]]) or row[key] < 0:
            return f"{key} must be a whole number ≥ 0"
    return stats_problem(row, players, row["rounds"])


def result_of_row(row: dict[str, Any]) -> GameResult:
    """The ``GameResult`` a row was written from (a checked row)."""
    return GameResult(
        seed=row["seed"],
        rounds=row["rounds"],
        actions=row["actions"],
        scores=tuple(row["scores"]),
        winners=tuple(row["winners"]),
        categories=tuple(dict(c) for c in row["categories"]),
        flags=tuple(row["end"]),
        effects=dict(row["effects"]),
        agents=tuple(row["seats"]),
        start_order=tuple(row["bid_order"]),
        verdict=row["verdict"],
        round_scores=tuple(tuple(s) for s in row["round_scores"]),
        djinns=tuple(tuple(h) for h in row["djinns"]),
        tile_points=tuple(dict(p) for p in row["tile_points"]),
        play=stats_of_row(row),
    )
