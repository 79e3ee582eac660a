"""Searching a space of house rules for the best by an objective (``naqala tune``).

Every trial is a point of the space (``naqala.lab.space``), written as a content-only
house rule and played like any study: the same seeds for every trial (games ``0 … G −
1`` from ``seed``, the same seats, rotated), so two trials differ by their rules, never
by their deals. Its loss is the objective's (``naqala.lab.objectives``).

**The sampler** is optuna's TPE (``TPESampler(multivariate=True)``, seeded). Knobs here
are integers in small ranges or short lists: TPE models each as it is — an integer
distribution or a categorical one — with no rounding of a continuous proposal (which
CMA-ES and Gaussian processes need, and which wastes trials on points already seen);
it works from few trials, tolerates the noise of a game-based loss, and the multivariate
form follows knobs that act together. Seeded, its proposals depend only on the losses
before, so a tune is a pure function of its arguments.

**Early stop**: a trial plays its games in looks (``naqala.lab.sequential``'s schedule
and alpha spending). At each look its per-game pseudo-values are paired with the best
finished trial's on the same seeds, and the one-sided paired t-test asks whether it is
worse; below the look's level the trial is pruned (``optuna.TrialPruned``), its games
saved for other trials.

**A player's tune** (``naqala tune --profile NAME --knob tribes.blue=0:6``): the space is
a profile's numbers (``naqala.lab.profile_space``), each trial the base profile with its
point's values, written as a whole profile and seated first (``greedy:profile=FILE``)
against the plan's other seats, rotated, on the same seeds and rules; its objectives
(``wins``, ``margin``) read that seat.

**Resume**: trials live in optuna's SQLite storage (``--storage``); a run asks for the
trials still missing, so an interrupted tune run again carries on. A study's name is a
digest of everything that decides its trials.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from naqala.lab import require, sequential, stats
from naqala.lab.executors import Executor
from naqala.lab.objectives import Objective, evaluate
from naqala.lab.profile_space import ProfileSpace, profile_document
from naqala.lab.results import GameResult
from naqala.lab.runner import Advance, play_indices
from naqala.lab.skill import Ladder, step_values
from naqala.lab.space import Space, house_rule
from naqala.lab.study import Ruleset, Study, StudyError
from naqala.native.choice import PYTHON

#: looks a trial's games are played in (early stop)
LOOKS = 3


class TuneInterrupted(Exception):
    """Ctrl-C during a trial: the trial is not counted (optuna marks it failed)."""


class TrialRefused(ValueError):
    """A point of the space whose rules cannot be built or seated (a value the content
    refuses with the others): the trial's number, its knob values and the reason, in
    one line. ``path`` is the trial's own (temporary) house-rule file, which the reason
    may name."""

    def __init__(self, number: int, point: dict[str, Any], reason: str, path: Path) -> None:
        values = ", ".join(f"{name} = {value}" for name, value in point.items())
        super().__init__(f"trial {number} with {values} cannot be played: {reason}")
        self.path = path


class StorageFailed(Exception):
    """optuna's storage failed under the tune (SQLite refused the file, the disk is
    full…): the database's own reason, in one line."""


def storage_url(path: Path) -> str:
    """The SQLAlchemy URL of the SQLite file ``path``, its characters escaped (a ``?`` or
    ``#`` in a file name is no part of a query)."""
    from sqlalchemy.engine import URL

    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


@contextlib.contextmanager
def storage_failures() -> Iterator[None]:
    """SQLAlchemy's errors, raised by optuna's storage, as :class:`StorageFailed`."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        lines = str(cause).strip().splitlines() or [type(cause).__name__]
        raise StorageFailed(lines[0]) from exc


@attrs.frozen
class Plan:
    """Everything that decides a tune's trials. A player's tune has a ``ProfileSpace``
    and its tuned player at the first seat, the opponents after it."""

    space: Space | ProfileSpace
    objective: Objective
    baseline: Ruleset
    seats: tuple[str, ...]
    games: int
    seed: int = 0
    ladder: tuple[str, ...] = ()
    #: the engine of every trial's games (``Study.engine``; not part of the study's
    #: name: both engines play the same games)
    engine: str = PYTHON

    def study_name(self) -> str:
        """A digest of the plan: the same plan resumes, another never mixes in."""
        text = json.dumps(
            [
                attrs.asdict(self.space),
                attrs.asdict(self.objective),
                self.baseline.identity(),
                self.seats,
                self.games,
                self.seed,
                self.ladder,
            ],
            sort_keys=True,
        )
        return "naqala-tune-" + hashlib.sha256(text.encode()).hexdigest()[:16]


@attrs.frozen
class Evaluation:
    """A rule set's games and loss."""

    terms: dict[str, float]
    loss: float
    pseudo: tuple[float, ...]
    games: tuple[GameResult, ...]


