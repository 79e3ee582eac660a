"""One game as the environments step it, on either engine: ``PythonGame`` on the rules'
own engine (the reference, where every plugin runs), ``NativeGame`` on the kernel
(``naqala.envs.native``). Both step by codec index, write a seat's observation and the
legal-action mask into numpy arrays the caller owns, and give the same numbers for the
same position; ``open_game`` picks the kernel whenever the rules can run there.

The native game keeps its state in the kernel: ``state`` (a Python ``State``) is read
back through the state JSON only when asked for (a render, an AI opponent, a
determinization), never in a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import numpy as np

from naqala.core.engine import Rules
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import State
from naqala.envs.codec import codec_for
from naqala.envs.common import final_rewards
from naqala.envs.native import env_kernel, native_blocker
from naqala.envs.observation import encoder_for

if TYPE_CHECKING:
    from naqala.native._native import EnvGame

#: the engines a game can be asked for: ``auto`` is the kernel when the rules can run
#: there (``native_blocker``), else Python
ENGINES = ("auto", "native", "python")


class Game(Protocol):
    """What the environments ask of a game."""

    engine: str

    @property
    def state(self) -> State: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def player(self) -> int | None: ...

    @property
    def stage(self) -> str: ...

    def legal(self) -> list[int]: ...

    def notations(self) -> list[str]: ...

    @property
    def option_count(self) -> int: ...

    def option_index(self, place: int) -> int: ...

    def step(self, index: int) -> None: ...

    def observe_into(self, seat: int, out: np.ndarray) -> None: ...

    def mask_into(self, out: np.ndarray) -> None: ...

    def observe_with_mask(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """``seat``'s observation, and the mask (all zeros unless ``seat`` decides)."""

    def scores(self) -> list[int]: ...

    def view_text(self, seat: int) -> str:
        """What ``seat`` observes as canonical JSON (``ObservationEncoder.text``)."""

    def rewards(self, kind: str) -> list[float]: ...

    def copy(self) -> Game: ...

    def to_json(self) -> str: ...


class PythonGame:
    """A game on the Python engine."""

    engine = "python"

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules = rules
        self.codec = codec_for(rules)
        self.encoder = encoder_for(rules)
        self._state = state
        self._legal: list[int] | None = None

    @property
    def state(self) -> State:
        return self._state

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def player(self) -> int | None:
        return None if self._state.is_over else self._state.decision.player

    @property
    def stage(self) -> str:
        return self._state.decision.stage

    def legal(self) -> list[int]:
        if self._legal is None:
            self._legal = self.codec.legal(self.rules, self._state)
        return list(self._legal)

    def notations(self) -> list[str]:
        return [str(a) for a in self.rules.legal_actions(self._state)]

    @property
    def option_count(self) -> int:
        return len(self.rules.legal_actions(self._state))

    def option_index(self, place: int) -> int:
        """The codec index of legal action number ``place`` in the rules' order."""
        return self.codec.encode(self.rules.legal_actions(self._state)[place])

    def step(self, index: int) -> None:
        if index not in self.legal():
            raise ValueError(f"action {index} is not legal now")
        self._state = self.rules.apply(self._state, self.codec.decode(index))
        self._legal = None

    def observe_into(self, seat: int, out: np.ndarray) -> None:
        out[:] = self.encoder.observe(self._state, seat)

    def mask_into(self, out: np.ndarray) -> None:
        out[:] = 0
        out[self.legal()] = 1

    def observe_with_mask(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        self.observe_into(seat, observation)
        if self.player == seat:
            self.mask_into(mask)
        else:
            mask[:] = 0

    def scores(self) -> list[int]:
        return list(self.rules.scores(self._state))

    def rewards(self, kind: str) -> list[float]:
        return final_rewards(self.rules, self._state, kind)

    def copy(self) -> PythonGame:
        return PythonGame(self.rules, self._state)  # states are immutable

    def to_json(self) -> str:
        return state_to_json(self.rules, self._state)

    def view_text(self, seat: int) -> str:
        return encoder_for(self.rules).text(self._state, seat)


class NativeGame:
    """A game on the native engine (``naqala.native._native.EnvGame``)."""

    engine = "native"

    def __init__(self, rules: Rules, game: EnvGame) -> None:
        self.rules = rules
        self.native = game

    @property
    def state(self) -> State:
        return state_from_json(self.native.to_json(), self.rules)[1]

    @property
    def is_over(self) -> bool:
        return self.native.is_over()

    @property
    def player(self) -> int | None:
        return self.native.player()

    @property
    def stage(self) -> str:
        return self.native.stage()

    def legal(self) -> list[int]:
        return self.native.legal()

    def notations(self) -> list[str]:
        return self.native.notations()

    @property
    def option_count(self) -> int:
        return self.native.option_count()

    def option_index(self, place: int) -> int:
        return self.native.option_index(place)

    def step(self, index: int) -> None:
        self.native.step(index)

    def observe_into(self, seat: int, out: np.ndarray) -> None:
        self.native.observe(seat, out)

    def mask_into(self, out: np.ndarray) -> None:
        self.native.mask(out)

    def observe_with_mask(self, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        self.native.observe_with_mask(seat, observation, mask)

    def scores(self) -> list[int]:
        return self.native.scores()

    def rewards(self, kind: str) -> list[float]:
        return self.native.rewards(kind)

    def copy(self) -> NativeGame:
        return NativeGame(self.rules, self.native.copy())

    def to_json(self) -> str:
        return self.native.to_json()

    def view_text(self, seat: int) -> str:
        return self.native.view_text(seat)


def engine_for(rules: Rules, engine: str = "auto") -> str:
    """``native`` or ``python``: the engine a game of ``rules`` runs on when ``engine`` is
    asked for; ValueError when ``native`` is asked for and the rules cannot run there."""
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r}: choose one of {', '.join(ENGINES)}")
    if engine == "python":
        return "python"
    blocker = native_blocker(rules)
    if blocker is None:
        return "native"
    if engine == "native":
        raise ValueError(f"engine='native': these rules cannot run natively: {blocker}")
    return "python"


def open_game(rules: Rules, players: int, seed: int, engine: str = "native") -> Game:
    """A new game of ``players`` from ``seed`` on ``engine`` (``native`` or ``python``, as
    ``engine_for`` answers)."""
    if engine == "native":
        return NativeGame(rules, env_kernel(rules).deal(players, seed))
    return PythonGame(rules, rules.new_game(players, seed))


def load_game(rules: Rules, state: State, engine: str = "native") -> Game:
    """The game at ``state`` on ``engine``."""
    if engine == "native":
        return NativeGame(rules, env_kernel(rules).load(state_to_json(rules, state)))
    return PythonGame(rules, state)
