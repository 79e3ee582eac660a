"""A small policy learns to beat naqala's random player, on the native engine, in numpy.

The learner holds seat 0 of 2-player base games against ``random`` at the other seat,
``--envs`` games at a time in one ``VectorEnv`` (the random player moves inside the same
native call). The policy is a one-hidden-layer network over the observation
(``log1p`` of the numbers, ``--hidden`` tanh units) whose logits are masked to the legal
actions; it learns by REINFORCE with a running-mean baseline on the final reward
(``margin``: its score minus the other's, in VP, divided by 50), with Adam, one update
per ``--batch-games`` finished games, for a bounded number of learner decisions
(``--steps``). Every ``--report`` decisions it
prints the learning curve: decisions so far, games finished, the win rate and mean
margin of the games finished since the last line. At the end the policy (sampling from
its distribution) plays ``--eval`` games against ``random`` and ``--eval-greedy`` against
``greedy`` (the Gymnasium environment, the greedy player on the Python side), and the
win rates are printed with 95% Wilson intervals. The same seed gives the same run.

    python bench/train_policy.py             # about 3 CPU minutes of training (docs/ai.md)
    python bench/train_policy.py --steps 20000 --eval 40 --eval-greedy 4   # a smoke run
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import attrs
import numpy as np

from naqala.envs.gym import NaqalaGym
from naqala.envs.vector import VectorEnv

MARGIN_SCALE = 50.0


@attrs.define
class Policy:
    """Masked softmax over the codec's actions from one hidden layer, with Adam."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    moments: list[tuple[np.ndarray, np.ndarray]] = attrs.field(factory=list)
    updates: int = 0

    @classmethod
    def new(cls, inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Policy:
        return cls(
            rng.normal(0.0, 1.0 / math.sqrt(inputs), (inputs, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            rng.normal(0.0, 0.1 / math.sqrt(hidden), (hidden, actions)).astype(np.float32),
            np.zeros(actions, np.float32),
        )

    def parameters(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        """The inputs, hidden units and action probabilities (zero off the mask)."""
        inputs = np.log1p(observations)
        hidden = np.tanh(inputs @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        logits = np.where(masks > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return inputs, hidden, weights / weights.sum(axis=1, keepdims=True)

    def sample(
        self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:
        """One action per row, drawn from the policy."""
        totals = self.forward(observations, masks)[2].cumsum(axis=1)
        draws = rng.random((len(totals), 1)) * totals[:, -1:]  # rounding never leaves the mask
        return (totals < draws).sum(axis=1)

    def learn(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        actions: np.ndarray,
        advantages: np.ndarray,
        rate: float,
    ) -> None:
        """One Adam step up the gradient of mean(advantage × log π(action))."""
        inputs, hidden, probabilities = self.forward(observations, masks)
        rows = np.arange(len(actions))
        dlogits = -probabilities
        dlogits[rows, actions] += 1.0
        dlogits *= (advantages / len(actions))[:, None]
        dhidden = (dlogits @ self.w2.T) * (1.0 - hidden**2)
        gradients = [inputs.T @ dhidden, dhidden.sum(0), hidden.T @ dlogits, dlogits.sum(0)]
        if not self.moments:
            self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.parameters()]
        self.updates += 1
        for parameter, gradient, (first, second) in zip(
            self.parameters(), gradients, self.moments, strict=True
        ):
            first *= 0.9
            first += 0.1 * gradient
            second *= 0.999
            second += 0.001 * gradient**2
            corrected = first / (1 - 0.9**self.updates)
            scale = np.sqrt(second / (1 - 0.999**self.updates)) + 1e-8
            parameter += (rate * corrected / scale).astype(np.float32)


@attrs.frozen
class CurvePoint:
    decisions: int
    games: int
    win_rate: float
    margin: float
    seconds: float = attrs.field(eq=False)  # CPU time: not part of what a seed decides


def train(
    steps: int,
    envs: int = 64,
    hidden: int = 32,
    rate: float = 1e-2,
    batch_games: int = 16,
    report: int = 20_000,
    seed: int = 0,
    on_point: Callable[[CurvePoint], None] | None = None,
) -> tuple[Policy, list[CurvePoint]]:
    """Train for ``steps`` learner decisions; the policy and the learning curve."""
    batch = VectorEnv(envs, players=2, opponents="random", seat=0, reward="margin")
    rng = np.random.default_rng(seed)
    policy = Policy.new(batch.encoder.size, hidden, batch.codec.size, rng)
    observation, _ = batch.reset(seed=seed * 1_000_003)
    running: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(envs)]
    finished: list[tuple[list[tuple[np.ndarray, np.ndarray, int]], float]] = []
    baseline, curve, window = 0.0, [], []
    decisions, games, start = 0, 0, time.process_time()
    next_report = report
    while decisions < steps:
        masks = observation["action_mask"]
        actions = policy.sample(observation["observation"], masks, rng)
        for i in range(envs):
            running[i].append((observation["observation"][i], masks[i], int(actions[i])))
        observation, reward, done, _, _ = batch.step(actions)
        decisions += envs
        for i in np.flatnonzero(done):
            margin = float(reward[i])
            finished.append((running[i], margin / MARGIN_SCALE))
            window.append(margin)
            running[i] = []
            games += 1
        if len(finished) >= batch_games:
            returns = np.array([r for _, r in finished], np.float32)
            baseline = 0.9 * baseline + 0.1 * float(returns.mean())
            rows = [(step, r - baseline) for episode, r in finished for step in episode]
            policy.learn(
                np.stack([s[0] for s, _ in rows]),
                np.stack([s[1] for s, _ in rows]),
                np.array([s[2] for s, _ in rows]),
                np.array([a for _, a in rows], np.float32),
                rate,
            )
            finished = []
        if decisions >= next_report and window:
            point = CurvePoint(
                decisions,
                games,
                sum(m > 0 for m in window) / len(window),
                sum(window) / len(window),
                time.process_time() - start,
            )
            curve.append(point)
            if on_point is not None:
                on_point(point)
            window = []
            next_report += report
    return policy, curve


def wins_against_random(policy: Policy, games: int, seed: int) -> tuple[float, int]:
    """Games won (ties count half) of ``games`` at seat 0 against ``random``."""
    batch = VectorEnv(min(games, 64), players=2, opponents="random", seat=0, reward="win")
    rng = np.random.default_rng(seed)
    observation, _ = batch.reset(seed=seed)
    won, played = 0.0, 0
    while played < games:
        actions = policy.sample(observation["observation"], observation["action_mask"], rng)
        observation, reward, done, _, _ = batch.step(actions)
        for i in np.flatnonzero(done):
            if played < games:
                won += float(reward[i])
                played += 1
    return won, played


def wins_against(policy: Policy, opponent: str, games: int, seed: int) -> tuple[float, int]:
    """Games won (ties half) at seat 0 against ``opponent`` through the Gymnasium env."""
    env = NaqalaGym(players=2, opponents=(opponent,), seat=0, reward="win")
    rng = np.random.default_rng(seed)
    won = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done, reward = False, 0.0
        while not done:
            action = policy.sample(
                observation["observation"][None], observation["action_mask"][None], rng
            )[0]
            observation, reward, done, _, _ = env.step(int(action))
        won += reward
    return won, games


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    z, p = 1.96, wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400_000, help="learner decisions")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--rate", type=float, default=1e-2, help="Adam's step size")
    parser.add_argument("--batch-games", type=int, default=16, help="games per update")
    parser.add_argument("--report", type=int, default=50_000)
    parser.add_argument("--eval", type=int, default=400, help="games against random")
    parser.add_argument("--eval-greedy", type=int, default=40, help="games against greedy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    def show(point: CurvePoint) -> None:
        print(
            f"{point.decisions:9d} decisions {point.games:6d} games  "
            f"win rate {point.win_rate:.3f}  margin {point.margin:+6.1f}  "
            f"{point.seconds:6.1f} CPU s",
            flush=True,
        )

    untrained = Policy.new(
        *_sizes(args.hidden), rng=np.random.default_rng(args.seed)
    )  # the starting policy, for comparison
    won, games = wins_against_random(untrained, args.eval, 10_000)
    print(f"untrained policy against random: {won / games:.3f} of {games}")
    policy, _ = train(
        args.steps,
        args.envs,
        args.hidden,
        args.rate,
        report=args.report,
        seed=args.seed,
        on_point=show,
    )
    for name, (won, games) in (
        ("random", wins_against_random(policy, args.eval, 10_000)),
        ("greedy", wins_against(policy, "greedy", args.eval_greedy, 20_000)),
    ):
        low, high = wilson(won, games)
        print(
            f"trained policy against {name}: {won:g} of {games} = {won / games:.3f} "
            f"(95% [{low:.3f}, {high:.3f}])"
        )


def _sizes(hidden: int) -> tuple[int, int, int]:
    batch = VectorEnv(1, players=2)
    return batch.encoder.size, hidden, batch.codec.size


if __name__ == "__main__":
    main()
