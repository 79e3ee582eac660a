"""Invariants every reachable state keeps, for every installed plugin's components.

``check_state`` is the check a state file gets when it is loaded (``naqala.core.validate``):
each colour's meeples, each deck's cards, each token, each player's camels and turn
markers are all somewhere exactly once; nothing is negative; every id is known; the
decision fits the turn in progress; and each plugin checks its own components (hook
``naqala_check_state``). ``assert_invariants`` turns problems into a test failure, and
``checked_playout`` plays a random game checking every state on the way.

``assert_invariants`` also holds the board's incremental colour masks (kept by
``Board.with_meeples_at``, trusted by the move generator) to the masks computed from
scratch, so a broken mask update fails at the action that broke it, not minutes later
through a wrong move.
"""

from __future__ import annotations

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.state import Board, State
from naqala.core.validate import Problem, check_state

__all__ = ["Problem", "assert_invariants", "check_state", "checked_playout", "mask_problems"]


def mask_problems(state: State) -> list[Problem]:
    """The colours whose kept board mask differs from the one computed from the meeples
    (asking for the masks keeps them, so the next boards update them incrementally)."""
    kept = state.board.colour_masks
    fresh = Board(state.board.meeples, state.board.owners, state.board.tokens).colour_masks
    return [
        Problem(
            "$.board.meeples",
            f"colour {colour}: kept mask {kept[colour]:#x}, from the meeples {fresh[colour]:#x}",
        )
        for colour in range(len(fresh))
        if kept[colour] != fresh[colour]
    ]


def assert_invariants(rules: Rules, state: State) -> None:
    """Fail (``AssertionError``) listing every problem of ``state``, with where the game
    stands, if it breaks an invariant of its rules."""
    problems = [*check_state(rules, state), *mask_problems(state)]
    if problems:
        where = f"round {state.round}, stage {state.decision.stage!r}"
        listed = "\n".join(f"  {problem}" for problem in problems)
        raise AssertionError(f"the state breaks its rules ({where}):\n{listed}")


def checked_playout(
    rules: Rules, players: int, seed: int, agent_seed: int = 0, max_actions: int | None = None
) -> State:
    """Play a game of ``players`` from ``seed`` with random agents (seeded ``agent_seed``
    onwards), checking the invariants of every state; stop when it is over or after
    ``max_actions``. Returns the last state."""
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    assert_invariants(rules, state)
    played = 0
    while not state.is_over and (max_actions is None or played < max_actions):
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
        assert_invariants(rules, state)
        played += 1
    return state
