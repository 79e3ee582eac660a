"""The two interpreters of the effects language, proven over drawn programs.

``python bench/effects.py --programs N [--seed S] [-x PLUGIN]...`` draws N content-only
house rules from the whole vocabulary of the language (``naqala.testing.effect_programs``:
triggers at every moment, tile actions before, after and instead of each tile kind, new
djinns with reacting, scoring, protecting and used powers, every name, count and
operator), plays one game of each on the Python engine with random players, and compares
the kernel after every action: legal actions, state JSON and score sheet. It prints how
many programs, games and actions were compared, and every difference; the only acceptable
count is 0 (exit status 1 otherwise). The draws are fixed by ``--seed``, so a run can be
repeated; ``.ci/run`` proves 1,180 programs over the boxes.

``--speed`` measures instead what a rule in the language costs natively: each file of the
cookbook (``docs/examples/effects/``) against the base game alone, whole random games of 4
on the kernel, interleaved in CPU-time slices in this process; it prints the CPU per
action with the rule over without it. (The base game's djinns in the language against the
same djinns in hand-written Rust: ``bench/kernel_builds.py``.)
"""

from __future__ import annotations

import argparse
import sys
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st

from naqala.core.engine import build_rules
from naqala.native.bridge import NativeRules
from naqala.native.differential import Report, player_counts, verify_game
from naqala.testing.effect_programs import as_house_rule, programs


def prove(count: int, seed: int, expansions: list[str]) -> tuple[Report, int, list[str]]:
    """``count`` drawn programs, one game each on both engines: (the harness's report,
    programs compared, the programs with a difference)."""
    total = Report(games=0)
    failed: list[str] = []
    proven = [0]
    whims = bool({"djinns", "whims"} & set(expansions))  # the box's counts, counter, events

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @fixed_seed(seed)
    @given(programs(whims), st.integers(0, 2**20), st.integers(0, 3))
    def one(text: str, game_seed: int, pick: int) -> None:
        rules = build_rules(expansions, [as_house_rule(text)])
        counts = player_counts(rules)  # 1 for solo mode, 2-5 with the Whims box
        players = counts[pick % len(counts)]
        report = verify_game(rules, NativeRules(rules), players, game_seed)
        total.add(report)
        proven[0] += 1
        if report.differences:
            failed.append(text)

    one()
    return total, proven[0], failed


def speed(rounds: int, seconds: float) -> None:
    """CPU per action of each cookbook rule on the kernel, over the base game alone."""
    import statistics
    from pathlib import Path

    from naqala.native.differential import agent_seed

    def rate(bridge: NativeRules) -> float:
        start, actions, game = time.process_time(), 0, 0
        while time.process_time() - start < seconds:
            seeds = [agent_seed(game, seat) for seat in range(4)]
            actions += bridge.new_game(4, game).random_playout(seeds)[1]
            game += 1
        return actions / (time.process_time() - start)

    base = NativeRules(build_rules())
    folder = Path(__file__).resolve().parents[1] / "docs" / "examples" / "effects"
    print(f"CPU per action, the rule over the base game alone ({rounds} rounds, median)")
    for path in sorted(folder.glob("*.toml")):
        ruled = NativeRules(build_rules(house_rules=[path]))
        ratios = [rate(base) / rate(ruled) for _ in range(rounds)]
        print(f"  {path.stem}: {statistics.median(ratios):.2f}×")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-x", dest="expansions", action="append", default=[])
    parser.add_argument("--speed", action="store_true")
    args = parser.parse_args(argv)
    if args.speed:
        speed(5, 0.5)
        return 0
    start = time.process_time()
    report, proven, failed = prove(args.programs, args.seed, args.expansions)
    spent = time.process_time() - start
    print(f"rules: base{''.join(', ' + x for x in args.expansions)}, and a drawn program")
    print(
        f"{proven} drawn programs, {report.games} games, {report.actions} actions in "
        f"{spent:.1f} CPU-s: every legal list, score sheet and state after an action compared"
    )
    for difference in report.differences[:20]:
        print(f"  DIFFERENCE {difference}")
    for text in failed[:3]:
        print("  a program with a difference:\n" + text)
    if report.unported:  # a drawn program is content alone: the kernel must play all of it
        left = ", ".join(f"{what} ({n})" for what, n in report.unported.most_common(5))
        print(f"  NOT COMPARED, the kernel has not ported: {left}")
    print(f"{len(report.differences)} differences")
    return 1 if report.differences or report.unported else 0


if __name__ == "__main__":
    sys.exit(main())
