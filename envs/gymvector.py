"""The batch of games (``naqala.envs.VectorEnv``) as a Gymnasium vector environment, for
learners written against ``gymnasium.vector.VectorEnv``: N games, one seat learning in
each, naqala's random player at every other seat.

    from naqala.envs.gymvector import NaqalaVectorEnv
    envs = NaqalaVectorEnv(16, players=2)
    observation, info = envs.reset(seed=0)
    actions = observation["action_mask"].argmax(axis=1)   # any legal action per game
    observation, reward, terminated, truncated, info = envs.step(actions)

Spaces: ``single_observation_space`` is the Gymnasium environment's (a dict of
``observation`` and ``action_mask``, ``naqala.envs.gym``), ``single_action_space``
``Discrete(codec size)``; ``observation_space`` and ``action_space`` are their batches
(``gymnasium.vector.utils.batch_space``). Rewards are the learner's (``win`` or
``margin``) and come when its game ends; nothing is ever truncated.

Autoreset is Gymnasium's same-step mode (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``), which is how the batch works: a game that ends is dealt
again inside the step, so its row of the observation is already the next game's first,
and ``info["final_obs"]`` holds the ended game's last observation (the learner's view of
the finished position, its mask all zeros) and ``info["final_info"]`` its info (empty),
with the masks ``info["_final_obs"]`` and ``info["_final_info"]``, as Gymnasium's own
``SyncVectorEnv`` writes them in that mode. Game ``i`` plays seed ``seed + i``, then the
batch's next seeds (``info["seed"]``). On the native engine one call steps every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "the Gymnasium vector environment needs the extra: pip install 'naqala[pettingzoo]'"
    ) from exc

from naqala.envs.vector import VectorEnv

Observation = dict[str, np.ndarray]


class NaqalaVectorEnv(gymnasium.vector.VectorEnv[Observation, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``players``, seat ``seat`` learning in each (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium's form)

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        expansions: Sequence[str] = (),
        house_rules: Sequence[str] = (),
        reward: str = "win",
        seat: int = 0,
        engine: str = "auto",
        threads: int = 1,
    ) -> None:
        if players < 2:
            raise ValueError(f"players={players}: a learner needs random opponents (2 or more)")
        self.batch = VectorEnv(
            num_envs,
            players=players,
            expansions=expansions,
            house_rules=house_rules,
            reward=reward,
            opponents="random",
            seat=seat,
            engine=engine,
            threads=threads,
        )
        self.num_envs = num_envs
        self.seat = seat
        size, actions = self.batch.encoder.size, self.batch.codec.size
        self.single_observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.single_action_space = gymnasium.spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._finals = np.zeros((num_envs, size), np.float32)
        self._ready = False

    @property
    def engine_used(self) -> str:
        """``native`` or ``python``: the engine the games step on."""
        return self.batch.engine_used

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals game ``i`` from seed ``seed + i`` (``seed`` 0 when None; a list of seeds
        must count up by one, as the batch deals them)."""
        if isinstance(seed, list):
            first = int(seed[0]) if seed else 0
            if list(seed) != list(range(first, first + self.num_envs)):
                raise ValueError("seeds of a naqala batch count up by one from the first")
            seed = first
        super().reset(seed=seed)
        observation, info = self.batch.reset(seed=0 if seed is None else int(seed))
        self._ready = True
        return observation, info

    def step(
        self, actions: np.ndarray
    ) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's action (a codec index legal for its learner); ValueError naming
        the game of an illegal one, before any game moves."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        observation, reward, terminated, truncated, info = self.batch.step(actions)
        if terminated.any():
            finished = self.batch.finals(self.seat, self._finals)
            final_obs = np.full(self.num_envs, None, dtype=object)
            actions_size = self.batch.codec.size
            for i in finished:
                final_obs[i] = {
                    "observation": self._finals[i].copy(),
                    "action_mask": np.zeros(actions_size, np.int8),
                }
            # a finished game's own info holds nothing more: an empty dict per game,
            # batched as Gymnasium batches dicts (its keys, here none, and the mask)
            info["final_obs"], info["_final_obs"] = final_obs, terminated.copy()
            info["final_info"], info["_final_info"] = {}, terminated.copy()
        return observation, np.asarray(reward, np.float64), terminated, truncated, info
