"""A panic of the native kernel that still reaches a command is one line saying it is an
engine bug (exit 1; ``--debug`` shows the traceback), never a traceback, wherever the game
runs: the command's own process, a study's worker, the play session, the web's AI seats.

pyo3 raises a Rust panic as ``pyo3_runtime.PanicException``, a ``BaseException`` that
``except Exception`` misses and that cannot be imported. The kernel no longer panics on
any input the tests know (tests/test_native_fuzz.py), so a panic is made here as pyo3
makes its class: that name, that module, deriving from ``BaseException``.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, NoReturn

import pytest

from naqala.cli.app import main
from naqala.cli.failures import failure_line
from naqala.core.failures import (
    EnginePanicText,
    PluginFailed,
    blame,
    is_engine_panic,
    is_game_failure,
)

#: pyo3's class for a Rust panic, as pyo3 creates it
PanicException: type[BaseException] = type(
    "PanicException", (BaseException,), {"__module__": "pyo3_runtime"}
)


def panics(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise PanicException("index out of bounds: the len is 4 but the index is 5")


def run_main(args: list[str]) -> int:
    with pytest.raises(SystemExit) as caught:
        main(args)
    return int(caught.value.code or 0)


def test_a_panic_is_known_by_its_class_and_said_as_an_engine_bug() -> None:
    panic = PanicException("a step was entered by a stage")
    assert is_engine_panic(panic) and is_game_failure(panic)
    assert not isinstance(panic, Exception)  # why `except Exception` is not enough
    assert not is_engine_panic(ValueError("x")) and is_game_failure(ValueError("x"))
    assert not is_game_failure(KeyboardInterrupt()) and not is_game_failure(SystemExit(1))
    line = blame(panic)
    assert line == "engine bug: the native kernel panicked: a step was entered by a stage"
    assert failure_line(panic).startswith(line) and "--debug" in failure_line(panic)


def test_a_panic_in_a_command_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    monkeypatch.setattr("naqala.lab.study.plays_native", lambda *_: True)
    monkeypatch.setattr("naqala.lab.study.play_native", panics)
    assert run_main(["simulate", "-n", "1", "-p", "2", "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "naqala: engine bug: the native kernel panicked: index out of bounds: the len is 4 "
        "but the index is 5 (game seed "
    )
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_debug_shows_the_panic_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("naqala.lab.study.plays_native", lambda *_: True)
    monkeypatch.setattr("naqala.lab.study.play_native", panics)
    with pytest.raises(PluginFailed) as caught:
        main(["--debug", "simulate", "-n", "1", "-p", "2", "-j", "1"])
    assert is_engine_panic(caught.value.__cause__ or ValueError())


def test_a_panic_in_a_worker_comes_back_as_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a study's worker sends back is the line, which pickles (pyo3's class would not
    unpickle in the command's process)."""
    from naqala.lab.study import Ruleset, Study, play_task

    monkeypatch.setattr("naqala.lab.study.plays_native", lambda *_: True)
    monkeypatch.setattr("naqala.lab.study.play_native", panics)
    study = Study(ruleset=Ruleset(), seats=("random", "random"), seed=7)
    with pytest.raises(PluginFailed) as caught:
        play_task((study, 0))
    sent = pickle.loads(pickle.dumps(caught.value))
    # a Dask worker pickles the cause too (tblib): it travels as its text
    cause = pickle.loads(pickle.dumps(caught.value.__cause__))
    assert isinstance(cause, EnginePanicText) and "index out of bounds" in str(cause)
    assert str(sent).startswith("engine bug: the native kernel panicked: index out of bounds")
    assert str(sent).endswith("(game seed 7, native engine)")


def test_a_panic_while_playing_keeps_the_game_and_says_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    monkeypatch.setattr("naqala.cli.play.Session.run", panics)
    save = tmp_path / "game.json"
    assert run_main(["play", "--seats", "ai,ai", "--seed", "3", "--save", str(save)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("naqala: engine bug: the native kernel panicked")
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert save.exists()


def test_a_panicking_ai_seat_stops_its_game_not_the_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from naqala.web.games import failure_line
    from naqala.web.server import Server

    class OneGame:
        id, rules, state = "g1", None, None
        stopped: str | None = None

        def next_player(self) -> tuple[int, str] | None:
            return None if self.stopped else (0, "greedy")

        def stop(self, seat: int, failure: BaseException) -> None:
            self.stopped = failure_line(failure)

    class Saves:
        def __init__(self) -> None:
            self.games = {"g1": OneGame()}
            self.saved: list[str] = []

        def save(self, game: OneGame) -> None:
            self.saved.append(game.id)

    store = Saves()
    server = Server(store, ai_delay=0, stream_seconds=1)  # type: ignore[arg-type]
    monkeypatch.setattr("naqala.web.server.ai_move", panics)
    asyncio.run(server._ai(store.games["g1"]))  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert "game g1: stopped: engine bug: the native kernel panicked" in err
    assert store.games["g1"].stopped.startswith("engine bug: the native kernel panicked")
    assert store.saved == ["g1"]
