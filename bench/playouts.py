"""Random playouts per second: a naqala game (the 4-player base game unless told
otherwise) against python-chess.

Both are measured in one run on the same machine, so the printed ratio is comparable
across machines while the raw rates are not. Install with ``pip install -e '.[bench]'``.

    python bench/playouts.py [--seconds 10] [--players 5] [-x artisans -x djinns]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from naqala.core.engine import build_rules
from naqala.core.simulate import play_game


def naqala_rate(seconds: float, players: int, expansions: list[str]) -> tuple[float, int]:
    rules = build_rules(expansions)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(rules, players, seed=games)
        games += 1
    return games / (time.perf_counter() - start), games


def chess_rate(seconds: float) -> tuple[float, int]:
    try:
        import chess
    except ImportError:
        sys.exit("python-chess is not installed: pip install -e '.[bench]'")
    rng = random.Random(0)  # the chess side needs no cross-version replay guarantee
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        games += 1
    return games / (time.perf_counter() - start), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="time per side")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "-x", "--expansion", action="append", default=[], help="an expansion (repeatable)"
    )
    args = parser.parse_args()
    ours, n_ours = naqala_rate(args.seconds, args.players, args.expansion)
    theirs, n_theirs = chess_rate(args.seconds)
    game = "+".join(["base", *args.expansion])
    print(f"naqala {args.players}-player {game}: {ours:8.2f} random playouts/s ({n_ours} games)")
    print(f"python-chess: {theirs:8.2f} random games/s ({n_theirs} games)")
    print(f"ratio naqala/chess: {ours / theirs:.2f}  (target >= 0.2 now, goal >= 1.0)")


if __name__ == "__main__":
    main()
