"""Steps per wall-clock second of a native ``VectorEnv`` on 1 thread and on more, as a
ratio measured in one run: what ``threads=`` buys a learner that batches.

Each side steps its own batch of ``--batch`` games (seat 0 learning against random
players, the opponents' moves played inside each step, observations and masks read at
every step) in slices taken in turn, so that a change in the machine's load touches every
side alike. Wall-clock time, not CPU time: threads spend more CPU to finish sooner. On a
shared machine the ratio is a floor: another process's work takes a core from the
threaded side.

    python bench/vector_threads.py [--batch 64] [--threads 2] [--seconds 10] [-x artisans]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from naqala.envs.vector import VectorEnv


class Side:
    """One batch on some number of threads, timed in slices."""

    def __init__(self, threads: int, count: int, players: int, expansions: list[str]) -> None:
        self.threads = threads
        self.batch = VectorEnv(
            count, players=players, expansions=expansions, opponents="random", threads=threads
        )
        self.observation, _ = self.batch.reset(seed=0)
        # one random key per action, drawn once: each game plays its legal action of the
        # largest key (drawing keys at every step would time numpy, not the games)
        size = self.observation["action_mask"].shape[1]
        self.keys = np.random.default_rng(0).random(size).astype(np.float32)
        self.steps, self.seconds = 0, 0.0

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            masks = self.observation["action_mask"]
            self.observation, *_ = self.batch.step((masks * self.keys).argmax(axis=1))
            self.steps += self.batch.num_envs
        self.seconds += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=64, help="games stepped together")
    parser.add_argument("--threads", type=int, default=2, help="threads of the other side")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="wall seconds per side")
    parser.add_argument("--slices", type=int, default=10, help="turns each side takes")
    parser.add_argument(
        "-x", "--expansion", action="append", default=[], help="an expansion (repeatable)"
    )
    args = parser.parse_args()
    sides = [
        Side(threads, args.batch, args.players, args.expansion) for threads in (1, args.threads)
    ]
    for _ in range(args.slices):
        for side in sides:
            side.run(args.seconds / args.slices)
    game = "+".join(["base", *args.expansion])
    print(f"VectorEnv x{args.batch}, {args.players}-player {game}, learner against random")
    for side in sides:
        print(f"  {side.threads} thread(s): {side.rate:>12,.0f} learner steps per wall second")
    print(f"  {args.threads} threads / 1 thread: {sides[1].rate / sides[0].rate:.2f}x")


if __name__ == "__main__":
    main()
