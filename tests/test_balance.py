"""``naqala balance``: the balance card and what the games record for it (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.lab.balance import (
    djinns,
    lead,
    lead_changes,
    leaders,
    margin,
    tile_kinds,
    two_thirds_leader,
)
from naqala.lab.balance_report import BALANCE_FIGURES
from naqala.lab.results import GameResult
from naqala.lab.study import Ruleset, Study, play_task


def test_a_game_records_each_rounds_scores_its_djinns_and_its_tiles_points() -> None:
    result = play_task((Study(Ruleset(), ("random",) * 3, 11), 0))
    assert len(result.round_scores) == result.rounds
    assert result.round_scores[-1] == result.scores
    assert all(len(scores) == 3 for scores in result.round_scores)
    assert len(result.djinns) == 3
    held = [d for hand in result.djinns for d in hand]
    assert result.categories and all(
        per.get("djinns", 0) > 0 or not hand
        for per, hand in zip(result.categories, result.djinns, strict=True)
    )
    assert len(held) == len(set(held))
    assert [sum(points.values()) for points in result.tile_points] == [
        per.get("tiles", 0) for per in result.categories
    ]


def scored(rounds: list[tuple[int, ...]], winners: tuple[int, ...]) -> GameResult:
    return GameResult(
        0, len(rounds), 1, rounds[-1], winners, (), (), {}, round_scores=tuple(rounds)
    )


def test_lead_changes_count_new_sole_leaders_and_a_tie_keeps_the_leader() -> None:
    game = scored([(5, 1), (5, 5), (5, 7), (9, 8), (9, 9), (9, 12)], (1,))
    assert leaders(game) == [0, 0, 1, 0, 0, 1]
    assert lead_changes(game) == 3
    assert leaders(scored([(0, 0), (1, 0)], (0,))) == [None, 0]


def test_the_leader_at_two_thirds_and_the_comebacks() -> None:
    held = scored([(1, 0), (2, 0), (3, 4), (3, 9)], (1,))  # round 3 of 4: seat 1 leads, wins
    assert two_thirds_leader(held) == 1
    beaten = scored([(1, 0), (5, 0), (6, 7)], (1,))  # round 2 of 3: seat 0 leads, loses
    assert two_thirds_leader(beaten) == 0
    tied = scored([(1, 1), (2, 2), (2, 3)], (1,))
    assert two_thirds_leader(tied) is None
    comebacks = lead([held, beaten, tied])["comebacks"]
    assert (comebacks["games"], comebacks["leader_at_two_thirds_lost"]) == (2, 1)
    assert comebacks["rate"] == 0.5


def test_the_margin_is_the_winners_lead_and_zero_when_shared() -> None:
    assert margin(scored([(50, 41, 47)], (0,))) == 3
    assert margin(scored([(50, 50, 47)], (0, 1))) == 0


def test_djinn_take_rate_and_holders_win_rate() -> None:
    games = [
        attrs.evolve(scored([(9, 1)], (0,)), djinns=(("jafaar",), ())),
        attrs.evolve(scored([(1, 9)], (1,)), djinns=(("jafaar",), ("baal",))),
        attrs.evolve(scored([(5, 5)], (0, 1)), djinns=((), ("jafaar",))),
    ]
    table = djinns(games, ["jafaar", "baal", "hagis"])
    assert table["jafaar"]["taken"]["rate"] == 1.0
    assert table["jafaar"]["holders"] == 3
    assert table["jafaar"]["holders_win_rate"]["rate"] == 0.5  # 1 + 0 + ½ of 3 seats
    assert table["baal"]["taken"]["rate"] == 0.3333
    assert table["hagis"]["holders_win_rate"]["rate"] is None


def test_tile_kinds_points_per_player() -> None:
    games = [
        attrs.evolve(scored([(0, 0)], (0,)), tile_points=({"oasis": 6}, {"oasis": 2, "village": 4}))
    ]
    kinds = tile_kinds(games, 2)
    assert kinds["oasis"] == {"points_per_player": 4.0, "share_of_tile_points": 0.6667}


SMALL = ["balance", "--seats", "random,random", "-n", "4", "--ladder", "random,greedy-nobid"]
SMALL += ["--skill-games", "2", "--json"]


def test_the_card_is_the_same_on_one_and_two_jobs() -> None:
    one = CliRunner().invoke(app, [*SMALL, "-j", "1"])
    two = CliRunner().invoke(app, [*SMALL, "-j", "2"])
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    for key in ("seats_and_positions", "skill", "length", "scores", "lead", "margin"):
        assert key in data
    assert len(data["djinns"]) == 22 and data["tile_kinds"]
    assert data["skill"]["kinds"] == ["random", "greedy-nobid"]
    assert data["seat_test"]["df"] == 1


def test_the_card_page_has_every_item_with_its_plot(tmp_path: Path) -> None:
    page = tmp_path / "card.html"
    got = CliRunner().invoke(app, [*SMALL, "--report", str(page)])
    assert got.exit_code == 0, got.output
    text = page.read_text(encoding="utf-8")
    for name in BALANCE_FIGURES:
        assert f'id="fig-{name}"' in text
    for table_id in ("seats", "matrix", "distributions", "lead", "djinns", "tiles"):
        assert f'id="table-{table_id}"' in text


def test_a_bad_ladder_is_one_line_and_exit_2() -> None:
    got = CliRunner().invoke(app, ["balance", "--ladder", "random", "-n", "2"])
    assert got.exit_code == 2 and got.stderr.count("\n") == 1
    assert "at least two kinds" in got.stderr
