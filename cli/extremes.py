"""``naqala extremes``: how far the rules let a metric go, with a replayable witness
(``naqala.lab.extremes``).

Added to the ``naqala`` command by ``register(app)``. Bad input (an unknown metric, a
malformed budget, a player count the rules refuse, a house rule that does not load) is
one line on stderr and exit 2.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Annotated

import typer

from naqala.cli.common import Expansions, fail
from naqala.core.record import save_record
from naqala.lab.extremes import (
    Budget,
    ExtremesError,
    metric_named,
    plain_value,
    scenario_test,
    search,
    summary,
    witness_record,
)
from naqala.lab.study import Ruleset, StudyError, default_players

HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house rule to push (repeatable)."),
]


def extremes_command(
    metric: Annotated[
        str,
        typer.Option("--metric", help="points-in-a-turn, coins-in-a-turn, rounds."),
    ] = "points-in-a-turn",
    budget: Annotated[
        str, typer.Option("--budget", help="Wall-clock seconds (60s) or candidate games (40g).")
    ] = "60s",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the search.")] = 0,
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the witness record and its test here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Search for the turn or game that pushes a metric furthest: the best value found, a
    witness record, and the same search without the house rules for scale."""
    if importlib.util.find_spec("hypothesis") is None:
        fail("naqala extremes needs hypothesis, from the test extra: pip install 'naqala[test]'")
    try:
        chosen = metric_named(metric)
        limit = Budget.parse(budget)
        ruleset = Ruleset.of(expansion or [], house_rules or [])
        rules = ruleset.build()
        count = players if players is not None else default_players(rules)
        rules.new_game(count, seed)
    except (ExtremesError, StudyError, ValueError) as exc:
        fail(str(exc))
    from naqala.testing.strategies import seeds

    if house_rules:
        plain = Ruleset.of(expansion or [], []).build()
        found, candidates = search(rules, count, chosen, limit.share(2 / 3), seed, seeds())
        scale, _ = search(plain, count, chosen, limit.share(1 / 3), seed, seeds())
        baseline, scale_of = scale.value, "without_house_rules"
    else:
        found, candidates = search(rules, count, chosen, limit, seed, seeds())
        baseline, scale_of = plain_value(rules, count, chosen, seed), "plain_game"
    data = summary(chosen, found, candidates, baseline)
    data["baseline_of"] = scale_of
    data["witness"] = None
    if out is not None:
        name = f"extreme-{chosen.name}.json"
        files = [str(Path(p).resolve()) for p in house_rules or []]
        try:
            out.mkdir(parents=True, exist_ok=True)
            save_record(out / name, witness_record(rules, count, found))
            test = scenario_test(chosen, name, found.value, files)
            (out / f"test_extreme_{chosen.name.replace('-', '_')}.py").write_text(test)
        except OSError as exc:
            fail(f"--out {out}: cannot write the witness: {exc.strerror or exc}")
        data["witness"] = str(out / name)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo(
        f"{chosen.description}: {found.value} (reached after action {found.reached_at} of a "
        f"game of seed {found.candidate.seed}; {candidates} candidate games)"
    )
    typer.echo(f"for scale: {baseline} ({scale_of.replace('_', ' ')})")
    if data["witness"]:
        typer.echo(f"witness: {data['witness']} (naqala replay --verify)")


def register(app: typer.Typer) -> None:
    """Add the ``extremes`` command to ``app``."""
    app.command("extremes")(extremes_command)
