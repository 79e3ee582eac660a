"""A round robin of AI seats and their ratings: the strength ladder of ``naqala tournament``.

Every table of ``players`` distinct entrants (each combination of the entrants) plays
``deals`` deals; each deal is played once per seating, the entrants rotated through the
seats, so a seat's advantage and a deal's luck fall on every entrant alike. A game runs
on the native engine when the kernel has every seat's player and the rules, else on the
Python engine (where ``ismcts`` plays as ``mcts``). Ratings are openskill's Plackett-Luce
model (2 to 5 players a game), updated in the order of the schedule so a tournament gives
the same ladder whatever its executor; each rating comes with a 95% interval (mu ± 1.96
sigma) and each entrant's win share with its Wilson interval.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from naqala.core.agents import SeatError, canonical_seat, make_agent
from naqala.core.engine import build_rules
from naqala.core.plugins import PluginError
from naqala.core.simulate import agent_seed
from naqala.lab import require
from naqala.lab.executors import Executor
from naqala.lab.native import play_native
from naqala.lab.results import GameResult, wilson
from naqala.lab.study import play_python
from naqala.native import available, native
from naqala.native.support import native_obstacle

#: the normal quantile of a 95% interval
Z95 = 1.96
#: the most games one tournament may schedule
MAX_GAMES = 100_000


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (said in one line)."""


@attrs.frozen
class Game:
    """One scheduled game: the entrants seat by seat, the deal's seed and the rules."""

    seats: tuple[str, ...]
    seed: int
    expansions: tuple[str, ...]


@attrs.frozen
class Tournament:
    """``entrants`` (player names as ``naqala play`` writes them, without ``ai:``) at
    tables of ``players``, ``deals`` deals a table from ``seed`` on."""

    entrants: tuple[str, ...]
    players: int
    deals: int
    seed: int
    expansions: tuple[str, ...] = ()

    def check(self) -> None:
        """``TournamentError`` unless every entrant is a player the rules seat, they are
        distinct and enough for a table, and the schedule is of a sensible size."""
        try:
            rules = build_rules(list(self.expansions))
        except PluginError as exc:
            raise TournamentError(str(exc)) from None
        counts = sorted(count.players for count in rules.content.player_counts)
        if self.players not in counts:
            raise TournamentError(
                f"the rules seat {', '.join(map(str, counts))} players, not {self.players}"
            )
        if len(set(self.entrants)) != len(self.entrants):
            raise TournamentError("each entrant may be named once")
        if len(self.entrants) < max(2, self.players):
            raise TournamentError(
                f"a table of {self.players} needs at least {max(2, self.players)} entrants"
            )
        for name in self.entrants:
            try:
                make_agent(rules, canonical_seat(rules, name), 0)
            except SeatError as exc:
                raise TournamentError(str(exc)) from None
        if self.deals < 1 or len(self.schedule()) > MAX_GAMES:
            raise TournamentError(f"from 1 deal a table to {MAX_GAMES} games in all")

    def ruleset(self) -> tuple[str, ...]:
        """The plugins of the tournament's rules (its games' rows name them)."""
        return build_rules(list(self.expansions)).ruleset

    def tables(self) -> list[tuple[str, ...]]:
        return list(itertools.combinations(self.entrants, self.players))

    def schedule(self) -> list[Game]:
        """Every game, table by table, deal by deal, seating by seating."""
        games = []
        for t, table in enumerate(self.tables()):
            for d in range(self.deals):
                seed = self.seed + t * self.deals + d
                for turn in range(self.players):
                    seats = table[turn:] + table[:turn]
                    games.append(Game(seats, seed, self.expansions))
        return games


def engine_of(game: Game) -> str:
    """``native`` when the kernel has the rules and every seat's player, else ``python``."""
    if not available():
        return "python"
    rules = build_rules(list(game.expansions))
    if native_obstacle(rules) is not None:
        return "python"
    kernel_players = set(native().players())
    if all(seat.partition(":")[0] in kernel_players for seat in game.seats):
        return "native"
    return "python"


def play(game: Game) -> list[int]:
    """The final scores of ``game``, seat by seat (picklable, for an executor)."""
    return list(play_result(game).scores)


def play_result(game: Game) -> GameResult:
    """The result of ``game`` as the lab records it (``--games-out`` rows): on the native
    engine when ``engine_of`` says so, else on the Python engine."""
    rules = build_rules(list(game.expansions))
    players = len(game.seats)
    if engine_of(game) == "native":
        return play_native(rules, players, game.seed, game.seats)
    agents = [
        make_agent(rules, canonical_seat(rules, name), agent_seed(game.seed, i))
        for i, name in enumerate(game.seats)
    ]
    return play_python(rules, players, game.seed, game.seats, agents)


def ranks_of(scores: Sequence[int]) -> list[int]:
    """Each seat's place (1 = best; equal scores share a place)."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


@attrs.frozen
class Standing:
    """One entrant's line of the ladder."""

    name: str
    games: int
    wins: float
    mu: float
    sigma: float

    def rating_interval(self) -> tuple[float, float]:
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma

    def win_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.rating_interval()
        w_low, w_high = self.win_interval()
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_interval": [w_low, w_high],
            "mu": self.mu,
            "sigma": self.sigma,
            "rating_interval": [low, high],
        }


def rate(tournament: Tournament, results: Sequence[tuple[Game, Sequence[int]]]) -> list[Standing]:
    """The ladder from the finished games (in schedule order), best rating first."""
    models = require("openskill.models", "rating a tournament")
    model = models.PlackettLuce()
    ratings = {name: model.rating(name=name) for name in tournament.entrants}
    games = dict.fromkeys(tournament.entrants, 0)
    wins = dict.fromkeys(tournament.entrants, 0.0)
    for game, scores in results:
        places = ranks_of(scores)
        teams = model.rate([[ratings[name]] for name in game.seats], ranks=places)
        firsts = places.count(1)
        for name, team, place in zip(game.seats, teams, places, strict=True):
            ratings[name] = team[0]
            games[name] += 1
            wins[name] += 1.0 / firsts if place == 1 else 0.0
    standings = [
        Standing(name, games[name], wins[name], ratings[name].mu, ratings[name].sigma)
        for name in tournament.entrants
    ]
    return sorted(standings, key=lambda s: (-s.mu, s.name))


def run(
    tournament: Tournament, executor: Executor, advance: Callable[[], None] = lambda: None
) -> tuple[list[Standing], int]:
    """Plays the schedule on ``executor`` and rates it: the ladder and the games played
    (fewer than scheduled only when interrupted)."""
    standings, results = run_games(tournament, executor, advance)
    return standings, len(results)


def run_games(
    tournament: Tournament, executor: Executor, advance: Callable[[], None] = lambda: None
) -> tuple[list[Standing], list[GameResult]]:
    """``run``, with every game's result in schedule order (for ``--games-out``)."""
    schedule = tournament.schedule()
    finished: dict[int, GameResult] = {}
    for position, result in executor.imap(play_result, schedule):
        finished[position] = result
        advance()
    results = [(schedule[i], list(finished[i].scores)) for i in sorted(finished)]
    return rate(tournament, results), [finished[i] for i in sorted(finished)]
