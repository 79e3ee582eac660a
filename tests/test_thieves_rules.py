"""Scenario tests for the Thieves of Naqala's rules around the cards: one thief face up
beside the djinns, taken at a sacred place instead of a djinn for the same cost,
refilled at clean-up; used at the tribe action of its colour, not in the turn it was
taken, and then discarded; 6 VP if unused; djinn effects do not apply to thieves; the
Thieves' djinn (Hafiz, designed) protects its owner (content facts 2 §2, T1-T16;
``content/thieves.toml``; docs/rules-notes.md, "The Thieves of Naqala").

Positions: tests/thieves_kit.py (3 players, seat 0 to pick, c3 a sacred place).
"""

from __future__ import annotations

import attrs
from thieves_kit import (
    THIEVES,
    conserved,
    hold,
    lay_thieves,
    move,
    move_meeples,
    position,
    thieves_deck,
    thieves_of,
    thieves_rules,
)

from naqala.core.events import ScoreLine
from naqala.core.state import GAME_OVER, Decision, evolve
from naqala.testing.scenario import board, kept, options, play, player


def at_the_sacred_place(elders: str = "WW", cards: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """Seat 0 holds ``elders`` (and ``cards``) and ends a move on the sacred place c3,
    collecting two viziers; the green thief lies face up."""
    rules, state = position(meeples=move_meeples("yellow"))
    state = player(rules, state, 0, meeples=elders)
    if cards:
        state = hold(rules, state, 0, "resources", cards)
    state = lay_thieves(rules, state, row=["green-thief"])
    return rules, play(rules, state, *move("yellow"))


# -- setup ---------------------------------------------------------------------------------


def test_one_thief_lies_face_up_beside_the_djinns() -> None:
    rules = thieves_rules()
    state = rules.new_game(3, 5)
    assert len(thieves_deck(rules, state).row) == 1
    assert len(thieves_deck(rules, state).draw) == 4
    assert len(state.decks[1].row) == 3  # the djinn row is unchanged


def test_there_is_one_thief_per_tribe_colour_and_purple_only_with_the_artisans() -> None:
    alone = thieves_rules()
    subjects = sorted(c.subject for c in alone.content.deck(THIEVES))
    assert subjects == ["blue", "green", "red", "white", "yellow"]
    with_artisans = thieves_rules("artisans")
    subjects = sorted(c.subject for c in with_artisans.content.deck(THIEVES))
    assert subjects == ["blue", "green", "purple", "red", "white", "yellow"]
    state = with_artisans.new_game(2, 3)
    deck_cards = thieves_deck(with_artisans, state)
    assert "purple-thief" in (*deck_cards.draw, *deck_cards.row)


# -- taking a thief ------------------------------------------------------------------------


def test_a_thief_is_taken_at_a_sacred_place_instead_of_a_djinn_for_two_elders() -> None:
    rules, state = at_the_sacred_place()
    assert state.decision.stage == "tile:sacred-place"
    assert "thief green-thief EE" in options(rules, state)
    djinns_before = state.players[0].djinns
    state = play(rules, state, "thief green-thief EE")
    assert thieves_of(rules, state, 0) == ("green-thief",)
    assert kept(rules, state, 0) == "YY"  # the two elders went back to the bag
    assert state.players[0].djinns == djinns_before  # no djinn as well
    assert thieves_deck(rules, state).row == ()
    assert state.decision.stage == "sell"  # the sacred place is done
    conserved(rules, state)


def test_a_thief_costs_one_elder_and_one_fakir_like_a_djinn() -> None:
    rules, state = at_the_sacred_place(elders="W", cards=("fakir",))
    thief_options = options(rules, state, "thief")
    djinn_payments = {a.split()[-1] for a in options(rules, state, "djinn")}
    assert thief_options == ["thief green-thief EF"]
    assert djinn_payments == {"EF"}
    state = play(rules, state, "thief green-thief EF")
    assert kept(rules, state, 0) == "YY" and state.players[0].cards == ()
    conserved(rules, state)


def test_without_the_cost_of_a_djinn_no_thief_is_taken() -> None:
    rules, state = at_the_sacred_place(elders="")
    assert state.decision.stage == "sell"
    assert thieves_of(rules, state, 0) == ()


def test_the_thief_row_is_refilled_at_clean_up() -> None:
    rules, state = at_the_sacred_place()
    state = lay_thieves(rules, state, row=["green-thief"], draw=["red-thief", "blue-thief"])
    state = play(rules, state, "thief green-thief EE")
    assert thieves_deck(rules, state).row == ()
    state = play(rules, state, "end")  # the last turn of the round: clean-up follows
    assert state.round == 2
    assert thieves_deck(rules, state).row == ("red-thief",)
    assert thieves_deck(rules, state).draw == ("blue-thief",)
    conserved(rules, state)


def test_a_used_thief_does_not_come_back_when_the_pile_runs_out() -> None:
    """thieves_reshuffle = 0 (UNCONFIRMED): the row stays empty."""
    rules, state = at_the_sacred_place()
    state = lay_thieves(rules, state, row=["green-thief"], draw=[])
    assert thieves_deck(rules, state).discard  # the others lie used in the discards
    state = play(rules, state, "thief green-thief EE", "end")
    assert thieves_deck(rules, state).row == ()
    conserved(rules, state)


# -- using a thief -------------------------------------------------------------------------


def robbing(colour: str):  # type: ignore[no-untyped-def]
    """Seat 0 holds the thief of ``colour``; each opponent holds a vizier, an elder and a
    palm tree's worth of things to lose (viziers are what the yellow thief takes)."""
    rules, state = position(meeples=move_meeples(colour))
    state = hold(rules, state, 0, THIEVES, [f"{colour}-thief"])
    state = player(rules, state, 1, meeples="Y")
    state = player(rules, state, 2, meeples="Y")
    return rules, state


def test_a_thief_is_used_at_the_tribe_action_of_its_colour() -> None:
    rules, state = robbing("yellow")
    state = play(rules, state, *move("yellow"))
    assert state.decision == Decision("thief", 0)
    assert options(rules, state) == ["skip", "yellow-thief"]


def test_a_thief_is_not_offered_at_another_tribe_action() -> None:
    rules, state = robbing("yellow")
    state = board(rules, state, move_meeples("green"))
    state = play(rules, state, *move("green"))  # merchants, not viziers
    assert state.decision.stage != "thief"
    assert "yellow-thief" not in options(rules, state)
    assert thieves_of(rules, state, 0) == ("yellow-thief",)


def test_a_used_thief_is_discarded() -> None:
    rules, state = robbing("yellow")
    state = play(rules, state, *move("yellow"), "yellow-thief")
    assert thieves_of(rules, state, 0) == ()
    assert thieves_deck(rules, state).discard[-1] == "yellow-thief"
    conserved(rules, state)


def test_a_thief_may_be_kept_for_later() -> None:
    rules, state = robbing("yellow")
    state = play(rules, state, *move("yellow"), "skip")
    assert thieves_of(rules, state, 0) == ("yellow-thief",)
    assert kept(rules, state, 1) == "Y" and kept(rules, state, 2) == "Y"
    assert state.decision.stage == "sell"


def test_a_thief_cannot_be_used_in_the_turn_it_was_taken() -> None:
    rules, state = robbing("yellow")
    turn = state.turn
    assert turn is not None
    state = evolve(state, turn=attrs.evolve(turn, used=("thieves.taken.yellow-thief",)))
    state = play(rules, state, *move("yellow"))
    assert state.decision.stage != "thief"
    assert thieves_of(rules, state, 0) == ("yellow-thief",)


def test_a_thief_is_not_offered_when_no_opponent_has_anything_to_give() -> None:
    rules, state = robbing("yellow")
    state = player(rules, state, 1, meeples="")
    state = player(rules, state, 2, meeples="W")  # an elder is no vizier
    state = play(rules, state, *move("yellow"))
    assert state.decision.stage != "thief"


def test_an_unused_thief_is_worth_6_vp_and_a_used_one_nothing() -> None:
    rules, state = robbing("yellow")
    lines = rules.score_lines(state, 0)
    assert ScoreLine("thieves", 6, "thieves", "Yellow Thief unused") in lines
    used = play(rules, state, *move("yellow"), "yellow-thief")
    assert not [line for line in rules.score_lines(used, 0) if line.category == "thieves"]


def test_an_unused_thief_scores_in_the_final_tally() -> None:
    rules, state = robbing("red")
    over = evolve(state, decision=Decision(GAME_OVER), turn=None)
    assert (
        sum(line.points for line in rules.score_lines(over, 0) if line.category == "thieves") == 6
    )


# -- djinns and thieves --------------------------------------------------------------------


def test_djinn_effects_do_not_apply_to_thieves() -> None:
    """Ba'al pays its owner when an opponent takes a djinn, not when one takes a thief;
    and a thief never counts among its owner's djinns."""
    rules, state = at_the_sacred_place()
    state = hold(rules, state, 1, "djinns", ["baal"])
    coins = state.players[1].coins
    thief = play(rules, state, "thief green-thief EE")
    assert thief.players[1].coins == coins
    assert "green-thief" not in thief.players[0].djinns
    djinn = options(rules, state, "djinn")[0]
    took_djinn = play(rules, state, djinn)
    assert took_djinn.players[1].coins == coins + 2  # the same position, a djinn: Ba'al pays


def test_the_fabulous_lamp_takes_djinns_not_thieves() -> None:
    rules = thieves_rules("artisans")
    _, state = position(rules, meeples={"a2": "G"})
    state = hold(rules, state, 0, "items", ["fabulous-lamp"])
    lamp = [a for a in options(rules, state) if a.startswith("fabulous-lamp")]
    row = thieves_deck(rules, state).row
    assert lamp and row
    assert not any(card in a for a in lamp for card in row)


def test_the_thieves_djinn_protects_its_owner_from_thieves() -> None:
    rules, state = robbing("yellow")
    state = hold(rules, state, 1, "djinns", ["hafiz"])
    state = play(rules, state, *move("yellow"), "yellow-thief")
    assert kept(rules, state, 1) == "Y"  # Hafiz's owner keeps their vizier
    assert kept(rules, state, 2) == ""
    conserved(rules, state)


def test_no_thief_when_every_opponent_is_protected() -> None:
    rules, state = robbing("yellow")
    state = hold(rules, state, 1, "djinns", ["hafiz"])
    state = player(rules, state, 2, meeples="")
    state = play(rules, state, *move("yellow"))
    assert state.decision.stage != "thief"


def test_the_thieves_djinn_is_marked_as_designed() -> None:
    spec = thieves_rules().card_specs["hafiz"]
    assert "Designed" in spec.text
    assert spec.deck == "djinns" and spec.vp == 6 and spec.cost == ""


def test_thief_row_in_the_public_notes() -> None:
    rules, state = robbing("yellow")
    state = lay_thieves(rules, state, row=["red-thief"])
    notes = [n for group in rules.hook.naqala_public_notes(rules=rules, state=state) for n in group]
    assert "Thief beside the djinns: Red Thief" in notes
    assert "Player 1's thieves: Yellow Thief" in notes
