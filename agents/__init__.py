"""The shipped AI players, installed as a plugin of their own (``naqala.agents``).

Players are not rules: they change nobody's game, so they are not among a game's
plugins (a record does not list them) and every game can seat them. This package answers
the hook ``naqala_agents`` for every game, found through the entry-point group
``naqala.agents``; a house rule or an expansion adds players through the same hook. The
players build on the core and the base game's API only, like any other plugin:

- ``random``: uniform among the legal options (``naqala.core.agents.RandomAgent``);
- ``greedy``: the turn that most raises its own score now (``greedy.py``);
- ``greedy-full``: the same judgement over every move, to measure ``greedy`` against;
- ``greedy-nobid``: ``greedy`` that never pays for turn order (the lab's study 2);
- ``mcts``, ``mcts:N``, ``mcts:Xs``: the search player (``mcts.py``), its budget bounded
  (``mcts.MAX_PLAYOUTS``, ``mcts.MAX_SECONDS``);
- ``ismcts``, ``ismcts:strong``, ``ismcts:deep``, ``ismcts:N``, ``ismcts:Xs``: the
  kernel's tree search (``ismcts.py``); a Python game seats ``mcts`` in its place.
"""

from __future__ import annotations

from collections.abc import Mapping

from naqala.core.agents import Agent, AgentFactory, RandomAgent, without_setting
from naqala.core.hookspecs import hookimpl

NAME = "agents"
VERSION = "0.1.0"
DESCRIPTION = "The shipped AI players: random, greedy, greedy-full, greedy-nobid, mcts, ismcts"


def _greedy(seed: int) -> Agent:
    from naqala.agents.greedy import GreedyAgent

    return GreedyAgent(seed)


def _greedy_full(seed: int) -> Agent:
    from naqala.agents.greedy_full import FullGreedyAgent

    return FullGreedyAgent(seed)


def _greedy_nobid(seed: int) -> Agent:
    from naqala.agents.nobid import NoBidGreedyAgent

    return NoBidGreedyAgent(seed)


def _mcts(seed: int, setting: str) -> Agent:
    from naqala.agents.mcts import MctsAgent, parse_budget

    return MctsAgent(seed, parse_budget(setting))


def _ismcts(seed: int, setting: str) -> Agent:
    from naqala.agents.ismcts import PythonStandIn

    return PythonStandIn(seed, setting)


@hookimpl
def naqala_agents() -> Mapping[str, AgentFactory]:
    return {
        "random": without_setting(RandomAgent, "random player"),
        "greedy": without_setting(_greedy, "greedy player"),
        "greedy-full": without_setting(_greedy_full, "greedy-full player"),
        "greedy-nobid": without_setting(_greedy_nobid, "greedy-nobid player"),
        "mcts": _mcts,
        "ismcts": _ismcts,
    }
