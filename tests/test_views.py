"""What each seat may know: views and determinizations (core/views.py).

A determinization for a seat agrees with that seat's view, keeps every component (each
deck holds the same cards, the same meeples and tokens are in play), is a state the rules
can play on, and depends only on the view and its seed.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naqala.core import build_rules
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.hands import deck_of, hand
from naqala.core.state import State, evolve
from naqala.core.views import determinize, hidden_decks, view_for
from naqala.testing.strategies import reached_states, seeds

SETS = [(), ("artisans",), ("djinns",), ("artisans", "djinns")]
RULES = {s: build_rules(list(s)) for s in SETS}


def cards_of_deck(rules: Rules, state: State, deck: int) -> Counter[str]:
    d = state.decks[deck]
    found = Counter(d.draw + d.row + d.discard)
    for p in state.players:
        found.update(hand(rules, p, deck))
    if state.turn is not None:
        found.update(c for c in state.turn.revealed if deck_of(rules, c) == deck)
    found.pop("", None)  # empty places of a row laid out by city
    return found


def conserved(rules: Rules, a: State, b: State) -> None:
    for deck in range(len(rules.deck_names)):
        assert cards_of_deck(rules, a, deck) == cards_of_deck(rules, b, deck)
    assert a.board == b.board and a.bag == b.bag and a.pool == b.pool
    assert [p.meeples for p in a.players] == [p.meeples for p in b.players]
    assert [p.camels for p in a.players] == [p.camels for p in b.players]
    decks = range(len(rules.deck_names))
    assert [[len(p.hand(d)) for d in decks] for p in a.players] == [
        [len(p.hand(d)) for d in decks] for p in b.players
    ]


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_a_determinization_keeps_every_component_and_agrees_with_the_view(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=250))
    seat = data.draw(st.integers(0, len(state.players) - 1), label="seat")
    seed = data.draw(seeds(), label="determinization seed")
    sampled = determinize(rules, state, seat, seed)
    conserved(rules, state, sampled)
    assert view_for(rules, sampled, seat) == view_for(rules, state, seat)
    assert sampled.players[seat] == state.players[seat]
    json.dumps(view_for(rules, state, seat))  # serialisable
    # the rules play on from it: the decider's options are the same (when the seat
    # decides), and a few random actions later the game still runs
    if state.decision.player == seat:
        assert rules.legal_actions(sampled) == rules.legal_actions(state)
    agent = RandomAgent(seed)
    for _ in range(30):
        if sampled.is_over:
            break
        sampled = rules.apply(sampled, agent.choose(rules, sampled, rules.legal_actions(sampled)))


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_a_determinization_depends_only_on_the_view_and_the_seed(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    """Two states that differ only in what the seat cannot see (another deal of the hidden
    cards, other coins, another generator) give the same determinization."""
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=250))
    seat = data.draw(st.integers(0, len(state.players) - 1), label="seat")
    other = determinize(rules, state, seat, data.draw(seeds(), label="other deal"))
    other = evolve(other, players=tuple(evolve(p, coins=p.coins + 7) for p in other.players))
    other = other.replace_player(seat, state.players[seat])
    seed = data.draw(seeds(), label="seed")
    assert determinize(rules, other, seat, seed) == determinize(rules, state, seat, seed)


def test_the_view_hides_coins_cards_piles_and_the_generator() -> None:
    rules = RULES[("artisans", "djinns")]
    state = rules.new_game(3, 5)
    view = view_for(rules, state, 1)
    assert view["format"] == "naqala-view" and view["seat"] == 1
    assert "rng" not in view
    assert view["players"][1]["coins"] == state.players[1].coins
    assert view["players"][0]["coins"] is None and view["players"][2]["coins"] is None
    assert view["players"][0]["hidden"] == {"items": 0, "resources": 0, "whims": 0}
    assert all(isinstance(d["draw"], int) for d in view["decks"].values())
    assert view["decks"]["resources"]["draw"] == len(state.decks[0].draw)
    assert {rules.deck_names[d] for d in hidden_decks(rules)} == {"resources", "items", "whims"}


def test_hidden_cards_show_as_counts_and_are_dealt_again() -> None:
    """A player holding resource cards: the others see how many, not which; a
    determinization for another seat deals that many from the cards not seen."""
    rules = RULES[()]
    state = rules.new_game(2, 3)
    row = state.decks[0].row
    given_cards = tuple(sorted(row[:3]))
    state = state.replace_player(0, state.players[0].with_hand(0, given_cards))
    view = view_for(rules, state, 1)
    assert "resources" not in view["players"][0]["hands"]
    assert view["players"][0]["hidden"]["resources"] == 3
    assert view_for(rules, state, 0)["players"][0]["hands"]["resources"] == list(given_cards)
    deals = {determinize(rules, state, 1, seed).players[0].cards for seed in range(20)}
    assert len(deals) > 1 and all(len(cards) == 3 for cards in deals)
    assert all(determinize(rules, state, 0, s).players[0].cards == given_cards for s in range(5))
