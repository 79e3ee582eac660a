"""What a call into the kernel costs beyond its work: random games stepped call by call
from Python against random games played in one call, in one process.

Stepped: ``NativeState.legal_actions`` and ``apply`` at every decision (what the table,
the environments' fallback and the differential harness do), each choice drawn from one
seeded ``Rng``. Whole: ``NativeState.random_playout`` from the same set-ups. Rounds of
each alternate in CPU-time slices (``time.process_time``), so the machine's load falls on
both alike. Printed: the median ratio of CPU per action (stepped / whole) and its range,
and the CPU of one stepped action (two calls). Each call once built the kernel's rules
(``Rules::new``, reading every name: 6.7 µs in the base game, 22.7 with the Thieves); a
kernel now builds them once (``kernel/src/shared_rules.rs``), which this ratio shows.

    python bench/kernel_calls.py [--rounds 5] [--slice 0.5] [-x thieves]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from naqala.core.rng import Rng
from naqala.native.bridge import NativeRules
from naqala.native.differential import ported_rules

PLAYERS = 4


def stepped(bridge: NativeRules, seed: int) -> int:
    """One random game stepped call by call; its number of actions."""
    state = bridge.new_game(PLAYERS, seed)
    rng = Rng(seed)
    actions = 0
    while options := state.legal_actions():
        index, rng = rng.below(len(options))
        state = state.apply(options[index])
        actions += 1
    return actions


def whole(bridge: NativeRules, seed: int) -> int:
    """One random game in one call; its number of actions."""
    start = bridge.new_game(PLAYERS, seed)
    return int(start.random_playout([seed * 10 + seat for seat in range(PLAYERS)])[1])


def per_action(
    play: Callable[[NativeRules, int], int], bridge: NativeRules, budget: float
) -> float:
    """CPU-seconds per action over games of ``play`` for ``budget`` CPU-seconds."""
    started = time.process_time()
    actions = 0
    seed = 0
    while time.process_time() - started < budget:
        actions += play(bridge, seed)
        seed += 1
    return (time.process_time() - started) / actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=0.5)
    parser.add_argument("-x", "--plugin", action="append", default=[], help="a box to add")
    args = parser.parse_args()
    bridge = ported_rules(args.plugin)[1]
    stepped(bridge, 0)
    whole(bridge, 0)
    ratios, steps = [], []
    for _ in range(args.rounds):
        step = per_action(stepped, bridge, args.slice)
        ratios.append(step / per_action(whole, bridge, args.slice))
        steps.append(step)
    boxes = "+".join(["base", *args.plugin])
    print(
        f"kernel calls, {PLAYERS} players {boxes}: a stepped action costs "
        f"{statistics.median(ratios):.1f}× a whole game's (range {min(ratios):.1f}–"
        f"{max(ratios):.1f}×), {statistics.median(steps) * 1e6:.1f} µs for its two calls"
    )


if __name__ == "__main__":
    main()
