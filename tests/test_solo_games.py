"""Whole solo games against Sultan Yazid: invariants after every action, determinism,
every AI kind at the one seat, saving and reading states, the command line and pictures."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solo_rules import rolled
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.cli.scores import winners_line
from naqala.core.actions import format_action
from naqala.core.agents import make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.simulate import play_game
from naqala.core.state import NON_PLAYER, State, get_extra
from naqala.display.svg import board_svg
from naqala.display.text import render_state
from naqala.plugins.solo import dice, rounds, sultan
from naqala.testing.invariants import assert_invariants, checked_playout
from naqala.testing.scenario import board, on_tile, play

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
runner = CliRunner()


@functools.cache
def solo_rules() -> Rules:
    return build_rules(["solo"])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, agent_seed=SEEDS)
def test_random_solo_games_keep_every_invariant_and_end_with_a_verdict(
    seed: int, agent_seed: int
) -> None:
    rules = solo_rules()
    state = checked_playout(rules, 1, seed, agent_seed)
    assert state.is_over
    verdict = rules.verdict(state)
    assert verdict.kind in ("won", *(f"lost: {k}" for k in sultan.LOSSES.values()))
    assert (verdict.winners == (0,)) == (verdict.kind == "won")
    assert verdict.reason


def trajectory(rules: Rules, seed: int) -> tuple[list[str], State]:
    actions: list[str] = []

    def keep(state: State, action: object) -> None:
        actions.append(format_action(action))  # type: ignore[arg-type]

    state, _ = play_game(rules, 1, seed, [make_agent(rules, "random", 5)], on_action=keep)
    return actions, state


def test_the_same_seed_plays_the_same_solo_game() -> None:
    """Yazid's dice come from the state's generator: same seed, same actions, same game."""
    first, again = trajectory(solo_rules(), 21), trajectory(build_rules(["solo"]), 21)
    assert first == again
    assert trajectory(solo_rules(), 22)[0] != first[0]


@pytest.mark.parametrize("kind", ["random", "greedy", "greedy-nobid", "mcts:3"])
def test_every_ai_kind_plays_a_solo_game_to_its_end(kind: str) -> None:
    rules = solo_rules()
    state, actions = play_game(rules, 1, 5, [make_agent(rules, kind, 1)])
    assert state.is_over and actions
    assert_invariants(rules, state)


@pytest.mark.parametrize("kind", sorted(build_rules(["solo"]).agents))
def test_every_ai_kind_decides_at_the_one_seat(kind: str) -> None:
    """Every registered AI, the slow full-width greedy one included, takes the solo
    mode's decisions (the outbid among them) for the first rounds."""
    rules = solo_rules()
    agent = make_agent(rules, kind if kind != "mcts" else "mcts:3", 2)
    state = rules.new_game(1, 9)
    stages = set()
    for _ in range(8):
        if state.is_over:
            break
        stages.add(state.decision.stage)
        options = rules.legal_actions(state)
        state = rules.apply(state, agent.choose(rules, state, options))
        assert_invariants(rules, state)
    assert {"bid", "pick"} <= stages


def test_a_solo_state_reads_back_as_the_same_state() -> None:
    rules = solo_rules()
    state = checked_playout(rules, 1, 3, 4, max_actions=30)
    assert NON_PLAYER in state.board.owners
    assert state_from_json(state_to_json(rules, state), rules)[1] == state


def test_the_pictures_show_yazid_s_area_and_camels() -> None:
    rules = solo_rules()
    state = checked_playout(rules, 1, 3, 4, max_actions=30)
    runner_console = render_text(rules, state)
    assert "Sultan Yazid:" in runner_console and "Yazid's dice" in runner_console
    assert "cX" in runner_console
    svg = board_svg(rules, state)
    assert "Sultan Yazid" in svg and ">X<" in svg


def render_text(rules: Rules, state: State) -> str:
    from rich.console import Console

    console = Console(width=100, record=True, color_system=None)
    console.print(render_state(rules, state))
    return console.export_text()


def test_the_end_line_says_whether_you_won_or_lost_and_why() -> None:
    rules = solo_rules()
    state = rules.new_game(1, 7)
    state = board(rules, state, {"c3": "RR", "a1": "BB"}, clear=True)
    state = rolled(state, 3, 3)
    from test_solo_rules import give_yazid

    state = play(rules, give_yazid(rules, state, "RRRRR"), "bid 0")
    assert winners_line(rules, state).startswith("P1 loses with ")
    assert "7 assassins" in winners_line(rules, state)


