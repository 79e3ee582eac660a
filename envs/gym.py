"""A Gymnasium single-agent environment: one seat learns, naqala's own AI players
(``random``, ``greedy``, ``mcts:<playouts>``…, the registry of ``naqala play``) take the
other seats.

    from naqala.envs.gym import NaqalaGym
    env = NaqalaGym(players=2, opponents=("greedy",))
    observation, info = env.reset(seed=3)
    action = int(observation["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = env.step(action)

Observations and actions are those of the PettingZoo environment
(``naqala.envs.pettingzoo``): a dict of ``observation`` and ``action_mask``, and
``Discrete(codec.size)``. After the learner's action the opponents play until the learner
must decide again or the game is over; the reward (``win`` or ``margin``, as there) comes
only with the last step. ``reset(seed=s)`` deals game ``s`` and seeds the opponents from
it (``naqala.core.simulate.agent_seed``), so a seeded episode replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "the Gymnasium environment needs the extra: pip install 'naqala[pettingzoo]'"
    ) from exc

from naqala.core.agents import HUMAN, Agent, canonical_seat, make_agent
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.envs.pettingzoo import NaqalaAEC


class NaqalaGym(gymnasium.Env[Any, Any]):
    """Seat ``seat`` of a naqala game against ``opponents`` (one name per other seat, or
    one name for all of them)."""

    metadata = {"render_modes": ["ansi", "svg"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        players: int = 2,
        expansions: Sequence[str] = (),
        house_rules: Sequence[str] = (),
        opponents: Sequence[str] = ("random",),
        seat: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        self.game = NaqalaAEC(
            players=players,
            expansions=expansions,
            house_rules=house_rules,
            reward=reward,
            render_mode=render_mode,
        )
        if not 0 <= seat < players:
            raise ValueError(f"seat={seat}: a {players}-player game has seats 0..{players - 1}")
        kinds = list(opponents) * (players - 1) if len(opponents) == 1 else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(
                f"{len(kinds)} opponents for {players - 1} other seats: give one name each, "
                "or one name for all"
            )
        # the rules' players, as every front end seats them (SeatError, a ValueError,
        # naming the known seats if one is unknown); ``ai:`` may be left out
        self.kinds = [canonical_seat(self.game.rules, kind) for kind in kinds]
        if HUMAN in self.kinds:
            raise ValueError("opponents are AI players: no one types at a 'human' seat here")
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.game.possible_agents[seat])
        self.action_space = self.game.action_space(self.game.possible_agents[seat])
        self.agents: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        others = [s for s in range(self.game.players) if s != self.seat]
        game_seed = self.game.seed_used
        self.agents = {
            s: make_agent(self.game.rules, kind, agent_seed(game_seed, s))
            for s, kind in zip(others, self.kinds, strict=True)
        }
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.is_over:
            raise RuntimeError("the game is over: call reset()")
        self.game.step(int(action))
        self._play_others()
        state = self._state()
        reward = 0.0
        if state.is_over:
            reward = float(self.game.rewards[self.game.possible_agents[self.seat]])
        return self._observe(), reward, state.is_over, False, self._info()

    def render(self) -> str | None:
        return self.game.render()

    def _state(self) -> State:
        return self.game._game()

    def _play_others(self) -> None:
        rules = self.game.rules
        state = self._state()
        while not state.is_over and state.decision.player != self.seat:
            agent = self.agents[state.decision.player]
            choice = agent.choose(rules, state, rules.legal_actions(state))
            self.game.step(self.game.codec.encode(choice))
            state = self._state()

    def _observe(self) -> dict[str, np.ndarray]:
        observation: dict[str, np.ndarray] = self.game.observe(self.game.possible_agents[self.seat])
        return observation

    def _info(self) -> dict[str, Any]:
        state = self._state()
        if state.is_over:
            return {"scores": list(self.game.rules.scores(state))}
        return {"stage": state.decision.stage}
