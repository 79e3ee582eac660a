"""The games' decisions in the lab's rows (issue 43): the coins paid for turn order, each
round's turn order and the decision load, the same from both engines, and on the card."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from cli_kit import run
from native_kit import require_native

from naqala.lab.balance import card, decided_share
from naqala.lab.game_rows import FIELDS, read_rows, result_of_row, row_of
from naqala.lab.game_stats import STATS_FIELDS, play_stats
from naqala.lab.results import GameResult
from naqala.lab.study import Ruleset, Study, play_task

NO_BIDDING = Path(__file__).resolve().parent / "data" / "settings" / "no-bidding.toml"


def _play_fields(result: GameResult) -> dict[str, object]:
    row = row_of(result, "s", ["base"])
    return {key: row[key] for key in STATS_FIELDS if key != "ai_seconds"}


@pytest.mark.parametrize(
    ("box", "seats"),
    [
        ((), ("random", "greedy", "random")),
        (("artisans",), ("greedy", "random")),
        (("whims",), ("random", "greedy", "greedy", "random")),
        (("thieves",), ("greedy", "random", "random")),
        (("solo",), ("greedy",)),
        (("solo",), ("random",)),
    ],
    ids=["base", "artisans", "whims", "thieves", "solo-greedy", "solo-random"],
)
def test_the_play_fields_are_the_same_on_both_engines(
    box: tuple[str, ...], seats: tuple[str, ...]
) -> None:
    require_native()
    python = Study(Ruleset.of(box, []), seats, seed=11, rotate=True)
    native = attrs.evolve(python, engine="native")
    for index in range(3):
        mine, kernel = play_task((python, index)), play_task((native, index))
        assert mine.play is not None and kernel.play is not None
        assert _play_fields(mine) == _play_fields(kernel)
        assert sum(mine.play.decisions) == mine.actions  # every action was a decision
        assert len(mine.play.turn_order) == mine.rounds


def test_a_study_that_reads_no_decisions_plays_the_same_games_without_recording_them() -> None:
    """`simulate` without --games-out reads no decision: its games are not recorded, and
    their results are the recorded ones' but for the play."""
    require_native()
    recorded = Study(Ruleset.of((), []), ("random", "greedy", "random"), seed=5, rotate=True)
    for engine in ("python", "native"):
        study = attrs.evolve(recorded, engine=engine)
        bare = attrs.evolve(study, record=False)
        for index in range(2):
            full, light = play_task((study, index)), play_task((bare, index))
            assert full.play is not None and light.play is None
            assert attrs.evolve(full, play=None) == light
    printed = run("simulate", "-n", "4", "-p", "2", "--json", "--engine", "native")
    assert printed.exit_code == 0, printed.stderr


def test_the_coins_paid_are_the_bids_and_none_without_bidding() -> None:
    study = Study(Ruleset.of((), []), ("random",) * 3, seed=4)
    bid = play_task((study, 0))
    assert bid.play is not None and sum(bid.play.paid) > 0
    assert sum(bid.play.paid_by_position) == sum(bid.play.paid)
    free = play_task((Study(Ruleset.of((), [NO_BIDDING]), ("random",) * 3, seed=4), 0))
    assert free.play is not None and free.play.paid == (0, 0, 0)
    assert "bid" not in free.play.options[0]


def test_play_stats_add_up_the_decisions() -> None:
    decisions = [
        (1, 1, "bid", 5, 3, -1, 0.5),
        (1, 0, "bid", 4, 0, -1, 0.25),
        (1, 1, "pick", 20, 0, 1, 0.0),
        (1, 0, "kill", 2, 0, 1, 0.0),  # asked in player 1's turn: not its turn
        (2, 0, "bid", 5, 1, -1, 0.0),
        (2, 0, "pick", 9, 0, 0, 0.0),  # player 1 has no decision in its turn
        (9, 0, "pick", 9, 0, 0, 0.0),  # a round the game did not have: ignored
    ]
    stats = play_stats(decisions, 2, 2)
    assert stats.turn_order == ((1, 0), (0, 1))
    assert stats.turn_paid == ((0, 3), (1, 0))
    assert stats.paid == (1, 3) and stats.paid_by_position == (4, 0)
    assert stats.decisions == (4, 2)
    assert stats.options[0] == {"bid": (4, 5), "kill": (2,), "pick": (9,)}
    assert stats.seconds == (0.25, 0.5)
    assert attrs.evolve(stats, seconds=(9.0, 9.0)) == stats  # time is not the game


