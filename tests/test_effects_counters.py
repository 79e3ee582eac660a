"""Counters of the effects language: ``[[counter]]`` declares a number kept for each
player or for the game, ``set`` changes it and ``counter("id")`` reads it; it is part of
the state, saved, checked and played the same on both engines."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from native_kit import assert_same_games

from naqala.core.content import ContentError, parse_content_file
from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import State
from naqala.core.validate import check_state
from naqala.plugins.base import effects as interpreter
from naqala.testing.scenario import board, play, turn_of

ROOT = Path(__file__).resolve().parent.parent
BOUNTY = ROOT / "docs" / "examples" / "effects" / "bounty.toml"
HEADER = '[house-rule]\nname = "r"\nversion = "1.0"\ndescription = "r"\n\n'


def rule(tmp_path: Path, body: str) -> Rules:
    path = tmp_path / "rule.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    return build_rules(house_rules=[path])


def bounty_kill(rules: Rules) -> State:
    """Player 0's assassins kill a merchant on c1 without emptying it (no camel there)."""
    meeples = {"a1": "R", "b1": "RY", "c1": "GB", "d1": "Y", "e1": "Y"}
    state = turn_of(rules, board(rules, rules.new_game(2, 1), meeples, clear=True), 0)
    return play(rules, state, "pick a1", "drop b1 R", "kill c1 G")


def test_a_kill_puts_2_coins_on_the_bounty_and_the_next_tile_taken_collects_it() -> None:
    rules = build_rules(house_rules=[BOUNTY])
    killed = bounty_kill(rules)
    assert killed.extras == (("counter.bounty", 2),)
    state = turn_of(rules, play(rules, killed, "end"), 1)
    before = state.players[1].coins
    after = play(rules, state, "pick d1", "drop e1 Y")  # e1 emptied: player 1 takes it
    assert after.board.owners[4] == 1
    assert after.players[1].coins == before + 2
    assert after.extras == ()  # collected: back to 0, out of the state


def test_a_players_counter_is_their_own_and_held_between_0_and_a_million(tmp_path: Path) -> None:
    rules = rule(
        tmp_path,
        '[[counter]]\nid = "drops"\n\n'
        '[[trigger]]\nid = "count"\non = "meeple-dropped"\n'
        'effects = [{ set = "drops", to = \'counter("drops") + 1\' }, '
        "{ coins = 10, if = 'counter(\"drops\") == 2' }]\n\n"
        '[[trigger]]\nid = "floor"\non = "tile-taken"\n'
        'effects = [{ set = "drops", to = -5 }]\n',
    )
    meeples = {"a1": "YY", "a3": "YG", "c3": "G"}
    state = turn_of(rules, board(rules, rules.new_game(2, 1), meeples, clear=True), 0)
    moved = play(rules, state, "pick a1", "drop a2 Y")
    assert moved.players[0].extras == (("counter.drops", 1),)
    assert moved.players[1].extras == ()
    assert moved.players[0].coins == state.players[0].coins
    second = play(rules, moved, "drop a3 Y")
    assert second.players[0].coins == state.players[0].coins + 10
    # a3 still holds G: no tile taken; a counter is held within 0 and 1,000,000
    floor = rules.content.triggers[1].effects  # to = -5
    assert interpreter.run(rules, second, floor, interpreter.Scope(0, 0)).players[0].extras == ()
    ceiling = [EffectSpec(set="drops", to="1000000 * 2")]
    rich = interpreter.run(rules, second, ceiling, interpreter.Scope(0, 0))
    assert rich.players[0].extras == (("counter.drops", 1_000_000),)
    assert check_state(rules, rich) == []


def test_a_counter_in_a_saved_game_loads_and_a_stray_one_is_refused() -> None:
    rules = build_rules(house_rules=[BOUNTY])
    killed = bounty_kill(rules)
    assert state_from_json(state_to_json(rules, killed), rules)[1] == killed
    stray = attrs.evolve(killed, extras=(("counter.purse", 1),))
    problems = [str(p) for p in check_state(rules, stray)]
    assert problems == [
        "$.extras.counter.purse: no state counter 'counter.purse' in content (bounty)"
    ]
    mine = attrs.evolve(killed.players[0], extras=(("counter.bounty", 1),))
    problems = [str(p) for p in check_state(rules, killed.replace_player(0, mine))]
    assert "no player counter 'counter.bounty' in content (none)" in problems[0]


def refused(text: str) -> list[str]:
    parsed, problems = parse_content_file(Path("rule.toml"), text)
    assert parsed is None
    return problems


def test_a_counter_is_declared_with_a_plain_id_and_set_to_a_value() -> None:
    assert "a counter's id is lower-case letters" in refused('[[counter]]\nid = "Big Pot"\n')[0]
    assert "one of player, game" in refused('[[counter]]\nid = "pot"\nof = "table"\n')[0]
    trigger = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ %s }]\n'
    assert "a counter is set to a value" in refused(trigger % 'set = "pot"')[0]
    assert "a counter is set to a value" in refused(trigger % "coins = 1, to = 2")[0]


def test_a_counter_the_rules_do_not_declare_is_refused_naming_its_entry(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as error:
        rule(
            tmp_path,
            '[[trigger]]\nid = "t"\non = "kill"\n'
            'effects = [{ set = "pot", to = 1 }, { coins = \'counter("purse")\' }]\n',
        )
    text = str(error.value)
    assert "trigger 't': effects[0]: no counter 'pot' in these rules" in text
    assert "no counter 'purse' in these rules" in text
    with pytest.raises(ContentError, match="counter 'pot' is already defined"):
        rule(tmp_path, '[[counter]]\nid = "pot"\n\n[[counter]]\nid = "pot"\nof = "game"\n')


def test_counters_play_the_same_on_both_engines() -> None:
    assert_same_games(build_rules(house_rules=[BOUNTY]), ((2, 3), (3, 4), (4, 5)))
