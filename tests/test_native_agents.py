"""The kernel's AI players decide as the Python players do: at every decision of games
played on the Python engine, the native player of the same name and seed is handed the
same state and must choose the same option; and a whole game played natively
(``NativeState.play``) ends in the Python game's final state."""

from __future__ import annotations

import pytest
from native_kit import require_native

from naqala.agents.greedy import GreedyAgent
from naqala.agents.greedy_full import FullGreedyAgent
from naqala.agents.mcts import DEEP_BUDGET, DEFAULT_BUDGET, MctsAgent, parse_budget, view_digest
from naqala.agents.nobid import NoBidGreedyAgent
from naqala.core.actions import format_action
from naqala.core.agents import Agent
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_data
from naqala.core.simulate import agent_seed
from naqala.native.bridge import NativeRules

PYTHON_PLAYERS = {"greedy": GreedyAgent, "greedy-nobid": NoBidGreedyAgent}


def play_both(
    rules: Rules, seats: list[tuple[str, Agent]], seed: int, decisions: int | None = None
) -> int:
    """A game on the Python engine, each decision also asked of the native player of the
    seat; fails at the first different choice. Played to its end (and then replayed
    whole on the kernel, to the same final state) unless ``decisions`` cuts it short.
    The number of decisions played."""
    native = require_native()
    bridge = NativeRules(rules)
    players = len(seats)
    natives = [
        native.NativePlayer(name, agent_seed(seed, seat)) for seat, (name, _) in enumerate(seats)
    ]
    state = start = rules.new_game(players, seed)
    played = 0
    while not state.is_over and (decisions is None or played < decisions):
        seat = state.decision.player
        choice = seats[seat][1].choose(rules, state, rules.legal_actions(state))
        handed = bridge.to_native(state)
        found = handed.legal_actions()[natives[seat].choose(handed)]
        assert found == format_action(choice), (
            f"seed {seed}, decision {played} ({state.decision}): Python chose "
            f"{format_action(choice)}, the kernel {found}"
        )
        state = rules.apply(state, choice)
        played += 1
    if decisions is None:
        names = [(name, agent_seed(seed, seat)) for seat, (name, _) in enumerate(seats)]
        final, actions, _rounds = bridge.to_native(start).play(names)
        assert actions == played
        assert bridge.data(final) == state_to_data(rules, state)
    return played


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
    assert {"greedy", "greedy-full", "greedy-nobid"} <= set(native.players())
    with pytest.raises(NotImplementedError, match="no player 'coiny'"):
        native.NativePlayer("coiny", 1)


def mcts_seats(setting: str, players: int, seed: int) -> list[tuple[str, Agent]]:
    name = f"mcts:{setting}" if setting else "mcts"
    budget = parse_budget(setting)
    return [(name, MctsAgent(agent_seed(seed, seat), budget)) for seat in range(players)]


def test_native_mcts_decides_as_python_at_the_default_budget() -> None:
    # the search's draws, work count and float arithmetic all agree, or a choice differs
    assert play_both(build_rules(), mcts_seats("", 2, 1), 1, decisions=40) == 40


def test_native_mcts_decides_alike_with_a_playout_budget_at_three_players() -> None:
    assert play_both(build_rules(), mcts_seats("12", 3, 4), 4, decisions=40) == 40


def test_a_whole_native_mcts_game_is_the_python_game() -> None:
    assert play_both(build_rules(), mcts_seats("4", 2, 9), 9) > 100


def digests_agree(rules: Rules, seed: int, agent_seed_: int, actions: int) -> None:
    """Every seat's view digest on both engines, after each of ``actions`` random
    actions of a 3-player game from ``seed``."""
    from naqala.core.agents import RandomAgent

    bridge = NativeRules(rules)
    agent = RandomAgent(agent_seed_)
    state = rules.new_game(3, seed)
    for _ in range(actions):
        handed = bridge.to_native(state)
        for seat in range(3):
            assert handed.view_digest(seat) == view_digest(rules, state, seat)
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))


def test_the_view_digest_is_the_python_one() -> None:
    digests_agree(build_rules(["big-viziers"]), 5, 3, 120)


def test_the_deep_budget_is_64_times_the_default_and_named_on_both_engines() -> None:
    native = require_native()
    assert parse_budget("deep") == DEEP_BUDGET
    assert DEEP_BUDGET.iterations == 64 * DEFAULT_BUDGET.iterations
    assert DEFAULT_BUDGET.work is not None
    assert DEEP_BUDGET.work == 64 * DEFAULT_BUDGET.work
    assert "mcts" in native.players()
    native.NativePlayer("mcts:deep", 1)
    with pytest.raises(NotImplementedError, match="no player 'mcts:fast'"):
        native.NativePlayer("mcts:fast", 1)


def test_native_greedy_full_decides_as_the_python_one() -> None:
    seats: list[tuple[str, Agent]] = [
        ("greedy-full", FullGreedyAgent(agent_seed(1, seat))) for seat in range(2)
    ]
    assert play_both(build_rules(), seats, 1, decisions=40) == 40


def test_a_seconds_budget_searches_natively_within_its_time() -> None:
    # a CPU-seconds budget cannot be equal across engines; it must still choose an option
    import time

    native = require_native()
    rules = build_rules()
    bridge = NativeRules(rules)
    state = rules.new_game(2, 3)
    handed = bridge.to_native(state)
    started = time.process_time()
    choice = native.NativePlayer("mcts:0.2s", 1).choose(handed)
    assert 0 <= choice < len(handed.legal_actions())
    assert time.process_time() - started < 2.0


@pytest.mark.parametrize("expansions", [["artisans", "djinns"], ["djinns", "thieves"]])
def test_the_view_digest_and_mcts_agree_with_every_hidden_deck(expansions: list[str]) -> None:
    """The whims in hand are hidden (the Djinns box's ``naqala_hidden_decks``): the kernel
    reads the hidden decks from the content, so its views, their digest and the search
    drawn from it are Python's in every box (a list of its own once left the whims out)."""
    rules = build_rules(expansions)
    digests_agree(rules, 6, 8, 150)
    assert play_both(rules, mcts_seats("", 3, 2), 2, decisions=30) == 30


def test_a_whole_native_mcts_solo_game_is_the_python_game() -> None:
    """A playout that ends the game is judged by solo mode's own verdict on both engines
    (lost to Sultan Yazid is lost, whatever the score): the kernel once judged it by the
    highest score, and its search chose other moves than Python's."""
    assert play_both(build_rules(["solo"]), mcts_seats("", 1, 3), 3) > 40
