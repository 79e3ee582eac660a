"""Determinism: the same seed and the same actions give the same game, in this process,
in other processes with other string-hash seeds, and through a save and load.

A trajectory hash is the sha256 of each action's notation (one per line) followed by the
final state's JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import State
from naqala.testing.scenario import base_rules

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)
HASH_SEEDS = ("0", "12345")

#: (expansions, players, game seed, agent seed) of the games compared across processes
GAMES = (
    ([], 2, 11, 101),
    ([], 3, 22, 202),
    ([], 4, 33, 303),
    (["djinns"], 4, 44, 404),
    (["artisans", "djinns"], 5, 55, 505),
)

#: run in a fresh interpreter; must compute the hash exactly as ``trajectory_hash`` does
SCRIPT = """
import hashlib, json, sys
from naqala.core.agents import RandomAgent
from naqala.core.engine import build_rules
from naqala.core.serialize import state_to_json

out = []
for expansions, players, seed, agent_seed in json.loads(sys.argv[1]):
    rules = build_rules(expansions)
    agent = RandomAgent(agent_seed)
    state = rules.new_game(players, seed)
    digest = hashlib.sha256()
    while not state.is_over:
        action = agent.choose(rules, state, rules.legal_actions(state))
        digest.update(str(action).encode() + b"\\n")
        state = rules.apply(state, action)
    digest.update(state_to_json(rules, state).encode())
    out.append(digest.hexdigest())
print(json.dumps(out))
"""


def play(rules: Rules, players: int, seed: int, agent_seed: int) -> tuple[list[Action], State]:
    """A complete game by one random agent deciding for every seat."""
    agent = RandomAgent(agent_seed)
    state = rules.new_game(players, seed)
    actions = []
    while not state.is_over:
        action = agent.choose(rules, state, rules.legal_actions(state))
        actions.append(action)
        state = rules.apply(state, action)
    return actions, state


def replay(rules: Rules, start: State, actions: Sequence[Action]) -> State:
    state = start
    for action in actions:
        state = rules.apply(state, action)
    return state


def trajectory_hash(rules: Rules, actions: Sequence[Action], final: State) -> str:
    digest = hashlib.sha256()
    for action in actions:
        digest.update(str(action).encode() + b"\n")
    digest.update(state_to_json(rules, final).encode())
    return digest.hexdigest()


def run_python(code: str, *args: str, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, agent_seed=SEEDS)
def test_same_seed_and_actions_give_the_same_trajectory(
    players: int, seed: int, agent_seed: int
) -> None:
    """Playing a seed twice with the same agent gives the same trajectory hash, and
    replaying the recorded actions on a fresh game reproduces it exactly."""
    rules = base_rules()
    actions, final = play(rules, players, seed, agent_seed)
    again, final_again = play(rules, players, seed, agent_seed)
    assert again == actions
    assert final_again == final
    expected = trajectory_hash(rules, actions, final)
    assert trajectory_hash(rules, again, final_again) == expected
    replayed = replay(rules, rules.new_game(players, seed), actions)
    assert replayed == final
    assert trajectory_hash(rules, actions, replayed) == expected


def test_new_game_depends_only_on_seed_and_players() -> None:
    """Setting up twice gives equal states; other seeds give other boards."""
    rules = base_rules()
    for players in (2, 3, 4):
        assert rules.new_game(players, 5) == rules.new_game(players, 5)
    layouts = {rules.new_game(4, seed).layout.tiles for seed in range(20)}
    assert len(layouts) == 20


def test_fresh_rules_give_the_same_game() -> None:
    """Rules built twice (nothing cached between them) play the same game."""
    from naqala.core.engine import build_rules

    first, second = build_rules(), build_rules()
    a = play(first, 3, 8, 80)
    b = play(second, 3, 8, 80)
    assert a[0] == b[0]
    assert state_to_json(first, a[1]) == state_to_json(second, b[1])


def test_save_and_load_midway_does_not_change_the_future() -> None:
    """Saving the state halfway, loading it (with freshly built rules) and replaying the
    remaining actions ends in the same state."""
    rules = base_rules()
    actions, final = play(rules, 4, 17, 170)
    half = len(actions) // 2
    midway = replay(rules, rules.new_game(4, 17), actions[:half])
    loaded_rules, loaded = state_from_json(state_to_json(rules, midway))
    assert loaded_rules is not rules
    end = replay(loaded_rules, loaded, actions[half:])
    assert end == final
    assert trajectory_hash(loaded_rules, actions, end) == trajectory_hash(rules, actions, final)


def test_trajectory_is_the_same_in_other_processes() -> None:
    """Fresh interpreters with PYTHONHASHSEED=0 and 12345 compute the same trajectory
    hashes as this process — for the base game and both expansions with up to five
    players: nothing depends on string hashing or set order."""
    here = []
    for expansions, *game in GAMES:
        rules = build_rules(expansions)
        here.append(trajectory_hash(rules, *play(rules, *game)))
    assert len(set(here)) == len(here)
    for hash_seed in HASH_SEEDS:
        there = json.loads(run_python(SCRIPT, json.dumps(GAMES), hash_seed=hash_seed))
        assert there == here, f"PYTHONHASHSEED={hash_seed}"


SIMULATE = ["simulate", "--games", "3", "--players", "3", "--seed", "5", "--json"]


def test_simulate_json_is_the_same_twice() -> None:
    """``naqala simulate --json`` with the same arguments prints the same result twice."""
    runner = CliRunner()
    first = runner.invoke(app, SIMULATE)
    second = runner.invoke(app, SIMULATE)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["games"] == 3
    other = runner.invoke(app, [*SIMULATE[:-2], "6", "--json"])
    assert other.stdout != first.stdout


def test_simulate_json_is_the_same_in_other_processes() -> None:
    """The command run in fresh interpreters (different PYTHONHASHSEED) prints exactly
    what it prints in this process."""
    here = CliRunner().invoke(app, SIMULATE)
    assert here.exit_code == 0
    code = "from naqala.cli.app import main; main()"
    for hash_seed in HASH_SEEDS:
        assert run_python(code, *SIMULATE, hash_seed=hash_seed) == here.stdout
