"""naqala as an OpenSpiel game: importing this module registers ``python_naqala``.

    import pyspiel
    import naqala.envs.openspiel  # registers the game
    game = pyspiel.load_game("python_naqala", {"players": 2, "expansions": "artisans"})

Parameters: ``players`` (2 by default), ``expansions`` and ``house_rules`` (comma-separated
names; a house rule may also be a file path), ``seed`` (0), ``deals`` (1000) and
``reward`` (``win``: the winners share 1; ``margin``: own score minus the best other
score) and ``engine`` (``auto``: the native engine whenever the rules can run there, with
the same observations, masks and rewards; ``native`` or ``python`` insist on one).

The game type is sequential, *explicit stochastic*, imperfect information, general-sum,
with rewards only at the end. Its one chance node is the deal, the first move of every
game: outcome ``k`` (of ``deals``, equally likely) deals the game of seed ``seed + k``;
every draw after that comes from the naqala state's own generator, so the same deal and
actions give the same game, and nothing else (reading observations, cloning) touches
any random stream. That also makes a state serializable (``serialize`` and
``deserialize_state``: the naqala state JSON), which a sampled-stochastic Python game
cannot be (OpenSpiel asks the game for its generator's state, which a Python game cannot
give). Actions are the indices of the ruleset's action codec (``naqala.envs.codec``); the
information state and the observation of a player are both that seat's view
(``naqala.core.views.view_for``): as a string its canonical JSON, as a tensor the
observation encoder's numbers (``naqala.envs.observation``); before the deal, zeros and
an empty view. The view holds the whole public position, so it is a Markov information
state rather than a perfect-recall one. ``resample_from_infostate`` returns a
determinization of the state for the player (``naqala.core.views.determinize``), which
is all OpenSpiel's ISMCTS bot needs.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "the OpenSpiel game needs the extra: pip install 'naqala[openspiel]'"
    ) from exc

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.serialize import StateFormatError, state_from_json
from naqala.core.state import State
from naqala.core.views import determinize
from naqala.envs.codec import ActionCodec, codec_for
from naqala.envs.common import REWARDS, final_rewards, rules_from, split_names
from naqala.envs.games import Game, engine_for, load_game, open_game
from naqala.envs.observation import encoder_for

GAME_NAME = "python_naqala"
#: more actions than any game takes (random games take 200 to 450), the deal included
MAX_GAME_LENGTH = 2000
#: how many deals the chance node chooses from unless told (seeds ``seed … seed + 999``)
DEALS = 1000
#: loose bounds of the ``margin`` reward, in victory points
MARGIN_BOUND = 1000.0
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "expansions": "",
    "house_rules": "",
    "seed": 0,
    "deals": DEALS,
    "reward": "win",
    "engine": "auto",
}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Five Tribes (naqala)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class _Shared:
    """What every state of a game shares and never changes: copied by reference when
    OpenSpiel clones a state (it deep-copies a Python state's attributes). OpenSpiel
    serializes a Python state by pickling its attributes: the game is pickled as its
    name and parameters and loaded again from them."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _loaded_game, (str(self.value),)


class _Position(_Shared):
    """A naqala game inside an OpenSpiel state, stepped in place and copied when
    OpenSpiel clones the state; pickled as its state JSON (with the game's name and
    parameters to read it with), so a serialized state holds data only and comes back
    exactly, its generator included."""

    def __init__(self, value: Game, game: NaqalaGame) -> None:
        super().__init__(value)
        self.game = game
        #: the deciding player, kept at hand: OpenSpiel asks for it several times a step
        self.player: int | None = value.player

    def step(self, action: int) -> None:
        self.value.step(action)
        self.player = self.value.player

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.value.copy(), self.game)

    def __reduce__(self) -> tuple[Any, ...]:
        return _position, (str(self.game), self.value.to_json())


def _loaded_game(text: str) -> _Shared:
    return _Shared(pyspiel.load_game(text))


def _position(game_text: str, state_json: str) -> _Position:
    game = pyspiel.load_game(game_text)
    return _Position(game.load(state_from_json(state_json, game.rules)[1]), game)


class NaqalaGame(pyspiel.Game):  # type: ignore[misc]
    """A naqala ruleset and player count as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, rules: Rules | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.rules: Rules = rules or rules_from(
            split_names(params["expansions"]), split_names(params["house_rules"])
        )
        self.players = int(params["players"])
        allowed = sorted(pc.players for pc in self.rules.content.player_counts)
        if self.players not in allowed:
            raise ValueError(
                f"players={self.players}: these rules allow {', '.join(map(str, allowed))}"
            )
        self.reward = str(params["reward"])
        if self.reward not in REWARDS:
            raise ValueError(f"reward={self.reward!r}: choose one of {', '.join(REWARDS)}")
        self.seed = int(params["seed"])
        self.deals = int(params["deals"])
        if self.deals < 1:
            raise ValueError(f"deals={self.deals}: give at least 1")
        self.engine = engine_for(self.rules, str(params["engine"]))
        self.samples = 0
        self.codec: ActionCodec = codec_for(self.rules)
        self.encoder = encoder_for(self.rules)
        bound = 1.0 if self.reward == "win" else MARGIN_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=0.0 if self.reward == "win" else -bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters and its rules (which pickle as their ruleset and
        house-rule bytes): pyspiel's own pickling would give back a game without them."""
        return _unpickled_game, (type(self), self.get_parameters(), self.rules)

    def new_initial_state(self) -> NaqalaState:
        return NaqalaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> NaqalaObserver:
        return NaqalaObserver(self, iig_obs_type, params)

    def deal(self, outcome: int) -> Game:
        """The game of chance outcome ``outcome``: seed ``seed + outcome``."""
        if not 0 <= outcome < self.deals:
            raise ValueError(f"deal {outcome}: the deals are 0 to {self.deals - 1}")
        return open_game(self.rules, self.players, self.seed + outcome, self.engine)

    def load(self, state: State) -> Game:
        """The game at ``state``, on this game's engine."""
        return load_game(self.rules, state, self.engine)

    def deserialize_state(self, text: str) -> NaqalaState:
        """A state from ``NaqalaState.serialize``: the deal to come (an empty string) or
        naqala's state JSON, checked against these rules like any state file."""
        state = NaqalaState(self)
        if text:
            try:
                state._state = _Position(self.load(state_from_json(text, self.rules)[1]), self)
            except StateFormatError as exc:
                raise ValueError(f"not a naqala state of this game: {exc}") from exc
        return state


