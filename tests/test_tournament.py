"""``naqala tournament`` (naqala.lab.tournament): the schedule rotates every table's
entrants through the seats over the same deals, places and ratings are read from the
scores, the ladder is the same on one and two jobs, and bad input is one line."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.lab.executors import SerialExecutor
from naqala.lab.tournament import Game, Tournament, TournamentError, ranks_of, rate, run

SMALL = ["tournament", "--seats", "random,greedy,greedy-nobid", "--deals", "1", "--json"]


def test_every_table_plays_each_deal_once_a_seating() -> None:
    plan = Tournament(("random", "greedy", "mcts", "ismcts"), 3, 2, 100)
    games = plan.schedule()
    assert len(games) == 4 * 2 * 3  # C(4, 3) tables, 2 deals, 3 seatings
    by_deal: dict[int, list[Game]] = {}
    for game in games:
        by_deal.setdefault(game.seed, []).append(game)
    assert len(by_deal) == 8
    for deal in by_deal.values():
        assert len(deal) == 3 and len({g.seats for g in deal}) == 3
        for seat in range(3):  # each entrant of the table once in each seat
            assert len({g.seats[seat] for g in deal}) == 3
    assert Counter(name for g in games for name in g.seats) == dict.fromkeys(plan.entrants, 18)


def test_places_share_ties_and_ratings_follow_the_results() -> None:
    assert ranks_of([30, 50, 30]) == [2, 1, 2]
    plan = Tournament(("a", "b"), 2, 1, 0)
    results = [(Game(("a", "b"), 0, ()), [40, 10]), (Game(("b", "a"), 0, ()), [12, 35])] * 3
    ladder = rate(plan, results)
    assert [s.name for s in ladder] == ["a", "b"]
    assert ladder[0].wins == 6 and ladder[1].wins == 0
    low, high = ladder[0].rating_interval()
    assert low < ladder[0].mu < high
    tied = rate(plan, [(Game(("a", "b"), 0, ()), [20, 20])])
    assert [s.wins for s in tied] == [0.5, 0.5]


def test_a_small_tournament_ranks_greedy_above_random() -> None:
    plan = Tournament(("random", "greedy"), 2, 3, 7)
    plan.check()
    ladder, played = run(plan, SerialExecutor())
    assert played == 6
    assert [s.name for s in ladder] == ["greedy", "random"]


def test_the_command_is_the_same_on_one_and_two_jobs() -> None:
    one = CliRunner().invoke(app, [*SMALL, "-j", "1"])
    two = CliRunner().invoke(app, [*SMALL, "-j", "2"])
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["games"] == 3 * 2
    assert {line["name"] for line in data["ladder"]} == {"random", "greedy", "greedy-nobid"}


def test_the_command_prints_a_ladder_table() -> None:
    result = CliRunner().invoke(app, [*SMALL[:-1]])
    assert result.exit_code == 0, result.output
    assert "rating (95%)" in result.stdout and "greedy-nobid" in result.stdout


@pytest.mark.parametrize(
    ("seats", "extra", "said"),
    [
        ("random,bogus", [], "unknown seat"),
        ("random", [], "at least 2 entrants"),
        ("random,random", [], "once"),
        ("random,greedy", ["-p", "7"], "not 7"),
        ("random,greedy,mcts", ["-p", "4"], "at least 4 entrants"),
        ("random,greedy", ["-x", "nope"], "unknown expansion"),
        ("random,ismcts:fast", [], "budget"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(seats: str, extra: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["tournament", "--seats", seats, *extra])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], result.stderr


def test_a_check_refuses_a_schedule_too_large() -> None:
    with pytest.raises(TournamentError):
        Tournament(("random", "greedy"), 2, 10**6, 0).check()
