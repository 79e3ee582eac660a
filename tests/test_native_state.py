"""Native states: built from the Python state JSON and written back to the same JSON, for
the base game and the Artisans, with content-only house rules handed over as data."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from native_kit import require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_data
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.testing.strategies import reached_states

#: the boxes the kernel holds, and content-only house rules (data, no code hooks)
RULESETS = {
    "base": (),
    "artisans": ("artisans",),
    "big-viziers": ("big-viziers",),
    "generous-jafaar": ("generous-jafaar",),
    "artisans+big-viziers": ("artisans", "big-viziers"),
    "whims": ("djinns",),
}
_BUILT: dict[str, Rules] = {}


def rules_of(name: str) -> Rules:
    if name not in _BUILT:
        _BUILT[name] = build_rules(RULESETS[name])
    return _BUILT[name]


def states_of_a_game(rules: Rules, players: int, seed: int) -> Iterator[State]:
    """Every state of one random game, the first and the last included."""
    seen: list[State] = []
    final, _ = play_game(rules, players, seed, on_action=lambda state, _: seen.append(state))
    yield from seen
    yield final


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_random_games_round_trips(name: str, players: int) -> None:
    require_native()
    from naqala.native.bridge import NativeRules

    rules = rules_of(name)
    bridge = NativeRules(rules)
    checked = 0
    for seed in range(2):
        for state in states_of_a_game(rules, players, seed):
            native = bridge.to_native(state)
            assert bridge.data(native) == state_to_data(rules, state), (name, seed, checked)
            checked += 1
    assert checked > 200
    # the last state read back is the Python state itself
    assert bridge.to_python(native) == state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reached_states(lambda: rules_of("artisans"), max_actions=150))
def test_states_drawn_by_the_testing_kit_round_trip(state: State) -> None:
    require_native()
    from naqala.native.bridge import NativeRules

    rules = rules_of("artisans")
    bridge = NativeRules(rules)
    native = bridge.to_native(state)
    assert bridge.data(native) == state_to_data(rules, state)
    assert bridge.to_python(native) == state


def test_content_is_handed_over_as_data() -> None:
    """The house rules change numbers only: the kernel reads them from the content."""
    require_native()
    from naqala.native.content import content_data

    base = content_data(rules_of("base"))
    big = content_data(rules_of("big-viziers"))
    jafaar = content_data(rules_of("generous-jafaar"))
    assert base["settings"] != big["settings"]
    cards = {c["id"]: c for c in base["cards"]}
    generous = {c["id"]: c for c in jafaar["cards"]}
    assert cards["jafaar"]["params"] != generous["jafaar"]["params"]


def test_the_kernel_knows_every_stage_of_the_rules() -> None:
    native = require_native()
    from naqala.native.content import content_data

    for name in ("base", "artisans"):
        rules = rules_of(name)
        kernel = native.Kernel(json.dumps(content_data(rules)))
        assert set(rules.stages) <= set(kernel.names())


def _data(rules: Rules) -> dict[str, object]:
    return state_to_data(rules, rules.new_game(3, 5))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(flags=["not-a-flag"]), r"\$\.flags\[0\]: the kernel does not know"),
        (lambda d: d["decision"].update(stage="nowhere"), r"\$\.decision\.stage"),
        (lambda d: d["players"][1].update(coins=1 << 40), r"\$\.players\[1\]\.coins"),
        (lambda d: d["board"]["tiles"][4].update(meeples="YQ"), r"\$\.board\.tiles\[4\]"),
        (lambda d: d["decks"]["djinns"].update(draw=["nobody"]), r"\$\.decks\.djinns\.draw\[0\]"),
        (lambda d: d.update(ruleset=["base", "artisans"]), r"\$\.ruleset"),
        (lambda d: d.update(surprise=1), r"unknown field"),
    ],
)
def test_what_the_kernel_cannot_hold_is_refused_naming_the_path(
    change: object, message: str
) -> None:
    native = require_native()
    from naqala.native.content import content_data

    rules = rules_of("base")
    kernel = native.Kernel(json.dumps(content_data(rules)))
    data = _data(rules)
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        kernel.state(json.dumps(data))


def test_a_content_field_the_kernel_does_not_know_is_refused() -> None:
    native = require_native()
    from naqala.native.content import content_data

    data = content_data(rules_of("base"))
    data["colours"][0]["glow"] = 1
    with pytest.raises(ValueError, match="glow"):
        native.Kernel(json.dumps(data))


def test_the_native_state_is_small() -> None:
    """Written down in docs/architecture.md: at most 1.5 KB at 4 players of the base game
    (counts are 16-bit since issue #36: 1 000 meeples of a colour fit)."""
    require_native()
    from naqala.native.bridge import NativeRules

    rules = rules_of("base")
    bridge = NativeRules(rules)
    sizes = [bridge.to_native(s).size_bytes() for s in states_of_a_game(rules, 4, 1)]
    assert max(sizes) <= 1536, max(sizes)


def test_the_kernel_writes_the_turn_fields_the_plugins_declare() -> None:
    """The kernel writes the turn fields of the rules' plugins alone, as Python does: the
    Artisans' ``claimed`` only with the Artisans; it reads a missing field as its default
    and refuses an undeclared one that holds something, naming its path."""
    require_native()
    from naqala.native.bridge import NativeRules
    from naqala.testing.scenario import turn_of

    for name, claimed in (("base", False), ("artisans", True)):
        rules = rules_of(name)
        bridge = NativeRules(rules)
        state = turn_of(rules, rules.new_game(3, 5), 0)
        turn = bridge.data(bridge.to_native(state))["turn"]
        assert ("claimed" in turn) is claimed
        assert {"reach", "kills", "target"} <= set(turn)
        assert turn == state_to_data(rules, state)["turn"]
    rules = rules_of("base")
    bridge = NativeRules(rules)
    data = state_to_data(rules, turn_of(rules, rules.new_game(3, 5), 0))
    del data["turn"]["kills"]
    native = bridge.kernel.state(json.dumps(data))
    assert bridge.data(native)["turn"]["kills"] == 1
    data["turn"]["claimed"] = ["a1"]
    with pytest.raises(ValueError, match=r"^\$\.turn\.claimed: no turn field \"claimed\""):
        bridge.kernel.state(json.dumps(data))
