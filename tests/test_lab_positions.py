"""Positions, not only seats (issue 43): every game records the first-round order with or
without bids, on both engines, and ``compare`` pairs wins and scores by that position,
so the "no bidding" study is one command with a paired position test."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.lab.compare import CompareError, metric_values, report
from naqala.lab.game_stats import PlayStats
from naqala.lab.results import GameResult, start_order
from naqala.lab.study import Ruleset

NO_BIDDING = Path(__file__).resolve().parent / "data" / "settings" / "no-bidding.toml"


def game(
    seed: int, winners: tuple[int, ...], order: tuple[int, ...], scores: tuple[int, ...]
) -> GameResult:
    return GameResult(seed, 8, 100, scores, winners, ({}, {}), (), {}, (), order)


def test_without_bids_the_first_round_order_names_every_player() -> None:
    """Without bids round 1's order is already on the turn-order track at set-up (the
    first marker moved on as it plays): every player has a position, as with bids."""
    rules = Ruleset.of([], [NO_BIDDING]).build()
    for players in (2, 3, 4):
        for seed in range(5):
            state = rules.new_game(players, seed)
            order = start_order(state)
            assert sorted(order) == list(range(players))
            assert order[0] == state.markers[state.bid_track[0]]


@pytest.mark.parametrize("bidding", ["on", "off"])
def test_the_native_first_bidders_are_pythons(bidding: str) -> None:
    from native_kit import require_native

    from naqala.native.support import native_rules

    require_native()
    ruleset = Ruleset.of([], [NO_BIDDING]) if bidding == "off" else Ruleset()
    rules = ruleset.build()
    bridge = native_rules(rules)
    for players in (2, 3, 4):
        for seed in range(5):
            native = tuple(bridge.new_game(players, seed).first_bidders())
            assert native == start_order(rules.new_game(players, seed))
            assert len(native) == players


def test_position_metrics_follow_the_player_not_the_seat() -> None:
    results = [game(0, (1,), (1, 0), (10, 30)), game(1, (0,), (1, 0), (50, 20))]
    assert metric_values(results, "position:1") == [1.0, 0.0]
    assert metric_values(results, "position:2") == [0.0, 1.0]
    assert metric_values(results, "position-score:1") == [30.0, 20.0]
    with pytest.raises(CompareError, match="bidding position 3"):
        metric_values(results, "position:3")
    with pytest.raises(CompareError, match="unknown metric"):
        metric_values(results, "position:0")


def test_the_report_pairs_positions_and_adjusts_them_with_the_rest() -> None:
    """Under the baseline the second bidder always wins, under the variant the first:
    a McNemar difference of +100 points for position 1, in Holm's family."""
    baseline = [game(s, (s % 2,), (1 - s % 2, s % 2), (10, 20)) for s in range(12)]
    variant = [game(s, (s % 2,), (s % 2, 1 - s % 2), (10, 20)) for s in range(12)]
    data = report(baseline, variant, 2, 0, ["base"], ["base", "x"])
    first, second = data["by_position"]
    assert first["wins"]["baseline"] == 0.0 and first["wins"]["variant"] == 1.0
    assert first["wins"]["discordant"] == {"baseline_only": 0, "variant_only": 12}
    assert first["wins"]["significant"] and second["wins"]["difference"] == -1.0
    assert data["correction"]["metrics"] == 2 + 1 + 0 + 2 + 4  # seats, score, length, positions
    assert data["position_fairness"]["baseline"]["p_value"] < 0.001
    unrecorded = [game(s, (0,), (), (1, 2)) for s in range(3)]
    assert report(unrecorded, unrecorded, 2, 0, ["a"], ["b"])["by_position"] == []


def played(game: GameResult, orders: tuple[tuple[int, ...], ...]) -> GameResult:
    """``game`` with its turn order by round recorded (two players, nothing paid)."""
    stats = PlayStats(orders, tuple((0, 0) for _ in orders), ({}, {}), (0.0, 0.0))
    return attrs.evolve(game, play=stats)


def test_turn_positions_after_round_1_are_paired_in_the_family() -> None:
    """The share of rounds 2+ won by the player taking each turn: under the baseline the
    winner takes the first turn in every later round, under the variant the second."""
    first, second = ((0, 1), (0, 1), (0, 1)), ((1, 0), (1, 0), (1, 0))
    base = [played(game(s, (0,), (0, 1), (20, 10)), ((1, 0), *first)) for s in range(6)]
    variant = [played(game(s, (0,), (0, 1), (20, 10)), ((1, 0), *second)) for s in range(6)]
    half = played(game(9, (0, 1), (0, 1), (10, 10)), ((0, 1), (0, 1), (1, 0)))
    assert metric_values([half], "turn-position:1") == [0.5]  # a shared win, split
    data = report(base, variant, 2, 0, ["base"], ["base", "x"])
    turn1, turn2 = data["by_turn_position"]
    assert (turn1["wins"]["baseline"], turn1["wins"]["variant"]) == (1.0, 0.0)
    assert turn1["wins"]["significant"] and turn2["wins"]["difference"] == 1.0
    assert data["correction"]["metrics"] == 2 + 1 + 0 + 2 + 4 + 2  # ... and 2 turn positions
    assert report(base[:2], base[:2], 2, 0, ["a"], ["b"])["by_turn_position"][0]["wins"]
    unrecorded = [game(s, (0,), (0, 1), (1, 2)) for s in range(3)]
    assert report(unrecorded, unrecorded, 2, 0, ["a"], ["b"])["by_turn_position"] == []
    with pytest.raises(CompareError, match="did not record a turn position 1 after round 1"):
        metric_values(unrecorded, "turn-position:1")
    with pytest.raises(CompareError, match="unknown metric"):
        metric_values(base, "turn-position:0")


def test_the_no_bidding_study_is_one_compare_command() -> None:
    args = ["compare", "--house-rules", str(NO_BIDDING), "-p", "3", "-n", "6", "-j", "1"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [e["position"] for e in data["by_position"]] == [1, 2, 3]
    assert {"p_holm", "discordant"} <= set(data["by_position"][0]["wins"])
    shown = CliRunner().invoke(app, args)
    assert "Win rate by first-round bidding position" in shown.stdout
    assert "equal win rates by position, variant" in shown.stdout
    assert [e["position"] for e in data["by_turn_position"]] == [1, 2, 3]
    assert "Share of rounds 2+ won by the player in each turn position" in shown.stdout
