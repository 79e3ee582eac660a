"""The two interpreters of the effects language play one game: drawn programs
(``naqala.testing.effect_programs``) on both engines, compared after every action."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naqala.core.engine import build_rules
from naqala.testing.effect_programs import as_house_rule, programs

differential = pytest.importorskip("naqala.native.differential")
bridge_module = pytest.importorskip("naqala.native.bridge")


@settings(
    max_examples=int(os.environ.get("NAQALA_PROGRAMS", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs(), st.integers(0, 2**20), st.sampled_from((2, 3, 4)))
def test_a_drawn_program_plays_the_same_game_on_both_engines(
    text: str, seed: int, players: int
) -> None:
    rules = build_rules(house_rules=[as_house_rule(text)])
    native = bridge_module.NativeRules(rules)
    assert native.kernel.unported_content() == []
    report = differential.verify_game(rules, native, players, seed)
    assert not report.differences, f"{text}\n{report.differences[:3]}"


EXTREMES = {
    # every meeple dropped takes the assassins' kills away: a kill then ends their action
    "no kills left": (
        '[[trigger]]\nid = "calm"\non = "meeple-dropped"\neffects = [{ kills = -5 }]\n'
    ),
    # a tile taken makes its taker as rich as an effect may; sales add to it afterwards
    "as rich as can be": (
        '[[trigger]]\nid = "gold"\non = "tile-taken"\neffects = [{ coins = "1000000 * 1000" }]\n'
    ),
}


@pytest.mark.parametrize("name", sorted(EXTREMES))
def test_programs_at_the_edges_the_10000_found_play_the_same_game(name: str) -> None:
    """The two programs of the 10,000 drawn in bench/effects.py that parted the engines:
    the kills left counted below zero (the kernel wrapped), and coins past the state's
    bound once a sale paid after an effect."""
    header = '[house-rule]\nname = "edge"\nversion = "1.0"\ndescription = "x"\n\n'
    rules = build_rules(house_rules=[as_house_rule(header + EXTREMES[name])])
    native = bridge_module.NativeRules(rules)
    for seed in range(6):
        report = differential.verify_game(rules, native, 2 + seed % 3, seed)
        assert not report.differences, report.differences[:2]


def test_choices_on_every_tile_play_the_same_games_and_are_reached() -> None:
    """Random players seldom reach a drawn choice (a djinn of 23, a tile kind of 5): here
    every tile kind's whole action ends with one, whose options read the state."""
    header = '[house-rule]\nname = "asking"\nversion = "1.0"\ndescription = "x"\n\n'
    options = (
        '{ words = "Coins", effects = [{ coins = \'held("yellow") - 2\' }, { kills = 1 }] }, '
        '{ words = "Cards", effects = [{ draw = "min(2, tiles())" }] }, '
        '{ words = "Toll", effects = [{ coins = "-3", if = "coins > 5" }] }'
    )
    entries = [
        f'[[tile_action]]\nid = "ask-{kind}"\ntile = "{kind}"\nat = "instead"\n'
        f'effects = [{{ coins = 1 }}, {{ choose = [{options}], if = "me != 1 or coins > 3" }}]\n'
        for kind in ("village", "oasis", "small-market", "large-market", "sacred-place")
    ]
    rules = build_rules(house_rules=[as_house_rule(header + "\n".join(entries))])
    native = bridge_module.NativeRules(rules)
    reached = 0
    for seed in range(4):
        report = differential.verify_game(rules, native, 2 + seed % 3, seed)
        assert not report.differences, report.differences[:2]
        reached += sum(n for stage, n in report.decisions.items() if stage.startswith("choose"))
    assert reached > 20
