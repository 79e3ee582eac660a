"""``--games-out`` and ``naqala report`` (issue 43): every study command writes one row per
game, JSON Lines or Parquet, and the report rebuilt from the rows is the command's own."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_kit import one_line, run

from naqala.lab.game_rows import FIELDS, read_rows, result_of_row, row_of
from naqala.lab.results import GameResult

NO_BIDDING = Path(__file__).resolve().parent / "data" / "settings" / "no-bidding.toml"


def test_a_row_is_the_game_and_gives_it_back() -> None:
    game = GameResult(
        7, 9, 200, (50, 60), (1,), ({"coins": 5}, {"coins": 9}), ("no-moves",),
        {"jafaar": 2}, ("greedy", "random"), (1, 0), "", ((1, 2), (50, 60)),
        (("jafaar",), ()), ({"oasis": 6}, {}),
    )  # fmt: skip
    row = row_of(game, "variant", ["base", "no-bidding"])
    assert tuple(row) == FIELDS
    assert row["bid_position"] == [2, 1] and row["bid_order"] == [1, 0]
    assert row["side"] == "variant" and row["rules"] == ["base", "no-bidding"]
    assert result_of_row(json.loads(json.dumps(row))) == game


def test_compare_games_rebuild_the_same_comparison(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["compare", "--house-rules", str(NO_BIDDING), "-p", "3", "-n", "8", "-j", "1"]
    direct = run(*args, "--json", "--games-out", str(out))
    assert direct.exit_code == 0, direct.stderr
    rows = read_rows(out)
    assert len(rows) == 16 and [r["side"] for r in rows[:9:8]] == ["baseline", "variant"]
    assert rows[8]["rules"] == ["base", "no-bidding"]
    rebuilt = run("report", str(out), "--json")
    assert rebuilt.exit_code == 0, rebuilt.stderr
    assert json.loads(rebuilt.stdout) == json.loads(direct.stdout)
    shown = run("report", str(out))
    assert "Win rate by first-round bidding position" in shown.stdout


def test_simulate_games_rebuild_its_summary_and_parquet_holds_the_same_rows(
    tmp_path: Path,
) -> None:
    pytest.importorskip("pyarrow")
    lines, parquet = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    args = ["simulate", "-n", "6", "-p", "2", "-j", "1", "--seats", "greedy,random", "--json"]
    direct = run(*args, "--games-out", str(lines))
    assert direct.exit_code == 0, direct.stderr
    assert run(*args, "--games-out", str(parquet)).exit_code == 0
    untimed = [{k: v for k, v in r.items() if k != "ai_seconds"} for r in read_rows(lines)]
    assert [
        {k: v for k, v in r.items() if k != "ai_seconds"} for r in read_rows(parquet)
    ] == untimed
    [rebuilt] = json.loads(run("report", str(parquet), "--json", "--as", "summary").stdout)
    summary = json.loads(direct.stdout)
    for key in (
        "games",
        "mean_score",
        "wins_by_seat",
        "wins_by_agent",
        "win_rate_by_start_position",
        "mean_score_by_category",
        "end_triggers",
    ):
        assert rebuilt[key] == summary[key], key  # fmt: skip


def test_skill_balance_and_interactions_write_their_games(tmp_path: Path) -> None:
    skill = tmp_path / "skill.jsonl"
    got = run("skill", "-n", "2", "-j", "1", "--json", "--games-out", str(skill))
    assert got.exit_code == 0, got.stderr
    sides = [r["side"] for r in read_rows(skill)]
    assert sides == ["skill random vs greedy"] * 2 + ["skill greedy vs random"] * 2
    card = tmp_path / "card.jsonl"
    got = run("balance", "-n", "3", "-p", "2", "--skill-games", "2", "-j", "1", "--json",
              "--games-out", str(card))  # fmt: skip
    assert got.exit_code == 0, got.stderr
    rows = read_rows(card)
    assert [r["side"] for r in rows].count("card") == 3 and len(rows) == 3 + 2 * 2
    [rebuilt] = json.loads(run("report", str(card), "--as", "card", "--json").stdout[:])[:1]
    direct = json.loads(got.stdout)
    for key in ("games", "seats_and_positions", "length", "scores", "lead", "margin"):
        assert rebuilt[key] == direct[key], key
    arms = tmp_path / "arms.jsonl"
    got = run("interactions", "--components", "djinn:jafaar,djinn:haurvatat", "-n", "2",
              "-p", "2", "-j", "1", "--json", "--games-out", str(arms))  # fmt: skip
    assert got.exit_code == 0, got.stderr
    rows = read_rows(arms)
    assert len({r["side"] for r in rows}) == 4 and len(rows) == 8
    assert any("without djinn:jafaar" in r["rules"] for r in rows)


def test_a_file_that_cannot_be_written_is_refused_before_any_game(tmp_path: Path) -> None:
    line = one_line(run("simulate", "-n", "2", "--games-out", str(tmp_path)))
    assert line == f"naqala: --games-out {tmp_path}: is a folder, not a file"
    line = one_line(run("simulate", "-n", "2", "--games-out", str(tmp_path / "no" / "g.jsonl")))
    assert "no folder" in line


def test_parquet_without_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    line = one_line(run("simulate", "-n", "2", "--games-out", str(tmp_path / "g.parquet")))
    assert line == (
        "naqala: --games-out FILE.parquet needs pyarrow, from the lab extra: "
        "pip install 'naqala[lab]'"
    )


def test_an_old_file_is_kept_whole_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("old\n")

    def refuse(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", refuse)
    line = one_line(run("simulate", "-n", "2", "-j", "1", "--games-out", str(out)))
    assert line == f"naqala: --games-out {out}: No space left on device"
    assert out.read_text() == "old\n" and list(tmp_path.iterdir()) == [out]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json\n", "line 1: not JSON"),
        ("[1, 2]\n", "line 1: not a game row"),
        ('{"version": 9}\n', "row 1: version 9, not 2"),
        ('{"version": 1, "side": "a"}\n', "row 1: missing rules, seed"),
    ],
)
def test_a_bad_games_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(text)
    assert message in one_line(run("report", str(path)))


def test_a_row_whose_numbers_do_not_fit_is_refused(tmp_path: Path) -> None:
    game = GameResult(1, 2, 3, (4, 5), (0,), ({}, {}), (), {}, (), (0, 1), "", ((4, 5),))
    for change, message in (
        ({"scores": [4]}, "1 scores for 2 players"),
        ({"winners": [2]}, "a winner or bidder is not a seat"),
        ({"players": 0}, "players 0 is not a player count"),
        ({"seed": -1}, "seed a whole number"),
    ):
        path = tmp_path / "games.jsonl"
        path.write_text(json.dumps({**row_of(game, "s", ["base"]), **change}) + "\n")
        assert message in one_line(run("report", str(path)))
    mixed = tmp_path / "mixed.jsonl"
    rows = [row_of(game, "s", ["base"]), row_of(game, "s", ["base", "x"])]
    mixed.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert "side 's' mixes rule sets" in one_line(run("report", str(mixed)))
    two = tmp_path / "two.jsonl"
    rows = [row_of(game, "s", ["base"]), row_of(game, "t", ["base", "x"])]
    two.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert "no side 'z'; the files hold 's', 't'" in one_line(
        run("report", str(two), "--baseline", "z")
    )
    assert "at least 2 games" in one_line(run("report", str(two), "--as", "compare"))
    assert "--as 'table'" in one_line(run("report", str(mixed), "--as", "table"))


def test_a_tournament_writes_its_games_with_the_ladder_s_scores(tmp_path: Path) -> None:
    out = tmp_path / "ladder.jsonl"
    got = run("tournament", "--seats", "random,greedy,greedy-nobid", "-n", "1", "-j", "1",
              "--json", "--games-out", str(out))  # fmt: skip
    assert got.exit_code == 0, got.stderr
    rows = read_rows(out)
    ladder = json.loads(got.stdout)
    assert len(rows) == ladder["games"] == 6 and {r["side"] for r in rows} == {"tournament"}
    assert [r["seats"] for r in rows[:2]] == [["random", "greedy"], ["greedy", "random"]]
    wins = {line["name"]: line["wins"] for line in ladder["ladder"]}
    for name, won in wins.items():
        assert won == sum(
            1 / len(r["winners"]) for r in rows for w in r["winners"] if r["seats"][w] == name
        )
    assert all(r["decisions"] and sum(r["decisions"]) == r["actions"] for r in rows)
