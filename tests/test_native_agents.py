"""The kernel's AI players decide as the Python players do: at every decision of games
played on the Python engine, the native player of the same name and seed is handed the
same state and must choose the same option; and a whole game played natively
(``NativeState.play``) ends in the Python game's final state."""

from __future__ import annotations

import pytest
from native_kit import require_native

from naqala.agents.greedy import GreedyAgent
from naqala.agents.nobid import NoBidGreedyAgent
from naqala.core.actions import format_action
from naqala.core.agents import Agent
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_data
from naqala.core.simulate import agent_seed
from naqala.kernel.bridge import NativeRules

PYTHON_PLAYERS = {"greedy": GreedyAgent, "greedy-nobid": NoBidGreedyAgent}


def play_both(rules: Rules, seats: list[tuple[str, Agent]], seed: int) -> int:
    """A game on the Python engine, each decision also asked of the native player of the
    seat; fails at the first different choice. The number of decisions."""
    native = require_native()
    bridge = NativeRules(rules)
    players = len(seats)
    natives = [
        native.NativePlayer(name, agent_seed(seed, seat)) for seat, (name, _) in enumerate(seats)
    ]
    state = start = rules.new_game(players, seed)
    decisions = 0
    while not state.is_over:
        seat = state.decision.player
        choice = seats[seat][1].choose(rules, state, rules.legal_actions(state))
        handed = bridge.to_native(state)
        found = handed.legal_actions()[natives[seat].choose(handed)]
        assert found == format_action(choice), (
            f"seed {seed}, decision {decisions} ({state.decision}): Python chose "
            f"{format_action(choice)}, the kernel {found}"
        )
        state = rules.apply(state, choice)
        decisions += 1
    names = [(name, agent_seed(seed, seat)) for seat, (name, _) in enumerate(seats)]
    final, actions, _rounds = bridge.to_native(start).play(names)
    assert actions == decisions
    assert bridge.data(final) == state_to_data(rules, state)
    return decisions


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [
        ("greedy", 2, 1),
        ("greedy", 3, 2),
        ("greedy", 4, 3),
        ("greedy", 4, 7),
        ("greedy-nobid", 3, 4),
    ],
)
def test_the_native_greedy_player_decides_as_the_python_one(
    name: str, players: int, seed: int
) -> None:
    rules = build_rules()
    seats: list[tuple[str, Agent]] = [
        (name, PYTHON_PLAYERS[name](agent_seed(seed, seat))) for seat in range(players)
    ]
    assert play_both(rules, seats, seed) > 100


@pytest.mark.parametrize("house_rule", ["big-viziers", "generous-jafaar"])
def test_greedy_decides_alike_under_content_house_rules(house_rule: str) -> None:
    rules = build_rules([house_rule])
    seats: list[tuple[str, Agent]] = [
        ("greedy", GreedyAgent(agent_seed(21, seat))) for seat in range(3)
    ]
    play_both(rules, seats, 21)


def test_greedy_and_random_seats_mix_in_one_native_game() -> None:
    from naqala.core.agents import RandomAgent

    rules = build_rules()
    seats: list[tuple[str, Agent]] = [
        ("random", RandomAgent(agent_seed(5, 0))),
        ("greedy", GreedyAgent(agent_seed(5, 1))),
        ("greedy-nobid", NoBidGreedyAgent(agent_seed(5, 2))),
    ]
    play_both(rules, seats, 5)


def test_the_greedy_players_are_listed() -> None:
    native = require_native()
    assert {"greedy", "greedy-nobid"} <= set(native.players())
    with pytest.raises(NotImplementedError, match="no player 'coiny'"):
        native.NativePlayer("coiny", 1)
