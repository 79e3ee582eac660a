"""Move counting: the polynomial count (``naqala perft``) against listing every move
(``naqala perft --enumerate``), in CPU time, on 5×6 boards with N meeples on every tile.

Both run in one process on the same boards, so the printed ratios compare across
machines while the raw times do not. Listing grows exponentially with N, so it is only
run up to ``--enumerate-up-to`` meeples (and is cut off after ``--max-seconds``).

    python bench/perft.py [--meeples 3 4 5 8 12] [--enumerate-up-to 5] [--max-seconds 60]
    python bench/perft.py --limit 5

``--limit S`` measures the time limit instead: both counts on boards they cannot finish
within ``S`` CPU seconds (a 5×6 board of 1,000 meeples a tile for the count, 12 for
listing), printing the CPU seconds each took to give up and the peak memory of the
process, so "the limit holds within a tenth of itself" is a figure, not a hope.

Where the native engine is installed, the count also runs on the kernel
(``count_moves_fast(..., engine="native")``, the same numbers asserted): the ``native s``
column and ``py/native``, the ratio of CPU times of the two engines' counts (each the
median of ``--repeat`` runs), and the kernel's count in ``--limit``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable

from naqala import native as kernel
from naqala.core.board import Geometry
from naqala.core.state import Counts
from naqala.testing.boardfile import parse_board
from naqala.testing.perft import PerftTimeout, count_moves, count_moves_fast

COLOURS = "YWGBR"


def dense_board(meeples: int, rows: int = 5, cols: int = 6) -> tuple[Geometry, tuple[Counts, ...]]:
    """Every tile holds ``meeples`` meeples, colours cycling differently per tile."""
    tiles = [
        "".join(COLOURS[(tile + i * (1 + tile % 3)) % 5] for i in range(meeples))
        for tile in range(rows * cols)
    ]
    return parse_board({"rows": rows, "cols": cols, "meeples": tiles}, "bench")


def cpu(run: Callable[[], tuple[int, int]]) -> tuple[float, tuple[int, int]]:
    """CPU seconds of ``run()`` and its result."""
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


def _native(
    geo: Geometry, meeples: tuple[Counts, ...], max_seconds: float | None = None
) -> tuple[int, int]:
    return count_moves_fast(geo, meeples, max_seconds, engine="native")


def median_cpu(run: Callable[[], tuple[int, int]], repeat: int) -> tuple[float, tuple[int, int]]:
    """The median CPU seconds of ``repeat`` runs of ``run()``, and its result."""
    times = []
    result = (0, 0)
    for _ in range(repeat):
        took, result = cpu(run)
        times.append(took)
    return statistics.median(times), result


def limit_overshoot(limit: float) -> None:
    """How long each count takes to give up at ``limit`` CPU seconds, and the memory."""
    print(f"{'count':>10} {'limit s':>8} {'gave up s':>10} {'over':>7} {'peak MB':>8}")
    runs: list[tuple[str, int, Callable[..., tuple[int, int]]]] = [
        ("polynomial", 1000, count_moves_fast),
        ("listing", 12, count_moves),
    ]
    if kernel.available():
        runs.append(("native", 1000, _native))
    for name, per_tile, counter in runs:
        geo, meeples = dense_board(per_tile)
        start = time.process_time()
        try:
            counter(geo, meeples, max_seconds=limit)
        except PerftTimeout:
            pass
        else:
            print(f"{name:>10}: finished within the limit; use a smaller --limit")
            continue
        took = time.process_time() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        over = f"{(took - limit) / limit:+.1%}"
        print(f"{name:>10} {limit:>8g} {took:>10.2f} {over:>7} {peak:>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meeples", type=int, nargs="+", default=[3, 4, 5, 8, 12])
    parser.add_argument("--enumerate-up-to", type=int, default=5)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--limit", type=float, help="measure how the time limit holds")
    parser.add_argument("--repeat", type=int, default=3, help="runs per count (median)")
    args = parser.parse_args()
    if args.limit is not None:
        limit_overshoot(args.limit)
        return
    native = kernel.available()
    if not native:
        print(f"(no native column: {kernel.unavailable_reason()})")
    header = f"{'meeples':>7} {'moves':>14} {'count s':>8} {'list s':>8} {'ratio':>8}"
    print(header + (f" {'native s':>9} {'py/native':>9}" if native else ""))
    for n in args.meeples:
        geo, meeples = dense_board(n)
        fast_time, fast = median_cpu(lambda g=geo, m=meeples: count_moves_fast(g, m), args.repeat)
        listed = "-"
        ratio = "-"
        if n <= args.enumerate_up_to:
            try:
                slow_time, slow = cpu(
                    lambda g=geo, m=meeples: count_moves(g, m, max_seconds=args.max_seconds)
                )
            except PerftTimeout:
                listed = f">{args.max_seconds:g}"
            else:
                assert slow == fast, (slow, fast)
                listed = f"{slow_time:.2f}"
                ratio = f"{slow_time / max(fast_time, 1e-6):.1f}x"
        line = f"{n:>7} {fast[0]:>14} {fast_time:>8.4f} {listed:>8} {ratio:>8}"
        if native:
            native_time, counted = median_cpu(lambda g=geo, m=meeples: _native(g, m), args.repeat)
            assert counted == fast, (counted, fast)
            line += f" {native_time:>9.4f} {fast_time / max(native_time, 1e-7):>8.1f}x"
        print(line)


if __name__ == "__main__":
    main()
