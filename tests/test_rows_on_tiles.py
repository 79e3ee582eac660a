"""A deck whose row lies on tiles (``[[deck]]`` ``lies_on``) is content alone: the base
game lays a card on every tile of the kind at setup, lays one again on each place taken
at clean-up, and the effects language takes it (``take_lying``), on both engines."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from native_kit import assert_same_games

from naqala.core.engine import Rules, build_rules
from naqala.core.events import Event
from naqala.core.state import NOBODY, State
from naqala.core.validate import check_state
from naqala.plugins.base.api import CLEAN_UP, lying_on, places, set_deck

#: the cookbook's relics (docs/effects.md): a deck of the rule's own lies on the oases,
#: the oasis's action takes the relic lying on it too, each relic held scores 3 VP
RELICS = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects" / "relics.toml"


@pytest.fixture(scope="module")
def relics() -> Rules:
    return build_rules(house_rules=[RELICS])


def relic_deck(rules: Rules, state: State) -> tuple[tuple[str, ...], tuple[str, ...]]:
    deck = state.decks[rules.deck_index["relics"]]
    return deck.row, deck.draw


def emptied(rules: Rules, state: State, *spots: int) -> State:
    """The relics lying on the ``spots``-th oases taken away."""
    index = rules.deck_index["relics"]
    deck = state.decks[index]
    row = tuple("" if i in spots else card for i, card in enumerate(deck.row))
    return set_deck(state, index, attrs.evolve(deck, row=row))


def lying_here(rules: Rules, state: State) -> str:
    """The relic lying where the move ended ("" if none)."""
    assert state.turn is not None
    return lying_on(rules, state, "relics", state.turn.here)


def test_every_tile_of_the_kind_gets_a_card_from_the_pile_at_setup(relics: Rules) -> None:
    state = relics.new_game(3, seed=4)
    row, draw = relic_deck(relics, state)
    oases = places(relics, state, "relics")
    assert len(oases) == 6 and oases == sorted(oases)
    assert row == ("relic",) * 6 and len(draw) == 2


def test_clean_up_lays_the_top_card_on_each_place_taken_until_the_pile_runs_out(
    relics: Rules,
) -> None:
    state = emptied(relics, relics.new_game(3, seed=4), 1, 3, 4)
    after = relics.fire(state, Event(CLEAN_UP, NOBODY))
    row, draw = relic_deck(relics, after)
    assert row == ("relic", "relic", "relic", "relic", "", "relic")  # two were left to lay
    assert draw == ()


def test_a_row_without_a_place_per_tile_is_refused(relics: Rules) -> None:
    state = relics.new_game(3, seed=4)
    index = relics.deck_index["relics"]
    deck = state.decks[index]
    short = set_deck(state, index, attrs.evolve(deck, row=deck.row[1:], draw=("relic", *deck.draw)))
    problems = [str(p) for p in check_state(relics, short)]
    assert "$.decks.relics.row: 5 places for the 6 oasis tiles" in problems


def test_the_oasis_action_takes_the_relic_lying_on_it_into_the_movers_hand(
    relics: Rules,
) -> None:
    """Random games until a move ends on an oasis with a relic on it: the relic is then in
    the mover's hand and its place is empty until clean-up."""
    chance, seed, state = random.Random(5), 0, relics.new_game(2, seed=0)
    deck = relics.deck_index["relics"]
    while not (state.decision.stage == "tile:oasis" and lying_here(relics, state)):
        legal = relics.legal_actions(state)
        if legal:
            state = relics.apply(state, chance.choice(legal))
        else:  # over without a move ending on an oasis: another game
            seed += 1
            state = relics.new_game(2, seed=seed)
    assert state.turn is not None
    oasis, mover = state.turn.here, state.decision.player
    place = places(relics, state, "relics").index(oasis)
    held = len(state.players[mover].hand(deck))
    while state.decision.stage == "tile:oasis":
        state = relics.apply(state, relics.legal_actions(state)[0])
    assert relic_deck(relics, state)[0][place] == ""
    assert len(state.players[mover].hand(deck)) == held + 1


def test_a_house_rules_own_deck_lying_on_tiles_plays_the_same_on_both_engines(
    relics: Rules,
) -> None:
    reports = assert_same_games(relics, ((2, 5), (3, 1)))
    assert all(not report.unported for report in reports)  # played native, not left out
    assert sum(report.decisions["tile:oasis"] for report in reports) > 0
