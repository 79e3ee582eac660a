"""The board-file reader behind ``naqala perft``: every bad file gives one clear message
naming the file and the field, and the command exits with code 2 printing nothing on
stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.testing.boardfile import BoardFileError, load_board, parse_board

#: a valid 2x3 board: a1 b1 c1 / a2 b2 c2
GOOD: dict[str, Any] = {
    "rows": 2,
    "cols": 3,
    "meeples": ["WR", "", "W", "G", "", "RGB"],
    "impassable": [4],
    "walls": [[1, 2]],
}


def with_(**changes: Any) -> dict[str, Any]:
    """GOOD with some fields replaced (a value of ``...`` removes the field)."""
    doc = {**GOOD, **changes}
    return {key: value for key, value in doc.items() if value is not ...}


#: (test id, document, field named in the message, words the reason must contain)
BAD_DOCUMENTS: list[tuple[str, Any, str, str]] = [
    ("top-level-list", [1, 2], "$", "JSON object"),
    ("unknown-field", with_(colours="YWGBR"), "$.colours", "unknown field"),
    ("rows-missing", with_(rows=...), "$.rows", "integer"),
    ("rows-zero", with_(rows=0), "$.rows", "integer from 1 to 26"),
    ("rows-too-big", with_(rows=27), "$.rows", "integer from 1 to 26"),
    ("rows-string", with_(rows="2"), "$.rows", "integer"),
    ("rows-bool", with_(rows=True), "$.rows", "integer"),
    ("rows-float", with_(rows=2.0), "$.rows", "integer"),
    ("cols-negative", with_(cols=-3), "$.cols", "integer"),
    ("meeples-missing", with_(meeples=...), "$.meeples", "list of 6 strings"),
    ("meeples-not-list", with_(meeples="WR,,W,G,,RGB"), "$.meeples", "list of 6 strings"),
    ("meeples-too-few", with_(meeples=["W"] * 5), "$.meeples", "list of 6 strings"),
    ("meeples-too-many", with_(meeples=["W"] * 7), "$.meeples", "list of 6 strings"),
    (
        "meeples-bad-letter",
        with_(meeples=["WR", "", "W", "GX", "", "RGB"]),
        "$.meeples[3]",
        "letters YWGBRP",
    ),
    (
        "meeples-lowercase",
        with_(meeples=["WR", "", "W", "g", "", "RGB"]),
        "$.meeples[3]",
        "letters YWGBRP",
    ),
    (
        "meeples-not-string",
        with_(meeples=["WR", 3, "W", "G", "", "RGB"]),
        "$.meeples[1]",
        "string",
    ),
    ("impassable-not-list", with_(impassable=4), "$.impassable", "list"),
    ("impassable-null", with_(impassable=None), "$.impassable", "list"),
    ("impassable-off-board", with_(impassable=[6]), "$.impassable[0]", "tile index"),
    ("impassable-negative", with_(impassable=[4, -1]), "$.impassable[1]", "tile index"),
    ("impassable-bool", with_(impassable=[4, True]), "$.impassable[1]", "tile index"),
    ("impassable-name", with_(impassable=["b2"]), "$.impassable[0]", "tile index"),
    ("impassable-with-meeples", with_(impassable=[0]), "$.impassable[0]", "cannot hold meeples"),
    ("walls-not-list", with_(walls={"1": 2}), "$.walls", "list"),
    ("walls-single", with_(walls=[[1]]), "$.walls[0]", "pair of tile indices"),
    ("walls-triple", with_(walls=[[1, 2], [0, 1, 2]]), "$.walls[1]", "pair of tile indices"),
    ("walls-off-board", with_(walls=[[5, 6]]), "$.walls[0]", "pair of tile indices"),
    ("walls-not-pair-list", with_(walls=[1, 2]), "$.walls[0]", "pair of tile indices"),
    ("walls-far-apart", with_(walls=[[1, 2], [0, 2]]), "$.walls[1]", "orthogonally adjacent"),
    ("walls-diagonal", with_(walls=[[0, 4]]), "$.walls[0]", "orthogonally adjacent"),
    ("walls-wrap-around", with_(walls=[[2, 3]]), "$.walls[0]", "orthogonally adjacent"),
    ("walls-same-tile", with_(walls=[[1, 1]]), "$.walls[0]", "orthogonally adjacent"),
]

#: (test id, raw file content or None for no file, words the message must contain)
BAD_FILES: list[tuple[str, bytes | None, str]] = [
    ("missing", None, "cannot read"),
    ("empty", b"", "not JSON"),
    ("not-json", b'{"rows": 2, cols: 3}', "not JSON"),
    ("truncated", json.dumps(GOOD).encode()[:-5], "not JSON"),
    ("not-utf8", b'\xff\xfe{"rows": 2}', "not JSON"),
    ("nested-too-deeply", b"[" * 100_000 + b"]" * 100_000, "not JSON"),
]


def perft(path: Path) -> tuple[int, str, str]:
    """Run ``naqala perft PATH``: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(app, ["perft", str(path)])
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, doc: Any) -> Path:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_good_file_is_read(tmp_path: Path) -> None:
    """A valid board file is read: size, meeples per colour, impassable tiles, walls in
    either order, and ``naqala perft`` prints its counts."""
    doc = with_(walls=[[2, 1], [0, 3]])
    geo, meeples = load_board(write(tmp_path, doc))
    assert (geo.rows, geo.cols) == (2, 3)
    assert meeples[0] == (0, 1, 0, 0, 1, 0)  # Y W G B R P
    assert meeples[5] == (0, 0, 1, 1, 1, 0)
    assert geo.impassable == frozenset({4})
    assert geo.walls == frozenset({(1, 2), (0, 3)})
    code, out, err = perft(write(tmp_path, doc))
    assert (code, err) == (0, "")
    assert set(json.loads(out)) == {"moves", "paths"}


