"""Record the golden games that gate behaviour-preserving changes.

Each file under ``tests/golden/`` holds one complete game: the ruleset, the seats' agents,
the seed, every action in notation, a digest of every legal-action list offered along the
way and the final score lines of every player. ``tests/test_golden_replays.py`` replays
them and demands the same options, the same actions and the same scores, so a refactor or
an optimisation that changes a single game is caught.

Run it only to add games, or when a rule change is *meant* to change games (say so in the
commit message)::

    python tools/record_golden.py            # writes tests/golden/*.json
    python tools/record_golden.py --missing  # only the games that have no file yet
    python tools/record_golden.py base-2p-random-11 djinns-3p-random-12   # only these
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from naqala.core import build_rules
from naqala.core.actions import format_action
from naqala.core.agents import make_agent
from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: (expansions, player counts) for random games
RANDOM_SETS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    ((), (2, 3, 4)),
    (("artisans",), (2, 3, 4)),
    (("djinns",), (2, 3, 4, 5)),
    (("artisans", "djinns"), (2, 3, 4, 5)),
    (("big-viziers",), (3,)),
    (("no-loops",), (3,)),
    (("rich-villages",), (3,)),
    (("artisans", "djinns", "no-loops", "rich-villages"), (4,)),
    (("thieves",), (3,)),
)
#: the other reading of each open ruling (docs/rules-notes.md), random games on seeds
#: where that reading changes the game (its options or its scores) against the default
RULING_SETS: tuple[tuple[tuple[str, ...], int, tuple[int, ...]], ...] = (
    (("djinns-once-per-round",), 2, (11, 12)),
    (("nekir-per-assassination",), 3, (201,)),
    (("artisans", "shared-artisan-majority"), 3, (22, 24)),
)
#: greedy games reach far more of the rules (claims, djinn powers, items) than random ones
GREEDY_SETS: tuple[tuple[tuple[str, ...], int], ...] = (
    ((), 3),
    (("artisans",), 3),
    (("djinns",), 4),
    (("artisans", "djinns"), 5),
    (("artisans", "thieves"), 3),
)
#: one-seat games against the solo mode's Sultan: (expansions, seat kind, seed)
SOLO_GAMES: tuple[tuple[tuple[str, ...], str, int], ...] = (
    (("solo",), "greedy", 11),
    (("solo",), "random", 12),
)
SEEDS = (11, 12)


def digest_options(options: list[str]) -> str:
    """A short digest of one legal-action list (notation, in the engine's order)."""
    return hashlib.sha256("\n".join(options).encode()).hexdigest()[:16]


def play(rules: Rules, players: int, seed: int, seats: list[str]) -> dict[str, Any]:
    """One game played by ``seats`` agents; the golden file's content."""
    agents = [make_agent(rules, kind, agent_seed(seed, seat)) for seat, kind in enumerate(seats)]
    state = rules.new_game(players, seed)
    actions: list[str] = []
    options_digests: list[str] = []
    while not state.is_over:
        options = rules.legal_actions(state)
        options_digests.append(digest_options([format_action(a) for a in options]))
        action = agents[state.decision.player].choose(rules, state, options)
        actions.append(format_action(action))
        state = rules.apply(state, action)
    return {
        "expansions": [n for n in rules.ruleset if n != "base"],
        "ruleset": list(rules.ruleset),
        "players": players,
        "seed": seed,
        "seats": seats,
        "actions": actions,
        "options": options_digests,
        "scores": list(rules.scores(state)),
        "score_lines": [
            [[line.category, line.points, line.source] for line in rules.score_lines(state, p)]
            for p in range(players)
        ],
    }


def file_name(expansions: tuple[str, ...], players: int, seed: int, kind: str) -> str:
    label = "-".join(expansions) or "base"
    return f"{label}-{players}p-{kind}-{seed}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="record only these games (file names)")
    parser.add_argument(
        "--missing", action="store_true", help="record only the games that have no file yet"
    )
    arguments = parser.parse_args(argv)
    only = {name.removesuffix(".json") for name in arguments.only}
    GOLDEN.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[tuple[str, ...], int, int, str]] = []
    for expansions, counts in RANDOM_SETS:
        for players in counts:
            jobs.extend((expansions, players, seed, "random") for seed in SEEDS)
    for expansions, players in GREEDY_SETS:
        jobs.append((expansions, players, SEEDS[0], "greedy"))
    for expansions, kind, seed in SOLO_GAMES:
        jobs.append((expansions, 1, seed, kind))
    for expansions, players, seeds in RULING_SETS:
        jobs.extend((expansions, players, seed, "random") for seed in seeds)
    known = {file_name(*job).removesuffix(".json") for job in jobs}
    if only - known:
        print(f"no such golden game: {', '.join(sorted(only - known))}", file=sys.stderr)
        return 2
    for expansions, players, seed, kind in jobs:
        path = GOLDEN / file_name(expansions, players, seed, kind)
        if (only and path.stem not in only) or (arguments.missing and path.exists()):
            continue
        rules = build_rules(expansions)
        seats = [kind] * players if kind == "random" else ["greedy"] + ["random"] * (players - 1)
        game = play(rules, players, seed, seats)
        path.write_text(json.dumps(game, indent=1) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(game['actions'])} actions, scores {game['scores']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
