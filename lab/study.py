"""A study as plain, picklable data, and one of its games as a pure function of it.

``Ruleset`` says how to build the rules (expansion names, house-rule files, cards left
out) instead of carrying them, so a worker process or a Dask worker rebuilds them itself
and nothing unpicklable crosses processes. A house-rule file travels as the bytes read
once on the command line (``HouseRuleFile``): every worker runs exactly what was hashed,
and a worker on another machine needs no copy of the file. ``play_task((study, index))`` plays game
``index`` of a study: game seed ``study.seed + index``, agents seeded from the game seed
(``agent_seed``), agents seated in the given order or rotated by one seat per game, on
the study's engine (``naqala.lab.native`` when it is native: the same result).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import attrs

from naqala.core import without
from naqala.core.actions import Action
from naqala.core.agents import Agent
from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.failures import PluginFailed, blame, is_game_failure, let_panics_pickle
from naqala.core.plugins import HouseRuleFile, PluginError, read_house_rule, stored_name
from naqala.core.rng import check_seed
from naqala.core.simulate import agent_seed, play_game
from naqala.core.state import State
from naqala.lab.agents import seat_name, study_agent
from naqala.lab.game_stats import DecisionLog, TimedAgent, play_stats
from naqala.lab.native import play_native, plays_native
from naqala.lab.results import GameResult, result_of, start_order
from naqala.native.choice import ENGINES, PYTHON


class StudyError(ValueError):
    """A study that cannot be run: unknown plugins or cards, bad seats or player count."""


def leave_out(rules: Rules, refs: Sequence[str]) -> Rules:
    """``naqala.core.without.leave_out`` for a study: an unknown card is a StudyError."""
    try:
        return without.leave_out(rules, refs)
    except without.WithoutError as exc:
        raise StudyError(str(exc)) from exc


@attrs.frozen
class Ruleset:
    """How to build a study's rules: expansions by name, house-rule files as they were read
    (their bytes and sha256, so a worker anywhere runs the same code) and cards left out."""

    expansions: tuple[str, ...] = ()
    house_rules: tuple[HouseRuleFile, ...] = ()
    without: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        expansions: Sequence[str],
        house_rules: Sequence[Path | HouseRuleFile],
        without: Sequence[str] = (),
    ) -> Ruleset:
        """A ruleset; each house-rule path is read now, once (StudyError if it cannot be)."""
        try:
            files = tuple(
                rule if isinstance(rule, HouseRuleFile) else read_house_rule(Path(rule))
                for rule in house_rules
            )
        except PluginError as exc:
            raise StudyError(str(exc)) from exc
        return cls(tuple(expansions), files, tuple(sorted(set(without))))

    def with_house_rule(self, path: Path) -> Ruleset:
        """This ruleset with one more house-rule file, read now."""
        return Ruleset.of(self.expansions, [*self.house_rules, path], self.without)

    def identity(self) -> list[object]:
        """The ruleset as plain JSON data: expansions, each house rule's file name and
        sha256, cards left out (what makes two rulesets the same study)."""
        houses = [[rule.name, rule.sha256] for rule in self.house_rules]
        return [[_stored(name) for name in self.expansions], houses, list(self.without)]

    def build(self) -> Rules:
        """Fresh rules (StudyError if a plugin, a content file or a card is wrong)."""
        try:
            rules = build_rules(self.expansions, list(self.house_rules))
        except (PluginError, ContentError) as exc:
            raise StudyError(str(exc)) from exc
        return leave_out(rules, self.without)


def _stored(name: str) -> str:
    """An expansion as states store it, so ``-x whims`` and ``-x djinns`` are one study;
    a name no plugin goes by is kept as given (building the rules reports it)."""
    try:
        return stored_name(name)
    except PluginError:
        return name


_local = threading.local()


def rules_of(ruleset: Ruleset) -> Rules:
    """The rules of ``ruleset``, built once per thread: ``Rules`` keeps a cache of the last
    state it answered for, so threads (a Dask worker runs several) never share one."""
    cache: dict[Ruleset, Rules] = _local.__dict__.setdefault("rules", {})
    if ruleset not in cache:
        cache[ruleset] = ruleset.build()
    return cache[ruleset]


@attrs.frozen
class Study:
    """One side of a study: rules, the agent at each seat (which fixes the player count),
    the seed of game 0, and whether the agents move one seat on with every game."""

    ruleset: Ruleset
    seats: tuple[str, ...]
    seed: int = 0
    rotate: bool = False
    #: the engine that plays its games: ``python``, ``native`` (chosen by the command for
    #: these rules and seats: ``naqala.native.choice``) or ``auto`` (native when the rules
    #: and seats can, decided once per worker); every engine gives the same results
    engine: str = attrs.field(default=PYTHON, validator=attrs.validators.in_(ENGINES))
    #: whether each game's decisions are recorded (``GameResult.play``: turn money,
    #: decision load): the commands that read them keep it; a summary alone does not pay
    #: for it (recording and summing them costs about as much as a native random game)
    record: bool = True

    @property
    def players(self) -> int:
        return len(self.seats)

    def agents_of(self, index: int) -> tuple[str, ...]:
        """The agent names by seat in game ``index``: with rotation, the agent listed
        ``k``-th sits at seat ``(k + index) mod players``, so over any ``players``
        consecutive games each agent sits once at each seat."""
        n = self.players
        if not self.rotate:
            return self.seats
        return tuple(self.seats[(seat - index) % n] for seat in range(n))

    def check(self) -> Rules:
        """Rules for this study after checking the seats (by the rules' players), the seed
        and the player count (StudyError)."""
        rules = self.ruleset.build()
        try:
            names = [seat_name(rules, s) for s in self.seats]
        except (ValueError, PluginError) as exc:  # PluginError: two plugins' players clash
            raise StudyError(str(exc)) from exc
        if tuple(names) != self.seats:
            raise StudyError("seats must be agent names (use seats_of to normalise them)")
        try:
            check_seed(self.seed, "--seed")  # the commands' option, in their words
            rules.new_game(self.players, self.seed)
        except ValueError as exc:
            raise StudyError(str(exc)) from exc
        return rules


#: the player count of a study that names neither seats nor players, if the rules allow it
DEFAULT_PLAYERS = 4


def default_players(rules: Rules) -> int:
    """``DEFAULT_PLAYERS`` if the rules allow it, else the most they allow (the solo
    mode: 1)."""
    counts = [pc.players for pc in rules.content.player_counts]
    return DEFAULT_PLAYERS if DEFAULT_PLAYERS in counts or not counts else max(counts)


def seats_of(
    rules: Rules, text: str | None, players: int | None, default: int = DEFAULT_PLAYERS
) -> tuple[str, ...]:
    """The seats of ``--seats a,b,c`` (agent names of ``rules``' players), or ``players``
    random seats when no seats are given (``default`` when neither is); StudyError when
    both disagree or a name is unknown (with ``naqala play``'s message)."""
    if text is None:
        return ("random",) * (default if players is None else players)
    try:
        seats = tuple(seat_name(rules, s) for s in text.split(","))
    except (ValueError, PluginError) as exc:
        raise StudyError(str(exc)) from exc
    if players is not None and players != len(seats):
        raise StudyError(f"--players {players} but --seats names {len(seats)} seats")
    return seats


def play_task(task: tuple[Study, int]) -> GameResult:
    """Play game ``index`` of ``study`` and return its result (the unit of work sent to
    every executor; a pure function of its argument). Code that raises during the game is
    named here, where its traceback is (``PluginFailed``): a worker process sends back
    only the exception. A panic of the native kernel is named so too (pyo3's
    ``PanicException`` cannot be unpickled where the command runs)."""
    study, index = task
    rules = rules_of(study.ruleset)
    seed = study.seed + index
    names = study.agents_of(index)
    if plays_native(study, rules):
        try:
            return play_native(rules, study.players, seed, names, study.record)
        except BaseException as exc:  # a kernel panic too: a worker sends back this line
            if not is_game_failure(exc):
                raise
            let_panics_pickle(exc)  # the cause travels with the line from a Dask worker
            raise PluginFailed(f"{blame(exc)} (game seed {seed}, native engine)") from exc
    agents = [study_agent(rules, name, agent_seed(seed, seat)) for seat, name in enumerate(names)]
    try:
        return play_python(rules, study.players, seed, names, agents, study.record)
    except BaseException as exc:
        if not is_game_failure(exc):
            raise
        raise PluginFailed(f"{blame(exc)} (game seed {seed})") from exc


def play_python(
    rules: Rules,
    players: int,
    seed: int,
    names: Sequence[str],
    agents: Sequence[Agent],
    record: bool = True,
) -> GameResult:
    """The result of the game of ``players`` from ``seed`` played on the Python engine by
    ``agents`` (named ``names``), the scores read at the end of every round, and with
    ``record`` each decision noted and timed (``TimedAgent``)."""
    log = DecisionLog()
    timed: list[Agent] = [TimedAgent(agent, log) for agent in agents] if record else [*agents]
    rounds: list[tuple[int, ...]] = []

    def round_ends(state: State, action: Action) -> None:
        """The first decision of round k + 1 records the scores at the end of round k."""
        if state.round > len(rounds) + 1:
            rounds.append(rules.scores(state))

    first = start_order(rules.new_game(players, seed))
    state, actions = play_game(rules, players, seed, timed, round_ends)
    result = result_of(rules, state, seed, actions, names, first, rounds)
    if not record:
        return result
    return attrs.evolve(result, play=play_stats(log.close(state), players, result.rounds))