def plan_studies(plan: Plan, ruleset: Ruleset) -> list[Study]:
    """The studies one trial of ``ruleset`` plays: the plan's seats, and with a skill
    objective each rung of the ladder (what the command checks the engine of)."""
    studies = [Study(ruleset, plan.seats, plan.seed, rotate=True, engine=plan.engine)]
    if plan.objective.needs_skill:
        ladder = _ladder(plan)
        cells = ladder.studies(ruleset)
        index = {pair: k for k, pair in enumerate(ladder.cells)}
        for weaker, stronger in zip(ladder.kinds, ladder.kinds[1:], strict=False):
            studies.append(cells[index[(stronger, weaker)]])
    return studies


def _ladder(plan: Plan) -> Ladder:
    return Ladder(plan.ladder, len(plan.seats), plan.games, plan.seed, plan.engine)


def _evaluate(plan: Plan, sides: Sequence[Sequence[GameResult]]) -> Evaluation:
    games = sides[0]
    shares: list[float] = []
    if plan.objective.needs_skill:
        ladder = _ladder(plan)
        steps = list(zip(ladder.kinds, ladder.kinds[1:], strict=False))
        # step_values reads the rungs' cells in ladder.cells order; give it just those
        cells: list[Sequence[GameResult]] = [() for _ in ladder.cells]
        index = {pair: k for k, pair in enumerate(ladder.cells)}
        for (weaker, stronger), results in zip(steps, sides[1:], strict=True):
            cells[index[(stronger, weaker)]] = results
        shares = step_values(ladder, cells)
    tuned = plan.seats[0] if plan.objective.needs_player else ""
    terms, loss, pseudo = evaluate(plan.objective, games, len(plan.seats), shares, tuned)
    return Evaluation(terms, loss, tuple(pseudo), tuple(games))


def play_rules(
    plan: Plan,
    ruleset: Ruleset,
    executor: Executor,
    advance: Advance | None = None,
    worse_than: Evaluation | None = None,
    on_look: Callable[[int, float], None] | None = None,
) -> tuple[Evaluation, bool]:
    """Play ``ruleset``'s games in looks; at each look, stop if it is clearly worse than
    ``worse_than`` (returns pruned = True). ``TuneInterrupted`` on Ctrl-C."""
    studies = plan_studies(plan, ruleset)
    counts = sequential.schedule(plan.games, LOOKS) if worse_than is not None else [plan.games]
    levels = sequential.levels(counts, stats.ALPHA)
    sides: list[list[GameResult]] = [[] for _ in studies]
    evaluation = None
    for count, level in zip(counts, levels, strict=True):
        more, interrupted = play_indices(studies, range(len(sides[0]), count), executor, advance)
        if interrupted:
            raise TuneInterrupted
        for side, new in zip(sides, more, strict=True):
            side.extend(new)
        evaluation = _evaluate(plan, sides)
        if on_look is not None:
            on_look(count, evaluation.loss)
        if (
            worse_than is not None
            and count < plan.games
            and clearly_worse(evaluation.pseudo, worse_than.pseudo[:count], level)
        ):
            return evaluation, True
    assert evaluation is not None
    return evaluation, False


def clearly_worse(trial: Sequence[float], best: Sequence[float], level: float) -> bool:
    """The one-sided paired t-test that ``trial``'s loss is above ``best``'s, at ``level``."""
    differences = [t - b for t, b in zip(trial, best, strict=True)]
    if len(differences) < 2:
        return False
    if len(set(differences)) == 1:  # no variance: worse in every game, or not at all
        return differences[0] > 0
    scipy_stats = require("scipy.stats", "naqala tune's early stop", extra="tune")
    test = scipy_stats.ttest_1samp(differences, 0.0, alternative="greater")
    p = float(test.pvalue)
    return math.isfinite(p) and p < level


def profile_seat(path: Path) -> str:
    """The greedy player with the profile at ``path`` (a trial's, or the answer)."""
    return f"greedy:profile={path}"


def candidate_path(folder: Path, number: int) -> Path:
    return folder / f"trial-{number}.toml"


