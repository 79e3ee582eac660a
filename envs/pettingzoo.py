"""naqala as a PettingZoo AEC environment.

    from naqala.envs.pettingzoo import env
    game = env(players=3, expansions=("artisans",))
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        mask = observation["action_mask"]
        game.step(None if terminated or truncated else int(mask.nonzero()[0][0]))

Agents are ``player_0``… in seat order. Each observation is a dict: ``observation``, the
seat's encoded view (``naqala.envs.observation``; float32, never negative) and
``action_mask``, int8 over the ruleset's action codec (``naqala.envs.codec``), ones at the
legal actions of the deciding agent and all zeros for the others. Actions are
``Discrete(codec.size)``; an action outside the mask raises ``ValueError`` naming it.
Rewards come only at the end of the game: with ``reward="win"`` the winners share 1 (a
sole winner gets 1), with ``reward="margin"`` each seat gets its score minus the best
score of the others. ``info`` holds the deciding stage and the action's notation list
(``legal``) for the agent to move.

Engine: ``engine="auto"`` (the default) steps the game on the native engine whenever the
rules can run there (``naqala.envs.games.engine_for``) and on the Python engine otherwise,
with the same observations, masks and rewards; ``"native"`` or ``"python"`` insist on one.
``engine_used`` says which runs.

Seeding: ``reset(seed=s)`` deals the game of seed ``s``; ``reset()`` without a seed deals
the next seed after the last game's (the first is the ``seed`` given to ``env``), so a
run of resets is the same run in any process. ``render()`` returns the position as text
(``render_mode="ansi"``, the terminal picture) or as SVG (``render_mode="svg"``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env import AECIterable
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "the PettingZoo environment needs the extra: pip install 'naqala[pettingzoo]'"
    ) from exc

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.envs.codec import codec_for
from naqala.envs.common import REWARDS, rules_from
from naqala.envs.games import Game, engine_for, open_game
from naqala.envs.observation import encoder_for

RENDER_MODES = ("ansi", "svg")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class NaqalaAEC(AECEnv):  # type: ignore[misc]
    """A naqala game for ``players`` seats as an AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "naqala_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 3,
        expansions: Sequence[str] = (),
        house_rules: Sequence[str] = (),
        seed: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__()
        self._setup(rules_from(expansions, house_rules), players, seed, reward, render_mode, engine)

    def _setup(
        self,
        rules: Rules,
        players: int,
        seed: int,
        reward: str,
        render_mode: str | None,
        engine: str,
    ) -> None:
        """Everything ``__init__`` sets from the rules: what an unpickled game rebuilds."""
        self.rules = rules
        allowed = sorted(pc.players for pc in self.rules.content.player_counts)
        if players not in allowed:
            raise ValueError(f"players={players}: these rules allow {', '.join(map(str, allowed))}")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: choose one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}: choose one of {RENDER_MODES}")
        self.engine_used = engine_for(self.rules, engine)
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.codec = codec_for(self.rules)
        self.encoder = encoder_for(self.rules)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = gymnasium.spaces.Box(0.0, np.inf, (self.encoder.size,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.codec.size,), np.int8)
        self._observation_space = gymnasium.spaces.Dict(
            {"observation": observation, "action_mask": mask}
        )
        self._action_space = gymnasium.spaces.Discrete(self.codec.size)
        self._next_seed = seed
        self.seed_used = seed
        self.game: Game | None = None
        #: every step since the last reset (None for a finished agent's), replayed when
        #: the environment is unpickled: a game is its seed and its actions
        self._steps: list[int | None] = []

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules (which pickle as their ruleset and house-rule bytes), its
        settings and the steps of the game under way, which the other process replays:
        what subprocess vector environments need."""
        settings = (self.players, self.reward_kind, self.render_mode, self.engine_used)
        progress = (self.seed_used, list(self._steps)) if self.game is not None else None
        return _unpickled_aec, (type(self), self.rules, settings, self._next_seed, progress)

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_space

    # -- the AEC cycle -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.seed_used = self._next_seed if seed is None else seed
        self._next_seed = self.seed_used + 1
        self.game = open_game(self.rules, self.players, self.seed_used, self.engine_used)
        self._steps = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        game = self._game()
        player = game.player
        if player is not None:
            self.agent_selection = agent = self.possible_agents[player]
            self.infos[agent] = {"stage": game.stage, "legal": game.notations()}

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    @property
    def state(self) -> State:
        """The naqala state of the game (read back from the kernel on the native engine:
        for a picture or an AI player, not for every step)."""
        return self._game().state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = np.empty(self.encoder.size, np.float32)
        mask = np.empty(self.codec.size, np.int8)
        self._game().observe_with_mask(self._seats[agent], observation, mask)
        return {"observation": observation, "action_mask": mask}

    def play_option(self, place: int) -> None:
        """The deciding agent's legal action number ``place`` in the rules' order (how
        naqala's random player chooses), stepped as ``step`` steps an index."""
        self.step(self._game().option_index(place))

    def step(self, action: int | None) -> None:
        self._step(action)
        self._steps.append(None if action is None else int(action))

    def _step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent whose game is over")
        try:
            game.step(int(action))
        except (ValueError, OverflowError):  # an index outside the legal ones, or negative
            name = str(self.codec.decode(int(action))) if 0 <= action < self.codec.size else ""
            raise ValueError(
                f"action {action} ({name or 'outside the codec'}) is not legal for {agent} now"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        if game.is_over:
            rewards = game.rewards(self.reward_kind)
            scores = game.scores()
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = rewards[seat]
                self.terminations[name] = True
                self.infos[name] = {"scores": scores}
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi' or 'svg' when made")
            return None
        state = self.state
        if self.render_mode == "svg":
            from naqala.display import board_svg

            return board_svg(self.rules, state, reveal=True)
        from rich.console import Console

        from naqala.display.text import render_state

        out = io.StringIO()
        Console(file=out, width=100, color_system=None).print(
            render_state(self.rules, state, reveal=True)
        )
        return out.getvalue()

    def close(self) -> None:
        pass


def _unpickled_aec(
    cls: type[NaqalaAEC],
    rules: Rules,
    settings: tuple[int, str, str | None, str],
    next_seed: int,
    progress: tuple[int, list[int | None]] | None,
) -> NaqalaAEC:
    """A pickled environment again: its rules, settings, and the game under way replayed."""
    players, reward, render_mode, engine = settings
    game = cls.__new__(cls)
    AECEnv.__init__(game)
    game._setup(rules, players, next_seed, reward, render_mode, engine)
    if progress is not None:
        seed, steps = progress
        game.reset(seed=seed)
        for action in steps:
            game.step(action)
    game._next_seed = next_seed
    return game


def raw_env(**kwargs: Any) -> NaqalaAEC:
    """The environment without PettingZoo's checking wrappers."""
    return NaqalaAEC(**kwargs)


def env(
    players: int = 3,
    expansions: Sequence[str] = (),
    house_rules: Sequence[str] = (),
    **kwargs: Any,
) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing checks."""
    game = NaqalaAEC(players=players, expansions=expansions, house_rules=house_rules, **kwargs)
    return _OrderEnforcing(game)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with ``last()`` and ``agent_iter()`` asked of
    the environment itself once it is reset: the wrapper's own read every attribute
    through its checking ``__getattr__`` (seven lookups a step), which cost more than a
    native step. The checks before ``reset`` are the wrapper's."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return AECIterable(self.env, max_iter)
