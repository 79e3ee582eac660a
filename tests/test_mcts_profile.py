"""``ai:mcts:profile=NAME`` (issue 43): the search player ranks its candidates with the
profiled greedy player, so a profile changes what it plays."""

from __future__ import annotations

import pytest
from cli_kit import one_line, run

from naqala.agents.mcts import MctsAgent
from naqala.agents.profiled import ProfiledGreedyAgent
from naqala.core.actions import Action
from naqala.core.agents import SeatError, make_agent
from naqala.core.engine import build_rules
from naqala.core.simulate import play_game
from naqala.core.state import State


def _moves(seat: str, seed: int) -> list[str]:
    rules = build_rules([])
    agents = [make_agent(rules, seat, seed), make_agent(rules, "greedy", seed + 1)]
    taken: list[str] = []

    def note(state: State, action: Action) -> None:
        if state.decision.player == 0:
            taken.append(str(action))

    play_game(rules, 2, seed, agents, note)
    return taken


def test_a_profile_changes_what_mcts_plays() -> None:
    plain = _moves("mcts:8", 3)
    assert _moves("mcts:8", 3) == plain  # the search is a function of its seed
    assert _moves("mcts:8:profile=assassin", 3) != plain


def test_the_setting_takes_a_budget_a_profile_or_both() -> None:
    rules = build_rules([])
    both = make_agent(rules, "mcts:20:profile=builder", 1)
    assert isinstance(both, MctsAgent) and isinstance(both.greedy, ProfiledGreedyAgent)
    assert both.budget.iterations == 20
    alone = make_agent(rules, "mcts:profile=merchant", 1)
    assert isinstance(alone, MctsAgent) and isinstance(alone.greedy, ProfiledGreedyAgent)
    for bad, words in (
        ("mcts:profile=", "one profile=NAME"),
        ("mcts:profile=builder:profile=merchant", "one profile=NAME"),
        ("mcts:20:profile=no-such-profile", "profile no-such-profile"),
        ("mcts:fast:profile=builder", "neither playouts"),
    ):
        with pytest.raises(SeatError, match=words):
            make_agent(rules, bad, 1)


def test_a_profiled_mcts_seat_plays_on_the_python_engine_said_once() -> None:
    seat = "mcts:4:profile=builder"
    args = ["simulate", "-n", "1", "-p", "2", "-j", "1", "--seats", f"{seat},random", "--json"]
    auto = run(*args)
    assert auto.exit_code == 0, auto.stderr
    assert auto.stderr.splitlines() == [
        f"naqala: playing on the Python engine: the native engine has no player {seat!r}"
    ]
    assert "has no player" in one_line(run(*args, "--engine", "native"))
