"""``merchandise(n)``: a player's best merchandise score with ``n`` jokers, each standing
for any merchandise. Al-Amin's pairs of Fakirs are written with it (content/base.toml),
and so is a house rule that makes every player's Fakirs wild."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_kit import assert_same_games

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.plugins.base.common import FAKIR
from tests.test_effects_box_counts import HEADER, value, with_player

#: the cookbook's rule: every player's Fakirs, two by two, are wild at final scoring
WILD_FAKIRS = Path(__file__).parent.parent / "docs" / "examples" / "effects" / "wild_fakirs.toml"


def holding(rules: Rules, cards: list[str]) -> State:
    """A new game where player 0's resource hand is ``cards`` (player 1's is empty)."""
    state = rules.new_game(2, 1)
    resources = rules.deck_index["resources"]
    for seat, hand in ((0, tuple(cards)), (1, ())):
        state = with_player(state, seat, hands=state.players[seat].with_hand(resources, hand).hands)
    return state


def test_merchandise_of_none_is_the_suits_as_scored() -> None:
    """Suit values 1, 3, 7…: fish and wheat make one suit of two, 3; a second fish is a
    suit of one, 1; a Fakir is no merchandise."""
    rules = build_rules()
    state = holding(rules, ["fish", "wheat", "fish", FAKIR])
    assert value(rules, state, "merchandise(0)") == 3 + 1
    assert value(rules, state, "merchandise(0)", me=1) == 0


def test_each_joker_joins_the_suit_where_it_adds_most() -> None:
    """With one joker, fish, wheat and fish make a suit of three (7) and one of one (1); a
    second joker makes the first suit four (13), which is worth more than two of two."""
    rules = build_rules()
    state = holding(rules, ["fish", "wheat", "fish"])
    assert value(rules, state, "merchandise(1)") == 7 + 1
    assert value(rules, state, "merchandise(2)") == 13 + 1
    # jokers alone make suits too: one suit of two from nothing
    assert value(rules, holding(rules, []), "merchandise(2)") == 3


def test_fewer_than_none_is_none_and_more_than_the_most_is_the_most() -> None:
    rules = build_rules()
    state = holding(rules, ["fish"])
    assert value(rules, state, "merchandise(-3)") == value(rules, state, "merchandise(0)")
    assert value(rules, state, "merchandise(5000)") == value(rules, state, "merchandise(99)")


def test_merchandise_takes_one_value(tmp_path: Path) -> None:
    path = tmp_path / "rule.toml"
    path.write_text(
        HEADER + '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = "merchandise()" }]\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError, match=r"merchandise\(\) takes one value"):
        build_rules(house_rules=[path])


def test_wild_fakirs_give_every_player_what_al_amin_gives_his_owner() -> None:
    rules = build_rules(house_rules=[WILD_FAKIRS])
    state = holding(rules, [FAKIR] * 5 + ["fish"])
    lines = [line for line in rules.score_lines(state, 0) if line.source == "wild-fakirs"]
    # two pairs (the fifth Fakir is alone) join the fish: a suit of three, 7 instead of 1
    assert [(line.points, line.detail) for line in lines] == [
        (7 - 1, "2 pairs of Fakirs as wild goods")
    ]


def test_al_amin_scores_his_pairs_of_fakirs_as_wild_goods() -> None:
    """Al-Amin: at final scoring every 2 Fakirs held count as one merchandise of any type.
    Four Fakirs, fish and wheat: two wilds make one suit of four (13) instead of 3."""
    rules = build_rules()
    djinns = rules.deck_index["djinns"]
    state = holding(rules, [FAKIR] * 4 + ["fish", "wheat"])
    state = with_player(state, 0, hands=state.players[0].with_hand(djinns, ("al-amin",)).hands)
    lines = [line for line in rules.score_lines(state, 0) if line.source == "al-amin"]
    assert [(line.category, line.points, line.detail) for line in lines] == [
        ("merchandise", 13 - 3, "2 pairs of Fakirs as wild goods")
    ]


def test_wild_fakirs_play_the_same_on_both_engines() -> None:
    """A house rule making every player's Fakirs wild at scoring runs natively: the same
    states and score sheets on both engines."""
    assert_same_games(build_rules(house_rules=[WILD_FAKIRS]), ((2, 5), (3, 9), (4, 21)))
