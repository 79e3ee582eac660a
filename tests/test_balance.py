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
    for table_id in ("categories", "turn-money", "turn-positions", "decision-load", "ai-time"):
        assert f'id="table-{table_id}"' in text  # from the games' decisions


def test_a_bad_ladder_is_one_line_and_exit_2() -> None:
    got = CliRunner().invoke(app, ["balance", "--ladder", "random", "-n", "2"])
    assert got.exit_code == 2 and got.stderr.count("\n") == 1
    assert "at least two kinds" in got.stderr


NO_BIDDING = Path(__file__).resolve().parent / "data" / "settings" / "no-bidding.toml"


def test_against_pairs_the_card_with_its_baseline_game_by_game(tmp_path: Path) -> None:
    """``--against base``: both cards on the same seeds and seats, and every paired item
    (positions, categories, lead changes, margin) in one Holm family."""
    out = tmp_path / "games.jsonl"
    args = [*SMALL, "--house-rules", str(NO_BIDDING), "--against", "base"]
    got = CliRunner().invoke(app, [*args, "--games-out", str(out)])
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["against"]["plugins"] == ["base"] and data["plugins"] == ["base", "no-bidding"]
    paired = data["paired"]
    assert paired["baseline_plugins"] == ["base"] and paired["games"] == data["games"]
    assert set(paired["extra"]) == {"lead_changes", "margin", "turn_paid", "decisions"}
    family = paired["correction"]["metrics"]
    # seats, score, categories, length, bidding positions, turn positions, 4 extra metrics
    assert family == 2 + 1 + len(paired["categories"]) + 2 + 2 * 2 + 2 + 4
    assert [e["position"] for e in paired["by_position"]] == [1, 2]
    assert [e["position"] for e in paired["by_turn_position"]] == [1, 2]
    assert data["skill"]["baseline"]["plugins"] == ["base"]  # both matrices, paired
    assert "mean_edge" in data["skill"]
    sides = [row["side"] for row in map(json.loads, out.read_text().splitlines())]
    assert sides.count("card") == sides.count("against") == data["games"]
    page = tmp_path / "card.html"
    text = CliRunner().invoke(app, [*(a for a in args if a != "--json"), "--report", str(page)])
    assert text.exit_code == 0, text.stderr
    assert 'id="fig-skill"' in page.read_text(encoding="utf-8")  # this rule set's matrix
    assert "baseline (--against):" in text.stdout and "Lead changes and margin" in text.stdout


def test_against_the_same_rules_is_one_line() -> None:
    got = CliRunner().invoke(app, [*SMALL, "--against", "base"])
    assert got.exit_code == 2 and "Traceback" not in got.stderr
    assert got.stderr.startswith("naqala: --against: the variant has the same plugins")


def test_a_skill_matrix_of_too_few_games_says_so() -> None:
    from naqala.lab.skill import precision

    wide = {
        "a": {"b": {"rate": 0.5, "ci": [0.2, 0.8]}},
        "b": {"a": {"rate": 0.5, "ci": [0.3, 0.6]}},
    }
    found = precision(wide, 8)
    assert found["too_wide"] and found["widest_interval"] == 0.6
    assert found["games_needed"] == 32  # (0.6 / 0.3)² × 8
    narrow = {"a": {"b": {"rate": 0.5, "ci": [0.4, 0.6]}}}
    assert precision(narrow, 100) == {
        "widest_interval": 0.2, "readable_width": 0.3, "too_wide": False, "games_needed": 100,
    }  # fmt: skip
    got = CliRunner().invoke(app, ["skill", "-n", "2", "-j", "1"])
    assert got.exit_code == 0 and "TOO FEW GAMES" in got.stdout
