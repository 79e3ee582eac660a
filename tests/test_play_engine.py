"""``naqala play --engine``: the kernel makes the greedy and ``mcts`` seats' decisions at the
table, the same decisions, while the game itself stays on the Python engine; the engine is
asked for as every command asks (``--engine``, ``NAQALA_ENGINE``, auto), and what cannot
play natively is said in one line before the game starts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from native_kit import require_native
from typer.testing import CliRunner, Result

from naqala import native as kernel
from naqala.cli.app import app
from naqala.core.agents import RandomAgent
from naqala.core.engine import build_rules
from naqala.core.record import load_record, new_record
from naqala.native.seated import (
    NativeSeat,
    follow_play,
    kernel_seats,
    natively_seated,
    table_agents,
)

runner = CliRunner()


def run(*args: str, env: Mapping[str, str] | None = None) -> Result:
    """The command, with ``NAQALA_ENGINE`` only as ``env`` sets it."""
    return runner.invoke(app, list(args), env={"NAQALA_ENGINE": None, **(env or {})})


@pytest.mark.parametrize(
    "seats", ["ai,ai:mcts", "ai:greedy-nobid,ai:random,ai", "ai:greedy-full,ai:random"]
)
def test_the_ai_seats_play_the_same_game_on_both_engines(seats: str, tmp_path: Path) -> None:
    require_native()
    games = {}
    for engine in ("python", "native"):
        (tmp_path / engine).mkdir()
        saved = tmp_path / engine / "game.json"  # the same name: the output says it
        result = run(
            "play", "--seats", seats, "--seed", "4", "--engine", engine, "--save", str(saved)
        )
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        games[engine] = (result.stdout.replace(engine, "ENGINE"), load_record(saved).actions)
    assert games["native"] == games["python"]


def test_on_the_native_engine_the_kernel_decides_for_greedy_and_mcts_seats_only() -> None:
    require_native()
    rules = build_rules()
    record = new_record(rules, 9, 4, ("human", "ai:greedy", "ai:random", "ai:mcts:20"))
    agents = table_agents(rules, record, "native")
    assert agents[0] is None
    assert isinstance(agents[1], NativeSeat) and agents[1].name == "greedy"
    assert isinstance(agents[2], RandomAgent)  # its draws carry on; replayed on undo
    assert isinstance(agents[3], NativeSeat) and agents[3].name == "mcts:20"
    assert kernel_seats(record.seats) == ["greedy", "mcts:20"]
    assert all(not isinstance(a, NativeSeat) for a in table_agents(rules, record, "python"))


def test_a_native_seat_decides_as_the_python_player_of_its_seat() -> None:
    require_native()
    rules = build_rules()
    record = new_record(rules, 21, 2, ("ai:greedy", "ai:mcts:10"))
    python = table_agents(rules, record, "python")
    native = natively_seated(rules, record.seats, record.seed, python)
    state = rules.new_game(2, record.seed)
    for _ in range(40):
        if state.is_over:
            break
        seat = state.decision.player
        options = rules.legal_actions(state)
        chosen = native[seat].choose(rules, state, options)  # type: ignore[union-attr]
        assert chosen == python[seat].choose(rules, state, options)  # type: ignore[union-attr]
        state = rules.apply(state, chosen)


def test_the_table_keeps_a_native_state_and_hands_it_over_only_when_it_lost_track() -> None:
    """The native seats of a table share one native game, told every action the table
    applies (a person's too): the state is handed over as JSON once, at the first native
    decision, and again only after the table went back to a state it was not told of
    (an undo), while every choice stays the Python player's."""
    require_native()
    rules = build_rules()
    record = new_record(rules, 22, 3, ("ai:greedy", "human", "ai:mcts:10"))
    python = table_agents(rules, record, "python")
    native = natively_seated(rules, record.seats, record.seed, python)
    person = RandomAgent(5)
    table = native[0].table  # type: ignore[union-attr]
    assert native[2].table is table  # type: ignore[union-attr]
    states = [rules.new_game(3, record.seed)]
    for step in range(120):
        state = states[-1]
        if state.is_over:
            break
        if step == 80:  # undo: back to an earlier state the table was not told of
            states = states[:-3]
            continue
        seat = state.decision.player
        options = rules.legal_actions(state)
        agent, twin = native[seat], python[seat]
        if agent is None or twin is None:
            chosen = person.choose(rules, state, options)
        else:
            chosen = agent.choose(rules, state, options)
            assert chosen == twin.choose(rules, state, options)
        after = rules.apply(state, chosen)
        follow_play(native, state, chosen, after)
        states.append(after)
    assert table.handovers == 2


def test_native_refuses_a_code_house_rule_in_one_line_before_the_game_starts() -> None:
    require_native()
    result = run("play", "--seats", "ai,ai", "-x", "double-palms", "--engine", "native")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "naqala: the native engine cannot play these games: plugin 'double-palms' has code "
        "hooks (naqala_tile_actions) that the native engine does not implement\n"
    )


def test_auto_with_a_code_house_rule_plays_in_python_saying_why_once() -> None:
    require_native()
    result = run("play", "--seats", "ai,ai", "-x", "double-palms", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "naqala: playing on the Python engine: plugin 'double-palms' has code hooks "
        "(naqala_tile_actions) that the native engine does not implement"
    ]
    assert "wins with" in result.stdout


def test_auto_says_nothing_when_no_seat_is_one_the_kernel_would_play() -> None:
    result = run("play", "--seats", "ai:random,ai:random", "-x", "double-palms", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_the_environment_chooses_and_the_option_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    require_native()
    made: list[str] = []
    real = NativeSeat.__init__

    def counted(self: NativeSeat, rules: object, name: str, seed: int, table: object) -> None:
        made.append(name)
        real(self, rules, name, seed, table)  # type: ignore[arg-type]

    monkeypatch.setattr(NativeSeat, "__init__", counted)
    assert (
        run("play", "--seats", "ai,ai", "--seed", "3", env={"NAQALA_ENGINE": "python"}).exit_code
        == 0
    )
    assert made == []
    assert run("play", "--seats", "ai,ai", "--seed", "3").exit_code == 0  # auto
    assert made == ["greedy", "greedy"]
    env = {"NAQALA_ENGINE": "native"}
    assert run("play", "--seats", "ai,ai", "--engine", "python", env=env).exit_code == 0
    assert made == ["greedy", "greedy"]
    unknown = run("play", "--seats", "ai,ai", env={"NAQALA_ENGINE": "warp"})
    assert unknown.exit_code == 2 and unknown.stdout == ""
    assert (
        unknown.stderr
        == "naqala: NAQALA_ENGINE 'warp': the engine is one of auto, native, python\n"
    )


def test_without_the_extension_auto_plays_in_python_saying_why(without_extension: None) -> None:
    reason = kernel.unavailable_reason()
    result = run("play", "--seats", "ai,ai", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"naqala: playing on the Python engine: {reason}\n"
    refused = run("play", "--seats", "ai,ai", "--engine", "native")
    assert refused.exit_code == 2 and refused.stdout == ""
