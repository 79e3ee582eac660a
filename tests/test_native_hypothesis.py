"""States drawn by the testing kit's hypothesis strategies, compared on both engines
action by action: from a reached state (``naqala.testing.reached_states``), a drawn
sequence of legal actions (``naqala.testing.strategies.legal_actions``) is played on the
Python engine, and before and after every action the kernel is handed the state and
must give the same legal actions in the same order, the same scores, and the same state
JSON after the action. The base game and every content-only house rule."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_kit import require_native

from naqala.core.engine import Rules
from naqala.native.bridge import NativeRules

#: the content-only house rules the kernel plays (native/support.py)
HOUSE_RULES = ["big-viziers", "generous-jafaar", "djinns-once-per-round", "nekir-per-assassination"]
#: actions compared after each reached state, at most
MAX_STEPS = 40

_PORTED: dict[tuple[str, ...], tuple[Rules, NativeRules]] = {}


def ported(expansions: tuple[str, ...]) -> tuple[Rules, NativeRules]:
    """The rules and their kernel, built once per set of house rules."""
    from naqala.native.differential import ported_rules

    if expansions not in _PORTED:
        _PORTED[expansions] = ported_rules(expansions)
    return _PORTED[expansions]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(), *((rule,) for rule in HOUSE_RULES)]),
    st.integers(0, 400),
    st.integers(0, MAX_STEPS),
    st.data(),
)
def test_drawn_states_and_actions_are_the_same_game_on_both_engines(
    expansions: tuple[str, ...], reach: int, steps: int, data: st.DataObject
) -> None:
    require_native()
    from naqala.native.differential import Report, compare_state, compare_step
    from naqala.testing.strategies import legal_actions, reached_states

    rules, bridge = ported(expansions)
    state = data.draw(reached_states(rules, max_actions=reach), label="reached state")
    report = Report()
    game = f"drawn state {' '.join(expansions) or 'base'}"
    for index in range(steps + 1):
        compare_state(rules, bridge, state, report, game, index)
        if state.is_over or index == steps:
            break
        action = data.draw(legal_actions(rules, state), label=f"action {index}")
        after = rules.apply(state, action)
        compare_step(rules, bridge, state, after, str(action), report, game, index)
        state = after
    assert report.differences == []
    assert report.unported == {}
    assert report.legal_compared == report.scores_compared >= 1