def _unpickled_game(cls: type[NaqalaGame], params: dict[str, Any], rules: Rules) -> NaqalaGame:
    return cls(params, rules)


class NaqalaState(pyspiel.State):  # type: ignore[misc]
    """One position of a game: the deal to come (the chance node), then a naqala state."""

    def __init__(self, game: NaqalaGame) -> None:
        super().__init__(game)
        self._game = _Shared(game)
        self._state: _Position | None = None

    @property
    def dealt(self) -> bool:
        return self._state is not None

    @property
    def game(self) -> Game:
        """The naqala game of this position (ValueError before the deal)."""
        if self._state is None:
            raise ValueError("not dealt yet: the first move is the deal (a chance outcome)")
        game: Game = self._state.value
        return game

    @property
    def game_state(self) -> State:
        """The naqala state of this position (ValueError before the deal; read back from
        the kernel on the native engine)."""
        return self.game.state

    @property
    def _owner(self) -> NaqalaGame:
        game: NaqalaGame = self._game.value
        return game

    def current_player(self) -> int:
        position = self._state
        if position is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = position.player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._owner.deals
        return [(outcome, 1.0 / deals) for outcome in range(deals)] if not self.dealt else []

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal()

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            owner = self._owner
            self._state = _Position(owner.deal(action), owner)
            return
        self._state.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action} (seed {self._owner.seed + action})"
        return str(self._owner.codec.decode(action))

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.player is None

    def returns(self) -> list[float]:
        owner = self._owner
        if not self.is_terminal():
            return [0.0] * owner.players
        return self.game.rewards(owner.reward)

    def serialize(self) -> str:
        """The naqala state JSON (empty before the deal): everything the position is,
        its generator included, so ``deserialize_state`` gives it back exactly."""
        return self.game.to_json() if self.dealt else ""

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NaqalaState:
        """A state ``player_id`` cannot tell from this one, its hidden parts dealt again
        (``determinize``) from a seed drawn with ``probability_sampler`` and the number of
        samples this game has taken, so that repeated samples differ."""
        owner = self._owner
        owner.samples += 1
        seed = int(float(probability_sampler()) * (1 << 52)) ^ (owner.samples * 0x9E3779B1)
        sample = self.clone()
        sampled = determinize(owner.rules, self.game_state, player_id, seed)
        sample._state = _Position(owner.load(sampled), owner)
        return sample  # type: ignore[no-any-return]

    def __str__(self) -> str:
        if not self.dealt:
            return f"the deal (one of {self._owner.deals})"
        game = self.game
        return f"{game.stage} (player {game.player}), scores {game.scores()}"


class RandomPlayouts:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that plays random games to the
    end inside naqala (no OpenSpiel state per step, so much faster than OpenSpiel's own
    ``RandomRolloutEvaluator`` here) and averages the final rewards; its priors are
    uniform. Seeded: the n-th playout uses seed ``seed + n``."""

    def __init__(self, playouts: int = 1, seed: int = 0) -> None:
        self.playouts = playouts
        self.seed = seed
        self.count = 0

    def evaluate(self, state: NaqalaState) -> Any:
        owner = state._owner
        totals = np.zeros(owner.players)
        for _ in range(self.playouts):
            self.count += 1
            agents = [RandomAgent(self.seed + self.count * 7 + p) for p in range(owner.players)]
            end = play_from(owner.rules, state.game_state, agents)
            totals += final_rewards(owner.rules, end, owner.reward)
        return totals / self.playouts

    def prior(self, state: NaqalaState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class CurrentScores:
    """A cheap evaluator for OpenSpiel's MCTS and ISMCTS bots: the reward each seat would
    get if the game ended now with the scores as they stand (the final rewards at the
    end); uniform priors."""

    def evaluate(self, state: NaqalaState) -> Any:
        owner = state._owner
        return np.array(state.game.rewards(owner.reward))

    def prior(self, state: NaqalaState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def play_from(rules: Rules, state: State, agents: list[RandomAgent]) -> State:
    """``state`` played to the end by ``agents``, one per seat."""
    while not state.is_over:
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    return state


class NaqalaObserver:
    """The information state and observation of a player: that seat's view, as numbers
    (``tensor``, one part ``observation``) and as canonical JSON."""

    def __init__(self, game: NaqalaGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"the naqala observer takes no parameters, not {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "the naqala observer shows one player's view (public and that player's "
                "private information) only"
            )
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: NaqalaState, player: int) -> None:
        """The seat's numbers; zeros before the deal (OpenSpiel reads a new state's to
        learn the size), so reading an observation never deals a game."""
        if state.dealt:
            state.game.observe_into(player, self.tensor)
        else:
            self.tensor.fill(0.0)

    def string_from(self, state: NaqalaState, player: int) -> str:
        return state.game.view_text(player) if state.dealt else "{}"


pyspiel.register_game(GAME_TYPE, NaqalaGame)
