"""Steps per second through the standard AI interfaces, on the Python engine and on the
native engine, against naqala's own random playouts: the overhead of the PettingZoo
environment (with and without reading observations), of the OpenSpiel game (with and
without reading the mover's observation tensor each step) and of the batched
``VectorEnv`` and its Gymnasium vector adapter (``NaqalaVectorEnv``, the learner's
steps against random players), as ratios measured in one run.

Every side plays whole random games (uniform over the legal actions) of the same rules
and counts actions per CPU-second of this process (``time.process_time``, as
``bench/native.py`` does, so that the other processes of a shared machine do not count),
in slices taken in turn so that a change in the machine's load touches every side alike;
the ratios are comparable across machines while the raw rates are not. "PettingZoo AEC"
is the full loop a learner runs (``agent_iter``, ``last()`` with its observation and
mask, ``step``) through PettingZoo's order-enforcing wrapper.
Rules that cannot run native (``naqala.envs.native.native_blocker``) skip the native
sides and say why. Needs ``pip install -e '.[openspiel,pettingzoo]'``.

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
        """Play whole games (``play(seed)`` returns one game's actions) for ``seconds`` of
        CPU time."""
        start = time.process_time()
        while time.process_time() - start < seconds:
            self.steps += self.play(self.games)
            self.games += 1
        self.seconds += time.process_time() - start

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


def pettingzoo_game(
    players: int, expansions: list[str], read: str, engine: str
) -> Callable[[int], int]:
    """``read``: ``aec`` the whole AEC loop (``agent_iter``, ``last()`` with its
    observation and mask, ``step``) through the order-enforcing wrapper; ``observe`` the
    raw environment's ``observe`` of the mover and ``step`` (how this bench measured
    "observation and mask every step" before the native engine); ``mask`` the legal
    indices alone, no observation. The policy is uniform over the mask (Python's
    ``random``, cheaper than numpy's ``choice`` on one small array), its legal indices
    found through a boolean view of the int8 mask: the same indices, and numpy's
    ``nonzero`` over booleans costs a fifth of its ``nonzero`` over int8 (at the
    Artisans' 4,643 actions, more than a native step)."""
    import random

    from naqala.envs.pettingzoo import env, raw_env

    if read == "aec":
        wrapped = env(players=players, expansions=tuple(expansions), engine=engine)

        def play(seed: int) -> int:
            rng = random.Random(seed)
            wrapped.reset(seed=seed)
            steps = 0
            for _agent in wrapped.agent_iter():
                observation, _, terminated, truncated, _ = wrapped.last()
                if terminated or truncated:
                    wrapped.step(None)
                    continue
                legal = observation["action_mask"].view(bool).nonzero()[0]
                wrapped.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            return steps

        return play

    game = raw_env(players=players, expansions=tuple(expansions), engine=engine)

    def play_raw(seed: int) -> int:
        rng = random.Random(seed)
        game.reset(seed=seed)
        steps = 0
        while not game.game.is_over:
            if read == "observe":
                legal = game.observe(game.agent_selection)["action_mask"].view(bool).nonzero()[0]
            else:
                legal = game.game.legal()
            game.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return play_raw


def openspiel_game(
    players: int, expansions: list[str], observe: bool, engine: str
) -> Callable[[int], int]:
    """The game loaded once; each game of the side is one deal (the chance outcome
    ``seed``), played by a uniform policy (Python's ``random``) over ``legal_actions``."""
    import random

    import pyspiel

    import naqala.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(
        "python_naqala",
        {"players": players, "expansions": ",".join(expansions), "engine": engine},
    )

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed % game.max_chance_outcomes())  # the deal
        steps = 1
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return play


def vector_game(players: int, expansions: list[str], count: int) -> Callable[[int], int]:
    """``count`` self-play games stepped together, observations and masks of every game
    read at every step; a "game" of this side is one batched step of all of them."""
    import numpy as np

    from naqala.envs.vector import VectorEnv

    batch = VectorEnv(count, players=players, expansions=tuple(expansions))
    rng = np.random.default_rng(0)
    observation, _ = batch.reset(seed=0)

    def play(seed: int) -> int:
        nonlocal observation
        for _ in range(10):
            masks = observation["action_mask"]
            # one uniform legal action per game: the largest random key among its legal ones
            keys = rng.random(masks.shape) * masks
            observation, *_ = batch.step(keys.argmax(axis=1))
        return 10 * count

    return play


def gymvector_game(players: int, expansions: list[str], count: int) -> Callable[[int], int]:
    """The Gymnasium vector adapter (``NaqalaVectorEnv``): ``count`` games, seat 0
    learning against random players in each; a "game" of this side is ten batched
    steps, counted as the learner's ``10 * count`` steps (the opponents' moves, played
    inside each step, are not counted)."""
    import numpy as np

    from naqala.envs.gymvector import NaqalaVectorEnv

    envs = NaqalaVectorEnv(count, players=players, expansions=tuple(expansions))
    rng = np.random.default_rng(0)
    observation, _ = envs.reset(seed=0)

    def play(seed: int) -> int:
        nonlocal observation
        for _ in range(10):
            keys = rng.random(observation["action_mask"].shape) * observation["action_mask"]
            observation, *_ = envs.step(keys.argmax(axis=1))
        return 10 * count

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU time per side")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--slices", type=int, default=5, help="turns each side takes")
    parser.add_argument("--batch", type=int, default=64, help="games of the VectorEnv side")
    parser.add_argument(
        "-x", "--expansion", action="append", default=[], help="an expansion (repeatable)"
    )
    args = parser.parse_args()
    from naqala.envs.native import native_blocker

    blocker = native_blocker(build_rules(args.expansion))
    engines = ["python"] if blocker else ["python", "native"]
    players, expansions = args.players, args.expansion
    try:
        sides = [Side("naqala random playouts", naqala_game(players, expansions))]
        for engine in engines:
            sides += [
                Side(
                    f"PettingZoo, mask only [{engine}]",
                    pettingzoo_game(players, expansions, "mask", engine),
                ),
                Side(
                    f"PettingZoo, observe() [{engine}]",
                    pettingzoo_game(players, expansions, "observe", engine),
                ),
                Side(
                    f"PettingZoo AEC, obs+mask [{engine}]",
                    pettingzoo_game(players, expansions, "aec", engine),
                ),
            ]
            if players > 1:  # OpenSpiel's game takes 2-5 players: no solo
                sides += [
                    Side(
                        f"OpenSpiel [{engine}]", openspiel_game(players, expansions, False, engine)
                    ),
                    Side(
                        f"OpenSpiel, observations [{engine}]",
                        openspiel_game(players, expansions, True, engine),
                    ),
                ]
        if not blocker:
            sides.append(
                Side(
                    f"VectorEnv x{args.batch}, obs+mask [native]",
                    vector_game(players, expansions, args.batch),
                )
            )
            if players > 1:
                sides.append(
                    Side(
                        f"Gymnasium vector x{args.batch} [native]",
                        gymvector_game(players, expansions, args.batch),
                    )
                )
    except ImportError as exc:
        sys.exit(f"{exc}: pip install -e '.[openspiel,pettingzoo]'")
    for _ in range(args.slices):
        for side in sides:
            side.run(args.seconds / args.slices)
    game = "+".join(["base", *args.expansion])
    print(f"{args.players}-player {game}, random play, {args.seconds:g} CPU s per side")
    if blocker:
        print(f"native sides skipped: {blocker}")
    rates = {side.name: side.rate for side in sides}
    for side in sides:
        python_twin = side.name.replace("[native]", "[python]")
        versus = ""
        if python_twin != side.name and python_twin in rates:
            versus = f"  {side.rate / rates[python_twin]:6.1f}x the Python engine"
        print(
            f"{side.name:<38} {side.rate:9.0f} steps/CPU-s ({side.games:5d} games)  "
            f"ratio {side.rate / sides[0].rate:6.2f}{versus}"
        )


if __name__ == "__main__":
    main()
