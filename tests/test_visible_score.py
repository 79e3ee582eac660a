"""The score a seat may see (core/scoresheet.py, ``visible_scores``): its own in full,
the others' public points, every box counted through the score hooks, and nothing another
seat hides in it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naqala.core import build_rules
from naqala.core.engine import Rules
from naqala.core.scoresheet import visible_scores
from naqala.core.state import NOBODY, State, evolve
from naqala.core.views import determinize
from naqala.testing.scenario import RESOURCE_DECK
from naqala.testing.strategies import reached_states, seeds

SETS = [(), ("artisans",), ("djinns",), ("thieves",), ("artisans", "djinns")]
RULES = {s: build_rules(list(s)) for s in SETS}
NAMES = lambda s: "+".join(("base", *s))  # noqa: E731


def with_player(state: State, index: int, **changes: object) -> State:
    return state.replace_player(index, evolve(state.players[index], **changes))


@pytest.mark.parametrize("expansions", SETS, ids=NAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_what_other_seats_hide_never_changes_what_a_seat_sees(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    """A determinization deals the other seats' hidden cards again and changes their
    coins: the score the seat sees stays exactly the same."""
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=250))
    seat = data.draw(st.integers(0, len(state.players) - 1), label="seat")
    sampled = determinize(rules, state, seat, data.draw(seeds(), label="seed"))
    sampled = with_player(sampled, (seat + 1) % len(state.players), coins=987)
    assert visible_scores(rules, sampled, seat) == visible_scores(rules, state, seat)


@pytest.mark.parametrize("expansions", SETS, ids=NAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_a_seat_sees_its_own_full_score_and_the_others_public_points(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=250))
    seat = data.draw(st.integers(0, len(state.players) - 1), label="seat")
    seen = visible_scores(rules, state, seat)
    spectator = visible_scores(rules, state, NOBODY)
    full = rules.scores(state)
    assert [s.player for s in seen] == list(range(len(state.players)))
    for player, score in enumerate(seen):
        assert score.full == (player == seat)
        assert score.public == spectator[player].total == spectator[player].public
        if player == seat:
            assert score.total == full[player]
            assert score.lines == rules.score_lines(state, player)
            assert score.hidden == ()
        else:
            assert score.lines == spectator[player].lines
            assert score.total <= full[player]  # hidden coins and cards only add


def test_coins_and_merchandise_of_another_seat_stay_hidden() -> None:
    rules = RULES[()]
    state = rules.new_game(3, 5)
    cards = ("gold", "ivory", "jewels")
    hands = state.players[1].with_hand(RESOURCE_DECK, cards).hands
    state = with_player(state, 1, coins=40, hands=hands)
    state = with_player(state, 0, coins=11)
    mine, theirs, _ = visible_scores(rules, state, 0)
    hidden_points = rules.scores(state)[1] - theirs.total
    assert hidden_points > 40  # the coins and the set of three kinds
    assert theirs.hidden == ((rules.deck_names[RESOURCE_DECK], 3),)
    assert not theirs.full
    assert all("40" not in line.detail for line in theirs.lines)
    assert mine.total == rules.scores(state)[0]
    assert mine.total - mine.public == 11  # others do not see my coins


def test_every_box_counts_through_the_score_hooks() -> None:
    """A line a plugin adds (the Artisans' tents, items…) is in what the seat sees."""
    rules: Rules = RULES[("artisans", "djinns")]
    state = rules.new_game(2, 3)
    sources = {line.source for line in visible_scores(rules, state, 0)[1].lines}
    assert {line.source for line in rules.score_lines(state, 1)} == sources
    assert {"artisans", "djinns"} <= sources


def test_the_categories_that_follow_hidden_coins_are_unknown_to_the_others() -> None:
    """Another player's coins line is not 0 points but unknown: a table shows ``?`` there.
    The seat's own score has nothing unknown, and public categories stay known."""
    rules = RULES[()]
    state = rules.new_game(3, 5)
    seen = visible_scores(rules, state, 0)
    assert seen[0].unknown == frozenset()
    for other in seen[1:]:
        assert "coins" in other.unknown
        assert all(line.category not in other.unknown or line.points == 0 for line in other.lines)
    rich = with_player(state, 1, coins=500)
    assert visible_scores(rules, rich, 0) == seen  # which categories are unknown is public too
