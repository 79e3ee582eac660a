"""``naqala serve --engine``: in the browser, as at the terminal, the kernel makes the greedy
and ``mcts`` seats' decisions on the native engine, the same decisions, while the game
stays on the Python engine; what the kernel cannot play is refused in one line (native)
or said once on the server's stderr (auto)."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_kit import require_native
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.session import ai_move
from naqala.native.seated import NativeSeat
from naqala.web.games import Game, Refused
from naqala.web.store import Store

SEATS = ["human", "ai:greedy", "ai:mcts:2"]
#: the seats of the game played out on both engines (a Python mcts seat costs seconds)
PLAYED = ["human", "ai:greedy", "ai:greedy-nobid"]


def play_out(game: Game, undo_after: int) -> tuple[list[str], int]:
    """Play ``game`` to its end: the AI seats decide, the person takes the first option
    and, once, at their first decision after ``undo_after`` actions, takes it back.
    Returns the record's actions and how many actions the undo took back."""
    taken_back = 0
    while not game.state.is_over:
        person = game.state.decision.player == 0
        if not taken_back and person and len(game.record.actions) > undo_after:
            before = len(game.record.actions)
            game.undo(0)
            taken_back = before - len(game.record.actions)
        found = game.next_player()
        if found is None:
            game.play(game.rules.legal_actions(game.state)[0])
        else:
            game.play(ai_move(game.rules, game.state, found[1]))
    return list(game.record.actions), taken_back


def test_the_ai_seats_play_the_same_game_on_both_engines(tmp_path: Path) -> None:
    require_native()
    seated = {
        engine: Store(tmp_path / engine, [], 5, engine).create(SEATS, [], [], 12)
        for engine in ("native", "python")
    }
    assert [type(a).__name__ for a in seated["native"].agents] == [
        "NoneType",
        "NativeSeat",
        "NativeSeat",
    ]
    assert not any(isinstance(a, NativeSeat) for a in seated["python"].agents)
    native, python = (
        Store(tmp_path / f"{engine}-played", [], 5, engine).create(PLAYED, [], [], 12)
        for engine in ("native", "python")
    )
    assert (native.engine, python.engine) == ("native", "python")
    actions, taken_back = play_out(native, undo_after=40)
    assert taken_back > 0  # the AI seats were made again, on their engine
    assert (actions, taken_back) == play_out(python, undo_after=40)


def test_a_resumed_game_keeps_its_seats_on_the_engine_asked(tmp_path: Path) -> None:
    require_native()
    made = Store(tmp_path, [], 5, "native").create(SEATS, [], [], 3)
    again = Store(tmp_path, [], 5, "native")
    assert again.resume() == []
    resumed = again.games[made.id]
    assert resumed.engine == "native" and isinstance(resumed.agents[1], NativeSeat)
    assert Store(tmp_path / "other", [], 5, "python").engine == "python"


def test_native_refuses_a_game_it_cannot_play_naming_the_plugin(tmp_path: Path) -> None:
    require_native()
    store = Store(tmp_path, [], 5, "native")
    with pytest.raises(Refused) as refused:
        store.create(SEATS, ["double-palms"], [], 3)
    assert refused.value.status == 422
    assert str(refused.value) == (
        "the native engine cannot play these games: plugin 'double-palms' has code hooks "
        "(naqala_tile_actions) that the native engine does not implement"
    )
    assert store.games == {}


def test_auto_plays_such_a_game_in_python_saying_why_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_native()
    store = Store(tmp_path, [], 5)
    first = store.create(SEATS, ["double-palms"], [], 3)
    store.create(SEATS, ["double-palms"], [], 4)
    assert first.engine == "python"
    assert capsys.readouterr().err.splitlines() == [
        "naqala serve: playing on the Python engine: plugin 'double-palms' has code hooks "
        "(naqala_tile_actions) that the native engine does not implement"
    ]


def test_auto_says_nothing_when_no_seat_is_one_the_kernel_would_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Store(tmp_path, [], 5).create(["human", "ai:random"], ["double-palms"], [], 3)
    assert game.engine == "python"
    assert capsys.readouterr().err == ""


@pytest.fixture
def stores(monkeypatch: pytest.MonkeyPatch) -> list[Store]:
    """The stores ``naqala serve`` made (uvicorn's run replaced: nothing listens)."""
    uvicorn = pytest.importorskip("uvicorn")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    made: list[Store] = []
    monkeypatch.setattr(Store, "resume", lambda self: made.append(self) or [])
    return made


def serve(tmp_path: Path, *args: str, engine: str | None = None) -> Result:
    return CliRunner().invoke(
        app, ["serve", "--data-dir", str(tmp_path), *args], env={"NAQALA_ENGINE": engine}
    )


def test_serve_refuses_an_engine_that_is_none_in_one_line(
    stores: list[Store], tmp_path: Path
) -> None:
    result = serve(tmp_path, "--engine", "rust")
    assert result.exit_code == 2
    assert result.stderr == "naqala: --engine 'rust': the engine is one of auto, native, python\n"
    assert stores == []


def test_serve_asks_the_option_then_the_environment_then_auto(
    stores: list[Store], tmp_path: Path
) -> None:
    assert serve(tmp_path, "--engine", "python", engine="native").exit_code == 0
    assert serve(tmp_path, engine="python").exit_code == 0
    assert serve(tmp_path).exit_code == 0
    assert [store.engine for store in stores] == ["python", "python", "auto"]


def test_serve_native_without_the_kernel_is_refused_before_it_starts(
    stores: list[Store], tmp_path: Path, without_extension: None
) -> None:
    result = serve(tmp_path, "--engine", "native")
    assert result.exit_code == 2
    assert result.stderr.startswith("naqala: the native engine cannot play these games: ")
    assert stores == []
