"""``naqala tune``: search a space of house rules (SPACE.toml) for the best by an
objective and write it as a ready content house rule (``naqala.lab.tune``).

Added to the ``naqala`` command by ``register(app)``. Bad input (the space, the
objective, the seats, ``--out`` and ``--storage``, a trial whose rules cannot be built)
is one line on stderr and exit 2; Ctrl-C keeps the finished trials in the storage,
writes the best so far and exits 130.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from naqala.agents.profile import profile_path
from naqala.cli import study as common
from naqala.cli.common import Expansions
from naqala.cli.engine import Engine, engine_of_plan
from naqala.cli.tune_profile import profile_space
from naqala.core.engine import Rules
from naqala.lab import LabExtraMissing, require
from naqala.lab.executors import Executor
from naqala.lab.objectives import ObjectiveError, parse_objective
from naqala.lab.profile_space import ProfileSpace, profile_document
from naqala.lab.skill import SkillError
from naqala.lab.space import Space, SpaceError, house_rule, load_space, self_contained
from naqala.lab.study import Ruleset, Study, StudyError, seats_of
from naqala.lab.tune import (
    REPEAT_OF,
    Plan,
    StorageFailed,
    TrialRefused,
    TuneInterrupted,
    importances,
    plan_studies,
    play_rules,
    played_points,
    profile_seat,
    run_trials,
    space_size,
    storage_failures,
    storage_url,
)
from naqala.lab.tune_outputs import OutputRefused, check_outputs

SpacePath = Annotated[
    Path | None,
    typer.Argument(help="The knobs of the rules to tune (docs/formats.md); or --profile."),
]
ObjectiveOption = Annotated[
    str | None,
    typer.Option(
        "--objective",
        help="seat-fairness (the default for rules), skill, length, spread, wins (the "
        "default for --profile), margin, or a weighted sum: seat-fairness=1,spread=0.01 "
        "(docs/lab.md).",
    ),
]
ProfileOption = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="Tune this player profile (a shipped name or a path), seated first against "
        "--seats, instead of rules.",
    ),
]
KnobOption = Annotated[
    list[str] | None,
    typer.Option(
        "--knob",
        help="A number of --profile to tune: TABLE.KEY=LOW:HIGH or =V1,V2,... (repeatable).",
    ),
]
Out = Annotated[Path, typer.Option("--out", help="Write the best rules here (a .toml house rule).")]
Storage = Annotated[
    Path | None,
    typer.Option("--storage", help="optuna's SQLite file, to resume (default: OUT.optuna.db)."),
]


def tune(
    out: Out,
    space_path: SpacePath = None,
    objective: ObjectiveOption = None,
    trials: Annotated[int, typer.Option("--trials", min=1, help="Trials in all.")] = 20,
    games: Annotated[int, typer.Option("--games", "-n", min=2, help="Games a trial.")] = 20,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (default 4).")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option("--seats", help="Agent per seat, rotated (default greedy at every seat)."),
    ] = None,
    ladder: Annotated[
        str, typer.Option("--ladder", help="The skill objective's kinds, weakest first.")
    ] = "random,greedy",
    target_rounds: Annotated[
        float | None, typer.Option("--target-rounds", help="The length objective's target.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")] = 0,
    expansion: Expansions = None,
    house_rules: Annotated[
        list[Path] | None,
        typer.Option("--house-rules", help="A house rule of the rules tuned (repeatable)."),
    ] = None,
    without: common.Without = None,
    storage: Storage = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    jobs: common.Jobs = None,
    dask: common.Dask = None,
    report: common.ReportPath = None,
    engine: Engine = None,
    profile: ProfileOption = None,
    knob: KnobOption = None,
) -> None:
    """Search the knobs of SPACE.toml for the rules that minimise the objective, every
    trial on the same seeds, clearly worse trials stopped early; write the best as a
    house rule and compare it with the original rules. With --profile and --knob, search
    a player profile's numbers instead, and write the best as a whole profile."""
    if (space_path is None) == (profile is None):
        common.fail(
            "give SPACE.toml (rules to tune) or --profile NAME with --knob (a player to "
            "tune), one of them"
        )
    if knob and profile is None:
        common.fail("--knob tunes a player profile: give --profile NAME")
    objective = objective or ("wins" if profile is not None else "seat-fairness")
    try:
        require("optuna", "naqala tune")
        require("scipy.stats", "naqala tune", extra="tune")
        goal = parse_objective(objective, target_rounds)
        baseline = Ruleset.of(expansion or [], house_rules or [], without or [])
        built = baseline.build()
        space: Space | ProfileSpace
        if profile is not None:
            if goal.needs_skill:
                raise ObjectiveError(
                    "--profile tunes a player: the skill objective measures rules; use wins "
                    "or margin"
                )
            space = profile_space(profile, knob or [], built)
            seat_names = player_seats(built, profile, seats, players)
            space_path = profile_path(profile)
        else:
            if goal.needs_player:
                raise ObjectiveError(
                    "the wins and margin objectives tune a player: give --profile NAME with --knob"
                )
            assert space_path is not None
            space = load_space(space_path)
            if seats is None:
                seat_names = ("greedy",) * (4 if players is None else players)
            else:
                seat_names = seats_of(built, seats, players)
        kinds = seats_of(built, ladder, None) if goal.needs_skill else ()
        plan = Plan(space, goal, baseline, seat_names, games, seed, kinds)
        Study(baseline, seat_names, seed, rotate=True).check()
        plan_studies(plan, baseline)  # the skill objective's ladder, checked
    except SkillError as exc:  # the ladder's words are skill's: it is --ladder here
        common.fail(str(exc).replace("--seats ", "--ladder ", 1))
    except (LabExtraMissing, SpaceError, ObjectiveError, StudyError, ValueError) as exc:
        common.fail(str(exc))
    assert space_path is not None  # the profile's file for a player's tune
    common.need_figures(report, None)
    storage_path = storage or out.with_name(out.name + ".optuna.db")
    try:
        check_outputs(space_path, out, storage_path, report)
    except OutputRefused as exc:
        common.fail(str(exc))
    executor = common.executor_for(jobs, dask, games)
    show = not as_json and sys.stderr.isatty()
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="naqala-tune-") as folder:
        check_candidate(plan, Path(folder), space_path)
        plan = attrs.evolve(plan, engine=engine_of_plan(plan_studies(plan, baseline), engine))
        try:
            total = min(trials, space_size(space)) * games  # a point is played once
            with common.progress_bar(show, total, "Tuning") as advance:
                study = run_trials(
                    plan, trials, storage_url(storage_path), Path(folder), executor, advance
                )
        except TuneInterrupted:
            interrupted = True
            study = _load(plan, storage_path, executor)
        except TrialRefused as exc:
            executor.close()
            common.fail(f"{space_path}: {as_content(str(exc), exc.path, space_path)}")
        except StorageFailed as exc:
            executor.close()
            common.fail(f"--storage {storage_path}: optuna cannot use it: {exc}")
        best = _best(study)
        if best is None:
            executor.close()
            if interrupted:
                common.fail("interrupted before any trial finished: nothing to write", 130)
            common.fail("no trial finished: nothing to write")
        said = (
            f"naqala tune: {objective} {best.value:.4g} (trial {best.number} of "
            f"{len(played_points(study))}, {games} games a trial from seed {seed})"
        )
        houses = plan.baseline.house_rules
        if isinstance(space, ProfileSpace):
            text = profile_document(space, best.params, said)
            merged: str | None = text
            houses = ()
        else:
            text = house_rule(space, best.params, "1", said)
            merged = self_contained(text, [(rule.name, rule.data) for rule in houses])
        try:
            out.write_text(text if merged is None else merged, encoding="utf-8")
        except OSError as exc:
            executor.close()
            common.fail(f"cannot write {out}: {exc.strerror or exc}")
        data = _summary(plan, study, best, objective, out, storage_path)
        data["needs_with_it"] = [] if merged is not None else [rule.name for rule in houses]
        if not interrupted:
            try:
                if isinstance(space, ProfileSpace):
                    data.update(_against_profile(plan, out, executor))
                else:
                    data.update(_against_original(plan, out, executor, merged is not None))
            except TuneInterrupted:
                interrupted = True
    executor.close()
    data["partial"] = interrupted
    data["importances"] = importances(study)
    if report is not None:
        from naqala.lab.report import html_report
        from naqala.lab.tune_report import TUNE_FIGURES, describe, tune_figures, tune_tables

        page = html_report(
            f"naqala tune: {space_path.name}",
            data,
            tune_figures(data),
            TUNE_FIGURES,
            tune_tables(data),
            describe(data),
        )
        common.write_report(report, page)
    common.show_answer(data, as_json, print_tune)
    if interrupted:
        typer.echo(
            "naqala: interrupted: the finished trials are kept; run again to resume", err=True
        )
        raise typer.Exit(130)


