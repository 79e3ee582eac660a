"""``greedy-nobid``: the greedy player that never pays for turn order, the variant the
lab's study 2 pits against normal bidding (docs/studies.md)."""

from __future__ import annotations

from naqala.agents.greedy import GreedyAgent
from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import State


class NoBidGreedyAgent(GreedyAgent):
    """The greedy agent that never pays for turn order: at a bid it takes the cheapest
    bid on offer (``bid 0`` whenever that spot is free)."""

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        bids = [a for a in options if a.kind == "bid"]
        if state.decision.stage == "bid" and bids:
            return min(bids, key=lambda a: int(a.args[0]))
        return super().choose(rules, state, options)