def test_optional_fields_default_to_empty(tmp_path: Path) -> None:
    """``impassable`` and ``walls`` may be left out."""
    geo, _ = load_board(write(tmp_path, with_(impassable=..., walls=...)))
    assert geo.impassable == frozenset()
    assert geo.walls == frozenset()


@pytest.mark.parametrize(
    ("doc", "field", "reason"),
    [case[1:] for case in BAD_DOCUMENTS],
    ids=[case[0] for case in BAD_DOCUMENTS],
)
def test_bad_document_names_file_and_field(
    tmp_path: Path, doc: Any, field: str, reason: str
) -> None:
    """A bad field is reported as ``FILE: $.FIELD: reason`` by the reader, and
    ``naqala perft`` prints it on stderr, nothing on stdout, and exits with code 2."""
    path = write(tmp_path, doc)
    with pytest.raises(BoardFileError) as caught:
        load_board(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}: "), message
    assert reason in message
    code, out, err = perft(path)
    assert (code, out) == (2, "")
    assert err == f"naqala: {message}\n"


@pytest.mark.parametrize(
    ("content", "reason"),
    [case[1:] for case in BAD_FILES],
    ids=[case[0] for case in BAD_FILES],
)
def test_unreadable_file_names_the_file(tmp_path: Path, content: bytes | None, reason: str) -> None:
    """A missing, empty, non-JSON or non-UTF-8 file is reported with its name on one line
    of stderr; ``naqala perft`` prints nothing on stdout and exits with code 2."""
    path = tmp_path / "board.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(BoardFileError) as caught:
        load_board(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {reason}"), message
    code, out, err = perft(path)
    assert (code, out) == (2, "")
    assert err == f"naqala: {message}\n"
    assert err.count("\n") == 1


def test_directory_is_not_a_board_file(tmp_path: Path) -> None:
    """A directory given as the board file is reported as unreadable (exit code 2)."""
    code, out, err = perft(tmp_path)
    assert (code, out) == (2, "")
    assert err.startswith(f"naqala: {tmp_path}: cannot read")


def test_parse_board_names_its_source() -> None:
    """``parse_board`` reports errors against the source name it is given."""
    with pytest.raises(BoardFileError, match=r"^inline: \$\.meeples\[2\]: "):
        parse_board(with_(meeples=["", "", "Q", "", "", ""]), "inline")