def player_seats(
    rules: Rules, profile: str, opponents: str | None, players: int | None
) -> tuple[str, ...]:
    """A player's tune's seats: the profiled greedy player first, then ``--seats`` (the
    opponents; default greedy at the other seats of ``--players``, 4 by default)."""
    if opponents is None:
        field = ("greedy",) * ((4 if players is None else players) - 1)
    else:
        field = seats_of(rules, opponents, None)
        if players is not None and players != len(field) + 1:
            raise StudyError(
                f"--players {players} but the tuned profile and --seats make {len(field) + 1}"
            )
    return seats_of(rules, ",".join((f"greedy:profile={profile}", *field)), None)


def check_candidate(plan: Plan, folder: Path, space_path: Path) -> None:
    """Refuse a space whose knobs name no entry of the rules, or a profile's trial that
    cannot be seated, before any game."""
    point = {knob.name: knob.choices[0] for knob in plan.space.knob}
    path = folder / "check.toml"
    if isinstance(plan.space, ProfileSpace):
        path.write_text(profile_document(plan.space, point, "check"), encoding="utf-8")
        seats = (profile_seat(path), *plan.seats[1:])
        try:
            Study(plan.baseline, seats, plan.seed, rotate=True).check()
        except StudyError as exc:
            common.fail(f"the trials' profiles in {folder} cannot be seated: {exc}")
        return
    path.write_text(house_rule(plan.space, point, "check", ""), encoding="utf-8")
    try:
        plan.baseline.with_house_rule(path).build()
    except StudyError as exc:
        common.fail(as_content(str(exc), path, space_path))