def test_naqala_play_solo_with_an_ai_seat_ends_with_the_verdict() -> None:
    result = runner.invoke(app, ["play", "-x", "solo", "--seats", "ai:random", "--seed", "4"])
    assert result.exit_code == 0, result.stderr
    assert "Sultan Yazid" in result.stdout
    assert "P1 wins with" in result.stdout or "P1 loses with" in result.stdout


def test_naqala_play_solo_with_a_human_seat_offers_the_outbid() -> None:
    result = runner.invoke(
        app, ["play", "-x", "solo", "--seats", "human", "--seed", "11"], input="quit\nn\n"
    )
    assert result.exit_code == 0, result.stderr
    assert "Outbid him for" in result.stdout
    assert "1) bid 0" in result.stdout


def test_naqala_play_refuses_two_seats_with_solo() -> None:
    result = runner.invoke(app, ["play", "-x", "solo", "--seats", "human,ai", "--seed", "1"])
    assert result.exit_code == 2
    assert "2 players is not supported" in result.stderr and "allowed: 1" in result.stderr


def test_naqala_simulate_solo_reports_win_rate_outcomes_and_scores() -> None:
    result = runner.invoke(app, ["simulate", "-x", "solo", "--games", "6", "--json"])
    assert result.exit_code == 0, result.stderr
    import json

    summary = json.loads(result.stdout)
    assert summary["players"] == 1
    assert sum(summary["verdicts"].values()) == 6
    assert summary["wins_by_seat"][0] == summary["verdicts"].get("won", 0)
    low, _, median, _, high = summary["score_quantiles"]
    assert low <= median <= high


def test_naqala_expansions_list_lists_solo() -> None:
    result = runner.invoke(app, ["expansions", "list", "--json"])
    assert result.exit_code == 0, result.stderr
    assert '"solo"' in result.stdout


class YazidSkips:
    """A variant of the solo mode: after you outbid him, Yazid skips the round (the fan
    app's reading, ``yazid_plays_after_outbid`` = 0)."""

    NAME = "yazid-skips"
    REQUIRES = ("solo",)

    def __init__(self, path: Path) -> None:
        self.path = path

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        return [self.path]


def test_with_the_app_s_reading_yazid_skips_a_round_you_outbid_him_in(tmp_path: Path) -> None:
    path = tmp_path / "skips.toml"
    path.write_text("[settings]\nyazid_plays_after_outbid = 0\n", encoding="utf-8")
    rules = build_rules(["solo"], extra_plugins=[YazidSkips(path)])
    state = rules.new_game(1, 7)
    state = board(rules, state, {"c3": "YR", "a1": "W", "a2": "W"}, clear=True)
    state = play(rules, rolled(state, 3, 3), "bid 6", "pick a1", "drop a2 W")
    while state.decision.stage != "sell":
        state = play(rules, state, format_action(rules.legal_actions(state)[0]))
    assert get_extra(state.extras, rounds.AFTER) == 0
    state = play(rules, state, format_action(rules.legal_actions(state)[0]))
    c3 = state.geometry.parse("c3")
    assert state.round == 2 and c3 not in dice.targets(state)  # this seed's next roll
    assert on_tile(rules, state, "c3") == "YR"
    assert state.board.owners[c3] != NON_PLAYER


def test_a_saved_solo_game_replays_with_its_verdict_in_the_terminal_and_html(
    tmp_path: Path,
) -> None:
    record = tmp_path / "solo.json"
    played = runner.invoke(
        app,
        ["play", "-x", "solo", "--seats", "ai:random", "--seed", "8", "--save", str(record)],
    )
    assert played.exit_code == 0, played.stderr
    replayed = runner.invoke(app, ["replay", str(record), "--verify"])
    assert replayed.exit_code == 0, replayed.stderr
    shown = runner.invoke(app, ["replay", str(record)])
    assert "P1 wins with" in shown.stdout or "P1 loses with" in shown.stdout
    page = tmp_path / "solo.html"
    html = runner.invoke(app, ["replay", str(record), "--html", str(page)])
    assert html.exit_code == 0, html.stderr
    text = page.read_text(encoding="utf-8")
    assert "Final scores — P1 " in text and "Sultan Yazid" in text
