"""Move counting: the polynomial count (``naqala perft``) against listing every move
(``naqala perft --enumerate``), in CPU time, on 5×6 boards with N meeples on every tile.

Both run in one process on the same boards, so the printed ratios compare across
machines while the raw times do not. Listing grows exponentially with N, so it is only
run up to ``--enumerate-up-to`` meeples (and is cut off after ``--max-seconds``).

    python bench/perft.py [--meeples 3 4 5 8 12] [--enumerate-up-to 5] [--max-seconds 60]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from naqala.core.board import Geometry
from naqala.core.state import Counts
from naqala.plugins.base.boardfile import parse_board
from naqala.plugins.base.movement import count_moves
from naqala.plugins.base.perft import PerftTimeout, count_moves_fast

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meeples", type=int, nargs="+", default=[3, 4, 5, 8, 12])
    parser.add_argument("--enumerate-up-to", type=int, default=5)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'meeples':>7} {'moves':>14} {'count s':>8} {'list s':>8} {'ratio':>8}")
    for n in args.meeples:
        geo, meeples = dense_board(n)
        fast_time, fast = cpu(lambda g=geo, m=meeples: count_moves_fast(g, m))
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
        print(f"{n:>7} {fast[0]:>14} {fast_time:>8.2f} {listed:>8} {ratio:>8}")


if __name__ == "__main__":
    main()
