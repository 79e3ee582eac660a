"""``naqala tune``'s inputs bounded, as state and content files are (issue 36): the space
file, its knob ranges, a trial that cannot be built, ``--out`` and ``--storage``. Each is
refused in one line (exit 2), before the study starts, never a traceback or an internal
error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.lab.space import MAX_KNOBS, MAX_VALUES, SPACE_LIMIT, SpaceError, load_space

GOOD_SPACE = '[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [5, 10]\n'


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def one_line(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert "internal error" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def small_tune(space: Path, out: Path, *more: str) -> Result:
    return run("tune", str(space), "--out", str(out), "--trials", "6", "--games", "2",
               "--seats", "random,random", "-j", "1", "--json", *more)  # fmt: skip


# -- the space file --------------------------------------------------------------------------


def test_a_space_that_is_no_regular_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """``/dev/zero`` was read to a MemoryError at 3.8 GB."""
    line = one_line(run("tune", "/dev/zero", "--out", str(tmp_path / "best.toml")))
    assert line == "naqala: /dev/zero: cannot read: not a regular file"
    folder = tmp_path / "space.toml"
    folder.mkdir()
    assert "not a regular file" in one_line(run("tune", str(folder), "--out", "x.toml"))


def test_a_space_larger_than_its_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "space.toml"
    path.write_text(GOOD_SPACE + "#" * SPACE_LIMIT, encoding="utf-8")
    with pytest.raises(SpaceError, match="larger than 1 MB, the most a tuning space may be"):
        load_space(path)
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert str(path) in line and "larger than 1 MB" in line


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[knob]]\nx = " + "[" * 40 + "]" * 40 + "\n", "nested more than 32 levels deep"),
        (GOOD_SPACE.replace("[5, 10]", "[" + "9" * 5000 + "]"), "a number of thousands"),
        (b"\xff\xfe".decode("latin-1"), "not UTF-8 text"),
    ],
)
def test_a_space_that_is_no_toml_document_is_one_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "space.toml"
    path.write_bytes(text.encode("latin-1" if "\xff" in text else "utf-8"))
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert line.startswith(f"naqala: {path}") and message in line


# -- the knobs -----------------------------------------------------------------------------


def knob(values: str) -> str:
    return f'[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\n{values}\n'


@pytest.mark.parametrize(
    ("values", "message"),
    [
        # a MemoryError: every value of the range was listed
        ("low = 0\nhigh = 100000000000", "high 100000000000 is not within ±1000000"),
        ("low = -1000000\nhigh = 1000000", "2000001 values; a knob takes at most 10000"),
        # an OverflowError: a bound beyond a machine integer
        ("low = 0\nhigh = 9223372036854775807", "high 9223372036854775807 is not within ±1000000"),
        ("low = -9223372036854775808\nhigh = 0", "low -9223372036854775808 is not within ±"),
        ("values = [1, 99999999999999999]", "values[1] 99999999999999999 is not within ±1000000"),
        (f"values = {list(range(MAX_VALUES + 1))}", "10001 values; a knob takes at most 10000"),
    ],
)
def test_a_knob_range_too_large_or_too_far_is_one_line_naming_file_and_path(
    tmp_path: Path, values: str, message: str
) -> None:
    path = tmp_path / "space.toml"
    path.write_text(knob(values), encoding="utf-8")
    with pytest.raises(SpaceError, match=str(path)) as raised:
        load_space(path)
    assert f"$.knob[0]: {message}" in str(raised.value)
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert str(path) in line and message in line


def test_the_widest_knob_allowed_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "space.toml"
    path.write_text(knob(f"low = 1\nhigh = {MAX_VALUES}"), encoding="utf-8")
    assert len(load_space(path).knob[0].choices) == MAX_VALUES


def test_too_many_knobs_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "space.toml"
    path.write_text(
        "".join(
            f'[[knob]]\ntarget = "tile:t{i}"\nfield = "vp"\nvalues = [1]\n'
            for i in range(MAX_KNOBS + 1)
        ),
        encoding="utf-8",
    )
    line = one_line(run("tune", str(path), "--out", str(tmp_path / "best.toml")))
    assert f"$.knob: {MAX_KNOBS + 1} knobs; a space has at most {MAX_KNOBS}" in line


# -- a trial that cannot be built --------------------------------------------------------------


def test_a_trial_whose_rules_cannot_be_built_is_one_line_naming_its_knob_values(
    tmp_path: Path,
) -> None:
    """The first values build (the check before any game); a trial drawing 12 meeples a
    tile cannot be: it was ``internal error: StudyError``."""
    path = tmp_path / "space.toml"
    path.write_text(
        '[[knob]]\ntarget = "settings"\nfield = "meeples_per_tile"\nvalues = [3, 12]\n',
        encoding="utf-8",
    )
    line = one_line(small_tune(path, tmp_path / "best.toml"))
    assert line.startswith(f"naqala: {path}: trial ")
    assert "settings.meeples_per_tile = 12 cannot be played:" in line
    assert "12 each (settings.meeples_per_tile) need 360" in line
    assert "trial-" not in line  # the trial's own file is temporary: the space is named
    assert not (tmp_path / "best.toml").exists()


# -- --out and --storage -------------------------------------------------------------------


@pytest.fixture
def space(tmp_path: Path) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(GOOD_SPACE, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("--out=missing/best.toml", "--out {tmp}/missing/best.toml: cannot write: no folder "),
        ("--out=folder.toml", "--out {tmp}/folder.toml: cannot write: a directory"),
        ("--storage=folder.toml", "--storage {tmp}/folder.toml: cannot write: a directory"),
        ("--storage=missing/s.db", "--storage {tmp}/missing/s.db: cannot write: no folder "),
        ("--storage=/proc/naqala.db", "--storage /proc/naqala.db: cannot write: "),
        ("--storage=space.toml", "--storage {tmp}/space.toml: not an SQLite database"),
        ("--storage=sqlite:///s.db", "--storage sqlite:/s.db: give the file's path"),
        ("--storage=best.toml", "--storage and --out name the same file"),
        ("--out=space.toml", "--out {tmp}/space.toml: it is the space file"),
        ("--report=missing/tune.html", "--report {tmp}/missing/tune.html: cannot write: no "),
    ],
)
def test_a_bad_out_or_storage_is_refused_before_the_study_starts(
    space: Path, tmp_path: Path, where: str, message: str
) -> None:
    """Each was an internal SQLAlchemy error, or a failure after every trial was played."""
    (tmp_path / "folder.toml").mkdir()
    option, _, value = where.partition("=")
    if not value.startswith(("/", "sqlite:")):
        value = str(tmp_path / value)
    args = ["--out", str(tmp_path / "best.toml")] if option != "--out" else []
    before = sorted(os.listdir(tmp_path))
    line = one_line(
        run("tune", str(space), *args, option, value, "--trials", "1", "-n", "2", "-j", "1")
    )
    assert message.format(tmp=tmp_path) in line
    assert sorted(os.listdir(tmp_path)) == before  # nothing written


def test_a_storage_that_fails_while_tuning_is_one_line(space: Path, tmp_path: Path) -> None:
    """A storage checked good that optuna still cannot use (an empty file made read-only
    by another hand is the case here: the check opens it, SQLite writes to it)."""
    storage = tmp_path / "s.db"
    storage.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)  # a header and no database
    line = one_line(small_tune(space, tmp_path / "best.toml", "--storage", str(storage)))
    assert line.startswith(f"naqala: --storage {storage}: optuna cannot use it: ")


@pytest.mark.parametrize(
    ("ladder", "message"),
    [
        ("random,random", "--ladder names a kind twice: random, random"),
        (
            ",".join(f"mcts:{budget}" for budget in range(1, 30)),
            "--ladder names 29 kinds of player: 812 cells, 1,624 games at 2 a cell",
        ),
    ],
)
def test_a_skill_ladder_the_matrix_refuses_is_one_line(
    space: Path, tmp_path: Path, ladder: str, message: str
) -> None:
    """It was ``internal error: SkillError``, raised after the space was checked."""
    out = str(tmp_path / "best.toml")
    args = ["--objective", "skill", "--ladder", ladder, "--trials", "1", "-n", "2"]
    line = one_line(run("tune", str(space), "--out", out, *args))
    assert line.startswith(f"naqala: {message}")
