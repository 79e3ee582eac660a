"""The AI players on the native engine against the same players on the Python engine:
CPU time in one process, interleaved in slices (``time.process_time``), as
``bench/native.py`` measures random games.

- ``greedy``: whole 4-player games of greedy seats, seeds 0, 1, 2…: on Python, the game
  loop with a ``GreedyAgent`` per seat; on the kernel, ``Kernel.new_game`` and
  ``NativeState.play`` with greedy seats (the same seeds, the same moves, the same final
  state, as tests/test_native_agents.py proves). The ratio is of actions per CPU-second.
- ``mcts``: single decisions of ``mcts`` at its default budget, on the pick and bid
  decisions (and others with a choice) of 2-player greedy games: on Python a fresh
  ``MctsAgent`` choosing, on the kernel a fresh ``NativePlayer("mcts")`` choosing on the
  same state handed over beforehand (the handing over is not timed). Each round, the
  kernel searches the very decisions Python searched in its slice (repeated until as
  much CPU has passed), so both sides time the same mix. The ratio is of decisions per
  CPU-second; each side's mean CPU a decision is printed too.

Each round plays one slice a side; the median ratio of the rounds and their range are
printed, one line per run (``--runs``).

    python bench/native_agents.py greedy --runs 3
    python bench/native_agents.py mcts --runs 3 --rounds 5 --slice 2
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from naqala import native as kernel
from naqala.agents.greedy import GreedyAgent
from naqala.agents.mcts import MctsAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.native.bridge import NativeRules


def python_greedy_games(rules: Rules, players: int) -> Iterator[int]:
    """Whole greedy games on the Python engine, seeds 0, 1, 2…: actions of each."""
    for seed in itertools.count():
        agents = [GreedyAgent(agent_seed(seed, seat)) for seat in range(players)]
        state = rules.new_game(players, seed)
        count = 0
        while not state.is_over:
            options = rules.legal_actions(state)
            state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
            count += 1
        yield count


def native_greedy_games(bridge: NativeRules, players: int) -> Iterator[int]:
    """The same games on the kernel: a native setup, then one native call to the end."""
    for seed in itertools.count():
        seats = [("greedy", agent_seed(seed, seat)) for seat in range(players)]
        _, count, _ = bridge.new_game(players, seed).play(seats)
        yield count


def decision_states(rules: Rules, games: int) -> list[tuple[State, int]]:
    """Decisions with a choice from 2-player greedy games (seeds 100…), with the seed
    the searching seat gets."""
    found: list[tuple[State, int]] = []
    for seed in range(100, 100 + games):
        agents = [GreedyAgent(agent_seed(seed, seat)) for seat in range(2)]
        state = rules.new_game(2, seed)
        while not state.is_over:
            options = rules.legal_actions(state)
            seat = state.decision.player
            if len(options) > 1 and state.decision.stage != "drop":
                found.append((state, agent_seed(seed, seat)))
            state = rules.apply(state, agents[seat].choose(rules, state, options))
    return found


def decision_round(
    rules: Rules, bridge: NativeRules, states: list[tuple[State, int]], start: int, seconds: float
) -> tuple[int, int, float, int, float]:
    """One round on the same decisions: Python searches decisions from ``start`` on until
    ``seconds`` of CPU have passed; the kernel then searches those same decisions, over
    and over until as long has passed. (next start, Python decisions and CPU seconds,
    native decisions and CPU seconds.)"""
    native = kernel.native()
    begun = time.process_time()
    index = start
    while time.process_time() - begun < seconds:
        state, seed = states[index % len(states)]
        MctsAgent(seed).choose(rules, state, rules.legal_actions(state))
        index += 1
    py_spent = time.process_time() - begun
    window = [
        (bridge.to_native(states[i % len(states)][0]), states[i % len(states)][1])
        for i in range(start, index)
    ]
    begun = time.process_time()
    done = 0
    while time.process_time() - begun < py_spent or done < len(window):
        handed, seed = window[done % len(window)]
        native.NativePlayer("mcts", seed).choose(handed)
        done += 1
    return index, index - start, py_spent, done, time.process_time() - begun


def run_slice(units: Iterator[int], seconds: float) -> tuple[int, float]:
    """Units (actions, decisions) until ``seconds`` of CPU time have passed."""
    start = time.process_time()
    done = 0
    while True:
        done += next(units)
        spent = time.process_time() - start
        if spent >= seconds:
            return done, spent


def measure(
    what: str, rounds: int, seconds: float, out: Callable[[str], None]
) -> tuple[float, float, float]:
    """One run: the median ratio native/Python of units per CPU-second over ``rounds``,
    and each side's mean CPU-ms a unit."""
    rules = build_rules()
    bridge = NativeRules(rules)
    ratios: list[float] = []
    totals = [0, 0.0, 0, 0.0]
    if what == "greedy":
        unit = "action"
        ours, theirs = native_greedy_games(bridge, 4), python_greedy_games(rules, 4)
        next(ours), next(theirs)  # warm the caches outside the slices
        for _ in range(rounds):
            py_units, py_spent = run_slice(theirs, seconds)
            nat_units, nat_spent = run_slice(ours, seconds)
            measured = (py_units, py_spent, nat_units, nat_spent)
            ratios.append((nat_units / nat_spent) / (py_units / py_spent))
            totals = [a + b for a, b in zip(totals, measured, strict=True)]
    else:
        unit = "decision"
        states = decision_states(rules, 2)
        start = 0
        for _ in range(rounds):
            start, *measured = decision_round(rules, bridge, states, start, seconds)
            py_units, py_spent, nat_units, nat_spent = measured
            ratios.append((nat_units / nat_spent) / (py_units / py_spent))
            totals = [a + b for a, b in zip(totals, measured, strict=True)]
    py_units, py_spent, nat_units, nat_spent = totals
    ordered = sorted(ratios)
    median = statistics.median(ordered)
    python_ms, native_ms = 1000 * py_spent / py_units, 1000 * nat_spent / nat_units
    out(
        f"{what}: native/Python {median:.1f}× (rounds {ordered[0]:.1f}–{ordered[-1]:.1f}); "
        f"Python {python_ms:.3f} ms/{unit}, native {native_ms:.4f} ms/{unit}"
    )
    return median, python_ms, native_ms


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("greedy", "mcts"))
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="slices per side (default 5)")
    parser.add_argument("--slice", type=float, default=1.0, help="CPU s per slice (1.0)")
    args = parser.parse_args(argv)
    if not kernel.available():
        out(f"the native engine is not available: {kernel.unavailable_reason()}")
        return 2
    if args.runs < 1 or args.rounds < 1 or args.slice <= 0:
        parser.error("--runs and --rounds must be at least 1 and --slice positive")
    for _ in range(args.runs):
        measure(args.what, args.rounds, args.slice, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
