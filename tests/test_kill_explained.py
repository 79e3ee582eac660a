"""Why a typed ``kill`` is illegal, said by the kill stage (``KillStage.explain``): out of
reach with the distance, nobody of that colour there, protected in front of its owner,
and the other ways a victim can be wrong. Today's main said only "not one of the legal
options"."""

from __future__ import annotations

import pytest

from naqala.core.actions import parse_action
from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.testing.scenario import base_rules, board, options, play, player, turn_of


def asked(djinns: dict[int, list[str]] | None = None) -> tuple[Rules, State]:
    """Player 1's two assassins end on c3 (they reach 2 steps); a merchant on c4, a
    builder on f3, player 2 keeps a vizier and no elder."""
    rules = base_rules()
    state = rules.new_game(2, 7)
    state = board(
        rules,
        state,
        {"b3": "R", "c3": "R", "c4": "G", "f3": "B"},
        clear=True,
        tiles={"c3": "oasis-1"},
    )
    for seat in (0, 1):
        state = player(rules, state, seat, cards=[], djinns=(djinns or {}).get(seat, []))
    state = player(rules, state, 1, meeples="Y")
    state = play(rules, turn_of(rules, state, 0), "pick b3", "drop c3 R")
    assert state.decision.stage == "kill"
    return rules, state


def why(rules: Rules, state: State, typed: str) -> str:
    action = parse_action(typed)
    assert str(action) not in options(rules, state)
    return rules.explain(state, action)


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("kill f3 B", "f3 is out of reach: 3 steps from c3, and the assassins reach 2"),
        ("kill F3 b", "f3 is out of reach: 3 steps"),
        ("kill c4 Y", "nobody there: no vizier on c4"),
        ("kill a1 W", "a1 is out of reach: 4 steps"),
        ("kill p2 W", "nobody there: P2 has no elder in front of them"),
        ("kill p1 Y", "another player's meeple, not yours"),
        ("kill p7 Y", "there is no player p7 (p1 to p2)"),
        ("kill p2 G", "only a vizier or elder can be killed, not a merchant"),
        ("kill z9 G", "tile z9 is off the 5x6 board"),
        ("kill c4 Q", "'Q' is no meeple colour"),
    ],
)
def test_an_illegal_kill_says_why(typed: str, words: str) -> None:
    rules, state = asked()
    assert words in why(rules, state, typed)


def test_a_protected_vizier_says_it_is_protected() -> None:
    rules, state = asked(djinns={1: ["boaz"]})
    assert "kill p2 Y" not in options(rules, state)
    assert why(rules, state, "kill p2 Y") == "P2's viziers are protected from the assassins"


def test_the_legal_kills_are_unchanged() -> None:
    rules, state = asked()
    assert sorted(options(rules, state)) == ["kill c4 G", "kill p2 Y"]
