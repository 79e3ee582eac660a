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

A build whose Python face differs from today's (another constructor, other content
fields) is driven by its own commit's Python: ``--old-source DIR`` names a checkout of
that commit (``git worktree add DIR REV``), whose packages (its ``package-dir`` table) and
the old build are laid out as the package ``naqala`` in a temporary folder, first on the
old process's path. Both sides then play the same games, each through its own bridge::

    python bench/kernel_builds.py OLD.so NEW.so --old-source /tmp/old-checkout
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def play(path: str, seconds: float, expansions: list[str]) -> float:
    """Actions per CPU-second of whole random games on the build at ``path``."""
    spec = importlib.util.spec_from_file_location("naqala.native._native", path)
    assert spec is not None and spec.loader is not None
    native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(native)
    sys.modules["naqala.native._native"] = native
    return _timed(_native_games(expansions), seconds, expansions)


def play_laid_out(seconds: float, expansions: list[str]) -> float:
    """``play`` for a build laid out with its own commit's packages (``lay_out``): its
    bridge is found where that commit's extension module lives."""
    bridge_module = importlib.import_module(_bridge_module(Path(os.environ[LAID_OUT])))
    from naqala.core.engine import build_rules

    bridge = bridge_module.NativeRules(build_rules(expansions))
    return _timed(bridge.new_game, seconds, expansions)


def _native_games(expansions: list[str]) -> Callable[[int, int], Any]:
    """Today's bridge's ``new_game``, or an older build's given the content without the
    fields it does not know."""
    from naqala.core.engine import build_rules
    from naqala.native import bridge as bridge_module
    from naqala.native.bridge import NativeRules

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
    return bridge.new_game


def _timed(new_game: Callable[[int, int], Any], seconds: float, expansions: list[str]) -> float:
    """Actions per CPU-second of random playouts of the games ``new_game`` sets up."""
    from naqala.core.simulate import agent_seed

    players = 4 if not expansions else 3
    start = time.process_time()
    actions, seed = 0, 0
    while time.process_time() - start < seconds:
        seeds = [agent_seed(seed, seat) for seat in range(players)]
        _, count = new_game(players, seed).random_playout(seeds)
        actions += count
        seed += 1
    return actions / (time.process_time() - start)


#: the environment variable naming the folder ``lay_out`` made, for the old process
LAID_OUT = "NAQALA_LAID_OUT"


def lay_out(checkout: Path, build: str, into: Path) -> None:
    """The package ``naqala`` of ``checkout`` in ``into``: a link per ``package-dir``
    entry, and ``build`` copied where that commit's extension module is built."""
    project = tomllib.loads((checkout / "pyproject.toml").read_text())
    # the extension module the checkout builds (``naqala.kernel._native``)
    target: str = project["tool"]["setuptools-rust"]["ext-modules"][0]["target"]
    native_package, _, name = target.rpartition(".")
    for package, folder in project["tool"]["setuptools"]["package-dir"].items():
        place = into.joinpath(*package.split("."))
        place.parent.mkdir(parents=True, exist_ok=True)
        if package == native_package:
            shutil.copytree(checkout / folder, place)  # the build goes inside: a copy
        else:
            place.symlink_to((checkout / folder).resolve())
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    shutil.copy(build, into.joinpath(*native_package.split("."), name + suffix))


def _bridge_module(laid_out: Path) -> str:
    """The module of the laid-out commit's ``NativeRules``: beside its extension."""
    found = sorted(laid_out.glob("naqala/*/bridge.py"))
    if not found:
        raise SystemExit(f"no bridge.py beside the extension module in {laid_out}")
    return f"naqala.{found[0].parent.name}.bridge"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("-x", dest="expansions", action="append", default=[])
    parser.add_argument(
        "--old-source",
        type=Path,
        help="a checkout of the old build's commit: its own Python drives the old build",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        if LAID_OUT in os.environ:
            print(json.dumps(play_laid_out(args.seconds, args.expansions)))
        else:
            print(json.dumps(play(args.one, args.seconds, args.expansions)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        if args.old_source is not None:
            lay_out(args.old_source, args.old, Path(folder))
        return _rounds(args, folder if args.old_source is not None else None)


def _rounds(args: argparse.Namespace, laid_out: str | None) -> int:
    """Old and new in turns, each in a process of its own; the median ratio."""
    ratios = []
    for round_ in range(args.rounds):
        rates = {}
        for name, path in (("old", args.old), ("new", args.new)):
            command = [sys.executable, __file__, args.old, args.new, "--one", path]
            command += ["--seconds", str(args.seconds)]
            command += [f"-x{x}" for x in args.expansions]
            env = dict(os.environ)
            if name == "old" and laid_out is not None:
                env[LAID_OUT] = laid_out
                env["PYTHONPATH"] = os.pathsep.join(filter(None, (laid_out, env.get("PYTHONPATH"))))
            run = subprocess.run(command, capture_output=True, text=True, env=env)
            if run.returncode:
                raise SystemExit(f"the {name} build did not play: {run.stderr.strip()[-400:]}")
            rates[name] = float(run.stdout.strip().splitlines()[-1])
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
