"""``hint`` at a human seat of ``naqala play``: the AI's three best options, with why.

The hint searches with the MCTS player from the human seat's own view (so it knows
nothing the seat may not see), with its own seed; it changes neither the game nor the
draws of the AI seats. A bid is judged by the greedy player's rule instead (the search
leaves bids to it), from the best move on the board.
"""

from __future__ import annotations

from naqala.agents.greedy import GreedyAgent
from naqala.agents.mcts import DEFAULT_BUDGET, Budget, MctsAgent
from naqala.core.engine import Rules
from naqala.core.state import State

#: search playouts behind one hint, within the work cap of ``ai:mcts`` (so a hint takes
#: no longer than an AI seat's decision)
HINT_ITERATIONS = DEFAULT_BUDGET.iterations
#: how many options a hint shows
SHOWN = 3


def hint_lines(
    rules: Rules, state: State, seed: int, iterations: int = HINT_ITERATIONS
) -> list[str]:
    """Up to three suggestions for the pending decision, best first, each with a short
    reason; a single line when there is nothing to weigh."""
    options = rules.legal_actions(state)
    if state.is_over or not options:
        return ["the game is over"]
    if len(options) == 1:
        return [f"1. {options[0]}  (the only option)"]
    player = state.decision.player
    if state.decision.stage == "bid":
        greedy = GreedyAgent(seed)
        gain = greedy.move_gain(rules, state, player)
        choice = greedy.choose(rules, state, options)
        return [
            f"1. {choice}  (the best move on the board is worth about +{gain} points; "
            "the greedy AI pays at most a quarter of that)"
        ]
    budget = Budget(iterations=iterations, work=DEFAULT_BUDGET.work)
    found = MctsAgent(seed, budget).analyse(rules, state)
    lines = []
    for number, item in enumerate(found[:SHOWN], start=1):
        move = " ".join(str(a) for a in item.move)
        lines.append(
            f"{number}. {move}  (expected score {item.gain:+.1f}, "
            f"margin over the others {item.reward:+.1f}, played out {item.visits}×)"
        )
    return lines or [f"1. {options[0]}"]
