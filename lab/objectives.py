"""What ``naqala tune`` minimises: one loss per rule set, from its games.

- ``seat-fairness``: the root-mean-square distance of the win rates by first-round bidding
  position from the fair share ``1 / players`` (0: every position wins equally often);
- ``skill``: minus the skill gradient's mean edge (``naqala.lab.skill``): the lower, the
  more the stronger player of each rung of the ladder wins;
- ``length``: the mean distance, in rounds, of a game's length from ``--target-rounds``;
- ``spread``: the mean, over games, of the standard deviation of the final scores (the
  lower, the closer the games);
- ``wins`` (a player's tune, ``naqala tune --profile``): minus the tuned seat's share of
  the wins (a shared win split);
- ``margin`` (a player's tune): minus the tuned seat's mean lead over the best other seat,
  in points (negative when it trails);
- a weighted sum: ``seat-fairness=1,spread=0.01`` (a name alone weighs 1). The terms have
  their own units (a rate, a rate, rounds, points): the weights say what a round or a
  point is worth against a percentage point of fairness.

Each loss is a smooth function of means over games, so each game also gets a
**pseudo-value** (the loss's first-order expansion at that game, the delta method): their
mean is the loss and their spread its uncertainty. Two trials play the same seeds, so
their pseudo-values pair up game by game, and the paired t-test on them tells whether a
trial is clearly worse than the best so far (``naqala.lab.tune``'s early stop).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import attrs

from naqala.lab.results import GameResult

#: the objectives' names, in the order documented
NAMES = ("seat-fairness", "skill", "length", "spread", "wins", "margin")
#: the objectives of a player's tune: they read the tuned seat
PLAYER_NAMES = ("wins", "margin")


class ObjectiveError(ValueError):
    """An objective that cannot be read, or needs an option that is missing."""


@attrs.frozen
class Objective:
    """Weights by objective name, and the length target when ``length`` is used."""

    weights: tuple[tuple[str, float], ...]
    target_rounds: float | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.weights)

    @property
    def needs_skill(self) -> bool:
        return "skill" in self.names

    @property
    def needs_player(self) -> bool:
        """Whether a term reads the tuned player's seat (``wins``, ``margin``)."""
        return any(name in PLAYER_NAMES for name in self.names)


def parse_objective(text: str, target_rounds: float | None) -> Objective:
    """``seat-fairness``, or a weighted sum ``seat-fairness=1,spread=0.01``."""
    weights: list[tuple[str, float]] = []
    for part in text.split(","):
        name, _, weight = part.strip().partition("=")
        if name not in NAMES:
            raise ObjectiveError(
                f"unknown objective {name!r}; use {', '.join(NAMES)} or a weighted sum "
                "such as seat-fairness=1,spread=0.01"
            )
        if name in dict(weights):
            raise ObjectiveError(f"objective {name!r} is given twice")
        try:
            value = float(weight) if weight else 1.0
        except ValueError:
            raise ObjectiveError(f"objective {name!r}: weight {weight!r} is not a number") from None
        if not math.isfinite(value) or value <= 0:
            raise ObjectiveError(f"objective {name!r}: the weight must be above 0, not {weight}")
        weights.append((name, value))
    if "length" in dict(weights) and target_rounds is None:
        raise ObjectiveError("the length objective needs --target-rounds")
    return Objective(tuple(weights), target_rounds)


def _position_shares(result: GameResult, players: int) -> list[float]:
    shares = [0.0] * players
    for position, seat in enumerate(result.start_order):
        if seat in result.winners:
            shares[position] = 1 / len(result.winners)
    return shares


def seat_fairness(games: Sequence[GameResult], players: int) -> tuple[float, list[float]]:
    """The RMS distance of the position win rates from 1/players, and its pseudo-values."""
    shares = [_position_shares(r, players) for r in games]
    n, fair = len(games), 1 / players
    rates = [math.fsum(s[k] for s in shares) / n for k in range(players)]
    loss = math.sqrt(math.fsum((r - fair) ** 2 for r in rates) / players)
    if loss == 0:
        return 0.0, [0.0] * n
    gradient = [(r - fair) / (players * loss) for r in rates]
    pseudo = [
        loss + math.fsum(g * (s[k] - rates[k]) for k, g in enumerate(gradient)) for s in shares
    ]
    return loss, pseudo


def spread(games: Sequence[GameResult]) -> tuple[float, list[float]]:
    """The mean within-game standard deviation of the final scores."""
    values = [statistics.pstdev(r.scores) for r in games]
    return math.fsum(values) / len(values), values


def length(games: Sequence[GameResult], target: float) -> tuple[float, list[float]]:
    """The mean distance of the games' lengths from ``target`` rounds."""
    values = [abs(r.rounds - target) for r in games]
    return math.fsum(values) / len(values), values


def _tuned_seat(result: GameResult, tuned: str) -> int:
    return result.agents.index(tuned)


def wins(games: Sequence[GameResult], tuned: str) -> tuple[float, list[float]]:
    """Minus the share of the wins of the seat played by ``tuned`` (an agent name)."""
    values = []
    for r in games:
        seat = _tuned_seat(r, tuned)
        values.append(-1 / len(r.winners) if seat in r.winners else 0.0)
    return math.fsum(values) / len(values), values


def margin(games: Sequence[GameResult], tuned: str) -> tuple[float, list[float]]:
    """Minus the mean lead, in points, of ``tuned``'s seat over the best other seat."""
    values = []
    for r in games:
        seat = _tuned_seat(r, tuned)
        others = max(score for k, score in enumerate(r.scores) if k != seat)
        values.append(float(others - r.scores[seat]))
    return math.fsum(values) / len(values), values


def skill_loss(step_shares: Sequence[float], players: int) -> tuple[float, list[float]]:
    """Minus the mean edge of the ladder's rungs (``skill.step_values``, per game)."""
    values = [1 / players - share for share in step_shares]
    return math.fsum(values) / len(values), values


def evaluate(
    objective: Objective,
    games: Sequence[GameResult],
    players: int,
    step_shares: Sequence[float] = (),
    tuned: str = "",
) -> tuple[dict[str, float], float, list[float]]:
    """Each term's loss, the weighted loss, and the weighted pseudo-values per game (the
    skill term's games are the ladder's, paired with the card's games by index: both
    lists hold the same seeds in the same order, so the sum stays per seed); ``tuned`` is
    the agent name of the player a player's tune tunes."""
    terms: dict[str, float] = {}
    total = 0.0
    pseudo = [0.0] * len(games)
    for name, weight in objective.weights:
        if name == "seat-fairness":
            loss, values = seat_fairness(games, players)
        elif name == "spread":
            loss, values = spread(games)
        elif name == "length":
            assert objective.target_rounds is not None
            loss, values = length(games, objective.target_rounds)
        elif name == "wins":
            loss, values = wins(games, tuned)
        elif name == "margin":
            loss, values = margin(games, tuned)
        else:
            loss, values = skill_loss(step_shares, players)
            values = _per_seed(values, len(games))
        terms[name] = round(loss, 6)
        total += weight * loss
        pseudo = [p + weight * v for p, v in zip(pseudo, values, strict=True)]
    return terms, total, pseudo


def _per_seed(values: Sequence[float], games: int) -> list[float]:
    """The ladder's per-game values (rung after rung, ``games`` each) averaged by seed."""
    rungs = len(values) // games
    return [math.fsum(values[k * games + i] for k in range(rungs)) / rungs for i in range(games)]
