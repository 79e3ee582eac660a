"""Agents that choose actions. Random agents draw from their own seeded generator, so a
simulated game is a pure function of the game seed and the agent seed."""

from __future__ import annotations

from typing import Protocol

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State


class Agent(Protocol):
    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action: ...


class RandomAgent:
    """Chooses uniformly among the legal options."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        index, self.rng = self.rng.below(len(options))
        return options[index]
