"""Long runs finish: every statistic of ``simulate`` and ``compare`` holds for ties and
shared wins, for a handful of games and for tens of thousands; a run of a billion games
says how long it will take; Ctrl-C at any moment ends with a note, never a traceback."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.lab.compare import report
from naqala.lab.results import GameResult, split_wins, summarise
from naqala.lab.stats import seat_balance


def made_up(seed: int, games: int, players: int) -> list[GameResult]:
    """Games with many ties: scores drawn from a few values, so two, three or every seat
    share the win often; every fifth game nobody wins (as a solo loss)."""
    draw = random.Random(seed)
    results = []
    for index in range(games):
        scores = tuple(draw.choice((50, 60, 60, 61)) for _ in range(players))
        best = max(scores)
        winners = () if index % 5 == 4 else tuple(s for s in range(players) if scores[s] == best)
        categories = tuple({"coins": s} for s in scores)
        start = tuple(draw.sample(range(players), players))
        results.append(
            GameResult(index, 10, 200 + index % 7, scores, winners, categories, (), {}, (), start)
        )
    return results


def test_a_two_game_run_with_a_three_way_tie_reports_its_seat_test() -> None:
    """Game seed 40 of four random players ends in a three-way tie (a third of a win to
    each): the seat test adds up the exact thirds, not the summary's rounded ones
    (``scipy.stats.chisquare`` refused 1.333 + 0.333 + 0 + 0.333 against 2 games)."""
    got = CliRunner().invoke(
        app, ["simulate", "-n", "2", "-s", "39", "-p", "4", "-j", "1", "--json"]
    )
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["wins_by_seat"] == [1.333, 0.333, 0.0, 0.333]
    assert data["seat_test"]["df"] == 3 and 0 < data["seat_test"]["p_value"] <= 1
    assert data["start_position_test"]["df"] == 3


@pytest.mark.parametrize("games", [2, 3, 7, 20_000])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_statistic_holds_with_shared_wins(games: int, players: int) -> None:
    """From two games to tens of thousands, with shared wins and games nobody won: the
    summary, both seat tests and the paired comparison are finite where defined and
    within their ranges."""
    results = made_up(games * players, games, players)
    summary = summarise(results, players, 0, ("base",))
    for rate in summary["win_rate_by_seat"] + summary["win_rate_by_start_position"]:
        assert 0 <= rate["ci"][0] <= rate["rate"] <= rate["ci"][1] <= 1
    test = seat_balance(split_wins(results, players), games)
    assert test is not None and 0 <= test["p_value"] <= 1 and test["chi2"] >= 0
    variant = made_up(games * players + 1, games, players)
    data = report(results, variant, players, 0, ["base"], ["base", "house"])
    for entry in [*data["wins_by_seat"], data["score"], *data["length"].values()]:
        assert 0 <= entry["p_value"] <= 1 and 0 <= entry["p_holm"] <= 1
    json.dumps(data, allow_nan=False)


def test_no_win_at_all_has_no_seat_test() -> None:
    """Solo-like runs where nobody won: nothing to compare the seats by."""
    assert seat_balance([0.0, 0.0, 0.0], 5) is None
