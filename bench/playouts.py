"""Random games per CPU-second: naqala against python-chess, interleaved in one process.

The metric is **games per CPU-second**: complete random naqala games (every seat a
random player, as ``naqala simulate`` plays them) per second of this process's CPU time,
divided by complete random python-chess games (uniform legal moves until the game is
over) per CPU-second. The two games differ in length — a random chess game is a few
hundred plies, a naqala game a few hundred decisions (more with more players and
expansions) — so the ratio compares whole games, and the actions per CPU-second and
µs per action are printed beside it for the engine's own speed.

Wall time on a shared machine swings by tens of percent, so both sides are measured in
CPU time (``time.process_time``) in short alternating slices in one process: each round
plays whole naqala games for one slice, then whole chess games for one slice. A handful
of random games per slice would make each round's games-per-second mostly a matter of
which games it drew (random chess games last from a few dozen to several hundred plies),
so each round gives the ratio of the speeds per action (naqala actions per CPU-second /
chess plies per CPU-second) and converts it to games with the mean game lengths of the
whole run: games/CPU-s = actions/CPU-s ÷ mean actions per game. The median over the
rounds and its spread (lowest–highest, and the middle half) are printed, so the spread
is the machine's noise. Only ratios are comparable across machines; the raw rates are
not.

    python bench/playouts.py                      # every expansion set and player count
    python bench/playouts.py --only base:4 --only artisans+djinns:5
    python bench/playouts.py --rounds 9 --slice 1.0

Install python-chess with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from naqala.core.engine import Rules, build_rules
from naqala.core.simulate import play_game

#: (expansions, player counts) of every set measured by default
SETS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    ((), (2, 3, 4)),
    (("artisans",), (2, 3, 4)),
    (("djinns",), (2, 3, 4, 5)),
    (("artisans", "djinns"), (2, 3, 4, 5)),
)

#: the targets of issue 12, by (set name, players)
TARGETS = {("base", 4): 3.0, ("artisans+djinns", 5): 2.0}


def set_name(expansions: tuple[str, ...]) -> str:
    return "+".join(expansions) or "base"


def naqala_games(rules: Rules, players: int) -> Iterator[int]:
    """Play random games forever (seeds 0, 1, 2…), yielding each game's action count."""
    seed = 0
    while True:
        _, actions = play_game(rules, players, seed=seed)
        seed += 1
        yield actions


def chess_games() -> Iterator[int]:
    """Play random python-chess games forever, yielding each game's ply count."""
    import chess

    rng = random.Random(0)  # the chess side needs no cross-version replay guarantee
    while True:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        yield board.ply()


def run_slice(games: Iterator[int], seconds: float) -> tuple[int, int, float]:
    """Play whole games until ``seconds`` of CPU time have passed: (games, actions, CPU s)."""
    start = time.process_time()
    count = actions = 0
    while True:
        actions += next(games)
        count += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return count, actions, spent


def spread(values: list[float]) -> str:
    """Median, lowest–highest and the middle half of ``values``."""
    ordered = sorted(values)
    if len(ordered) >= 4:
        q1, _, q3 = statistics.quantiles(ordered, n=4)
        middle = f", middle half {q1:.2f}–{q3:.2f}"
    else:
        middle = ""
    return f"{statistics.median(ordered):.2f}× (range {ordered[0]:.2f}–{ordered[-1]:.2f}{middle})"


def measure(
    expansions: tuple[str, ...], players: int, rounds: int, seconds: float
) -> dict[str, float]:
    """Interleave ``rounds`` slices of naqala and of chess; print and return the result."""
    rules = build_rules(list(expansions))
    ours = naqala_games(rules, players)
    theirs = chess_games()
    next(ours), next(theirs)  # warm the caches (walk tables, imports) outside the slices
    speed_ratios: list[float] = []
    totals = [0, 0, 0.0, 0, 0, 0.0]
    for _ in range(rounds):
        games, actions, spent = run_slice(ours, seconds)
        c_games, c_plies, c_spent = run_slice(theirs, seconds)
        speed_ratios.append((actions / spent) / (c_plies / c_spent))
        for i, value in enumerate((games, actions, spent, c_games, c_plies, c_spent)):
            totals[i] += value
    games, actions, spent, c_games, c_plies, c_spent = totals
    lengths = (c_plies / c_games) / (actions / games)  # chess plies/game ÷ naqala actions/game
    ratios = [speed * lengths for speed in speed_ratios]
    name = f"{set_name(expansions)} {players}p"
    target = TARGETS.get((set_name(expansions), players))
    goal = f"   target ≥ {target:.1f}×" if target else ""
    print(
        f"{name:<20} ratio {spread(ratios)}{goal}\n"
        f"{'':<20} pooled {games / spent / (c_games / c_spent):.2f}× (all games of the run)\n"
        f"{'':<20} naqala {games / spent:7.1f} games/CPU-s, "
        f"{actions / spent:8.0f} actions/CPU-s, {spent / actions * 1e6:6.1f} µs/action, "
        f"{actions / games:5.0f} actions/game\n"
        f"{'':<20} chess  {c_games / c_spent:7.1f} games/CPU-s, "
        f"{c_plies / c_spent:8.0f} plies/CPU-s,   {c_spent / c_plies * 1e6:6.1f} µs/ply, "
        f"   {c_plies / c_games:5.0f} plies/game",
        flush=True,
    )
    return {"ratio": statistics.median(ratios), "us_per_action": spent / actions * 1e6}


def parse_only(text: str) -> tuple[tuple[str, ...], int]:
    """``artisans+djinns:5`` → (("artisans", "djinns"), 5)."""
    name, _, players = text.partition(":")
    expansions = () if name in ("", "base") else tuple(name.split("+"))
    if not players.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: write SET:PLAYERS, e.g. base:4")
    return expansions, int(players)


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=7, help="slices per side (default 7)")
    parser.add_argument(
        "--slice", type=float, default=0.6, help="CPU seconds per slice (default 0.6)"
    )
    parser.add_argument(
        "--only",
        type=parse_only,
        action="append",
        default=[],
        metavar="SET:PLAYERS",
        help="measure only this (repeatable), e.g. base:4 or artisans+djinns:5",
    )
    args = parser.parse_args(argv)
    try:
        import chess  # noqa: F401
    except ImportError:
        sys.exit("python-chess is not installed: pip install -e '.[bench]'")
    cases = args.only or [(ex, p) for ex, counts in SETS for p in counts]
    out(
        "ratio = naqala random games per CPU-second / python-chess random games per "
        "CPU-second\n"
        f"(median of {args.rounds} interleaved rounds of {args.slice:g} CPU-s per side; "
        "the games differ in length, see actions/game and plies/game)\n"
    )
    for expansions, players in cases:
        measure(expansions, players, args.rounds, args.slice)


if __name__ == "__main__":
    main()
