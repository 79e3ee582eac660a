"""Steps per second through the standard AI interfaces against naqala's own random
playouts: the overhead of the PettingZoo environment (with and without building
observations) and of the OpenSpiel game (with and without reading the mover's
observation tensor each step), as ratios measured in one run.

Every side plays whole random games (uniform over the legal actions) of the same rules
and counts actions, in slices taken in turn so that a change in the machine's load
touches every side alike; the ratio ``interface / naqala`` is comparable across machines
while the raw rates are not. Needs ``pip install -e '.[openspiel,pettingzoo]'``.

    python bench/envs.py [--seconds 10] [--players 3] [-x artisans -x djinns]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from naqala.core.agents import RandomAgent
from naqala.core.engine import build_rules


class Side:
    """One way of playing random games, timed in slices."""

    def __init__(self, name: str, play: Callable[[int], int]) -> None:
        self.name, self.play = name, play
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games (``play(seed)`` returns one game's actions) for ``seconds``."""
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.steps += self.play(self.games)
            self.games += 1
        self.seconds += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def naqala_game(players: int, expansions: list[str]) -> Callable[[int], int]:
    rules = build_rules(expansions)

    def play(seed: int) -> int:
        state, agent, steps = rules.new_game(players, seed), RandomAgent(seed), 0
        while not state.is_over:
            state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
            steps += 1
        return steps

    return play


def pettingzoo_game(players: int, expansions: list[str], observe: bool) -> Callable[[int], int]:
    import numpy as np

    from naqala.envs.pettingzoo import raw_env

    game = raw_env(players=players, expansions=tuple(expansions))

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        game.reset(seed=seed)
        steps = 0
        while not game.state.is_over:
            if observe:
                mask = game.observe(game.agent_selection)["action_mask"]
                legal = np.flatnonzero(mask)
            else:  # the mask alone, as an agent that reads no observation needs
                legal = game.codec.legal(game.rules, game.state)
            game.step(int(rng.choice(legal)))
            steps += 1
        return steps

    return play


def openspiel_game(
    players: int, expansions: list[str], observe: bool = False
) -> Callable[[int], int]:
    import numpy as np
    import pyspiel

    import naqala.envs.openspiel  # noqa: F401  (registers the game)

    def play(seed: int) -> int:
        game = pyspiel.load_game(
            "python_naqala",
            {"players": players, "expansions": ",".join(expansions), "seed": seed},
        )
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if observe and not state.is_chance_node():
                state.observation_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="time per side")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--slices", type=int, default=5, help="turns each side takes")
    parser.add_argument(
        "-x", "--expansion", action="append", default=[], help="an expansion (repeatable)"
    )
    args = parser.parse_args()
    try:
        sides = [
            Side("naqala random playouts", naqala_game(args.players, args.expansion)),
            Side("PettingZoo, mask only", pettingzoo_game(args.players, args.expansion, False)),
            Side("PettingZoo, observations", pettingzoo_game(args.players, args.expansion, True)),
            Side("OpenSpiel", openspiel_game(args.players, args.expansion)),
            Side("OpenSpiel, observations", openspiel_game(args.players, args.expansion, True)),
        ]
    except ImportError as exc:
        sys.exit(f"{exc}: pip install -e '.[openspiel,pettingzoo]'")
    for _ in range(args.slices):
        for side in sides:
            side.run(args.seconds / args.slices)
    game = "+".join(["base", *args.expansion])
    print(f"{args.players}-player {game}, random play, {args.seconds:g} s per side")
    for side in sides:
        print(
            f"{side.name:<26} {side.rate:9.0f} steps/s ({side.games} games)  "
            f"ratio {side.rate / sides[0].rate:.2f}"
        )


if __name__ == "__main__":
    main()
