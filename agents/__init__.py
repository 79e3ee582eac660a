"""The shipped AI players, installed as a plugin of their own (``naqala.agents``).

Players are not rules: they change nobody's game, so they are not among a game's
plugins (a record does not list them) and every game can seat them. This package answers
the hook ``naqala_agents`` for every game, found through the entry-point group
``naqala.agents``; a house rule or an expansion adds players through the same hook. The
players build on the core and the base game's API only, like any other plugin:

- ``random``: uniform among the legal options (``naqala.core.agents.RandomAgent``);
- ``greedy``: the turn that most raises its own score now (``greedy.py``);
  ``greedy:profile=NAME`` the same with a profile's tastes (``profile.py``);
- ``greedy-full``: the same judgement over every move, to measure ``greedy`` against;
- ``greedy-nobid``: ``greedy`` that never pays for turn order (the lab's study 2);
- ``mcts``, ``mcts:N``, ``mcts:Xs``: the search player (``mcts.py``), its budget bounded
  (``mcts.MAX_PLAYOUTS``, ``mcts.MAX_SECONDS``);
- ``ismcts``, ``ismcts:strong``, ``ismcts:deep``, ``ismcts:N``, ``ismcts:Xs``: the
  kernel's tree search (``ismcts.py``); a Python game seats ``mcts`` in its place.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from naqala.core.actions import shorten
from naqala.core.agents import Agent, AgentFactory, RandomAgent, without_setting
from naqala.core.hookspecs import hookimpl

NAME = "agents"
VERSION = "0.1.0"
DESCRIPTION = "The shipped AI players: random, greedy, greedy-full, greedy-nobid, mcts, ismcts"


#: the meeple colours a profile's [tribes] may weigh (every box has these five)
COLOURS = ("yellow", "white", "green", "blue", "red")


@functools.cache
def known_djinns() -> tuple[str, ...]:
    """Every djinn id of the shipped boxes, which a profile's [djinns] may weigh (read
    once a process)."""
    from naqala.core.engine import build_rules

    found: set[str] = set()
    for boxes in ([], ["artisans"], ["whims"], ["thieves"]):
        found |= {card.id for card in build_rules(boxes).content.deck("djinns")}
    return tuple(sorted(found))


def _greedy(seed: int, setting: str) -> Agent:
    """The greedy player; ``profile=NAME`` (a shipped profile) or ``profile=PATH`` gives
    it a profile's tastes (``profile.py``)."""
    from naqala.agents.greedy import GreedyAgent

    if not setting:
        return GreedyAgent(seed)
    key, _, value = setting.partition("=")
    if key.strip().lower() != "profile" or not value:
        raise ValueError(
            f"the greedy player's setting is profile=NAME or profile=PATH, not {shorten(setting)!r}"
        )
    from naqala.agents.profile import load_profile
    from naqala.agents.profiled import ProfiledGreedyAgent

    return ProfiledGreedyAgent(seed, load_profile(value, COLOURS, None, known_djinns()))


def _greedy_full(seed: int) -> Agent:
    from naqala.agents.greedy_full import FullGreedyAgent

    return FullGreedyAgent(seed)


def _greedy_nobid(seed: int) -> Agent:
    from naqala.agents.nobid import NoBidGreedyAgent

    return NoBidGreedyAgent(seed)


def _mcts(seed: int, setting: str) -> Agent:
    """The search player; its setting is a budget (``mcts:200``), a profile
    (``mcts:profile=builder``: the greedy player it searches over has the profile's
    tastes) or both (``mcts:200:profile=builder``)."""
    from naqala.agents.mcts import MctsAgent, parse_budget

    budget, profile = setting, ""
    for part in setting.split(":"):
        key, _, value = part.partition("=")
        if key.strip().lower() == "profile":
            if not value or profile:
                raise ValueError(
                    f"the mcts player takes one profile=NAME, not {shorten(setting)!r}"
                )
            profile = value
            budget = ":".join(p for p in setting.split(":") if p != part)
    if not profile:
        return MctsAgent(seed, parse_budget(setting))
    from naqala.agents.profile import load_profile

    return MctsAgent(
        seed, parse_budget(budget), load_profile(profile, COLOURS, None, known_djinns())
    )


def _ismcts(seed: int, setting: str) -> Agent:
    from naqala.agents.ismcts import PythonStandIn

    return PythonStandIn(seed, setting)


@hookimpl
def naqala_agents() -> Mapping[str, AgentFactory]:
    return {
        "random": without_setting(RandomAgent, "random player"),
        "greedy": _greedy,
        "greedy-full": without_setting(_greedy_full, "greedy-full player"),
        "greedy-nobid": without_setting(_greedy_nobid, "greedy-nobid player"),
        "mcts": _mcts,
        "ismcts": _ismcts,
    }
