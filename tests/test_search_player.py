"""The native tree search ``ismcts`` (kernel/src/search.rs, agents/ismcts.py).

Its budgets parse the same on both sides and refuse bad input in one line; its choice is
a function of seed, view and budget (the same twice, and the same for two states that
differ only in what the seat cannot see); it plays whole games with both boxes; and on
the Python engine the seat is today's ``mcts``, said once.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_kit import require_native

from naqala.agents import ismcts
from naqala.agents.ismcts import (
    MAX_ITERATIONS,
    STAND_IN_NOTICE,
    PythonStandIn,
    check_budget,
    stand_in_budget,
)
from naqala.core import build_rules
from naqala.core.agents import SeatError, canonical_seat, make_agent
from naqala.core.simulate import agent_seed, play_game
from naqala.core.state import evolve
from naqala.core.views import determinize
from naqala.native.bridge import NativeRules
from naqala.testing.strategies import reached_states, seeds

SETS = [(), ("artisans", "djinns")]
RULES = {s: build_rules(list(s)) for s in SETS}


@pytest.mark.parametrize("good", ["", "strong", " Deep ", "1", "300", str(MAX_ITERATIONS), "1.5s"])
def test_good_budgets_are_taken_by_both_engines(good: str) -> None:
    native = require_native()
    check_budget(good)
    native.NativePlayer(f"ismcts:{good}".rstrip(":"), 1)


@pytest.mark.parametrize(
    "bad", ["0", str(MAX_ITERATIONS + 1), "0s", "61s", "1.2.3s", "fast", "-5", "s", "x" * 500]
)
def test_bad_budgets_are_refused_in_one_line_by_both_engines(bad: str) -> None:
    native = require_native()
    with pytest.raises(ValueError) as refused:
        check_budget(bad)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 120
    with pytest.raises(NotImplementedError):
        native.NativePlayer(f"ismcts:{bad}", 1)


def test_a_seat_names_its_budget_and_a_bad_one_is_a_seat_error() -> None:
    rules = RULES[()]
    assert canonical_seat(rules, "ismcts:strong") == "ai:ismcts:strong"
    with pytest.raises(SeatError):
        make_agent(rules, "ai:ismcts:fast", 1)


def test_the_python_stand_in_is_mcts_at_the_same_level_and_says_so_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ismcts, "_noticed", [])
    assert stand_in_budget("deep") == "deep"
    assert stand_in_budget("300") == ""
    rules = RULES[()]
    agents = [PythonStandIn(1, "4"), PythonStandIn(2, "")]
    final, _ = play_game(rules, 2, 3, list(agents))
    assert final.is_over
    assert capsys.readouterr().err.count(STAND_IN_NOTICE) == 1


def native_choice(rules_key: tuple[str, ...], state: object, name: str, seed: int) -> int:
    native = require_native()
    bridge = NativeRules(RULES[rules_key])
    return int(native.NativePlayer(name, seed).choose(bridge.to_native(state)))


@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_the_same_seed_view_and_budget_make_the_same_choice(data: st.DataObject) -> None:
    rules = RULES[("artisans", "djinns")]
    state = data.draw(reached_states(rules, max_actions=200).filter(lambda s: not s.is_over))
    choices = {native_choice(("artisans", "djinns"), state, "ismcts:12", 5) for _ in range(2)}
    assert len(choices) == 1


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_a_choice_does_not_depend_on_what_the_seat_cannot_see(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    """Two states that differ only in other players' hidden cards and coins, the draw
    piles' order and the generator (as tests/test_mcts.py asks of ``mcts``)."""
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=200).filter(lambda s: not s.is_over))
    seat = state.decision.player
    other = determinize(rules, state, seat, data.draw(seeds(), label="other deal"))
    other = evolve(other, players=tuple(evolve(p, coins=p.coins + 5) for p in other.players))
    other = other.replace_player(seat, state.players[seat])
    assert other != state or len(state.players) == 1
    assert native_choice(expansions, state, "ismcts:12", 3) == native_choice(
        expansions, other, "ismcts:12", 3
    )


def test_whole_native_games_with_both_boxes_end_and_the_choice_is_legal() -> None:
    require_native()
    rules = RULES[("artisans", "djinns")]
    bridge = NativeRules(rules)
    final, actions, _ = bridge.new_game(4, 11).play(
        [("ismcts:6", agent_seed(11, 0))] + [("greedy", agent_seed(11, i)) for i in (1, 2, 3)]
    )
    assert final.is_over() and actions > 50
