"""Counts of what the boxes add, for the shipped djinns that score by them and for house
rules: ``holds("precious")`` (cards of a kind in a player's hands of the decks besides the
resources) and a plugin's own counter read by its name (``counter("whims.claimed")``),
which effects read and never set."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from native_kit import assert_same_games

from naqala.core.content import ContentError
from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.plugins.base import effects as interpreter

HEADER = '[house-rule]\nname = "r"\nversion = "1.0"\ndescription = "r"\n\n'
WHIMS = "whims"
CLAIMED = "whims.claimed"


def rule(tmp_path: Path, body: str, expansions: tuple[str, ...] = ()) -> Rules:
    path = tmp_path / "rule.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    return build_rules(expansions, house_rules=[path])


def with_player(state: State, player: int, **changes: object) -> State:
    players = list(state.players)
    players[player] = attrs.evolve(players[player], **changes)
    return attrs.evolve(state, players=tuple(players))


def value(rules: Rules, state: State, formula: str, me: int = 0) -> int:
    """What ``formula`` gives player ``me``: the coins it pays them, from 0."""
    broke = with_player(state, me, coins=0)
    paid = interpreter.run(rules, broke, [EffectSpec(coins=formula)], interpreter.Scope(me, me))
    return paid.players[me].coins


def test_holds_counts_the_cards_of_a_kind_in_every_hand_but_the_resources() -> None:
    rules = build_rules()
    djinns = rules.deck_index["djinns"]
    state = rules.new_game(2, 1)
    holding = with_player(state, 0, hands=state.players[0].with_hand(djinns, ("jafaar",)).hands)
    assert value(rules, holding, 'holds("jafaar")') == 1
    assert value(rules, holding, 'holds("jafaar")', me=1) == 0
    assert value(rules, holding, 'holds("sloar")') == 0


def test_a_resource_kind_is_no_kind_holds_counts(tmp_path: Path) -> None:
    """The resources are counted by card (``cards("fakir")``): their kinds are refused."""
    with pytest.raises(ContentError, match="no kind 'fakir' in these rules"):
        rule(
            tmp_path,
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = \'holds("fakir")\' }]\n',
        )


def test_a_plugins_own_counter_is_read_by_its_name() -> None:
    """The Whims box keeps each player's fulfilled whims as ``whims.claimed``: an effect
    reads it for the player it runs for, as Qareen's score does."""
    rules = build_rules([WHIMS])
    state = rules.new_game(3, 1)
    claimed = with_player(state, 1, extras=((CLAIMED, 2),))
    assert value(rules, claimed, f'counter("{CLAIMED}")', me=1) == 2
    assert value(rules, claimed, f'counter("{CLAIMED}")', me=0) == 0


def test_a_plugins_counter_is_never_set_and_is_unknown_without_its_plugin(tmp_path: Path) -> None:
    setting = f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{{ set = "{CLAIMED}", to = 9 }}]\n'
    with pytest.raises(ContentError, match="a plugin's own counter: read it, never set it"):
        rule(tmp_path, setting, (WHIMS,))
    reading = (
        f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{{ coins = \'counter("{CLAIMED}")\' }}]\n'
    )
    with pytest.raises(ContentError, match=f"no counter '{CLAIMED}' in these rules"):
        rule(tmp_path, reading)
    # a name a plugin declares as a prefix (the Thieves' ``thieves.victim.*``) is no one
    # counter to read
    with pytest.raises(ContentError, match=r"no counter 'thieves\.victim\.0' in these rules"):
        rule(tmp_path, reading.replace(CLAIMED, "thieves.victim.0"), ("thieves",))


def test_the_box_counts_play_the_same_on_both_engines(tmp_path: Path) -> None:
    """A house rule over the Whims box paying each turn for the whims fulfilled and the
    djinns of a kind held: the kernel plays it natively, state for state."""
    rules = rule(
        tmp_path,
        '[[trigger]]\nid = "patron"\non = "turn-end"\n'
        f'effects = [{{ coins = \'counter("{CLAIMED}") + 2 * holds("qareen")\' }}]\n',
        (WHIMS,),
    )
    assert_same_games(rules, ((2, 3), (4, 8), (5, 13)))
