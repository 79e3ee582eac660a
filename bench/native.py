"""The native engine against the Python engine: speed, and proof that they play one game.

Speed: whole random games on both engines, interleaved in short CPU-time slices in one
process (``time.process_time``), as ``bench/playouts.py`` does. Each round plays Python
games for one slice (``play_game``: the setup, then ``legal_actions``, a ``RandomAgent``
choice and ``apply`` to the end, what ``naqala simulate`` does) and then native games for
one slice (``Kernel.new_game`` and ``NativeState.random_playout``: the same seeds, the
same choices, the same final state), and gives the ratio of actions per CPU-second. The
median of the rounds and their spread are printed.

The kernel plays the base game with all its djinns, the Artisans (``-x artisans``) with
every item, the Thieves, solo mode and the Whims box; a card it had not ported would be
left out of both engines' games, as ``--without`` does. ``-x thieves``, ``-x solo``
(with ``--players 1``), ``-x djinns`` (the Whims box; ``--players 5`` measures its
five-player games) and ``-x artisans`` measure those boxes, alone or together. ``--size N``
adds the native state's size in bytes over N games.

Verify: ``--verify N`` plays N games on the Python engine (at every player count the
rules allow: 2-4, 2-5 with the Whims box, 1 for solo; random and greedy players, and with
the Thieves a player that takes and uses every thief it can) and compares the kernel
after every action: legal actions (same list, same order) and the state JSON after the
action chosen. It prints what it compared (and how many decisions of each stage), what
the kernel has not ported yet, and every difference; the only acceptable count is 0, and
the exit status is 1 otherwise.

    python bench/native.py                  # 4 players, 7 rounds of 0.5 CPU-s a side
    python bench/native.py --players 2 --rounds 9
    python bench/native.py -x artisans --size 20
    python bench/native.py --verify 300
    python bench/native.py --verify 20000 --part 3 --parts 4   # the greedy games; and
    python bench/native.py --verify 20000 --part 0 --parts 4   # parts 0-2 on the other core
    python bench/native.py --verify 100 -x big-viziers
    python bench/native.py --players 1 -x solo
    python bench/native.py --players 5 -x djinns
    python bench/native.py --verify 100 -x djinns
    python bench/native.py --players 5 -x artisans -x djinns   # the boxes together
    python bench/native.py --verify 50 -x thieves -x djinns -x artisans
    python bench/native.py --verify 100 -x thieves --house-rules blue-anywhere.toml
    python bench/native.py --targets   # every measure of issue 40, each by its own bench

Targets: ``--targets`` runs, one after the other, the benches that measure the native
engine's other figures and prints each one's result under its target: random games and
solo here, ``simulate --json`` through the command line (``simulate_cli.py``), greedy
decisions (``native_agents.py``), ``VectorEnv`` on threads (``vector_threads.py``),
``--jobs`` (``scale.py``) and a native seat at the table (``table_seat.py``), with sizes
that take a few minutes in all; the wall-clock ratios (threads, jobs) need two
free cores to mean anything.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from naqala import native as kernel
from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed, play_game
from naqala.native.bridge import NativeRules


def python_games(rules: Rules, players: int) -> Iterator[int]:
    """Whole random games on the Python engine (``play_game``: the setup, then every seat
    a ``RandomAgent``), seeds 0, 1, 2…, forever."""
    seed = 0
    while True:
        _, count = play_game(rules, players, seed)
        seed += 1
        yield count


def native_games(bridge: NativeRules, players: int) -> Iterator[int]:
    """The same games on the kernel: a native setup, then one native call to the end."""
    seed = 0
    while True:
        seeds = [agent_seed(seed, seat) for seat in range(players)]
        _, count = bridge.new_game(players, seed).random_playout(seeds)
        seed += 1
        yield count


def run_slice(games: Iterator[int], seconds: float) -> tuple[int, float]:
    """Whole games until ``seconds`` of CPU time have passed: (actions, CPU seconds)."""
    start = time.process_time()
    actions = 0
    while True:
        actions += next(games)
        spent = time.process_time() - start
        if spent >= seconds:
            return actions, spent


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.1f}× (range {ordered[0]:.1f}–{ordered[-1]:.1f})"


def measure(
    players: int,
    rounds: int,
    seconds: float,
    out: Callable[[str], None],
    expansions: Sequence[str] = (),
) -> float:
    from naqala.native.differential import ported_rules

    rules, bridge = ported_rules(expansions)
    ours, theirs = native_games(bridge, players), python_games(rules, players)
    next(ours), next(theirs)  # warm the caches outside the slices
    ratios: list[float] = []
    totals = [0, 0.0, 0, 0.0]
    for _ in range(rounds):
        py_actions, py_spent = run_slice(theirs, seconds)
        nat_actions, nat_spent = run_slice(ours, seconds)
        ratios.append((nat_actions / nat_spent) / (py_actions / py_spent))
        for i, value in enumerate((py_actions, py_spent, nat_actions, nat_spent)):
            totals[i] += value
    py_actions, py_spent, nat_actions, nat_spent = totals
    out(
        f"{'+'.join(rules.ruleset)} {players}p  native/Python {spread(ratios)} "
        f"over {rounds} rounds\n"
        f"{'':<22} Python {py_spent / py_actions * 1e6:6.2f} µs/action, "
        f"native {nat_spent / nat_actions * 1e6:6.2f} µs/action "
        "(whole games: setup included)"
    )
    return statistics.median(ratios)


def state_sizes(
    expansions: Sequence[str], players: int, games: int, out: Callable[[str], None]
) -> None:
    """The native state's size (``NativeState.size_bytes``) at the start of ``games``
    games and at every state of them (played on the Python engine, handed over)."""
    from naqala.core.simulate import play_game
    from naqala.native.differential import ported_rules

    rules, bridge = ported_rules(expansions)
    starts: list[int] = []
    every: list[int] = []
    for seed in range(games):
        starts.append(bridge.new_game(players, seed).size_bytes())
        play_game(
            rules,
            players,
            seed,
            on_action=lambda state, _: every.append(bridge.to_native(state).size_bytes()),
        )
    out(
        f"{'+'.join(rules.ruleset)} {players}p native state: {statistics.median(starts):.0f} "
        f"bytes at the start (median of {games} games), {statistics.median(every):.0f} "
        f"median and {max(every)} at most over their {len(every)} states"
    )


def verify(
    count: int,
    expansions: list[str],
    out: Callable[[str], None],
    house_rules: Sequence[Path] = (),
    part: tuple[int, int] = (0, 1),
    progress: int = 0,
) -> int:
    """Compare ``count`` games (of them, the ``part[0]``-th of every ``part[1]``: the
    processes of ``--part K --parts N`` together compare the very games of one run)."""
    from naqala.native.differential import (
        NotPorted,
        Report,
        agent_mix,
        games,
        player_counts,
        ported_rules,
        verify_game,
    )

    try:
        rules, bridge = ported_rules(expansions, house_rules)
    except NotPorted as exc:
        out(f"these rules stay on the Python engine: {exc}")
        return 2
    out(f"rules: {', '.join(rules.ruleset)}")
    out(f"leaving out what the kernel has not ported: {', '.join(rules.without) or 'nothing'}")
    total = Report()
    started = time.process_time()
    mix = games(count, counts=player_counts(rules), agents=agent_mix(rules))
    for index, (players, seed, agent) in enumerate(mix):
        if index % part[1] == part[0]:
            total.add(verify_game(rules, bridge, players, seed, agent))
            if progress and total.games % progress == 0:  # a long run says how far it is
                out(
                    f"  {total.games} games (up to game {index}), {total.actions} actions, "
                    f"{len(total.differences)} differences, "
                    f"{time.process_time() - started:.0f} CPU-s"
                )
    spent = time.process_time() - started
    reached = ", ".join(f"{stage} {n}" for stage, n in sorted(total.decisions.items()))
    out(f"decisions compared: {reached}")
    out(
        f"{total.games} games, {total.actions} actions in {spent:.1f} CPU-s: "
        f"{total.legal_compared} legal lists, {total.scores_compared} score sheets and "
        f"{total.applied_compared} states after an action compared"
    )
    for name, times in total.unported.most_common():
        out(f"  not ported yet: {name} ({times}×)")
    for difference in total.differences[:20]:
        out(f"  DIFFERENCE {difference}")
    out(f"{len(total.differences)} differences")
    return 1 if total.differences else 0


#: each of issue 40's measures: what it is, its target, and the bench (with modest sizes)
#: whose last lines give it; ``--targets`` runs them in turn and prints those lines
TARGETS: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    ("random games, 4 players", "at least 60x, 0.4 µs an action", ("native.py",), 2),
    ("solo", "at least 30x", ("native.py", "--players", "1", "-x", "solo"), 2),
    (
        "simulate --json through the CLI, 4 players",
        "at least 30x",
        ("simulate_cli.py", "--games", "6000", "--python-games", "400", "--runs", "1"),
        1,
    ),
    (
        "simulate --json through the CLI, 5 players, Artisans and Djinns",
        "at least 30x",
        (
            "simulate_cli.py", "--games", "6000", "--python-games", "400", "--runs", "1",
            "--players", "5", "-x", "artisans", "-x", "djinns",
        ),
        1,
    ),
    (
        "greedy games, native against Python",
        "a greedy decision 1.5x faster than before the change (bench/kernel_builds.py)",
        ("native_agents.py", "greedy", "--runs", "1", "--rounds", "3"),
        1,
    ),
    (
        "VectorEnv of 64 games, 2 threads against 1",
        "at least 1.7x",
        ("vector_threads.py", "--seconds", "6"),
        1,
    ),
    (
        "simulate --jobs 2 against --jobs 1, native random games",
        "at least 1.8x",
        ("scale.py", "--engine", "native", "--seats", "random,random,random,random",
         "--games", "2000", "--jobs", "2"),
        3,
    ),
    (
        "a native table seat's overhead beyond the kernel's choice",
        "at most 0.1 ms",
        ("table_seat.py", "--games", "2"),
        3,
    ),
)  # fmt: skip


def targets(out: Callable[[str], None]) -> int:
    """Each measure of ``TARGETS`` by its own bench, in a process of its own, one after
    the other: the last lines of each, under its name and target. A bench that fails is
    said, and the rest still run."""
    import subprocess

    here = Path(__file__).resolve().parent
    failed = 0
    for name, target, command, lines in TARGETS:
        run = subprocess.run(
            [sys.executable, str(here / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            check=False,
        )
        out(f"## {name} (target: {target})")
        if run.returncode != 0:
            failed += 1
            out(f"  failed: {(run.stderr.strip().splitlines() or ['no message'])[-1]}")
            continue
        for line in run.stdout.strip().splitlines()[-lines:]:
            out(f"  {line.strip()}")
    return 1 if failed else 0


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--players", type=int, default=4, choices=(1, 2, 3, 4, 5), help="1 with -x solo"
    )
    parser.add_argument("--rounds", type=int, default=7, help="slices per side (default 7)")
    parser.add_argument("--slice", type=float, default=0.5, help="CPU s per slice (0.5)")
    parser.add_argument("--verify", type=int, metavar="N", help="compare N games instead")
    parser.add_argument(
        "--targets",
        action="store_true",
        help="run every measure of issue 40 by its own bench and print each ratio",
    )
    parser.add_argument("--part", type=int, default=0, help="with --parts: this process's share")
    parser.add_argument(
        "--parts", type=int, default=1, help="compare every PARTS-th game of --verify N only"
    )
    parser.add_argument(
        "--progress", type=int, default=0, metavar="K", help="say the count every K games"
    )
    parser.add_argument(
        "--size",
        type=int,
        metavar="GAMES",
        help="also give the native state's size over GAMES games (e.g. 20)",
    )
    parser.add_argument(
        "-x",
        "--expansion",
        action="append",
        default=[],
        metavar="PLUGIN",
        help="a plugin the kernel plays or a content-only house rule to add (repeatable), "
        "e.g. -x artisans, -x thieves, -x solo, -x djinns (the Whims box), -x big-viziers",
    )
    parser.add_argument(
        "--house-rules",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="a content-only .toml house-rule file (repeatable): another reading's settings",
    )
    args = parser.parse_args(argv)
    if not kernel.available():
        out(f"the native engine is not available: {kernel.unavailable_reason()}")
        return 2
    if args.targets:
        return targets(out)
    if args.verify is not None:
        if args.verify < 1:
            parser.error("--verify needs at least one game")
        if not 0 <= args.part < args.parts:
            parser.error("--part K needs 0 <= K < --parts")
        part = (args.part, args.parts)
        return verify(args.verify, args.expansion, out, args.house_rules, part, args.progress)
    if args.rounds < 1 or args.slice <= 0:
        parser.error("--rounds must be at least 1 and --slice positive")
    measure(args.players, args.rounds, args.slice, out, args.expansion)
    if args.size:
        state_sizes(args.expansion, args.players, args.size, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
