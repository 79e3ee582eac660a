"""Move counting on the kernel (``kernel/src/perft.rs``) gives the Python engine's counts:
on every board file of tests/perft, on random and crowded boards, on counts beyond any
machine integer, and on the boards of games of the shipped layout the kernel plays; with
the same time limit, progress and ``naqala perft --engine`` choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_kit import require_native
from test_perft import PERFT_DIR, Board, board_files, boards, crowded_boards, engine_board, load
from typer.testing import CliRunner

from naqala import native as kernel
from naqala.cli.app import app
from naqala.core.agents import RandomAgent
from naqala.core.engine import build_rules
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.testing.boardfile import parse_board
from naqala.testing.perft import PerftTimeout, count_moves_fast, perft_engine

EXPECTED = json.loads((PERFT_DIR / "expected.json").read_text(encoding="utf-8"))


def both(board: Board) -> tuple[tuple[int, int], tuple[int, int]]:
    """The count of ``board`` on the Python engine and on the kernel."""
    geo, meeples = engine_board(board)
    return count_moves_fast(geo, meeples), count_moves_fast(geo, meeples, engine="native")


def test_board_files_count_the_same_on_both_engines() -> None:
    require_native()
    for path in board_files():
        python, native = both(load(path))
        assert python == native == (EXPECTED[path.name]["moves"], EXPECTED[path.name]["paths"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(), boards(big_hands=True), crowded_boards()))
def test_random_boards_count_the_same_on_both_engines(board: Board) -> None:
    require_native()
    python, native = both(board)
    assert native == python


@pytest.mark.parametrize("per_colour", [24, 60])
def test_counts_beyond_any_machine_integer_are_the_same(per_colour: int) -> None:
    """2x2 and 3x3 boards whose hands have hundreds of meeples of every colour: counts of
    hundreds of digits, exact on both engines (the kernel leaves u128 for big integers)."""
    require_native()
    hand = "".join(letter * per_colour for letter in "YWGBRP")
    for rows, cols in ((2, 2), (3, 3)):
        tiles = [hand if t % 2 == 0 else "WR" for t in range(rows * cols)]
        geo, meeples = parse_board({"rows": rows, "cols": cols, "meeples": tiles})
        python = count_moves_fast(geo, meeples)
        assert python[0] > 2**128
        assert count_moves_fast(geo, meeples, engine="native") == python


def test_a_big_board_counts_the_same_with_its_integers_as_python_ints() -> None:
    """A 5x6 board of 30 meeples a tile: walks of 30 steps over the whole board."""
    require_native()
    colours = "YWGBR"
    tiles = ["".join(colours[(t + i * (1 + t % 3)) % 5] for i in range(30)) for t in range(30)]
    geo, meeples = parse_board({"rows": 5, "cols": 6, "meeples": tiles})
    native = count_moves_fast(geo, meeples, engine="native")
    assert native == count_moves_fast(geo, meeples)
    assert all(isinstance(n, int) for n in native)


def python_count(state: State) -> tuple[int, int]:
    return count_moves_fast(state.geometry, state.board.meeples)


@pytest.mark.parametrize(
    ("expansions", "set_up_natively"),
    [((), True), (("big-viziers",), True), (("artisans",), False)],
)
def test_game_boards_count_the_same_on_both_engines(
    expansions: tuple[str, ...], set_up_natively: bool
) -> None:
    """The shipped 5x6 layout, as set up and as played (with the Artisans too, whose
    states the kernel holds, though it does not set their games up yet): a new game of
    every player count, set up natively where the kernel does, and the board before
    each pick of a random game, counted natively from the native state
    (``NativeState.perft``)."""
    require_native()
    from naqala.native.bridge import NativeRules

    rules = build_rules(list(expansions))
    bridge = NativeRules(rules)
    counted = 0
    for players in (2, 3, 4):
        seed = 10 + players
        state = rules.new_game(players, seed)
        if set_up_natively:
            assert bridge.new_game(players, seed).perft() == python_count(state)
        agent = RandomAgent(agent_seed(seed, 0))
        while not state.is_over:
            if state.decision.stage == "pick":
                assert bridge.to_native(state).perft() == python_count(state)
                counted += 1
            state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    assert counted > 60


def test_the_time_limit_stops_the_native_count() -> None:
    require_native()
    geo, meeples = engine_board(load(PERFT_DIR / "mid-game.json"))
    with pytest.raises(PerftTimeout) as caught:
        count_moves_fast(geo, meeples, max_seconds=0, engine="native")
    assert (caught.value.done, caught.value.total) == (0, 28)
    assert str(caught.value) == "gave up after 0 s of CPU time (0 of 28 target tiles counted)"
    state = build_rules().new_game(3, 1)
    from naqala.native.bridge import NativeRules

    with pytest.raises(TimeoutError):
        NativeRules(build_rules()).to_native(state).perft(max_seconds=0)


def test_the_time_limit_holds_within_a_target_on_the_kernel() -> None:
    """A 3x3 board of 1,500 meeples a tile (walks of 1,500 steps, in big integers: a
    third of a CPU second a target) gives up inside its first target at 0.05 s."""
    require_native()
    hand = "".join(letter * 250 for letter in "YWGBRP")
    geo, meeples = parse_board({"rows": 3, "cols": 3, "meeples": [hand] * 9})
    with pytest.raises(PerftTimeout) as caught:
        count_moves_fast(geo, meeples, max_seconds=0.05, engine="native")
    assert (caught.value.done, caught.value.total) == (0, 9)


def test_progress_is_reported_as_on_the_python_engine() -> None:
    require_native()
    geo, meeples = engine_board(load(PERFT_DIR / "walls.json"))
    seen: dict[str, list[tuple[int, int]]] = {"python": [], "native": []}
    for engine in ("python", "native"):
        count_moves_fast(
            geo, meeples, progress=lambda d, t, e=engine: seen[e].append((d, t)), engine=engine
        )  # type: ignore[arg-type]
    assert seen["native"] == seen["python"]
    assert len(seen["native"]) > 2


def test_an_error_in_the_progress_callback_stops_the_native_count() -> None:
    require_native()
    geo, meeples = engine_board(load(PERFT_DIR / "walls.json"))

    def broken(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_moves_fast(geo, meeples, progress=broken, engine="native")


def test_the_kernel_refuses_what_is_not_a_board() -> None:
    native = require_native()
    with pytest.raises(ValueError, match="tile 0 neighbours 1 but not back"):
        native.count_moves([[1], []], [], [[0] * 6, [0] * 6])


# -- naqala perft --engine ---------------------------------------------------------------------


def test_perft_command_on_each_engine() -> None:
    require_native()
    runner = CliRunner()
    for path in board_files():
        for engine in ("auto", "native", "python"):
            result = runner.invoke(app, ["perft", "--engine", engine, str(path)])
            assert result.exit_code == 0, (path.name, engine, result.output)
            assert json.loads(result.stdout) == EXPECTED[path.name]
            assert result.stderr == ""


def test_auto_counts_natively_where_it_can() -> None:
    require_native()
    assert perft_engine("auto") == ("native", None)
    assert perft_engine("python") == ("python", None)
    engine, why = perft_engine("auto", enumerate_moves=True)
    assert engine == "python" and why is not None and "--enumerate" in why


def test_auto_without_the_kernel_counts_in_python_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernel, "unavailable_reason", lambda: "no extension here")
    path = PERFT_DIR / "corridor.json"
    result = CliRunner().invoke(app, ["perft", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == EXPECTED["corridor.json"]
    assert result.stderr == "naqala: perft: on the Python engine: no extension here\n"


def test_native_without_the_kernel_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise kernel.KernelUnavailable("no extension here")

    monkeypatch.setattr(kernel, "native", missing)
    result = CliRunner().invoke(app, ["perft", "--engine", "native", str(PERFT_DIR / "walls.json")])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "naqala: perft: --engine native: no extension here\n"


def test_enumerating_natively_is_refused(tmp_path: Path) -> None:
    args = ["perft", "--engine", "native", "--enumerate", str(PERFT_DIR / "walls.json")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert (
        result.stderr == "naqala: perft: --enumerate lists every move on the Python engine only\n"
    )
    result = CliRunner().invoke(app, ["perft", "--enumerate", str(PERFT_DIR / "walls.json")])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == EXPECTED["walls.json"]
    assert "--enumerate" in result.stderr


def test_native_timeout_on_the_command_is_exit_1() -> None:
    require_native()
    path = PERFT_DIR / "mid-game.json"
    result = CliRunner().invoke(
        app, ["perft", "--engine", "native", "--max-seconds", "0", str(path)]
    )
    assert result.exit_code == 1
    assert "gave up after 0 s of CPU time (0 of 28 target tiles counted)" in result.stderr


def test_a_count_of_thousands_of_digits_is_printed_whole(tmp_path: Path) -> None:
    """2x2 with 10,000 meeples on a1 (2,000 of each of five colours): the count has
    about 7,000 digits, beyond Python's default limit for printing an int (4,300), and
    ``naqala perft`` prints it whole (counted natively where it can: the Python count
    of a 10,000-step walk takes a minute)."""
    hand = "".join(letter * 2_000 for letter in "YWGBR")
    board = {"rows": 2, "cols": 2, "meeples": [hand, "", "", ""]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(board), "utf-8")
    engine = "native" if kernel.available() else "python"
    moves, paths = count_moves_fast(*parse_board(board), engine=engine)
    assert moves.bit_length() > 4_300 * 3.33
    result = CliRunner().invoke(app, ["perft", "--engine", engine, str(path)])
    assert result.exit_code == 0, result.output[-300:]
    assert result.stdout.strip() == f'{{"moves": {_digits(moves)}, "paths": {paths}}}'


def _digits(n: int) -> str:
    """``str(n)`` past the interpreter's digit limit."""
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(limit)


def test_naqala_engine_chooses_where_perft_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``NAQALA_ENGINE`` decides as it does for every command that plays; ``--engine`` wins."""

    def missing() -> None:
        raise kernel.KernelUnavailable("no extension here")

    monkeypatch.setattr(kernel, "native", missing)  # a native count would fail loudly
    path = str(PERFT_DIR / "walls.json")
    monkeypatch.setenv("NAQALA_ENGINE", "python")
    result = CliRunner().invoke(app, ["perft", path])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == EXPECTED["walls.json"]
    assert result.stderr == ""
    monkeypatch.setenv("NAQALA_ENGINE", "native")
    refused = CliRunner().invoke(app, ["perft", path])
    assert refused.exit_code == 2
    assert refused.stderr == "naqala: perft: --engine native: no extension here\n"
    overridden = CliRunner().invoke(app, ["perft", "--engine", "python", path])
    assert overridden.exit_code == 0 and overridden.stderr == ""
    monkeypatch.setenv("NAQALA_ENGINE", "warp")
    unknown = CliRunner().invoke(app, ["perft", path])
    assert unknown.exit_code == 2
    assert unknown.stderr == (
        "naqala: perft: NAQALA_ENGINE 'warp': the engine is one of auto, native, python\n"
    )
