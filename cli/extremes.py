"""``naqala extremes``: how far the rules let a metric go, with a replayable witness
(``naqala.lab.extremes``).

Added to the ``naqala`` command by ``register(app)``. Bad input (an unknown metric, a
malformed budget, a player count the rules refuse, a house rule that does not load) is
one line on stderr and exit 2. Ctrl-C reports the best found so far, marked partial (its
witness written too), and exits 130.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from naqala.cli.common import Expansions, fail, seed_option
from naqala.core.metrics import Metric
from naqala.core.record import save_record
from naqala.lab.extremes import (
    Budget,
    ExtremesError,
    Found,
    SearchInterrupted,
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
        typer.Option(
            "--metric",
            help="points-in-a-turn, coins-in-a-turn, rounds, or one a house rule offers.",
        ),
    ] = "points-in-a-turn",
    budget: Annotated[
        str, typer.Option("--budget", help="Wall-clock seconds (60s) or candidate games (40g).")
    ] = "60s",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
    ] = None,
    seed: Annotated[int, seed_option("Seed of the search.")] = 0,
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
        limit = Budget.parse(budget)
        ruleset = Ruleset.of(expansion or [], house_rules or [])
        rules = ruleset.build()
        chosen = metric_named(metric, rules)  # a house rule may offer its own
        count = players if players is not None else default_players(rules)
        rules.new_game(count, seed)
    except (ExtremesError, StudyError, ValueError) as exc:
        fail(str(exc))
    from naqala.testing.strategies import seeds

    interrupted = False
    baseline: int | None = None
    try:
        if house_rules:
            scale_of = "without_house_rules"
            found, candidates = search(rules, count, chosen, limit.share(2 / 3), seed, seeds())
            plain = Ruleset.of(expansion or [], []).build()
            try:
                scale, _ = search(plain, count, chosen, limit.share(1 / 3), seed, seeds())
            except SearchInterrupted as stop:  # the scale so far, and the search's answer
                scale, interrupted = stop.found, True
            baseline = scale.value
        else:
            scale_of = "plain_game"
            found, candidates = search(rules, count, chosen, limit, seed, seeds())
            baseline = plain_value(rules, count, chosen, seed)
    except SearchInterrupted as stop:  # keep the best found; no scale was measured
        found, candidates, interrupted = stop.found, stop.candidates, True
    data = summary(chosen, found, candidates, baseline)
    data["baseline_of"] = scale_of
    data["partial"] = interrupted
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
    else:
        show(chosen, found, candidates, data)
    if interrupted:
        typer.echo(
            f"naqala: interrupted: PARTIAL search, the best of {candidates} candidate games",
            err=True,
        )
        raise typer.Exit(130)


def show(chosen: Metric, found: Found, candidates: int, data: dict[str, Any]) -> None:
    """The answer in words: the value, its scale, the witness."""
    baseline, scale_of = data["baseline"], data["baseline_of"]
    typer.echo(
        f"{chosen.description}: {found.value} (reached after action {found.reached_at} of a "
        f"game of seed {found.candidate.seed}; {candidates} candidate games)"
    )
    if baseline is not None:
        typer.echo(f"for scale: {baseline} ({scale_of.replace('_', ' ')})")
    if data["witness"]:
        typer.echo(f"witness: {data['witness']} (naqala replay --verify)")


def register(app: typer.Typer) -> None:
    """Add the ``extremes`` command to ``app``."""
    app.command("extremes")(extremes_command)
