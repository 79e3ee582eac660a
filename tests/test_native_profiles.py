"""The kernel's profiled greedy player (``kernel/src/profile.rs``) plays the Python
profiled greedy player's game (``agents/profiled.py``): decision by decision on the same
states, whole games to the same final state, and a study's rows equal on both engines;
the engine plan seats ``greedy:profile=…`` natively (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import run
from native_kit import require_native
from test_native_agents import play_both

from naqala.agents import COLOURS, known_djinns
from naqala.agents.profile import load_profile
from naqala.agents.profiled import ProfiledGreedyAgent
from naqala.core.agents import Agent
from naqala.core.engine import build_rules
from naqala.core.simulate import agent_seed
from naqala.native.profiles import SEAT_PREFIX, kernel_seat

#: tastes in halves (Python's round goes half to even), a djinn's points, a bid cap
HALVES = """\
[tribes]
blue = 0.5
yellow = 1.5
white = -2.5
red = 2.5

[tiles]
oasis = 0.5
village = 2.5

[djinns]
jafaar = 7.5
haurvatat = 2.5
al-amin = 4.5

[bid]
share = 0.5
max = 4
"""


@pytest.fixture
def halves(tmp_path: Path) -> str:
    path = tmp_path / "halves.toml"
    path.write_text(HALVES, encoding="utf-8")
    return str(path)


def seats_of(names: list[str], seed: int, expansions: list[str]) -> list[tuple[str, Agent]]:
    rules = build_rules(expansions)
    seats: list[tuple[str, Agent]] = []
    for seat, name in enumerate(names):
        profile = load_profile(name, COLOURS, None, known_djinns())
        seats.append(
            (
                kernel_seat(rules, f"greedy:profile={name}"),
                ProfiledGreedyAgent(agent_seed(seed, seat), profile),
            )
        )
    return seats


@pytest.mark.parametrize(
    ("profiles", "seed", "expansions"),
    [
        (["builder", "assassin", "merchant"], 3, []),
        (["merchant", "HALVES", "builder", "assassin"], 5, []),
        (["HALVES", "assassin"], 8, ["artisans"]),
    ],
)
def test_the_native_profiled_greedy_decides_as_the_python_one(
    profiles: list[str], seed: int, expansions: list[str], halves: str
) -> None:
    require_native()
    names = [halves if name == "HALVES" else name for name in profiles]
    rules = build_rules(expansions)
    assert play_both(rules, seats_of(names, seed, expansions), seed) > 100


def test_a_profiled_seat_is_the_profile_s_numbers_for_the_kernel(halves: str) -> None:
    rules = build_rules()
    seat = kernel_seat(rules, f"greedy:profile={halves}")
    assert seat.startswith(SEAT_PREFIX)
    numbers = json.loads(seat.removeprefix(SEAT_PREFIX))
    assert numbers["tribes"]["white"] == -2.5 and numbers["bid_max"] == 4
    assert numbers["djinns"]["al-amin"] == 4.5 and numbers["never_kill"] is False
    assert kernel_seat(rules, "greedy") == "greedy"
    assert kernel_seat(rules, "mcts:profile=builder") == "mcts:profile=builder"


def test_a_study_of_profiled_seats_is_the_same_on_both_engines(tmp_path: Path, halves: str) -> None:
    require_native()
    seats = f"greedy:profile=builder,greedy:profile={halves},greedy:profile=merchant"
    rows = {}
    for engine in ("python", "native"):
        out = tmp_path / f"{engine}.jsonl"
        args = ["simulate", "-n", "3", "--seats", seats, "--rotate", "-j", "1", "--json"]
        got = run(*args, "--engine", engine, "--games-out", str(out))
        assert got.exit_code == 0, got.stderr
        assert "playing on the Python engine" not in got.stderr
        rows[engine] = [json.loads(line) for line in out.read_text().splitlines()]
        for row in rows[engine]:
            del row["ai_seconds"]  # the time differs between engines and runs
    assert rows["python"] == rows["native"] and len(rows["native"]) == 3


def test_a_profiled_mcts_seat_still_plays_in_python() -> None:
    require_native()
    got = run("simulate", "-n", "1", "--seats", "mcts:2:profile=builder,random", "--json")
    assert got.exit_code == 0, got.stderr
    assert "the native engine has no player 'mcts:2:profile=builder'" in got.stderr


def test_a_profiled_seat_at_the_table_is_the_kernel_s_and_decides_alike() -> None:
    """``naqala play``'s native seat (``NativeSeat``) hands the profile to the kernel."""
    require_native()
    from naqala.native.seated import NativeSeat

    rules = build_rules()
    seed = 11
    state = rules.new_game(3, seed)
    profile = load_profile("assassin", COLOURS, None, known_djinns())
    for _ in range(60):
        seat = state.decision.player
        options = rules.legal_actions(state)
        python = ProfiledGreedyAgent(agent_seed(seed, seat), profile)
        native = NativeSeat(rules, "greedy:profile=assassin", agent_seed(seed, seat))
        choice = python.choose(rules, state, options)
        assert native.choose(rules, state, options) == choice
        state = rules.apply(state, choice)
