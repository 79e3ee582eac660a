"""Playing one complete game with agents: what every study is made of.

A game is a pure function of its game seed and its agents' seeds (``agent_seed`` derives
those from the game seed), so it replays identically in any process. Running many games
and their statistics live in the balance lab (``naqala.lab``).
"""

from __future__ import annotations

from collections.abc import Callable

from naqala.core.actions import Action
from naqala.core.agents import Agent, RandomAgent
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State


def agent_seed(game_seed: int, seat: int) -> int:
    """A seed for seat ``seat``'s agent, independent of the game's own draws."""
    value, _ = Rng(game_seed ^ 0x5EED_A6E7).below(1 << 62)
    return value + seat


def play_game(
    rules: Rules,
    players: int,
    seed: int,
    agents: list[Agent] | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> tuple[State, int]:
    """Play one game to the end; the final state and the number of actions taken."""
    if agents is None:
        agents = [RandomAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    count = 0
    while not state.is_over:
        options = rules.legal_actions(state)
        action = agents[state.decision.player].choose(rules, state, options)
        if on_action is not None:
            on_action(state, action)
        state = rules.apply(state, action)
        count += 1
    return state, count
