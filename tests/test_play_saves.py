"""Saves never lose a game: ``--save`` is checked before the game starts, a bad file name
at the quit prompt asks again, Ctrl-D offers to save like ``quit``, failures go to stderr
naming the path; ``--load`` refuses options it would not use and reads every seat name
``--seats`` accepts; ``naqala --version``."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.cli.play import Session
from naqala.cli.saving import SavePathError, save_path
from naqala.core.engine import Rules, build_rules
from naqala.core.record import load_record, new_record, save_record, with_action

runner = CliRunner()


@functools.cache
def rules() -> Rules:
    return build_rules()


def run(*args: str, typed: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=typed)


class Typist:
    """Answers prompts in order; an ``EOFError`` entry is raised (Ctrl-D) instead."""

    def __init__(self, *answers: str | type[EOFError]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        if not isinstance(answer, str):
            raise answer
        return answer


def session(typist: Typist) -> tuple[Session, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    record = new_record(rules(), 3, 2, ["human", "ai:random"])
    game = Session(
        rules(),
        rules().new_game(2, 3),
        record,
        Console(file=out, width=300),
        typist,
        Console(file=err, width=300),
    )
    return game, out, err


# -- --save is checked first --------------------------------------------------------------------


def test_save_into_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    """``--save`` into a folder that does not exist: exit 2 at once, naming the path, no
    game played (nothing on stdout)."""
    target = tmp_path / "nowhere" / "game.json"
    result = run("play", "--seats", "ai,ai", "--seed", "1", "--save", str(target))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert str(target) in result.stderr and "does not exist" in result.stderr


def test_save_paths_are_checked(tmp_path: Path) -> None:
    """A folder, a read-only folder and a read-only file are refused with their path."""
    with pytest.raises(SavePathError, match="is a folder"):
        save_path(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    read_only = tmp_path / "old.json"
    read_only.write_text("{}", encoding="utf-8")
    read_only.chmod(0o400)
    try:
        if os.access(locked, os.W_OK):  # running as root: permissions do not apply
            pytest.skip("permissions are not enforced for this user")
        with pytest.raises(SavePathError, match="not writable"):
            save_path(locked / "game.json")
        with pytest.raises(SavePathError, match="not writable"):
            save_path(read_only)
    finally:
        locked.chmod(0o700)
        read_only.chmod(0o600)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_that_refuses_new_files_is_found_out_before_the_game() -> None:
    """Whether a folder takes a new file is tried, not read from its permission bits
    (which say yes to root, on read-only mounts and on special file systems such as
    /proc): ``--save`` there is refused at once."""
    result = run("play", "--seats", "ai,ai", "--seed", "1", "--save", "/proc/self/game.json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "/proc/self/game.json" in result.stderr and "not writable" in result.stderr


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("~no-such-user-of-naqala/game.json", "there is no home folder ~no-such-user-of-naqala"),
        ("{tmp}/a-file/game.json", "a-file is a file, not a folder"),
        ("a" * 5000, "(5,000 characters): File name too long"),
        ("a/" * 3000 + "x", "(6,001 characters): File name too long"),
        ("game\x00.json", "a file name cannot hold a NUL character"),
    ],
    ids=["unknown-user", "file-as-folder", "long-name", "long-path", "nul"],
)
def test_a_name_that_cannot_be_a_file_gets_one_short_line(
    tmp_path: Path, name: str, reason: str
) -> None:
    """A home folder of nobody, a file used as a folder, a name or path too long for the
    file system, a NUL character: refused with a short line naming the path (cut short if
    huge), by ``--save`` before the game and by ``save`` at the prompt, never an internal
    error."""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    name = name.format(tmp=tmp_path)
    with pytest.raises(SavePathError, match=re.escape(reason)) as caught:
        save_path(name)
    assert len(str(caught.value)) < 250
    game, out, err = session(Typist())
    assert game.save(name) is False
    assert reason in err.getvalue() and len(err.getvalue()) < 260 and out.getvalue() == ""
    if "\x00" not in name:  # a command line cannot hold one
        result = run("play", "--seats", "ai,ai", "--seed", "1", "--save", name)
        assert result.exit_code == 2 and result.stdout == ""
        assert reason in result.stderr and len(result.stderr) < 270


def test_save_expands_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--save ~/game.json`` writes into the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path))
    result = run("play", "--seats", "ai:random,ai:random", "--seed", "2", "--save", "~/g.json")
    assert result.exit_code == 0, result.stderr
    assert load_record(tmp_path / "g.json").final_scores is not None


# -- quitting -------------------------------------------------------------------------------------


def test_a_bad_file_name_at_quit_asks_again(tmp_path: Path) -> None:
    """``quit``, ``y``, a file in a missing folder: the failure is reported on the error
    console with the path, another name is asked for, and the game is saved there."""
    missing = tmp_path / "no" / "game.json"
    good = tmp_path / "game.json"
    game, out, err = session(Typist("1", "quit", "y", str(missing), str(good)))
    game.run()
    assert str(missing) in err.getvalue() and "not saved" in err.getvalue()
    assert "not saved" not in out.getvalue()
    assert load_record(good) == game.record
    assert out.getvalue().rstrip().endswith("Game stopped.")


def test_giving_up_after_a_failed_save(tmp_path: Path) -> None:
    """An empty answer after a failed save stops without saving."""
    game, _out, err = session(Typist("quit", "y", str(tmp_path / "no" / "g.json"), ""))
    game.run()
    assert "not saved" in err.getvalue()
    assert list(tmp_path.iterdir()) == []


def test_ctrl_d_offers_to_save_like_quit(tmp_path: Path) -> None:
    """End of input at the prompt asks whether to save, as ``quit`` does."""
    path = tmp_path / "game.json"
    typist = Typist("1", EOFError, "y", str(path))
    game, _out, _ = session(typist)
    game.run()
    assert "Save the game before quitting? [y/N] " in typist.prompts
    assert load_record(path) == game.record
    assert len(game.record.actions) >= 1


def kept_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("naqala-game-*.json"))


def test_ctrl_d_at_the_file_name_keeps_the_game_in_a_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``quit``, ``y``, then the input ends before a file is named: the game was meant
    to be saved, so it is kept in a temporary file named on the error console."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    game, out, err = session(Typist("1", "quit", "y", EOFError))
    game.run()
    (kept,) = kept_files(tmp_path)
    assert load_record(kept) == game.record and len(game.record.actions) >= 1
    assert f"kept in {kept}" in err.getvalue() and f"naqala play --load {kept}" in err.getvalue()
    assert "\nGame stopped." in out.getvalue()


def test_ctrl_d_at_the_save_question_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No answer to "Save the game before quitting?" is no: nothing is written, and the
    next line starts on a line of its own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    game, out, err = session(Typist("1", "quit", EOFError))
    game.run()
    assert kept_files(tmp_path) == [] and err.getvalue() == ""
    assert out.getvalue().endswith("\nGame stopped.\n")


def test_a_save_folder_that_disappears_midgame_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save`` into a folder that is removed while the game is played, and no one left
    to name another file: the failure names the path on stderr, the game is kept in a
    temporary file that resumes, and the exit code is 1."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder = tmp_path / "games"
    folder.mkdir()
    played = Session.run

    def run_then_remove_the_folder(self: Session) -> None:
        played(self)
        shutil.rmtree(folder)

    monkeypatch.setattr(Session, "run", run_then_remove_the_folder)
    target = folder / "game.json"
    result = run("play", "--seats", "human,ai", "--seed", "1", "--save", str(target), typed="1\n")
    assert result.exit_code == 1
    assert f"not saved: {target}: the folder {folder} does not exist" in result.stderr
    (kept,) = kept_files(tmp_path)
    assert f"kept in {kept}" in result.stderr
    record = load_record(kept)
    assert len(record.actions) >= 1 and record.seats == ("human", "ai:greedy")
    monkeypatch.setattr(Session, "run", played)
    resumed = run("play", "--load", str(kept), typed="quit\nn\n")
    assert resumed.exit_code == 0, resumed.stderr
    assert re.search(
        rf"Resumed {re.escape(str(kept))}: {len(record.actions)} actions", resumed.stdout
    )


def test_an_internal_error_midgame_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure inside the game without ``--save`` still keeps what was played, in a
    temporary file named on stderr, before the failure is reported."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def broken_hint(self: Session) -> str:
        raise RuntimeError("hint broke")

    monkeypatch.setattr(Session, "hint", broken_hint)
    result = run("play", "--seats", "human,ai", "--seed", "1", typed="1\nhint\n")
    assert isinstance(result.exception, RuntimeError)
    (kept,) = kept_files(tmp_path)
    assert f"kept in {kept}" in result.stderr
    assert len(load_record(kept).actions) >= 1


def test_save_errors_go_to_stderr_naming_the_path(tmp_path: Path) -> None:
    """In the command, a failed save at the quit prompt is written on stderr with its path,
    and the retry saves the game."""
    bad = tmp_path / "missing" / "game.json"
    good = tmp_path / "game.json"
    typed = f"quit\ny\n{bad}\n{good}\n"
    result = run("play", "--seats", "human,ai", "--seed", "1", typed=typed)
    assert result.exit_code == 0, result.stderr
    assert str(bad) in result.stderr
    assert str(bad) not in result.stdout
    assert load_record(good).seats == ("human", "ai:greedy")


# -- loading --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [["--seats", "ai,ai"], ["-x", "artisans"], ["--seed", "0"]],
    ids=["seats", "expansion", "seed"],
)
def test_load_refuses_options_it_would_not_use(tmp_path: Path, extra: list[str]) -> None:
    path = tmp_path / "game.json"
    save_record(path, new_record(rules(), 1, 2, ["ai:random", "ai:random"]))
    result = run("play", "--load", str(path), *extra)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert extra[0] in result.stderr and "--load" in result.stderr


def test_load_expands_the_home_folder_as_save_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--load ~/game.json`` (quoted, so no shell expands it) reads the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path))
    save_record(tmp_path / "game.json", new_record(rules(), 1, 2, ["ai:random", "ai:random"]))
    result = run("play", "--load", "~/game.json")
    assert result.exit_code == 0, result.stderr
    assert f"Resumed {tmp_path / 'game.json'}: 0 actions" in result.stdout


def test_load_accepts_every_seat_name_that_seats_accepts(tmp_path: Path) -> None:
    """A record whose seats are written ``ai`` and ``AI:Random`` (as --seats allows)
    resumes, with the seats made canonical."""
    record = new_record(rules(), 5, 2, ["ai:greedy", "ai:random"])
    record = with_action(record, str(rules().legal_actions(rules().new_game(2, 5))[0]))
    path = tmp_path / "game.json"
    save_record(path, record)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["seats"] = ["ai", " AI:Random"]
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "done.json"
    result = run("play", "--load", str(path), "--save", str(out))
    assert result.exit_code == 0, result.stderr
    assert load_record(out).seats == ("ai:greedy", "ai:random")


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    first, engine = result.stdout.splitlines()
    assert first == f"naqala {version('naqala')}"
    assert engine.startswith("native engine: ")
