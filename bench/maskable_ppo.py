"""A standard RL library on naqala: sb3-contrib's MaskablePPO learns seat 0 of 2-player
games against naqala's ``greedy`` player, through ``NaqalaGym`` (its ``action_masks()``
is what MaskablePPO asks for), with a fixed seed.

The learner is evaluated before training and after each of ``--checkpoints`` equal parts
of ``--steps`` learner steps: ``--eval`` games against ``greedy`` on held-out deals
(seeds from 1,000,000 on, never trained on), the policy acting deterministically. It
prints the win rate with its 95% Wilson interval and the mean margin at each checkpoint:
the learning curve docs/ai.md shows. Needs the ``rl`` extra (sb3-contrib, which pulls
PyTorch: a large download) and the ``pettingzoo`` extra.

    python bench/maskable_ppo.py [--steps 20000] [--checkpoints 4] [--eval 40] [--envs 4]
    python bench/maskable_ppo.py --steps 256 --checkpoints 1 --eval 2     # a smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from naqala.lab.results import wilson

#: the first deal of the evaluation games, far from the deals training draws
EVAL_SEED = 1_000_000


def make_env(seed: int, opponent: str, reward: str) -> Callable[[], Any]:
    """A factory of one learner's environment (SB3's vector environments call it)."""

    def make() -> Any:
        from naqala.envs.gym import NaqalaGym

        env = NaqalaGym(players=2, opponents=(opponent,), seat=0, reward=reward)
        env.reset(seed=seed)
        return env

    return make


def evaluate(model: Any, games: int, opponent: str) -> tuple[int, float]:
    """Wins and mean margin of ``model`` (deterministic) over ``games`` held-out deals;
    the observations scaled as in training when the learner normalizes them."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = make_env(EVAL_SEED, opponent, "margin")()
    scaling = model.get_vec_normalize_env()
    wins, margin = 0, 0.0
    for game in range(games):
        observation, _ = env.reset(seed=EVAL_SEED + game)
        done, reward = False, 0.0
        while not done:
            seen = scaling.normalize_obs(observation) if scaling is not None else observation
            action, _ = model.predict(seen, action_masks=get_action_masks(env), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        margin += float(reward)
        wins += reward > 0
    return wins, margin / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="learner steps in all")
    parser.add_argument("--checkpoints", type=int, default=4, help="evaluations after start")
    parser.add_argument("--eval", type=int, default=40, help="games an evaluation plays")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument(
        "--reward", choices=("win", "margin"), default="margin", help="what the learner gets"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
    except ImportError as exc:
        sys.exit(f"{exc}: pip install -e '.[rl,pettingzoo]'")
    torch.set_num_threads(1)
    factories = [make_env(args.seed + i, args.opponent, args.reward) for i in range(args.envs)]
    # the observation's counts run from 0 to hundreds: scaled by running statistics, and
    # the reward too (the mask is left as it is)
    envs = VecNormalize(DummyVecEnv(factories), norm_obs_keys=["observation"])
    steps_per_update = max(8, min(512, args.steps // max(1, args.envs)))
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=steps_per_update,
        batch_size=min(64, steps_per_update * args.envs),
        seed=args.seed,
        verbose=0,
    )
    print(
        f"MaskablePPO, seat 0 of 2 against {args.opponent}, {args.envs} envs, "
        f"reward {args.reward}, seed {args.seed}; evaluation: {args.eval} held-out games each"
    )
    print("learner steps | wins | win rate [95% Wilson] | mean margin | train s")
    trained, spent = 0, 0.0
    part = args.steps // max(1, args.checkpoints)
    for checkpoint in range(args.checkpoints + 1):
        if checkpoint:
            start = time.perf_counter()
            model.learn(total_timesteps=part, reset_num_timesteps=False)
            spent += time.perf_counter() - start
            trained = model.num_timesteps
        wins, margin = evaluate(model, args.eval, args.opponent)
        low, high = wilson(wins, args.eval)
        print(
            f"{trained:>13,} | {wins:>4} | {wins / args.eval:.2f} [{low:.2f}, {high:.2f}]"
            f"       | {margin:>+11.1f} | {spent:>7.0f}"
        )


if __name__ == "__main__":
    main()
