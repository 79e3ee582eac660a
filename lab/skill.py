"""The skill matrix (``naqala skill``): how often each kind of player beats each other kind.

The kinds are given as a ladder, weakest first (``random,greedy,mcts,mcts:strong``).
Every ordered pair of different kinds (``row``, ``column``) is one arrangement: one
``row`` player against a field of ``players − 1`` ``column`` players (at 2 players, one
against one), rotated one seat per game so the ``row`` player sits at every seat equally
often. Every arrangement plays the same games, seeds ``seed … seed + N − 1`` (paired
seeds), so two cells differ by who plays, not by the deal. A cell is the ``row`` player's
win rate (shared wins split) with its Wilson interval; the fair share is ``1 / players``.

The skill gradient reads the ladder: for each rung, the win rate of the stronger kind
alone against a field of the kind below it, and its edge over the fair share. The mean
edge is one number for "how much does being the stronger player pay"; ``ordered`` says
whether every rung beats the one below it more often than its fair share.

The first-bidder advantage pools every game of the matrix: the win rate of the player
who bid first in the first round (random at set-up), against the fair share.

Two rule sets (``compare_matrices``) play the same arrangements with the same seeds, so
each cell and the mean edge get a paired difference: does the variant make skill matter
more or less.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from naqala.lab.executors import Executor
from naqala.lab.results import GameResult, wilson
from naqala.lab.runner import Advance, play_indices
from naqala.lab.study import Ruleset, Study
from naqala.native.choice import PYTHON


class SkillError(ValueError):
    """A ladder or a number of games the skill matrix cannot use."""


#: the most kinds of a ladder: the matrix is quadratic, k(k − 1) cells, so 20 kinds are
#: 380 cells (38,000 games at 100 a cell); 299 kinds were 89,102 cells, played on
#: without a word of what they would cost
MAX_KINDS = 20


@attrs.frozen
class Ladder:
    """The kinds of player, weakest first, the player count and the games per cell."""

    kinds: tuple[str, ...]
    players: int
    games: int
    seed: int = 0
    #: the engine of every cell's games (``Study.engine``)
    engine: str = PYTHON

    def __attrs_post_init__(self) -> None:
        if len(self.kinds) < 2:
            raise SkillError("a skill matrix needs at least two kinds of player in --seats")
        if len(set(self.kinds)) != len(self.kinds):
            raise SkillError(f"--seats names a kind twice: {', '.join(self.kinds)}")
        if len(self.kinds) > MAX_KINDS:
            count = len(self.kinds)
            cells = count * (count - 1)
            raise SkillError(
                f"--seats names {count} kinds of player: {cells:,} cells, "
                f"{cells * self.games:,} games at {self.games} a cell; the matrix is "
                f"quadratic, so at most {MAX_KINDS} kinds ({MAX_KINDS * (MAX_KINDS - 1)} cells)"
            )
        if self.players < 2:
            raise SkillError(f"a skill matrix needs at least 2 players, not {self.players}")
        if self.games < 1:
            raise SkillError(f"a skill matrix needs at least 1 game a cell, not {self.games}")

    @property
    def cells(self) -> list[tuple[str, str]]:
        """Every ordered pair of different kinds, row by row."""
        return [(a, b) for a in self.kinds for b in self.kinds if a != b]

    def seats(self, row: str, column: str) -> tuple[str, ...]:
        """One ``row`` player, then the field of ``column`` players."""
        return (row, *(column,) * (self.players - 1))

    def studies(self, ruleset: Ruleset) -> list[Study]:
        """One rotated study per cell, all from the same seed."""
        return [
            Study(ruleset, self.seats(a, b), self.seed, rotate=True, engine=self.engine)
            for a, b in self.cells
        ]


def row_wins(result: GameResult, row: str) -> float:
    """The share of game ``result`` the one ``row`` player won (split when shared)."""
    seat = result.agents.index(row)
    return 1 / len(result.winners) if seat in result.winners else 0.0


def _rate(wins: Sequence[float]) -> dict[str, Any]:
    n = len(wins)
    won = math.fsum(wins)
    return {
        "games": n,
        "wins": round(won, 3),
        "rate": round(won / n, 4),
        "ci": [round(x, 4) for x in wilson(won, n)],
    }


def first_bidder(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """The win rate of the player who bid first in the first round, over ``results``."""
    wins = [
        (1 / len(r.winners) if r.start_order and r.start_order[0] in r.winners else 0.0)
        for r in results
    ]
    entry = _rate(wins)
    entry["fair_share"] = round(1 / players, 4)
    entry["edge"] = round(entry["rate"] - 1 / players, 4)
    return entry


def matrix_report(
    ladder: Ladder, cells: Sequence[Sequence[GameResult]], plugins: Sequence[str]
) -> dict[str, Any]:
    """The matrix, the gradient and the first-bidder advantage of one rule set
    (``cells`` in ``ladder.cells`` order; a JSON-ready dict)."""
    fair = 1 / ladder.players
    by_cell = {
        pair: [row_wins(r, pair[0]) for r in results]
        for pair, results in zip(ladder.cells, cells, strict=True)
    }
    matrix: dict[str, dict[str, Any]] = {a: {} for a in ladder.kinds}
    for (a, b), wins in by_cell.items():
        matrix[a][b] = _rate(wins)
    steps = []
    for weaker, stronger in zip(ladder.kinds, ladder.kinds[1:], strict=False):
        entry = {"weaker": weaker, "stronger": stronger, **matrix[stronger][weaker]}
        entry["edge"] = round(entry["rate"] - fair, 4)
        steps.append(entry)
    strength = {
        a: round(math.fsum(cell["rate"] for cell in matrix[a].values()) / len(matrix[a]), 4)
        for a in ladder.kinds
    }
    return {
        "players": ladder.players,
        "games_per_cell": min(len(c) for c in cells),
        "seed": ladder.seed,
        "plugins": list(plugins),
        "kinds": list(ladder.kinds),
        "fair_share": round(fair, 4),
        "matrix": matrix,
        "strength": strength,
        "gradient": {
            "steps": steps,
            "mean_edge": round(math.fsum(s["edge"] for s in steps) / len(steps), 4),
            "ordered": all(s["rate"] > fair for s in steps),
        },
        "first_bidder": first_bidder([r for c in cells for r in c], ladder.players),
        "precision": precision(matrix, min(len(c) for c in cells)),
    }


#: the widest 95% interval of a cell's win rate worth reading (±15 points)
READABLE_WIDTH = 0.3


def precision(matrix: dict[str, dict[str, Any]], games: int) -> dict[str, Any]:
    """Whether the cells' intervals can be read: the widest one, and when it is wider
    than ``READABLE_WIDTH`` the games a cell would need (a Wilson interval narrows as
    1/√n), so a matrix of too few games says so instead of being read as a verdict."""
    widest = max(cell["ci"][1] - cell["ci"][0] for row in matrix.values() for cell in row.values())
    widest = round(widest, 4)  # the intervals' own rounding, not float noise
    too_wide = widest > READABLE_WIDTH
    needed = math.ceil(games * (widest / READABLE_WIDTH) ** 2) if too_wide else games
    return {
        "widest_interval": widest,
        "readable_width": READABLE_WIDTH,
        "too_wide": too_wide,
        "games_needed": needed,
    }


def step_values(ladder: Ladder, cells: Sequence[Sequence[GameResult]]) -> list[float]:
    """Per game of the gradient's rungs, the stronger player's share of the win: their
    mean, minus the fair share, is the mean edge (every rung plays the same games)."""
    index = {pair: k for k, pair in enumerate(ladder.cells)}
    values: list[float] = []
    for weaker, stronger in zip(ladder.kinds, ladder.kinds[1:], strict=False):
        values += [row_wins(r, stronger) for r in cells[index[(stronger, weaker)]]]
    return values


def play_matrices(
    ladder: Ladder,
    rulesets: Sequence[Ruleset],
    executor: Executor,
    advance: Advance | None = None,
) -> tuple[list[list[list[GameResult]]], bool]:
    """Every cell of every rule set's matrix, games interleaved (so an interrupted run has
    every cell of most games): by rule set, by cell, the games; and whether Ctrl-C
    stopped the run."""
    studies = [study for ruleset in rulesets for study in ladder.studies(ruleset)]
    for study in studies:  # StudyError: a kind the rules lack, a player count they refuse
        study.check()
    sides, interrupted = play_indices(studies, range(ladder.games), executor, advance)
    width = len(ladder.cells)
    return [sides[k * width : (k + 1) * width] for k in range(len(rulesets))], interrupted


def compare_matrices(
    ladder: Ladder,
    baseline: tuple[Sequence[Sequence[GameResult]], dict[str, Any]],
    variant: tuple[Sequence[Sequence[GameResult]], dict[str, Any]],
) -> dict[str, Any]:
    """The paired differences of two rule sets' matrices (variant − baseline): each
    cell's win rate (McNemar's exact test on the row player's wins) and the mean edge of
    the gradient (paired t-test on the stronger players' per-game shares), Holm-adjusted
    together. Needs scipy."""
    from naqala.lab import stats

    (cells_b, report_b), (cells_v, report_v) = baseline, variant
    if min(len(c) for c in cells_b) < 2:
        raise SkillError("comparing two matrices needs at least 2 games a cell")
    differences: dict[str, dict[str, Any]] = {a: {} for a in ladder.kinds}
    entries = []
    for (a, b), games_b, games_v in zip(ladder.cells, cells_b, cells_v, strict=True):
        won_b = [a_won > 0 for a_won in (row_wins(r, a) for r in games_b)]
        won_v = [a_won > 0 for a_won in (row_wins(r, a) for r in games_v)]
        entry = stats.paired_wins(won_b, won_v)
        differences[a][b] = entry
        entries.append(entry)
    edge = stats.paired_means(step_values(ladder, cells_b), step_values(ladder, cells_v))
    entries.append(edge)
    for entry, adjusted in zip(entries, stats.holm([e["p_value"] for e in entries]), strict=True):
        entry["p_holm"] = stats.pval(adjusted)
        entry["significant"] = adjusted < stats.ALPHA
    return {
        "baseline": report_b,
        "variant": report_v,
        "differences": differences,
        "mean_edge": edge,
        "correction": {"method": "holm", "metrics": len(entries)},
    }
