"""naqala's native search player against OpenSpiel's ISMCTS, inside OpenSpiel.

Both seats play the registered OpenSpiel game ``python_naqala`` on the native engine:
OpenSpiel's ``ISMCTSBot`` (``--sims`` simulations a decision, judged by
``CurrentScores``, information sets keyed by naqala's information-state string) at one
seat and a naqala player (``--seat``, ``ismcts`` by default) at the other, reading the
same position through the kernel. Each deal is played twice with the seats swapped.
Prints the naqala player's win rate (a shared win split) with its 95% Wilson interval,
and each side's CPU a decision, so that "at equal CPU" can be read off the line: the
OpenSpiel bot is given at least the naqala player's CPU.

Needs the openspiel extra: ``pip install 'naqala[openspiel]'``.

    python bench/openspiel_match.py --pairs 50 --sims 20
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from naqala.core.simulate import agent_seed
from naqala.lab.results import wilson
from naqala.native import available, native, unavailable_reason
from naqala.native.bridge import NativeRules

#: the first deal by default (pair k plays deal --seed + k twice)
BASE_SEED = 9600


def match_game(
    seat_name: str, sims: int, uct_c: float, seed: int, ours: int
) -> tuple[float, float, int, float, int]:
    """One game of deal ``seed``, the naqala player at seat ``ours``: its share of the
    win, and CPU seconds and decisions of each side (naqala's, then OpenSpiel's)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    from naqala.envs import openspiel

    game = pyspiel.load_game(
        "python_naqala", {"players": 2, "expansions": "", "seed": seed, "engine": "native"}
    )
    bot = ismcts.ISMCTSBot(
        game,
        openspiel.CurrentScores(),
        uct_c=uct_c,
        max_simulations=sims,
        random_state=np.random.RandomState(seed),
        allow_inconsistent_action_sets=True,
    )
    player = native().NativePlayer(seat_name, agent_seed(seed, ours))
    bridge = NativeRules(game.rules)
    state = game.new_initial_state()
    state.apply_action(0)
    cpu = [0.0, 0.0]
    count = [0, 0]
    while not state.is_terminal():
        legal = state.legal_actions()
        seat = state.current_player()
        side = 0 if seat == ours else 1
        started = time.process_time()
        if len(legal) == 1:
            action = legal[0]
        elif side == 0:
            position = bridge.to_native(state.game_state)
            index = player.choose(position)
            action = state.game.option_index(index)
        else:
            action = bot.step(state)
        cpu[side] += time.process_time() - started
        count[side] += len(legal) > 1
        state.apply_action(action)
    scores = state.game.scores()
    top = max(scores)
    winners = [s for s, v in enumerate(scores) if v == top]
    won = 1.0 / len(winners) if ours in winners else 0.0
    return won, cpu[0], count[0], cpu[1], count[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seat", default="ismcts", help="the naqala player (a seat name)")
    parser.add_argument("--sims", type=int, default=20, help="OpenSpiel's simulations")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=BASE_SEED, help="the first deal")
    args = parser.parse_args(argv)
    if not available():
        print(f"needs the native engine: {unavailable_reason()}", file=sys.stderr)
        return 2
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        print("needs the openspiel extra: pip install 'naqala[openspiel]'", file=sys.stderr)
        return 2
    jobs = [(args.seed + k, seat) for k in range(args.pairs) for seat in (0, 1)]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(match_game, args.seat, args.sims, args.uct_c, seed, seat)
            for seed, seat in jobs
        ]
        results = [future.result() for future in futures]
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    ours = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    theirs = sum(r[3] for r in results) / max(1, sum(r[4] for r in results))
    print(
        f"{args.seat} vs OpenSpiel ISMCTS ({args.sims} simulations, uct_c {args.uct_c}) "
        f"at 2 players: {len(results)} games, win rate {wins / len(results):.3f} "
        f"[{low:.3f}, {high:.3f}]; CPU a decision {ours * 1000:.1f} ms vs "
        f"{theirs * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
