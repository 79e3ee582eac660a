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

from collections.abc import Callable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "the Gymnasium environment needs the extra: pip install 'naqala[pettingzoo]'"
    ) from exc

from naqala.core.agents import HUMAN, Agent, RandomAgent, canonical_seat, make_agent
from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed
from naqala.envs.pettingzoo import NaqalaAEC, _unpickled_aec


class MaskedDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(codec.size)`` whose ``sample()`` without a mask draws among the actions
    legal now (the environment's current mask), so that a tool that steps sampled actions
    (Gymnasium's ``check_env``) plays legal games; a mask given is used as given."""

    def __init__(self, n: int, current_mask: Callable[[], np.ndarray]) -> None:
        super().__init__(n)
        self._current_mask = current_mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            mask = self._current_mask()
        return super().sample(mask=mask, probability=probability)


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
        engine: str = "auto",
    ) -> None:
        game = NaqalaAEC(
            players=players,
            expansions=expansions,
            house_rules=house_rules,
            reward=reward,
            render_mode=render_mode,
            engine=engine,
        )
        self._setup(game, opponents, seat, render_mode)

    def _setup(
        self, game: NaqalaAEC, opponents: Sequence[str], seat: int, render_mode: str | None
    ) -> None:
        """Everything ``__init__`` sets around the game: what an unpickled one rebuilds."""
        self.game = game
        players = game.players
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
        self.action_space = MaskedDiscrete(self.game.codec.size, self._mask)
        self.agents: dict[int, Agent] = {}
        #: the episode's seed and the learner's actions since, replayed when unpickled
        self._episode: tuple[int, list[int]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game's rules and settings, its opponents, and the learner's
        actions in the episode under way, which the other process replays (the opponents
        draw from seeds fixed by the episode's: the same game again, unless an opponent
        searches for a time rather than a number of playouts)."""
        game = self.game
        settings = (game.players, game.reward_kind, game.render_mode, game.engine_used)
        table = (game.rules, settings, game._next_seed)
        return _unpickled_gym, (type(self), table, self.kinds, self.seat, self._episode)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        self._episode = (self.game.seed_used, [])
        others = [s for s in range(self.game.players) if s != self.seat]
        game_seed = self.game.seed_used
        self.agents = {
            s: make_agent(self.game.rules, kind, agent_seed(game_seed, s))
            for s, kind in zip(others, self.kinds, strict=True)
        }
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        game = self.game._game()
        if game.is_over:
            raise RuntimeError("the game is over: call reset()")
        self.game.step(int(action))
        if self._episode is not None:
            self._episode[1].append(int(action))
        self._play_others()
        reward = 0.0
        if game.is_over:
            reward = float(self.game.rewards[self.game.possible_agents[self.seat]])
        return self._observe(), reward, game.is_over, False, self._info()

    def render(self) -> str | None:
        return self.game.render()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans over the codec (what
        sb3-contrib's MaskablePPO asks an environment for); all False once the game is
        over or before the first reset."""
        mask: np.ndarray = self._mask().astype(bool)
        return mask

    def _play_others(self) -> None:
        rules = self.game.rules
        game = self.game._game()
        while (player := game.player) is not None and player != self.seat:
            agent = self.agents[player]
            if isinstance(agent, RandomAgent):
                # RandomAgent.choose draws below(number of options) and reads nothing else:
                # the same draw here needs no Python state (a native game stays native)
                place, agent.rng = agent.rng.below(game.option_count)
                self.game.play_option(place)
            else:
                state = game.state
                choice = agent.choose(rules, state, rules.legal_actions(state))
                self.game.step(self.game.codec.encode(choice))

    def _mask(self) -> np.ndarray:
        """The learner's mask now (zeros before the first reset)."""
        mask = np.zeros(self.game.codec.size, np.int8)
        if self.game.game is not None and self.game.game.player == self.seat:
            self.game.game.mask_into(mask)
        return mask

    def _observe(self) -> dict[str, np.ndarray]:
        observation: dict[str, np.ndarray] = self.game.observe(self.game.possible_agents[self.seat])
        return observation

    def _info(self) -> dict[str, Any]:
        game = self.game._game()
        if game.is_over:
            return {"scores": game.scores()}
        return {"stage": game.stage}


def _unpickled_gym(
    cls: type[NaqalaGym],
    table: tuple[Rules, tuple[int, str, str | None, str], int],
    kinds: list[str],
    seat: int,
    episode: tuple[int, list[int]] | None,
) -> NaqalaGym:
    """A pickled Gymnasium environment again, its episode replayed."""
    rules, settings, next_seed = table
    game = _unpickled_aec(NaqalaAEC, rules, settings, next_seed, None)
    env = cls.__new__(cls)
    env._setup(game, kinds, seat, game.render_mode)
    if episode is not None:
        seed, actions = episode
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        game._next_seed = next_seed
    return env
