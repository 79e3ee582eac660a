"""``naqala tune --profile``: a knob per number of a player profile, checked in one line,
the tuned seat's objectives, and an answer that is a whole profile the greedy player
seats alone (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import one_line, run

from naqala.agents import COLOURS, known_djinns
from naqala.agents.profile import load_profile
from naqala.lab.objectives import ObjectiveError, margin, parse_objective, wins
from naqala.lab.profile_space import ProfileSpaceError, parse_knob
from naqala.lab.results import GameResult


def test_a_knob_is_a_range_of_whole_numbers_or_a_list() -> None:
    blue = parse_knob("tribes.blue=0:3")
    assert blue.name == "tribes.blue" and blue.choices == [0, 1, 2, 3]
    share = parse_knob("bid.share=0,0.1,0.25")
    assert share.name == "bid.share" and share.choices == [0, 0.1, 0.25]


@pytest.mark.parametrize(
    ("knob", "message"),
    [
        ("tribes.blue", "give TABLE.KEY=LOW:HIGH or TABLE.KEY=V1,V2"),
        ("restrict.never_kill=0:1", "'restrict' holds no weight"),
        ("bid.min=0:3", "[bid] has share and max, not 'min'"),
        ("tribes.blue=5:2", "low 5 is above high 2"),
        ("tribes.blue=0:20000", "20001 values; a knob takes at most 10000"),
        ("tribes.blue=1,x", "'x' is not a number"),
        ("tribes.blue=1,1", "a value is given twice"),
    ],
)
def test_a_malformed_knob_is_one_line(knob: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(ProfileSpaceError, match="--knob"):
        parse_knob(knob)
    out = str(tmp_path / "best.toml")
    line = one_line(run("tune", "--profile", "builder", "--knob", knob, "--out", out))
    assert line.startswith(f"naqala: --knob {knob}") and message in line


@pytest.mark.parametrize(
    ("knob", "message"),
    [
        ("tribes.purple=0:3", "[tribes] purple: not one of blue, green, red, white, yellow"),
        ("tiles.castle=0:3", "[tiles] castle: not one of"),
        ("djinns.nobody=0:3", "[djinns] nobody: not one of"),
        ("tribes.blue=0:200", "200 is not between -100 and 100"),
        ("bid.share=0,11", "[bid] share: 11 is not between 0 and 10"),
        ("bid.max=0.5,2", "[bid] max: a whole number of coins 0 to 1000, not 0.5"),
    ],
)
def test_a_knob_the_profile_cannot_take_is_one_line_before_any_game(
    knob: str, message: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "best.toml")
    line = one_line(run("tune", "--profile", "builder", "--knob", knob, "--out", out))
    assert line.startswith(f"naqala: --knob {knob}: ") and message in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give SPACE.toml (rules to tune) or --profile NAME with --knob"),
        (("--profile", "builder"), "--profile needs at least one --knob"),
        (("--knob", "tribes.blue=0:3", "space.toml"), "--knob tunes a player profile"),
        (("--profile", "nobody", "--knob", "tribes.blue=0:3"), "--profile nobody: cannot read"),
        (("--profile", "bad.toml", "--knob", "tribes.blue=0:3"),
         "--profile bad.toml: [tribes] purple: not one of"),
        (("--profile", "builder", "--knob", "tribes.blue=0:1", "--knob", "tribes.blue=2:3"),
         "--knob tribes.blue is given twice"),
        (("--profile", "builder", "--knob", "tribes.blue=0:3", "--objective", "skill"),
         "the skill objective measures rules"),
        (("--profile", "builder", "--knob", "tribes.blue=0:3", "-p", "3", "--seats", "random"),
         "--players 3 but the tuned profile and --seats make 2"),
    ],
)  # fmt: skip
def test_a_player_tune_asked_wrongly_is_one_line(
    args: tuple[str, ...], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "space.toml").write_text(
        '[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [1]\n', "utf-8"
    )
    (tmp_path / "bad.toml").write_text("[tribes]\npurple = 1\n", "utf-8")
    out = () if "--out" in args else ("--out", "best.toml")
    assert message in one_line(run("tune", *args, *out))


def test_the_player_objectives_need_a_profile(tmp_path: Path) -> None:
    assert parse_objective("wins=1,margin=0.01", None).needs_player
    assert not parse_objective("seat-fairness", None).needs_player
    space = tmp_path / "space.toml"
    space.write_text('[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [1]\n')
    out = str(tmp_path / "best.toml")
    line = one_line(run("tune", str(space), "--out", out, "--objective", "margin"))
    assert "the wins and margin objectives tune a player: give --profile" in line
    with pytest.raises(ObjectiveError, match="unknown objective"):
        parse_objective("win", None)


def _game(scores: tuple[int, ...], winners: tuple[int, ...], agents: tuple[str, ...]) -> GameResult:
    return GameResult(0, 1, 1, scores, winners, (), (), {}, agents)


def test_wins_and_margin_read_the_tuned_seat_wherever_it_sits() -> None:
    games = [
        _game((50, 40, 30), (0,), ("t", "g", "g")),  # the tuned seat wins alone
        _game((50, 50, 30), (0, 1), ("g", "t", "g")),  # a shared win
        _game((70, 40, 30), (0,), ("g", "g", "t")),  # it trails the best by 40
    ]
    loss, values = wins(games, "t")
    assert values == [-1.0, -0.5, 0.0] and loss == pytest.approx(-0.5)
    loss, values = margin(games, "t")
    assert values == [-10.0, 0.0, 40.0] and loss == pytest.approx(10.0)


def test_the_answer_is_a_whole_profile_the_greedy_player_seats_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(
        "tune", "--profile", "builder", "--knob", "tribes.blue=0:6", "--knob",
        "bid.max=0,2,5", "--seats", "random", "--trials", "2", "--games", "4",
        "--out", "best.toml", "-j", "1", "--json", "--report", "tune.html",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["objective"] == "wins" and data["knobs"] == ["tribes.blue", "bid.max"]
    assert data["seats"][0] == "greedy:profile=builder" and data["seats"][1:] == ["random"]
    assert len(data["trials"]) == 2 and data["needs_with_it"] == []
    best = data["best"]["params"]
    tuned = load_profile("best.toml", COLOURS, None, known_djinns())
    builder = load_profile("builder")
    assert tuned.tribes["blue"] == best["tribes.blue"] and tuned.bid_max == best["bid.max"]
    # everything the knobs do not name is the base profile's
    assert tuned.tiles == builder.tiles and tuned.never_kill and tuned.name == "builder-tuned"
    assert tuned.bid_share == builder.bid_share
    # the original profile and the answer, on the same games, paired
    assert data["original"]["loss"] <= 0 and data["answer"]["loss"] == data["best"]["loss"]
    assert set(data["paired"]) == {"difference", "p"}
    page = Path("tune.html").read_text(encoding="utf-8")
    assert "loss of the original profile" in page and "the original rules<" not in page
    seated = run("simulate", "-n", "2", "--seats", "greedy:profile=best.toml,random", "--json")
    assert seated.exit_code == 0, seated.stderr
