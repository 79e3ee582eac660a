"""Strategies as data (issue 43): a TOML player profile read by the greedy player
(``ai:greedy:profile=NAME``), checked in one line, seated in Python by the engine plan,
and three shipped profiles that play visibly differently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.agents import COLOURS, known_djinns
from naqala.agents.move_ends import MoveEnd
from naqala.agents.profile import Profile, ProfileError, load_profile
from naqala.agents.profiled import ProfiledGreedyAgent
from naqala.cli.app import app
from naqala.core.agents import make_agent
from naqala.core.engine import build_rules
from naqala.core.rng import Rng
from naqala.core.state import State


def test_the_shipped_profiles_load() -> None:
    builder = load_profile("builder", ("blue", "red"))
    assert builder.tribes == {"blue": 3.0} and builder.never_kill
    assert load_profile("assassin").tribes == {"red": 6.0}
    merchant = load_profile("merchant")
    assert merchant.bid_max == 3 and merchant.tiles["small-market"] == 3.0
    rules = build_rules([], [])
    agent = make_agent(rules, "ai:greedy:profile=merchant", 1)
    assert isinstance(agent, ProfiledGreedyAgent) and agent.profile == merchant


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[style]\nx = 1\n", "unknown table [style]"),
        ("[bid]\nmost = 3\n", "[bid] has no key 'most'"),
        ("[tribes]\npurple = 1\n", "[tribes] purple: not one of"),
        ("[tribes]\nblue = 'lots'\n", "[tribes] blue: a number, not 'lots'"),
        ("[tiles]\noasis = 1e9\n", "[tiles] oasis: 1000000000.0 is not between -100 and 100"),
        ("[bid]\nmax = -1\n", "[bid] max: a whole number of coins 0 to 1000, not -1"),
        ("[restrict]\nnever_kill = 1\n", "never_kill: true or false, not 1"),
        ("[djinns]\njafar = 5\n", "[djinns] jafar: not one of"),
        ("[bid\n", "profile"),
    ],
)
def test_a_bad_profile_is_one_line_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match="profile "):
        load_profile(str(path), COLOURS, None, known_djinns())
    got = CliRunner().invoke(
        app, ["simulate", "-n", "1", "--seats", f"greedy:profile={path},random"]
    )
    assert got.exit_code == 2 and "Traceback" not in got.stderr
    assert got.stdout == "" and len(got.stderr.strip().splitlines()) == 1
    assert message in got.stderr


def test_a_setting_other_than_a_profile_is_refused() -> None:
    got = CliRunner().invoke(app, ["simulate", "-n", "1", "--seats", "greedy:fast,random"])
    assert got.exit_code == 2
    assert "the greedy player's setting is profile=NAME or profile=PATH" in got.stderr
    missing = CliRunner().invoke(
        app, ["simulate", "-n", "1", "--seats", "greedy:profile=nope,random"]
    )
    assert missing.exit_code == 2 and "profile nope" in missing.stderr


def test_a_profile_s_path_keeps_its_case_and_the_seat_s_words_are_read_in_any_case(
    tmp_path: Path,
) -> None:
    """A home folder is often spelled with capitals (/Users/Ann): the seat reads its own
    words in any case, and hands the path on as written."""
    from naqala.core.agents import canonical_seat

    rules = build_rules([], [])
    folder = tmp_path / "Tastes"
    folder.mkdir()
    path = folder / "Builder.toml"
    path.write_text((Path(__file__).parents[1] / "agents/profiles/builder.toml").read_text())
    seat = f"AI:Greedy:profile={path}"
    assert canonical_seat(rules, seat) == f"ai:greedy:profile={path}"
    assert isinstance(make_agent(rules, seat, 1), ProfiledGreedyAgent)
    assert isinstance(make_agent(rules, "GREEDY:PROFILE=BUILDER", 1), ProfiledGreedyAgent)
    assert canonical_seat(rules, "MCTS:Strong") == "ai:mcts:Strong"
    got = CliRunner().invoke(app, ["simulate", "-n", "2", "--seats", f"{seat},random", "--json"])
    assert got.exit_code == 0, got.stderr
    shouted = "GREEDY:PROFILE=builder,random"
    native = CliRunner().invoke(
        app, ["simulate", "-n", "2", "--seats", shouted, "--engine", "native"]
    )
    assert native.exit_code == 0, native.stderr


def decisions(stage: str, count: int) -> list[State]:
    """``count`` states of 3-player base games, random play, where ``stage`` is decided."""
    rules = build_rules([], [])
    found: list[State] = []
    for seed in range(40):
        state, rng = rules.new_game(3, seed), Rng(seed)
        while not state.is_over and len(found) < count:
            if state.decision.stage == stage:
                found.append(state)
            options = rules.legal_actions(state)
            index, rng = rng.below(len(options))
            state = rules.apply(state, options[index])
        if len(found) >= count:
            break
    return found


def test_never_kill_leaves_out_the_assassins_moves_and_taste_moves_the_choice() -> None:
    rules = build_rules([], [])
    plain = Profile("plain")
    peaceful = ProfiledGreedyAgent(0, Profile("peaceful", tribes={"red": 50.0}, never_kill=True))
    killer = ProfiledGreedyAgent(0, Profile("killer", tribes={"red": 50.0}))
    red = [c.id for c in rules.colours].index("red")
    checked = 0
    for state in decisions("pick", 12):
        player = state.decision.player
        ends: list[MoveEnd] = killer.candidates(rules, state, player)
        if not any(e.colour == red for e in ends) or all(e.colour == red for e in ends):
            continue
        by_plan = {e.plan: e for e in ends}
        assert by_plan[killer.ranked_moves(rules, state, player)[0][1]].colour == red
        assert by_plan[peaceful.ranked_moves(rules, state, player)[0][1]].colour != red
        checked += 1
    assert checked >= 3
    assert ProfiledGreedyAgent(0, plain).profile.bid_share == 0.25


def test_a_bid_cap_is_never_passed() -> None:
    rules = build_rules([], [])
    capped = ProfiledGreedyAgent(0, Profile("capped", bid_max=0, bid_share=10.0))
    spender = ProfiledGreedyAgent(0, Profile("spender", bid_share=10.0))
    costs = []
    for state in decisions("bid", 10):
        options = rules.legal_actions(state)
        player = state.decision.player
        cheapest = min(int(a.args[0]) for a in options if a.kind == "bid")
        chosen = capped.choose(rules, state, options)
        assert int(chosen.args[0]) <= max(0, cheapest)
        costs.append(int(spender.choose(rules, state, options).args[0]) - cheapest)
        assert player == state.decision.player
    assert max(costs) > 0  # without the cap the same states are bid on dearer


def test_profiled_seats_play_natively_and_the_styles_differ(tmp_path: Path) -> None:
    out = tmp_path / "styles.jsonl"
    seats = "greedy:profile=builder,greedy:profile=merchant,greedy:profile=assassin"
    args = ["simulate", "-n", "3", "-p", "3", "--seats", seats, "-j", "1", "--json"]
    got = CliRunner().invoke(app, [*args, "--games-out", str(out)])
    assert got.exit_code == 0, got.stderr
    assert "playing on the Python engine" not in got.stderr  # the kernel's profile.rs
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    merchandise = {"builder": 0, "merchant": 0, "assassin": 0}
    for row in rows:
        for seat, categories in zip(row["seats"], row["categories"], strict=True):
            merchandise[seat.split("=")[1]] += categories["merchandise"]
    assert merchandise["merchant"] > merchandise["builder"] + merchandise["assassin"]


def test_a_djinn_weight_takes_that_djinn() -> None:
    rules = build_rules([], [])
    plain = ProfiledGreedyAgent(0, Profile("plain"))
    checked = 0
    for state in decisions("tile:sacred-place", 12):
        options = rules.legal_actions(state)
        djinns = sorted({str(a.args[0]) for a in options if a.kind == "djinn"})
        player = state.decision.player
        first = plain.best(rules, state, options, player)[1]
        others = [d for d in djinns if first.kind != "djinn" or d != first.args[0]]
        if not others:
            continue
        fond = ProfiledGreedyAgent(0, Profile("fond", djinns={others[0]: 100.0}))
        chosen = fond.best(rules, state, options, player)[1]
        assert chosen.kind == "djinn" and chosen.args[0] == others[0]
        checked += 1
    assert checked >= 2
    assert "iblis" in load_profile("assassin").djinns
