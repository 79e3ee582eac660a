"""One game of a study played on the native engine, with the result the Python game gives.

The whole game runs in one kernel call (``NativeState.play``: setup, every seat's choice,
the scores at the end of each round); only what the result needs comes back to Python:
the first bidders, read from the new game's state JSON, and the final state, converted
once (its shape checked, not its meaning: the differential harness proves the kernel's
states the Python engine's), from which the score lines, winners, verdict and holdings
are read as for a Python game. A study plays here only when its engine was chosen native
for its rules and seats (the engine plan, ``naqala.kernel.plan``, weighed by
``naqala.kernel.choice.choose``), so the result is the Python engine's, game for game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed
from naqala.kernel.choice import AUTO, NATIVE, choose
from naqala.kernel.support import native_rules
from naqala.lab.results import GameResult, first_bidders, result_of

if TYPE_CHECKING:
    from naqala.lab.study import Study


def plays_native(study: Study, rules: Rules) -> bool:
    """Whether ``study``'s games play natively: ``native`` always (the command checked
    it), ``python`` never, ``auto`` when its rules and seats can (asked once per rules)."""
    if study.engine != AUTO:
        return study.engine == NATIVE
    key = f"naqala.lab.auto:{','.join(study.seats)}"
    if key not in rules.memo:
        rules.memo[key] = choose(rules, AUTO, study.seats).engine == NATIVE
    found: bool = rules.memo[key]
    return found


def play_native(rules: Rules, players: int, seed: int, names: Sequence[str]) -> GameResult:
    """The result of the game of ``players`` from ``seed`` with the agents ``names`` by
    seat, played natively (``NotImplementedError`` naming what the kernel lacks)."""
    bridge = native_rules(rules)
    start = bridge.new_game(players, seed)
    seats = [(name, agent_seed(seed, seat)) for seat, name in enumerate(names)]
    final, actions, rounds = start.play(seats)
    begun = bridge.data(start)
    first = first_bidders(begun["bid_track"], begun["markers"])
    state = bridge.to_python(final, meaning=False)  # proven the Python engine's state
    played = [tuple(scores) for scores in rounds]
    return result_of(rules, state, seed, actions, names, first, played)
