"""The AI players by name: the one resolver ``naqala play``, ``simulate`` and ``compare``
share, so every command accepts the same seats.

A name is a kind with an optional setting after a colon: ``random``, ``greedy``,
``greedy-full``, ``mcts``, ``mcts:200`` (playouts per decision) or ``mcts:1.5s``
(CPU seconds per decision). ``make_agent`` builds one; ``agent_known`` only checks a name.
"""

from __future__ import annotations

from typing import Protocol

from naqala.core.actions import shorten
from naqala.core.agents import Agent, RandomAgent
from naqala.plugins.base.greedy import GreedyAgent
from naqala.plugins.base.greedy_full import FullGreedyAgent


class AgentFactory(Protocol):
    def __call__(self, seed: int, setting: str = "") -> Agent: ...


def _plain(cls: type) -> AgentFactory:
    """A factory for an agent kind that takes no setting."""

    def build(seed: int, setting: str = "") -> Agent:
        if setting:
            raise ValueError(f"the {cls.__name__} takes no setting (got {setting!r})")
        agent: Agent = cls(seed)
        return agent

    return build


def _mcts(seed: int, setting: str = "") -> Agent:
    from naqala.plugins.base.mcts import MctsAgent, parse_budget

    return MctsAgent(seed, parse_budget(setting))


AGENTS: dict[str, AgentFactory] = {
    "random": _plain(RandomAgent),
    "greedy": _plain(GreedyAgent),
    "greedy-full": _plain(FullGreedyAgent),
    "mcts": _mcts,
}


def _no_bid_greedy(seed: int, setting: str = "") -> Agent:
    from naqala.lab.agents import NoBidGreedyAgent  # the lab's study variant

    return _plain(NoBidGreedyAgent)(seed, setting)


AGENTS["greedy-nobid"] = _no_bid_greedy


def make_agent(kind: str, seed: int) -> Agent:
    """An agent by name (``greedy``, ``mcts:2000``…); ValueError saying what is known."""
    name, _, setting = kind.partition(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown AI {shorten(kind)!r}; known: {', '.join(sorted(AGENTS))}")
    try:
        return factory(seed, setting)
    except ValueError as exc:
        raise ValueError(f"AI {shorten(kind)!r}: {exc}") from None


def agent_known(kind: str) -> bool:
    """Whether ``kind`` names an agent (with a valid setting)."""
    try:
        make_agent(kind, 0)
    except ValueError:
        return False
    return True
