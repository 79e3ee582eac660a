"""Agents of the lab's studies: the names ``naqala play`` knows (``plugins.base.agents``),
plus study-only variants such as ``greedy-nobid``, registered there under their names."""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.agents import Agent
from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.plugins.base.api import AGENTS, GreedyAgent, agent_known, make_agent


class NoBidGreedyAgent(GreedyAgent):
    """The greedy agent that never pays for turn order: at a bid it takes the cheapest
    bid on offer (``bid 0`` whenever that spot is free). Study 2 pits it against normal
    bidding."""

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        bids = [a for a in options if a.kind == "bid"]
        if state.decision.stage == "bid" and bids:
            return min(bids, key=lambda a: int(a.args[0]))
        return super().choose(rules, state, options)


def seat_name(raw: str) -> str:
    """The agent name of a seat as ``--seats`` or ``naqala play`` writes it: ``greedy``,
    ``ai:greedy`` and ``ai`` (the greedy agent) all name ``greedy``; a setting follows a
    colon (``mcts:2000``). ValueError for ``human`` and for names no agent answers to,
    listing the known ones."""
    name = raw.strip().lower()
    if name == "ai":
        name = "greedy"
    name = name.removeprefix("ai:")
    if not agent_known(name):
        raise ValueError(f"unknown agent {raw.strip()!r}; known: {', '.join(sorted(AGENTS))}")
    return name


def study_agent(name: str, seed: int) -> Agent:
    """A fresh agent for one seat of one game."""
    return make_agent(seat_name(name), seed)
