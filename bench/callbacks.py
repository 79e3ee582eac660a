"""What a code hook called back by the native engine costs: games of a house rule whose
hook the kernel calls back against the base game, both native, in one process.

For each example of ``plugins/examples`` whose hook the kernel calls back
(docs/hooks.md, "Hooks called back"), the same seeds are played natively with and without
it, random and greedy seats, each game played and its result read as a study does
(``naqala.lab.native.play_native``: the kernel's reading, where a verdict is judged, or a
Python state where the kernel does not write every score line) — and the CPU time
(``time.process_time``) of each side is read, sides alternating, ``--runs`` times; the
median ratio is printed, per game and per action (a round cap plays shorter games, so
per action is the hook's own cost). Last, a verdict
that asks for the full Python ``State`` (``state.full_state()``) and scores it shows
what that costs, and a Python player seated among native greedy ones what its seat costs
beside its own decisions. The targets of issue 39: at most 1.5× with random players and
2× with greedy ones; the Python seat at most its own decisions plus 1.2× native.

    python bench/callbacks.py [--games 200] [--greedy-games 10] [--runs 3]
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from naqala import native as kernel
from naqala.core.agents import make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.simulate import agent_seed
from naqala.lab.native import play_native
from naqala.native.callbacks import seat_function
from naqala.native.support import called_back_words, native_obstacle, native_rules

EXAMPLES = Path(__file__).resolve().parents[1] / "plugins" / "examples"
#: the examples whose hooks the kernel calls back
CALLED_BACK = (
    "round_cap.py",
    "safe_elders.py",
    "sultans_favour.py",
    "thrifty_caravans.py",
    "fakirs_in_hand.py",
    "rich_villages.py",
    "golden_oases.py",
)
PLAYERS = 4
#: a verdict hook that asks for the whole Python state and scores it
FULL_STATE = """
from naqala.core.hookspecs import hookimpl

NAME = "full-state-verdict"
VERSION = "1.0"


@hookimpl
def naqala_verdict(rules, state):
    rules.scores(state.full_state())
    return None
"""

Side = Callable[[], tuple[float, int]]


def study_games(rules: Rules, games: int, player: str) -> Side:
    """Play ``games`` games of ``player`` seats natively and read each result as a study
    does (``naqala.lab.native.play_native``): (CPU seconds, actions). Each run plays the
    next ``games`` seeds, so the kernel never answers a hook from memory of the very game
    it played before (both sides of a ratio play the same seeds)."""
    runs = itertools.count()

    def run() -> tuple[float, int]:
        first = next(runs) * games
        started, actions = time.process_time(), 0
        for seed in range(first, first + games):
            actions += play_native(rules, PLAYERS, seed, [player] * PLAYERS).actions
        return time.process_time() - started, actions

    return run


def ratio(label: str, hooked: Side, base: Side, runs: int) -> None:
    """Time both sides ``runs`` times, alternating; print the median ratios."""
    hooked(), base()  # warmed: rules, kernel and caches built
    per_game, per_action = [], []
    for _ in range(runs):
        (slow, slow_actions), (fast, fast_actions) = hooked(), base()
        per_game.append(slow / fast)
        per_action.append((slow / slow_actions) / (fast / fast_actions))
    print(
        f"  {label}: {statistics.median(per_game):.2f}× the base game's CPU per game, "
        f"{statistics.median(per_action):.2f}× per action"
    )


def python_seat(games: int, runs: int) -> None:
    """A Python player (``plugins/examples/coiny.py``) in seat 1 with three native greedy
    seats, against four native greedy seats: the mixed game's CPU less the Python seat's
    own decisions (timed inside them), per action, over the native game's."""
    coiny = importlib.import_module("naqala.plugins.examples.coiny")
    rules = build_rules(extra_plugins=[coiny])
    bridge = native_rules(rules)
    own = [0.0]

    def timed(choose: Callable[[Any, list[str]], int]) -> Callable[[Any, list[str]], int]:
        def call(view: Any, notations: list[str]) -> int:
            started = time.process_time()
            try:
                return choose(view, notations)
            finally:
                own[0] += time.process_time() - started

        return call

    def mixed() -> tuple[float, int]:
        started, actions = time.process_time(), 0
        for seed in range(games):
            seats = [("greedy", agent_seed(seed, seat)) for seat in range(PLAYERS)]
            agent = timed(seat_function(rules, make_agent(rules, "coiny", seats[0][1])))
            agents = [agent, *([None] * (PLAYERS - 1))]
            actions += bridge.new_game(PLAYERS, seed).play(seats, agents)[1]
        return time.process_time() - started, actions

    def native() -> tuple[float, int]:
        started, actions = time.process_time(), 0
        for seed in range(games):
            seats = [("greedy", agent_seed(seed, seat)) for seat in range(PLAYERS)]
            actions += bridge.new_game(PLAYERS, seed).play(seats)[1]
        return time.process_time() - started, actions

    mixed(), native()
    found = []
    for _ in range(runs):
        own[0] = 0.0
        (slow, slow_actions), (fast, fast_actions) = mixed(), native()
        found.append(((slow - own[0]) / slow_actions) / (fast / fast_actions))
    print(
        f"a Python seat (coiny) with 3 native greedy ones, {games} games: less its own "
        f"decisions, {statistics.median(found):.2f}× the native game's CPU per action"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--greedy-games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit(f"no native engine: {kernel.unavailable_reason()}")
    base = build_rules()
    print(f"native games of {PLAYERS}, one process, median of {args.runs} runs")
    with tempfile.TemporaryDirectory() as folder:
        full = Path(folder) / "full_state_verdict.py"
        full.write_text(FULL_STATE, encoding="utf-8")
        for path in [*(EXAMPLES / name for name in CALLED_BACK), full]:
            compare(path, base, args)
    python_seat(args.greedy_games, args.runs)


def compare(path: Path, base: Rules, args: argparse.Namespace) -> None:
    """Print the ratios of the house rule at ``path`` against the base game."""
    name = path.name
    rules = build_rules([], [path])
    reason = native_obstacle(rules)
    if reason is not None:
        raise SystemExit(f"{name} does not play natively: {reason}")
    print(f"{name}: calling back {called_back_words(rules)}")
    ratio(
        f"{args.games} random games",
        study_games(rules, args.games, "random"),
        study_games(base, args.games, "random"),
        args.runs,
    )
    ratio(
        f"{args.greedy_games} greedy games",
        study_games(rules, args.greedy_games, "greedy"),
        study_games(base, args.greedy_games, "greedy"),
        args.runs,
    )


if __name__ == "__main__":
    main()
