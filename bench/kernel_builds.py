"""Two builds of the kernel on the same games: is a change of the kernel slower?

    python bench/kernel_builds.py OLD.so NEW.so [--rounds 5] [--seconds 2] [-x PLUGIN]...

Each build is loaded in a process of its own (two extensions of one module name cannot
share a process), in turns (old, new, old, new…), and plays whole random games natively
(``random_playout``, the games ``bench/native.py`` times) for ``--seconds`` of CPU time.
It prints each build's actions per CPU-second, round by round, and the median ratio
new / old. An older build that does not know a field of today's content JSON is given the
content without it (the effects language's ``effects``: the older build plays those cards
by its own code, the same game). Build the old one from its commit with
``cargo build --release --features extension-module`` in ``kernel/`` and a target dir of
its own.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time


def play(path: str, seconds: float, expansions: list[str]) -> float:
    """Actions per CPU-second of whole random games on the build at ``path``."""
    spec = importlib.util.spec_from_file_location("naqala.native._native", path)
    assert spec is not None and spec.loader is not None
    native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(native)
    sys.modules["naqala.native._native"] = native
    from naqala.core.engine import build_rules
    from naqala.native import bridge as bridge_module
    from naqala.native.bridge import NativeRules
    from naqala.native.differential import agent_seed

    rules = build_rules(expansions)
    try:
        bridge = NativeRules(rules)
    except ValueError:  # an older build: the content without today's new fields
        data = bridge_module.content_data(rules)
        data.pop("effects", None)
        original = bridge_module.content_data
        bridge_module.content_data = lambda _rules: data
        try:
            bridge = NativeRules(rules)
        finally:
            bridge_module.content_data = original
    players = 4 if not expansions else 3
    start = time.process_time()
    actions, seed = 0, 0
    while time.process_time() - start < seconds:
        seeds = [agent_seed(seed, seat) for seat in range(players)]
        _, count = bridge.new_game(players, seed).random_playout(seeds)
        actions += count
        seed += 1
    return actions / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("-x", dest="expansions", action="append", default=[])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(play(args.one, args.seconds, args.expansions)))
        return 0
    ratios = []
    for round_ in range(args.rounds):
        rates = {}
        for name, path in (("old", args.old), ("new", args.new)):
            command = [sys.executable, __file__, args.old, args.new, "--one", path]
            command += ["--seconds", str(args.seconds)]
            command += [f"-x{x}" for x in args.expansions]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            rates[name] = float(out.strip().splitlines()[-1])
        ratios.append(rates["new"] / rates["old"])
        print(
            f"round {round_ + 1}: old {rates['old']:,.0f} actions/CPU-s, "
            f"new {rates['new']:,.0f}, new/old {ratios[-1]:.3f}"
        )
    low, high = min(ratios), max(ratios)
    print(f"median new/old: {statistics.median(ratios):.3f} (range {low:.3f}–{high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
