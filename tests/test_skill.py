"""``naqala skill``: the skill matrix, its gradient, the first bidder and two rule sets
compared, with small budgets (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.agents.mcts import DEFAULT_BUDGET, STRONG_BUDGET, parse_budget
from naqala.cli.app import app
from naqala.lab.executors import SerialExecutor
from naqala.lab.results import GameResult
from naqala.lab.skill import MAX_KINDS, Ladder, SkillError, matrix_report, play_matrices
from naqala.lab.study import Ruleset

HOUSE = Path(__file__).resolve().parent.parent / "plugins" / "house"
SMALL = ["skill", "--seats", "random,greedy", "--games", "2", "--players", "2", "--json"]


def game(agents: tuple[str, ...], winners: tuple[int, ...], first: int = 0) -> GameResult:
    order = (first, *(s for s in range(len(agents)) if s != first))
    return GameResult(0, 1, 1, (0,) * len(agents), winners, (), (), {}, agents, order)


def test_a_cell_is_the_one_players_split_win_rate_and_the_gradient_reads_the_ladder() -> None:
    ladder = Ladder(("random", "greedy"), 3, 4)
    # (random alone vs greedy field), then (greedy alone vs random field)
    random_alone = [
        game(("random", "greedy", "greedy"), (1,)),
        game(("greedy", "random", "greedy"), (1,)),  # random won
        game(("greedy", "greedy", "random"), (0,)),
        game(("random", "greedy", "greedy"), (0, 1)),  # shared: half a win
    ]
    greedy_alone = [
        game(("greedy", "random", "random"), (0,), first=1),
        game(("random", "greedy", "random"), (1,), first=1),
        game(("random", "random", "greedy"), (2,)),
        game(("greedy", "random", "random"), (1,)),
    ]
    report = matrix_report(ladder, [random_alone, greedy_alone], ["base"])
    assert report["matrix"]["random"]["greedy"]["wins"] == 1.5
    assert report["matrix"]["random"]["greedy"]["rate"] == 0.375
    assert report["matrix"]["greedy"]["random"]["rate"] == 0.75
    assert "random" not in report["matrix"]["random"]  # no self-play cell
    step = report["gradient"]["steps"][0]
    assert (step["weaker"], step["stronger"], step["edge"]) == ("random", "greedy", 0.4167)
    assert report["gradient"]["ordered"] is True
    first = report["first_bidder"]
    assert first["games"] == 8
    # seat 0 bid first but in two games (seat 1); the first bidder won the third and
    # sixth games and shared the fourth
    assert first["wins"] == 2.5
    assert first["fair_share"] == 0.3333


def test_a_ladder_needs_two_different_kinds_and_two_players() -> None:
    for kinds, players in ((("greedy",), 2), (("greedy", "greedy"), 2), (("a", "b"), 1)):
        with pytest.raises(SkillError):
            Ladder(kinds, players, 4)


def test_every_arrangement_plays_the_same_seeds_with_the_one_player_at_every_seat() -> None:
    ladder = Ladder(("random", "greedy-nobid"), 3, 3, seed=7)
    (cells,), interrupted = play_matrices(ladder, [Ruleset()], SerialExecutor())
    assert not interrupted
    for (row, _), results in zip(ladder.cells, cells, strict=True):
        assert [r.seed for r in results] == [7, 8, 9]
        assert sorted(r.agents.index(row) for r in results) == [0, 1, 2]


def test_the_command_is_the_same_on_one_and_two_jobs() -> None:
    one = CliRunner().invoke(app, [*SMALL, "-j", "1"])
    two = CliRunner().invoke(app, [*SMALL, "-j", "2"])
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["kinds"] == ["random", "greedy"]
    assert set(data["matrix"]["greedy"]) == {"random"}
    assert data["games_per_cell"] == 2 and data["partial"] is False


def test_a_variant_gives_both_matrices_and_their_paired_differences(tmp_path: Path) -> None:
    page = tmp_path / "skill.html"
    args = [*SMALL, "--variant-house-rules", str(HOUSE / "big_viziers.toml"), "--report", str(page)]
    got = CliRunner().invoke(app, args)
    assert got.exit_code == 0, got.output
    data = json.loads(got.stdout)
    assert data["variant"]["plugins"][-1] == "big-viziers"
    assert data["baseline"]["plugins"] == ["base"]
    cell = data["differences"]["greedy"]["random"]
    assert cell["test"] == "McNemar exact" and "p_holm" in cell
    assert data["mean_edge"]["test"] == "paired t"
    text = page.read_text(encoding="utf-8")
    for part in ('id="fig-matrix"', 'id="fig-difference"', 'id="table-matrix-variant"', "<svg"):
        assert part in text


def test_the_report_draws_the_matrix_as_a_heat_map(tmp_path: Path) -> None:
    page = tmp_path / "skill.html"
    got = CliRunner().invoke(app, [*SMALL, "--report", str(page)])
    assert got.exit_code == 0, got.output
    text = page.read_text(encoding="utf-8")
    assert 'id="fig-matrix"' in text and 'id="table-gradient"' in text
    assert 'id="table-first-bidder"' in text


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ("greedy", "at least two kinds"),
        ("random,wizard", "unknown seat 'wizard'"),
        ("random,random", "names a kind twice"),
    ],
)
def test_bad_seats_are_one_line_and_exit_2(seats: str, message: str) -> None:
    got = CliRunner().invoke(app, ["skill", "--seats", seats, "--games", "2"])
    assert got.exit_code == 2
    assert message in got.stderr and got.stderr.count("\n") == 1
    assert got.stdout == ""


def test_a_player_count_the_rules_refuse_is_one_line() -> None:
    got = CliRunner().invoke(app, ["skill", "--seats", "random,greedy", "-p", "9"])
    assert got.exit_code == 2 and got.stderr.count("\n") == 1 and "9" in got.stderr


def test_mcts_strong_is_a_named_bounded_budget() -> None:
    assert parse_budget("strong") == STRONG_BUDGET
    assert STRONG_BUDGET.iterations == 4 * DEFAULT_BUDGET.iterations
    assert STRONG_BUDGET.work is not None and DEFAULT_BUDGET.work is not None
    assert STRONG_BUDGET.work == 4 * DEFAULT_BUDGET.work


def test_a_ladder_of_more_kinds_than_the_limit_is_one_line_saying_what_it_costs() -> None:
    """299 kinds (``mcts:1`` … ``mcts:299``) began 89,102 cells without a word (issue 36)."""
    kinds = ",".join(f"mcts:{budget}" for budget in range(1, 300))
    result = CliRunner().invoke(app, ["skill", "--seats", kinds, "-n", "2"])
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr == (
        "naqala: --seats names 299 kinds of player: 89,102 cells, 178,204 games at 2 a "
        f"cell; the matrix is quadratic, so at most {MAX_KINDS} kinds (380 cells)\n"
    )
    widest = tuple(f"mcts:{budget}" for budget in range(1, MAX_KINDS + 1))
    assert len(Ladder(widest, 2, 1).cells) == MAX_KINDS * (MAX_KINDS - 1)