def run_trials(
    plan: Plan,
    trials: int,
    storage: str | None,
    folder: Path,
    executor: Executor,
    advance: Advance | None = None,
) -> Any:
    """Run the trials still missing from the study in ``storage`` (in memory if None),
    writing each candidate in ``folder``; the optuna study. ``TuneInterrupted`` on
    Ctrl-C (the finished trials are kept in the storage); ``TrialRefused`` for a point
    whose rules cannot be built, before it plays; ``StorageFailed`` if the storage
    does."""
    optuna = require("optuna", "naqala tune")
    # ERROR, not WARNING: a trial stopped by Ctrl-C is a failed trial to optuna, which
    # would log it with TuneInterrupted's traceback; the command says it in one line
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    sampler = optuna.samplers.TPESampler(
        seed=plan.seed % 2**32,  # the sampler takes 32-bit seeds; a game 64-bit ones
        multivariate=True,
        n_startup_trials=min(10, max(2, trials // 3)),
    )
    with storage_failures():
        study = optuna.create_study(
            study_name=plan.study_name(),
            storage=storage,
            sampler=sampler,
            direction="minimize",
            load_if_exists=True,
        )
    best: list[Evaluation] = []

    def objective(trial: Any) -> float:
        point = {
            knob.name: trial.suggest_categorical(knob.name, knob.choices)
            if knob.values is not None
            else trial.suggest_int(knob.name, knob.low, knob.high)
            for knob in plan.space.knob
        }
        earlier = played_points(trial.study).get(point_key(point))
        if earlier is not None:  # never played twice: the earlier trial's answer, no game
            trial.set_user_attr(REPEAT_OF, earlier.number)
            if earlier.state == optuna.trial.TrialState.PRUNED:
                raise optuna.TrialPruned()
            return float(earlier.value)
        path = candidate_path(folder, trial.number)
        trial_plan, ruleset = plan, plan.baseline
        if isinstance(plan.space, ProfileSpace):
            path.write_text(
                profile_document(plan.space, point, "a naqala tune trial"), encoding="utf-8"
            )
            trial_plan = attrs.evolve(plan, seats=(profile_seat(path), *plan.seats[1:]))
        else:
            path.write_text(
                house_rule(plan.space, point, f"trial-{trial.number}", "a naqala tune trial"),
                encoding="utf-8",
            )
            ruleset = plan.baseline.with_house_rule(path)
        try:
            for study in plan_studies(trial_plan, ruleset):
                study.check()
        except StudyError as exc:
            raise TrialRefused(trial.number, point, str(exc), path) from exc
        evaluation, pruned = play_rules(
            trial_plan,
            ruleset,
            executor,
            advance,
            best[0] if best else None,
            lambda count, loss: trial.report(loss, count),
        )
        for name, value in evaluation.terms.items():
            trial.set_user_attr(name, value)
        trial.set_user_attr("pseudo", list(evaluation.pseudo))
        if pruned:
            raise optuna.TrialPruned()
        if not best or evaluation.loss < best[0].loss:
            best[:] = [evaluation]
        return evaluation.loss

    finished = list(played_points(study).values())
    complete = [t for t in finished if t.state == optuna.trial.TrialState.COMPLETE]
    if complete:  # a resumed study: the best so far is the early stop's reference
        top = min(complete, key=lambda t: t.value)
        pseudo = tuple(top.user_attrs.get("pseudo", ()))
        if len(pseudo) == plan.games:
            best.append(Evaluation({}, float(top.value), pseudo, ()))
    wanted = min(trials, space_size(plan.space))
    repeats = 0
    with storage_failures():
        while len(played_points(study)) < wanted and repeats < MAX_REPEATS:
            before = len(played_points(study))
            study.optimize(objective, n_trials=wanted - before, catch=())
            found = len(played_points(study)) - before
            repeats = 0 if found else repeats + 1
    return study


#: the user attribute of a trial that asked for a point already played (its number)
REPEAT_OF = "repeat_of"
#: rounds of proposals in a row that bring no new point before the search gives up (the
#: sampler is then sure of its best)
MAX_REPEATS = 20


def point_key(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(params.items()))


def played_points(study: Any) -> dict[tuple[tuple[str, Any], ...], Any]:
    """The finished trials that played their point (not a repeat), by point, first first."""
    states = require("optuna", "naqala tune").trial.TrialState
    done_states = (states.COMPLETE, states.PRUNED)
    found: dict[tuple[tuple[str, Any], ...], Any] = {}
    for trial in study.trials:
        if trial.state in done_states and REPEAT_OF not in trial.user_attrs:
            found.setdefault(point_key(trial.params), trial)
    return found


def space_size(space: Space | ProfileSpace) -> int:
    """How many points the space has (the most trials that can be played)."""
    return math.prod(len(knob.choices) for knob in space.knob)


def importances(study: Any) -> dict[str, float]:
    """Each knob's importance to the loss (optuna's default evaluator, PED-ANOVA since
    optuna 4), or {} when it cannot tell: fewer than two complete trials, or trials that
    all lost the same (no knob explains anything)."""
    optuna = require("optuna", "naqala tune")
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if len(complete) < 2 or len({t.value for t in complete}) < 2:
        return {}
    try:
        with warnings.catch_warnings():  # its notes on small samples are not for the user
            warnings.simplefilter("ignore")
            found = optuna.importance.get_param_importances(study)
    except (RuntimeError, ValueError, ZeroDivisionError):
        return {}
    return {name: round(float(value), 4) for name, value in found.items()}