def test_a_row_keeps_the_play_and_an_old_row_is_still_read(tmp_path: Path) -> None:
    result = play_task((Study(Ruleset.of((), []), ("greedy", "random"), seed=2), 0))
    row = json.loads(json.dumps(row_of(result, "s", ["base"])))
    assert tuple(row) == FIELDS and row["version"] == 2
    assert result_of_row(row) == result
    old = {k: v for k, v in row.items() if k not in STATS_FIELDS} | {"version": 1}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    [read] = read_rows(path)
    assert result_of_row(read).play is None
    shown = run("report", str(path), "--as", "card", "--json")
    assert shown.exit_code == 0, shown.stderr
    assert json.loads(shown.stdout)[0]["turn_money"] is None
    printed = run("report", str(path), "--as", "card")
    assert printed.exit_code == 0, printed.stderr
    assert "seats greedy, random, plugins base" in printed.stdout  # not rotated: one game


def test_a_row_whose_play_does_not_fit_is_refused(tmp_path: Path) -> None:
    result = play_task((Study(Ruleset.of((), []), ("random", "random"), seed=2), 0))
    row = row_of(result, "s", ["base"])
    for change, message in (
        ({"turn_order": [[0, 0]] * result.rounds}, "list every player once"),
        ({"turn_paid": [[1]] * result.rounds}, "give 2 players' coins"),
        ({"turn_order": []}, "one entry per round"),
        ({"options": [{"bid": [0]}, {}]}, "option counts ≥ 1"),
        ({"ai_seconds": [-1, 0]}, "numbers ≥ 0"),
    ):
        path = tmp_path / "games.jsonl"
        path.write_text(json.dumps({**row, **change}) + "\n")
        got = run("report", str(path))
        assert got.exit_code == 2 and message in got.stderr, (change, got.stderr)


def test_the_card_has_turn_money_categories_positions_and_decision_load() -> None:
    study = Study(Ruleset.of((), []), ("greedy", "random", "random"), seed=1, rotate=True)
    results = [play_task((study, index)) for index in range(6)]
    data = card(results, 3, ())
    money = data["turn_money"]
    paid = [sum(r.play.paid) for r in results if r.play]
    assert money["per_game"]["mean"] == round(sum(paid) / 6, 3)
    assert round(sum(money["per_position"]), 3) == money["per_game"]["mean"]
    assert data["score_by_category"]["tiles"] > 0
    load = data["decision_load"]
    assert load["decisions_per_game"] == round(sum(r.actions for r in results) / 6, 3)
    assert load["by_stage"]["pick"]["p90"] >= load["by_stage"]["pick"]["mean"]
    assert set(load["by_agent"]) == {"greedy", "random"}
    rounds = sum(r.rounds - 1 for r in results)
    assert data["turn_positions"]["rounds"] == rounds
    assert "decided_at_share" in data["lead"]


def test_the_winner_decided_the_game_when_it_took_the_lead_for_good() -> None:
    game = GameResult(
        1, 4, 9, (9, 5), (0,), ({}, {}), (), {},
        round_scores=((1, 2), (3, 2), (3, 4), (9, 5)),
    )  # fmt: skip
    assert decided_share(game) == 1.0  # lost the lead in round 3, took it back in 4
    later = attrs.evolve(game, round_scores=((1, 2), (3, 2), (5, 4), (9, 5)))
    assert decided_share(later) == 0.5  # led alone from round 2 of 4
    assert decided_share(attrs.evolve(game, winners=(0, 1))) is None


def test_balance_prints_the_new_items_and_pairs_turn_money() -> None:
    got = run("balance", "-n", "4", "-p", "3", "--skill-games", "2", "-j", "1",
              "--against", str(NO_BIDDING), "--json")  # fmt: skip
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["turn_money"]["per_game"]["mean"] > 0
    assert data["against"]["turn_money"]["per_game"]["mean"] == 0  # the baseline: no bids
    assert {"turn_paid", "decisions"} <= set(data["paired"]["extra"])
    text = run("balance", "-n", "3", "-p", "3", "--skill-games", "1", "-j", "1")
    assert "coins paid for turn order" in text.stdout
    assert "win rate by turn position, rounds 2+" in text.stdout
    assert "AI time per decision" in text.stdout


def test_the_native_engine_times_a_searching_seat_but_not_a_random_one() -> None:
    """Two clock reads a decision cost about 7% of a random native game: a random seat
    records no time, a greedy one its real time."""
    require_native()
    from naqala.core.engine import build_rules
    from naqala.native.bridge import NativeRules

    native = NativeRules(build_rules())
    seats = [("random", 1), ("greedy", 2)]
    *_, decisions = native.new_game(2, 3).play_recorded(seats)
    seconds = {seat: 0.0 for seat in range(2)}
    for decision in decisions:
        seconds[decision[1]] += decision[-1]
    assert seconds[0] == 0.0 and seconds[1] > 0.0
