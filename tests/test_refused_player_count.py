"""A player count the rules refuse is a refusal of the rules, in the rules' words, on both
engines: a ValueError saying which counts they allow, never the kernel's "has not ported"
(a NotImplementedError, which reads as a gap in the port and sends callers to Python)."""

from __future__ import annotations

import pytest

from naqala.core.engine import build_rules
from naqala.native.bridge import NativeRules
from tests.native_kit import require_native


@pytest.mark.parametrize(
    ("expansions", "players"),
    [([], 5), ([], 1), ([], 0), ([], 9), (["djinns"], 6), (["artisans"], 5)],
    ids=["base 5", "base 1", "base 0", "base 9", "djinns 6", "artisans 5"],
)
def test_both_engines_refuse_a_player_count_in_the_same_words(
    expansions: list[str], players: int
) -> None:
    require_native()
    rules = build_rules(expansions)
    with pytest.raises(ValueError) as python:
        rules.new_game(players, 1)
    with pytest.raises(ValueError) as native:
        NativeRules(rules).new_game(players, 1)
    assert not isinstance(native.value, NotImplementedError)
    assert str(native.value) == str(python.value)
    assert "is not supported with these rules (allowed: " in str(native.value)
    assert "has not ported" not in str(native.value)


def test_the_solo_hint_is_given_on_both_engines() -> None:
    require_native()
    rules = build_rules()
    with pytest.raises(ValueError, match=r"\(one seat plays the solo mode: -x solo\)$"):
        NativeRules(rules).new_game(1, 1)


def test_a_count_the_rules_allow_still_sets_up_natively() -> None:
    require_native()
    rules = build_rules(["djinns"])
    native = NativeRules(rules)
    assert native.to_python(native.new_game(5, 3)) == rules.new_game(5, 3)


@pytest.mark.parametrize("players", [1, 5])
def test_the_environments_kernel_refuses_it_in_the_same_words(players: int) -> None:
    """``naqala.envs.native``'s engine deals single games and batches."""
    require_native()
    from naqala.envs.native import env_kernel

    rules = build_rules()
    with pytest.raises(ValueError) as python:
        rules.new_game(players, 1)
    kernel = env_kernel(rules)
    for deal in (lambda: kernel.deal(players, 1), lambda: kernel.batch(2, players, 1)):
        with pytest.raises(ValueError) as native:
            deal()
        assert not isinstance(native.value, NotImplementedError)
        assert str(native.value) == str(python.value)
    kernel.deal(3, 1)  # a count the rules allow