def as_content(message: str, candidate: Path, space_path: Path) -> str:
    """``message`` naming the space instead of a candidate's temporary file."""
    return message.replace(str(candidate), f"{space_path} (as content)")


def _load(plan: Plan, storage_path: Path, executor: Executor) -> Any:
    optuna = require("optuna", "naqala tune")
    try:
        with storage_failures():
            return optuna.load_study(
                study_name=plan.study_name(), storage=storage_url(storage_path)
            )
    except StorageFailed as exc:
        executor.close()
        common.fail(f"--storage {storage_path}: optuna cannot use it: {exc}")


def _best(study: Any) -> Any:
    optuna = require("optuna", "naqala tune")
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    return min(complete, key=lambda t: (t.value, t.number)) if complete else None


def _summary(
    plan: Plan, study: Any, best: Any, objective: str, out: Path, storage: Path
) -> dict[str, Any]:
    """The JSON of a tune: every trial, the best, where the answer and storage are."""
    trials = []
    repeats = [t for t in study.trials if REPEAT_OF in t.user_attrs]
    for t in study.trials:
        if REPEAT_OF in t.user_attrs:
            continue  # a point already played: answered from it, no game
        terms = {k: v for k, v in t.user_attrs.items() if k != "pseudo"}
        trials.append(
            {
                "number": t.number,
                "state": t.state.name.lower(),
                "params": dict(t.params),
                "loss": t.value,
                "terms": terms,
                "looks": {
                    str(step): value for step, value in sorted(t.intermediate_values.items())
                },
            }
        )
    return {
        "objective": objective,
        "weights": dict(plan.objective.weights),
        "target_rounds": plan.objective.target_rounds,
        "games": plan.games,
        "players": len(plan.seats),
        "seed": plan.seed,
        "seats": list(plan.seats),
        "knobs": [knob.name for knob in plan.space.knob],
        "trials": trials,
        "repeats_skipped": len(repeats),
        "space_points": space_size(plan.space),
        "best": {
            "number": best.number,
            "params": dict(best.params),
            "loss": best.value,
            "terms": {k: v for k, v in best.user_attrs.items() if k != "pseudo"},
        },
        "out": str(out),
        "storage": str(storage),
        "study": plan.study_name(),
    }


