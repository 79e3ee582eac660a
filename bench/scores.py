"""Reading the scores on the Python engine: what one read costs, and what the reads cost
the lab's games and the mcts player's decisions.

    python bench/scores.py [--games 20] [--players 4] [--decisions 6] [--runs 3]

- **a read**: ``rules.scores`` on states seen for the first time (the states at the end
  of every round and at the end of random games), µs per read;
- **the lab**: a game of ``lab/study.py``'s ``play_task`` (random players) against the
  same reads alone (the scores at the end of every round, then ``result_of``'s score
  lines, scores, winners and verdict), µs per game and the reads' share;
- **mcts**: CPU ms per decision of the default ``mcts`` player on states of random
  games, and the share of it spent reading scores (``Rules.scores`` and
  ``Rules.score_lines`` timed from inside, with a counter of the reads).

All in CPU time (``time.process_time``) in one process; the figures compare runs of
this script on one machine (before and after a change), not machines.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from naqala.core.agents import RandomAgent, make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.lab.results import result_of
from naqala.lab.study import Ruleset, Study, play_task


def round_states(rules: Rules, players: int, seed: int) -> tuple[list[State], State]:
    """The first state of every round after the first (where the lab reads the scores of
    the round that ended) and the final state, of one random game."""
    agents = [RandomAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    ends: list[State] = []
    while not state.is_over:
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
        if state.round > len(ends) + 1:
            ends.append(state)
    return ends, state


def cpu(run: Callable[[], Any]) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


def read_cost(rules: Rules, states: list[State]) -> float:
    """µs per ``rules.scores`` read, each state read once per pass, 5 passes."""
    passes = 5

    def reads() -> None:
        for _ in range(passes):
            for state in states:
                rules.scores(state)

    return cpu(reads) / (passes * len(states)) * 1e6


def lab_reads(rules: Rules, ends: list[State], final: State, seed: int) -> None:
    """The reads ``play_task`` makes: every round's scores, then ``result_of``."""
    for state in ends:
        rules.scores(state)
    result_of(rules, final, seed, 0)


@contextmanager
def timed_reads(rules: Rules) -> Iterator[list[float]]:
    """``[seconds, reads]`` spent in ``rules.scores`` and ``rules.score_lines`` while the
    block runs (outermost calls only: ``scores`` reads lines, ``winners`` reads scores)."""
    spent = [0.0, 0.0]
    depth = [0]
    originals = {name: getattr(rules, name) for name in ("scores", "score_lines")}

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            if depth[0]:
                return function(*args)
            depth[0] += 1
            started = time.process_time()
            try:
                return function(*args)
            finally:
                spent[0] += time.process_time() - started
                spent[1] += 1
                depth[0] -= 1

        return timed

    for name, function in originals.items():
        setattr(rules, name, wrap(function))
    try:
        yield spent
    finally:
        for name in originals:
            delattr(rules, name)


def mcts_states(rules: Rules, players: int, count: int) -> list[State]:
    """``count`` decisions of random games: picks and bids, spread over a game."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        agent = RandomAgent(seed)
        state = rules.new_game(players, seed)
        step = 0
        while not state.is_over and len(found) < count:
            if state.decision.stage in ("pick", "bid") and step % 37 == 5:
                found.append(state)
            state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
            step += 1
        seed += 1
    return found


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=6, help="mcts decisions (0: none)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    rules = build_rules()
    played = [round_states(rules, args.players, seed) for seed in range(args.games)]
    states = [s for ends, final in played for s in (*ends, final)]
    study = Study(Ruleset(), ("random",) * args.players)
    for run in range(1, args.runs + 1):
        read = read_cost(rules, states)
        game = cpu(lambda: [play_task((study, i)) for i in range(args.games)]) / args.games
        reads = (
            cpu(lambda: [lab_reads(rules, e, f, i) for i, (e, f) in enumerate(played)]) / args.games
        )
        out(
            f"run {run}: a read {read:.1f} µs ({args.players} players); a lab game "
            f"{game * 1e3:.2f} ms, its score reads {reads * 1e3:.3f} ms "
            f"({reads / game:.1%})"
        )
        if args.decisions:
            times: list[float] = []
            with timed_reads(rules) as spent:
                for index, state in enumerate(mcts_states(rules, args.players, args.decisions)):
                    agent = make_agent(rules, "mcts", index)
                    options = rules.legal_actions(state)
                    times.append(cpu(lambda a=agent, s=state, o=options: a.choose(rules, s, o)))
            total = sum(times)
            out(
                f"run {run}: mcts {statistics.median(times) * 1e3:.0f} ms a decision "
                f"(median of {len(times)}), score reads {spent[0] / total:.1%} of it, "
                f"{spent[1] / len(times):,.0f} reads a decision"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
