"""What the native-engine tests share: the extension, or a skip saying why it is missing.

Where CI has built the kernel (``.ci/run`` sets ``NAQALA_REQUIRE_KERNEL=1``) a missing
extension fails instead of skipping, so a broken build cannot pass as "skipped"."""

from __future__ import annotations

import os
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from naqala import native as kernel
from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.native.bridge import NativeRules

if TYPE_CHECKING:
    from naqala.native.differential import Report


def require_native() -> ModuleType:
    """The extension module; skips the test (fails under ``NAQALA_REQUIRE_KERNEL``) if absent."""
    if not kernel.available():
        reason = kernel.unavailable_reason() or "the native engine is not available"
        if os.environ.get("NAQALA_REQUIRE_KERNEL"):
            pytest.fail(f"NAQALA_REQUIRE_KERNEL is set but {reason}")
        pytest.skip(reason)
    return kernel.native()


def assert_native_game_is_python(
    rules: Rules, bridge: NativeRules, players: int, seed: int
) -> None:
    """The game of ``players`` from ``seed`` set up natively as in Python, then played to
    the end by the kernel's random playout as ``play_game``'s random players play it: the
    same start, the same final state, as many actions, the same scores."""
    from naqala.core.serialize import state_to_data
    from naqala.core.simulate import agent_seed, play_game

    native = bridge.new_game(players, seed)
    assert bridge.data(native) == state_to_data(rules, rules.new_game(players, seed))
    final, count = play_game(rules, players, seed)
    seeds = [agent_seed(seed, seat) for seat in range(players)]
    ended, native_count = native.random_playout(seeds)
    assert (bridge.data(ended), native_count) == (state_to_data(rules, final), count)
    assert ended.scores() == list(rules.scores(final))


def assert_same_games(rules: Rules, games: Iterable[tuple[int, int]]) -> list[Report]:
    """Each game (players, seed) played by random players on the Python engine and
    compared with the kernel after every action (``verify_game``): fails on the first
    difference; the reports, for what a test wants reached."""
    require_native()
    from naqala.native.differential import verify_game

    bridge = NativeRules(rules)
    reports = []
    for players, seed in games:
        report = verify_game(rules, bridge, players, seed)
        assert not report.differences, report.differences[:2]
        reports.append(report)
    return reports


def same_on_the_kernel(rules: Rules, *states: State) -> None:
    """The kernel reads each state and offers the same options in the same order, and each
    option of every state but the last leads to the same state on both engines."""
    require_native()
    from naqala.native.differential import Report, compare_state

    native = NativeRules(rules)
    report = Report()
    for index, state in enumerate(states):
        compare_state(rules, native, state, report, "scenario", index)
    assert not report.differences, report.differences[:2]
    for before in states[:-1]:
        for action in rules.legal_actions(before):
            after = native.to_python(native.to_native(before).apply(str(action)))
            assert after == rules.apply(before, action), str(action)
