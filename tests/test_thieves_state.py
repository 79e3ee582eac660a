"""The Thieves keep every invariant and replay identically: random games with the other
boxes, a theft saved and loaded halfway (an opponent deciding inside another player's
turn, ``Stage.owner_decides``), the plugin's own state checks, and cards that need a
component of another box (``CardSpec.needs``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs
import pytest
from test_rule_combinations import trajectory
from thieves_kit import THIEVES, hold, move, move_meeples, position, thieves_rules

from naqala.core.content import load_content
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import Decision, effect_counts, set_extra
from naqala.core.validate import check_state
from naqala.testing.invariants import checked_playout
from naqala.testing.scenario import play


def red_theft_halfway():  # type: ignore[no-untyped-def]
    """Seat 2 must choose which tile to give up to seat 0's red thief."""
    rules, state = position(meeples=move_meeples("red"), owners={"d4": 1, "e1": 2, "f1": 2})
    state = hold(rules, state, 0, THIEVES, ["red-thief"])
    return rules, play(rules, state, *move("red"), "red-thief")


@pytest.mark.parametrize(
    ("boxes", "players", "seed"),
    [((), 3, 4), (("artisans",), 4, 8), (("artisans", "djinns"), 5, 2)],
    ids=["thieves", "with-artisans", "with-artisans-and-djinns"],
)
def test_random_games_with_thieves_keep_every_invariant(
    boxes: tuple[str, ...], players: int, seed: int
) -> None:
    rules = thieves_rules(*boxes)
    state = checked_playout(rules, players, seed, agent_seed=seed)
    assert state.is_over


def test_random_play_uses_thieves() -> None:
    """The thieves are really in play: over some random games they are taken and used (a
    random player reaches a thief's use about once in eight games)."""
    rules = thieves_rules("artisans")
    used: Counter[str] = Counter()
    for seed in range(16):
        state = checked_playout(rules, 4, seed, agent_seed=100 + seed)
        used.update({k: v for k, v in effect_counts(state).items() if k.endswith("-thief")})
    assert sum(used.values()) >= 1, used


def test_the_same_seed_gives_the_same_game() -> None:
    for boxes in ((), ("artisans", "djinns")):
        one, _ = trajectory(thieves_rules(*boxes), 3, 17, 400)
        two, _ = trajectory(thieves_rules(*boxes), 3, 17, 400)
        assert one == two


def test_a_theft_halfway_is_a_sound_state_that_saves_and_loads() -> None:
    rules, state = red_theft_halfway()
    assert state.decision == Decision("thief-give", 2)  # an opponent decides in seat 0's turn
    assert check_state(rules, state) == []
    text = state_to_json(rules, state)
    assert state_from_json(text, rules)[1] == state
    rebuilt, again = state_from_json(text)
    assert rebuilt.legal_actions(again) == rules.legal_actions(state)


def test_only_a_step_decided_by_opponents_may_be_decided_by_one() -> None:
    rules, state = red_theft_halfway()
    wrong = attrs.evolve(state, decision=Decision("sell", 2))
    problems = [str(p) for p in check_state(rules, wrong)]
    assert any("$.decision.player" in p for p in problems), problems


def test_the_state_check_finds_a_theft_out_of_place() -> None:
    rules, state = red_theft_halfway()
    state = play(rules, state, "give f1", "take d4")
    assert check_state(rules, state) == []
    stray = attrs.evolve(state, extras=set_extra(state.extras, "thieves.victim.1", 1))
    problems = [str(p) for p in check_state(rules, stray)]
    assert problems == ["$.extras.thieves.victim.1: no theft is in progress"]


def test_the_state_check_finds_a_victim_that_is_no_opponent() -> None:
    rules, state = red_theft_halfway()
    wrong = attrs.evolve(state, extras=set_extra(state.extras, "thieves.victim.0", 1))
    problems = [str(p) for p in check_state(rules, wrong)]
    assert "$.extras.thieves.victim.0: not an opponent of the thief" in problems


def test_the_state_check_finds_too_many_thieves_face_up() -> None:
    rules, state = position()
    index = rules.deck_index[THIEVES]
    deck = state.decks[index]
    wide = attrs.evolve(deck, row=deck.row + deck.draw[:1], draw=deck.draw[1:])
    state = attrs.evolve(state, decks=state.decks[:index] + (wide,) + state.decks[index + 1 :])
    problems = [str(p) for p in check_state(rules, state)]
    assert problems == ["$.decks.thieves.row: more than 1 face up"]


def test_a_card_that_needs_a_missing_component_is_left_out(tmp_path: Path) -> None:
    box = tmp_path / "box.toml"
    box.write_text(
        "[[card]]\ndeck = 'charms'\nid = 'violet-charm'\nkind = 'k'\nneeds = 'violet'\n"
        "[[card]]\ndeck = 'charms'\nid = 'plain-charm'\nkind = 'k'\n"
        "[[card]]\ndeck = 'charms'\nid = 'tree-charm'\nkind = 'k'\nneeds = 'tree'\n",
        encoding="utf-8",
    )
    tree = tmp_path / "tree.toml"
    tree.write_text("[[token]]\nid = 'tree'\nname = 'Tree'\ncount = 3\nvp = 1\n", encoding="utf-8")
    alone = [c.id for c in load_content([box]).cards]
    assert alone == ["plain-charm"]
    together = [c.id for c in load_content([box, tree]).cards]
    assert together == ["plain-charm", "tree-charm"]


@pytest.mark.parametrize("what", ["tile.99", "token.gold", "camels"])
def test_the_state_check_finds_a_thing_given_up_that_is_not_there(what: str) -> None:
    """A victim gives up a tile of the board, a token the rules have, or meeples: a tile
    off the board would crash the owner's choice of what to keep."""
    rules, state = red_theft_halfway()
    wrong = attrs.evolve(state, extras=set_extra(state.extras, f"thieves.given.{what}", 1))
    problems = [str(p) for p in check_state(rules, wrong)]
    assert problems == [
        f"$.extras.thieves.given.{what}: not a thing given up (tile.<index>, token.<id>, meeples)"
    ]
