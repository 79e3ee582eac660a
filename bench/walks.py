"""Walks with many meeples on a tile: the pick and drop checks of both engines, 1-100 meeples.

A move walks as many steps as the meeples picked up, and both engines decide which tiles
may be picked, and where the next meeple may go, from walk tables of exactly that many
steps (``core/board.py``'s ``reach(here, prev, k)`` and ``loop_ends``, memoised per k;
``kernel/src/geometry.rs``'s levels, memoised per k as well). The kernel once built
its tables up to 24 steps and recursed beyond, without a memo: one pick check took
1.1 s with 36 meeples on a tile and 25.8 s with 38 (issue #36). This bench shows that
the cost now grows with the meeples, not exponentially.

For each count N, a content-only house rule puts N meeples on every tile
(``meeples_per_tile``, with extra meeples enough for the bag), a 2-player game is set up
and bid to its first pick, and in one process, CPU time (``time.process_time``):

- *pick*: the legal starts (the pick's options: every tile's N-step walks);
- *drop*: the legal drops after the first pick (N-step walks from the tile picked);

on the Python engine the stage's options (``legal_actions`` keeps the list of the last
state it was asked about), on the kernel ``NativeState.legal_actions``.

Each is timed cold (the first call on new rules: the kernel builds its walk tables per
content, while Python keeps them per board shape, so its shorter walks are built by an
earlier count) and warm (the median of repeats), on the Python engine and the kernel,
with the ratio Python / native. The times stay flat from 1 to 100 meeples on both: the
levels of walks on a board soon repeat, and the kernel stops building them there.

    python bench/walks.py                    # 1, 2, 5, 10, 20, 30, 40, 60, 80, 100
    python bench/walks.py --counts 36 38 40
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from naqala import native as kernel
from naqala.core.actions import Action
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.native.bridge import NativeRules

COUNTS = (1, 2, 5, 10, 20, 30, 40, 60, 80, 100)
#: the most meeples of one colour the content allows (docs/formats.md)
MOST_OF_A_COLOUR = 1000


def house_rule(folder: Path, per_tile: int, rules: Rules) -> Path:
    """A content-only house rule: ``per_tile`` meeples on every tile, the bag filled up to
    cover the board with extra meeples, colour by colour, each within its bound."""
    tiles = sum(1 for spec in rules.tile_specs.values() if spec.holds_meeples)
    short = tiles * per_tile - sum(c.count for c in rules.colours)
    lines = [
        f'[house-rule]\nname = "walks-{per_tile}"\n',
        f"[settings]\nmeeples_per_tile = {per_tile}\n",
    ]
    for colour in rules.colours:
        more = min(max(short, 0), MOST_OF_A_COLOUR - colour.count)
        if more > 0:
            lines.append(f'[[extra_meeples]]\ncolour = "{colour.id}"\ncount = {more}\n')
            short -= more
    path = folder / f"walks-{per_tile}.toml"
    path.write_text("\n".join(lines))
    return path


def to_first_pick(rules: Rules, state: State) -> State:
    """``state`` played on (first legal action each time) to the first pick."""
    while state.decision.stage != "pick":
        state = rules.apply(state, rules.legal_actions(state)[0])
    return state


def stage_options(rules: Rules, state: State) -> list[Action]:
    """The pending stage's options, worked out again (the pick's legal starts, the drops)."""
    return list(rules.stages[state.decision.stage].legal(rules, state))


def timed(call: Callable[[], Any]) -> float:
    """The CPU seconds one call takes."""
    start = time.process_time()
    call()
    return time.process_time() - start


def warm(call: Callable[[], Any], budget: float) -> float:
    """The median CPU seconds of repeated calls, for about ``budget`` seconds (3 at least)."""
    times = [timed(call)]
    spent = times[0]
    while len(times) < 3 or spent < budget:
        times.append(timed(call))
        spent += times[-1]
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms"


def measure(per_tile: int, folder: Path, budget: float, out: Callable[[str], None]) -> None:
    """One row each for the pick and the drop with ``per_tile`` meeples on every tile."""
    path = house_rule(folder, per_tile, build_rules(()))
    rows: dict[str, list[float]] = {"pick": [], "drop": []}
    for engine in ("python", "native"):
        rules = build_rules((), [path])  # new rules: cold walk tables
        state = to_first_pick(rules, rules.new_game(2, 0))
        picked = rules.apply(state, rules.legal_actions(state)[0])
        if engine == "python":  # the stage's own options (`legal_actions` keeps its last list)
            checks = [partial(stage_options, rules, state), partial(stage_options, rules, picked)]
        else:
            bridge = NativeRules(rules)
            native, native_picked = bridge.to_native(state), bridge.to_native(picked)
            checks = [native.legal_actions, native_picked.legal_actions]
        for stage, check in zip(("pick", "drop"), checks, strict=True):
            rows[stage] += [timed(check), warm(check, budget)]
    for stage, (py_cold, py_warm, nat_cold, nat_warm) in rows.items():
        out(
            f"{per_tile:4d}  {stage}  Python cold {fmt(py_cold)} warm {fmt(py_warm)}  "
            f"native cold {fmt(nat_cold)} warm {fmt(nat_warm)}  "
            f"Python/native warm {py_warm / max(nat_warm, 1e-9):6.1f}×"
        )


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", type=int, nargs="+", default=list(COUNTS), metavar="N")
    parser.add_argument("--budget", type=float, default=0.05, help="CPU s of warm repeats")
    args = parser.parse_args(argv)
    if not kernel.available():
        out(f"the native engine is not available: {kernel.unavailable_reason()}")
        return 2
    if any(n < 1 for n in args.counts):
        parser.error("--counts must be at least 1")
    out("meeples on every tile; CPU time of one legal-actions call (cold: new walk tables)")
    with tempfile.TemporaryDirectory() as folder:
        for per_tile in args.counts:
            measure(per_tile, Path(folder), args.budget, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
