"""Scenario tests for the merchandise sale that ends a turn (content facts 1.3, 1.6 step 6
and section 7 item 13)."""

from __future__ import annotations

import pytest

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.testing.scenario import (
    RESOURCE_DECK,
    base_rules,
    board,
    deck,
    options,
    play,
    player,
    turn_of,
)

FAKIR = "fakir"
MERCHANDISE = ("ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery")
VALUES = (1, 3, 7, 13, 21, 30, 40, 50, 60)


def at_sale(cards: list[str], final: str = "oasis-1") -> tuple[Rules, State]:
    """Player 1 (seat 0), holding ``cards`` and 50 coins, has just moved a vizier onto c3
    (tile ``final``) and done the tile action: the sale is next (unless ``final`` is a
    market or sacred place, which asks first). The discard pile starts empty."""
    rules = base_rules()
    state = rules.new_game(2, 5)
    state = board(rules, state, {"b3": "Y", "c3": "Y"}, clear=True, tiles={"c3": final})
    state = player(rules, state, 0, coins=50, cards=cards)
    state = deck(rules, state, "resources", discard=())
    state = turn_of(rules, state, 0)
    return rules, play(rules, state, "pick b3", "drop c3 Y")


def test_the_sale_is_optional() -> None:
    """After the tile action the player may sell, or just end the turn (``end``), keeping
    every card."""
    rules, s = at_sale(["fish", "silk"])
    assert s.decision.stage == "sell"
    assert "end" in options(rules, s)
    after = play(rules, s, "end")
    assert after.players[0].cards == ("fish", "silk")
    assert after.players[0].coins == 50
    assert after.decision != s.decision


def test_selling_a_suit_pays_its_value_and_discards_the_cards() -> None:
    """A suit of 3 different merchandise sells for 7 coins; the sold cards go to the
    resource discard pile and the player may go on selling or end."""
    rules, s = at_sale(["fish", "silk", "gold", "fish"])
    after = play(rules, s, "sell fish+gold+silk")
    assert after.players[0].coins == 50 + 7
    assert after.players[0].cards == ("fish",)
    assert sorted(after.decks[RESOURCE_DECK].discard) == ["fish", "gold", "silk"]
    assert after.decision.stage == "sell"
    assert "end" in options(rules, after)


def test_several_suits_can_be_sold_in_one_turn() -> None:
    """Any number of suits may be sold: {fish, silk} then {fish} pay 3 + 1."""
    rules, s = at_sale(["fish", "fish", "silk"])
    after = play(rules, s, "sell fish+silk", "sell fish")
    assert after.players[0].coins == 50 + 3 + 1
    assert after.players[0].cards == ()
    assert options(rules, after) == ["end"]


@pytest.mark.parametrize("size", range(1, 10))
def test_suit_values_by_size(size: int) -> None:
    """A suit of n all-different merchandise sells for 1, 3, 7, 13, 21, 30, 40, 50, 60 coins
    for n = 1 … 9."""
    suit = sorted(MERCHANDISE[:size])
    rules, s = at_sale(suit)
    after = play(rules, s, "sell " + "+".join(suit))
    assert after.players[0].coins == 50 + VALUES[size - 1]


def test_a_suit_holds_only_different_merchandise() -> None:
    """A suit is all-different: two fish can never be sold together."""
    rules, s = at_sale(["fish", "fish", "wheat"])
    assert sorted(options(rules, s, "sell")) == [
        "sell fish",
        "sell fish+wheat",
        "sell wheat",
    ]


def test_fakirs_can_never_be_sold() -> None:
    """Fakirs are not merchandise: they are never part of a suit for sale."""
    rules, s = at_sale([FAKIR, FAKIR, "pottery"])
    assert options(rules, s) == ["end", "sell pottery"]
    only_fakirs = at_sale([FAKIR])[1]
    assert options(rules, only_fakirs) == ["end"]


def test_the_sale_comes_after_the_tile_action() -> None:
    """The sale follows the tile action, so a card bought at a market can be sold in the
    same turn."""
    rules, s = at_sale(["silk"], final="small-market-1")
    s = deck(rules, s, "resources", row=("spice", "fish", "silk", "gold"))
    assert s.decision.stage == "tile:small-market"
    assert options(rules, s, "sell") == []
    bought = play(rules, s, "buy spice")
    assert bought.decision.stage == "sell"
    after = play(rules, bought, "sell silk+spice")
    assert after.players[0].coins == 50 - 3 + 3