def _against_original(plan: Plan, out: Path, executor: Executor, whole: bool) -> dict[str, Any]:
    """The original rules' loss on the same games, and the paired comparison of the best
    candidate against them (``naqala compare``'s report): ``out`` alone in place of the
    baseline's house rules when it is ``whole`` (self-contained), added to them if not."""
    from naqala.lab.compare import compare

    original, _ = play_rules(plan, plan.baseline, executor)
    base = Study(plan.baseline, plan.seats, plan.seed, rotate=True, engine=plan.engine)
    alone = Ruleset.of(plan.baseline.expansions, [out], plan.baseline.without)
    tuned = Study(
        alone if whole else plan.baseline.with_house_rule(out),
        plan.seats,
        plan.seed,
        rotate=True,
        engine=plan.engine,
    )
    comparison, _ = compare(base, tuned, plan.games, executor)
    return {
        "original": {"loss": original.loss, "terms": original.terms},
        "comparison": comparison,
    }


def _against_profile(plan: Plan, out: Path, executor: Executor) -> dict[str, Any]:
    """The original profile's loss on the same games, the answer's (``out`` seated in its
    place) and the paired t-test of their per-game values (two-sided)."""
    scipy_stats = require("scipy.stats", "naqala tune", extra="tune")
    original, _ = play_rules(plan, plan.baseline, executor)
    answer_plan = attrs.evolve(plan, seats=(profile_seat(out), *plan.seats[1:]))
    answer, _ = play_rules(answer_plan, plan.baseline, executor)
    differences = [a - o for a, o in zip(answer.pseudo, original.pseudo, strict=True)]
    p = 1.0
    if len(set(differences)) > 1:
        p = float(scipy_stats.ttest_1samp(differences, 0.0).pvalue)
    elif differences and differences[0] != 0:
        p = 0.0
    return {
        "original": {"loss": original.loss, "terms": original.terms},
        "answer": {"loss": answer.loss, "terms": answer.terms},
        "paired": {"difference": sum(differences) / len(differences), "p": p},
    }


def print_tune(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(title=f"Trials ({data['objective']}; lower is better)")
    for column in ("trial", "state", *data["knobs"], "loss"):
        table.add_column(column, justify="right")
    for t in data["trials"]:
        loss = "–" if t["loss"] is None else f"{t['loss']:.4g}"
        table.add_row(
            str(t["number"]),
            t["state"],
            *(str(t["params"].get(k, "")) for k in data["knobs"]),
            loss,
        )
    console.print(table)
    best = data["best"]
    console.print(
        f"best: trial {best['number']}, loss {best['loss']:.4g}, "
        + ", ".join(f"{k} = {v}" for k, v in best["params"].items()),
        markup=False,
    )
    if data.get("repeats_skipped"):
        console.print(
            f"{data['repeats_skipped']} proposal(s) of a point already played answered from "
            f"it, no game (the space has {data['space_points']} points)",
            markup=False,
        )
    if "paired" in data:
        paired = data["paired"]
        console.print(
            f"original profile: loss {data['original']['loss']:.4g}; the answer: loss "
            f"{data['answer']['loss']:.4g} (paired difference {paired['difference']:+.4g}, "
            f"p {paired['p']:.3g})",
            markup=False,
        )
    elif "original" in data:
        console.print(f"original rules: loss {data['original']['loss']:.4g}", markup=False)
    if data["importances"]:
        console.print(
            "importance: " + ", ".join(f"{k} {v:.2f}" for k, v in data["importances"].items()),
            markup=False,
        )
    console.print(f"written: {data['out']} (resume with the same command: {data['storage']})")
    if data.get("needs_with_it"):
        console.print(
            f"{data['out']} is the knobs only: play it with the Python rule "
            + ", ".join(f"--house-rules {name}" for name in data["needs_with_it"])
            + f" --house-rules {data['out']}",
            markup=False,
        )


def register(app: typer.Typer) -> None:
    """Add the ``tune`` command to ``app``."""
    app.command("tune")(tune)
