"""N naqala games stepped together, for learners that batch (``naqala.envs.VectorEnv``).

    from naqala.envs.vector import VectorEnv
    batch = VectorEnv(64, players=2, opponents="random")   # seat 0 learns
    observation, info = batch.reset(seed=0)
    actions = observation["action_mask"].argmax(axis=1)    # any legal action per game
    observation, reward, terminated, truncated, info = batch.step(actions)

Observations are arrays with one row per game: ``observation`` (N, encoder size) float32
and ``action_mask`` (N, codec size) int8, the mask of the seat that acts next in each
game (``info["player"]``). On the native engine one call steps every game and writes
every row (the work runs without the GIL), on ``threads`` threads (1, the default: the
caller's; 0: one per core), with the same numbers on any number of threads; on the
Python engine (rules that cannot run native) the games are stepped one by one, with the
same numbers, and ``threads`` changes nothing.

Two modes. Self-play (``opponents=None``): in each game the deciding seat acts; the
reward is (N, players), each finished game's final rewards. Against random players
(``opponents="random"``): seat ``seat`` learns and naqala's random player
(``RandomAgent`` seeded ``agent_seed(game seed, its seat)``, as ``naqala simulate``
seats it) takes every other seat inside the same call; the reward is (N,), the learner's.
Rewards are ``win`` or ``margin`` as in the other interfaces and come when a game ends
(``terminated``); a finished game is dealt again at once, so the observation of that row
is already the new game's first (the autoreset of Stable-Baselines3's vector
environments). Game ``i`` plays seeds ``seed + i``, then the batch's next seeds in order
of finishing (``info["seed"]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed
from naqala.envs.codec import codec_for
from naqala.envs.common import REWARDS, rules_from
from naqala.envs.games import PythonGame, engine_for, open_game
from naqala.envs.native import env_kernel
from naqala.envs.observation import encoder_for

OPPONENTS = (None, "random")
#: the most threads a native batch moves its games on (the kernel's bound)
MOST_THREADS = 1024


class VectorEnv:
    """``num_envs`` games of one ruleset and player count (see the module)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 3,
        expansions: Sequence[str] = (),
        house_rules: Sequence[str] = (),
        reward: str = "win",
        opponents: str | None = None,
        seat: int = 0,
        engine: str = "auto",
        threads: int = 1,
    ) -> None:
        self.rules = rules_from(expansions, house_rules)
        allowed = sorted(pc.players for pc in self.rules.content.player_counts)
        if players not in allowed:
            raise ValueError(f"players={players}: these rules allow {', '.join(map(str, allowed))}")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: choose one of {', '.join(REWARDS)}")
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents={opponents!r}: None (self-play) or 'random'")
        if not 0 <= seat < players:
            raise ValueError(f"seat={seat}: a {players}-player game has seats 0..{players - 1}")
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs}: give at least 1")
        if not 0 <= threads <= MOST_THREADS:
            raise ValueError(f"threads={threads}: 1 to {MOST_THREADS}, or 0 for one per core")
        self.threads = threads
        self.num_envs, self.players, self.reward_kind = num_envs, players, reward
        self.learner = seat if opponents == "random" else None
        self.engine_used = engine_for(self.rules, engine)
        self.codec = codec_for(self.rules)
        self.encoder = encoder_for(self.rules)
        self._batch: Any = None
        self._observations = np.zeros((num_envs, self.encoder.size), np.float32)
        self._masks = np.zeros((num_envs, self.codec.size), np.int8)
        self._seats = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, players), np.float32)
        self._done = np.zeros(num_envs, np.uint8)

    def reset(self, seed: int = 0) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals game ``i`` from seed ``seed + i``."""
        if self.engine_used == "native":
            kernel = env_kernel(self.rules)
            self._batch = kernel.batch(
                self.num_envs, self.players, seed, self.learner, self.threads
            )
        else:
            self._batch = PythonBatch(self.rules, self.num_envs, self.players, seed, self.learner)
        return self._read(), self._info()

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's action (a codec index, legal for its deciding seat); ValueError
        naming the game of an illegal one, before any game moves."""
        if self._batch is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        self._batch.step(chosen, self.reward_kind, self._rewards, self._done)
        done = self._done.astype(bool)
        rewards = self._rewards.copy()
        reward = rewards if self.learner is None else rewards[:, self.learner]
        return self._read(), reward, done, np.zeros_like(done), self._info()

    def finals(self, seat: int, observations: np.ndarray) -> list[int]:
        """``seat``'s observation of the last position of each game that ended in the
        last step, into its row of ``observations`` (N, size); those games' numbers."""
        if self._batch is None:
            raise RuntimeError("call reset() before finals()")
        return list(self._batch.finals(seat, observations))

    def _read(self) -> dict[str, np.ndarray]:
        self._batch.observe(self._observations, self._masks, self._seats)
        return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}

    def _info(self) -> dict[str, Any]:
        return {"player": self._seats.copy(), "seed": np.array(self._batch.seeds())}


class PythonBatch:
    """The batch on the Python engine, with the interface of the kernel's ``EnvBatch``:
    the same games, random players and numbers, one game at a time."""

    def __init__(
        self, rules: Rules, count: int, players: int, seed: int, learner: int | None
    ) -> None:
        self.rules, self.players, self.learner = rules, players, learner
        self.next_seed = seed + count
        self.games: list[PythonGame] = []
        #: the games that ended in the last step, by number, at their last position
        self.ended: dict[int, PythonGame] = {}
        self.opponents: list[list[RandomAgent]] = []
        self._seeds: list[int] = []
        for i in range(count):
            self._deal(seed + i)

    def _deal(self, seed: int, at: int | None = None) -> None:
        game = open_game(self.rules, self.players, seed, "python")
        assert isinstance(game, PythonGame)
        agents = [RandomAgent(agent_seed(seed, s)) for s in range(self.players)]
        self._play_random(game, agents)
        if at is None:
            self.games.append(game)
            self.opponents.append(agents)
            self._seeds.append(seed)
        else:
            self.games[at], self.opponents[at], self._seeds[at] = game, agents, seed

    def _play_random(self, game: PythonGame, agents: list[RandomAgent]) -> None:
        if self.learner is None:
            return
        rules = self.rules
        while (player := game.player) is not None and player != self.learner:
            options = rules.legal_actions(game.state)
            game.step(game.codec.encode(agents[player].choose(rules, game.state, options)))

    def seeds(self) -> list[int]:
        return list(self._seeds)

    def finals(self, seat: int, observations: np.ndarray) -> list[int]:
        for i, game in self.ended.items():
            game.observe_into(seat, observations[i])
        return sorted(self.ended)

    def observe(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> None:
        for i, game in enumerate(self.games):
            seat = game.player or 0
            game.observe_into(seat, observations[i])
            game.mask_into(masks[i])
            seats[i] = seat

    def step(self, actions: np.ndarray, kind: str, rewards: np.ndarray, done: np.ndarray) -> None:
        if len(actions) != len(self.games):
            raise ValueError(f"{len(actions)} actions for {len(self.games)} games")
        for i, (game, action) in enumerate(zip(self.games, actions, strict=True)):
            if int(action) not in game.legal():
                raise ValueError(f"game {i}: action {int(action)} is not legal now")
        rewards[:] = 0.0
        done[:] = 0
        self.ended = {}
        for i, game in enumerate(self.games):
            game.step(int(actions[i]))
            self._play_random(game, self.opponents[i])
            if game.is_over:
                rewards[i] = game.rewards(kind)
                done[i] = 1
                self.ended[i] = game
                self.next_seed += 1
                self._deal(self.next_seed - 1, at=i)
