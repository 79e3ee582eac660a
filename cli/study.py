"""What ``naqala simulate`` and ``naqala compare`` share: the study options, the
executor, the progress bar, Ctrl-C, writing the report and plots, and the engine
report."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from naqala.cli.common import Without as Without  # re-exported for the study commands
from naqala.cli.common import fail as fail
from naqala.lab import LabExtraMissing, require
from naqala.lab.executors import DaskAddressError, Executor, make_executor, scheduler_address
from naqala.lab.runner import Advance
from naqala.lab.study import Ruleset, rules_of

if TYPE_CHECKING:  # the native report is imported only by a run that asks for it
    from naqala.native.report import Tallies

Seats = Annotated[
    str | None,
    typer.Option(
        "--seats",
        help="Agent per seat, comma-separated (random, greedy, greedy-nobid, mcts:200; "
        "ai:NAME as in naqala play, a house rule's player too); fixes the player count. "
        "Default: random players.",
    ),
]
EngineReport = Annotated[
    bool,
    typer.Option(
        "--engine-report",
        help="Play in this process (as --jobs 1) and say on stderr which plugin hooks "
        "and players the native engine called back, how often, and their share of "
        "the time.",
    ),
]
Rotate = Annotated[
    bool, typer.Option("--rotate", help="Move the agents one seat on with every game.")
]
Jobs = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores)."),
]


def _dask_address(text: str | None) -> str | None:
    """``--dask`` checked as it is read, the same way for every lab command
    (``naqala.lab.executors.scheduler_address``): a malformed address is one line before
    anything is built or connected."""
    if text is None:
        return None
    try:
        return scheduler_address(text)
    except DaskAddressError as exc:
        fail(str(exc))


Dask = Annotated[
    str | None,
    typer.Option(
        "--dask",
        help="Play on a Dask cluster: the scheduler's address, scheme://host:port "
        "(tcp://host:8786).",
        callback=_dask_address,
    ),
]
ReportPath = Annotated[
    Path | None, typer.Option("--report", help="Write a self-contained HTML report here.")
]
PlotsDir = Annotated[
    Path | None, typer.Option("--plots", help="Write every figure as SVG and PNG here.")
]
GamesOut = Annotated[
    Path | None,
    typer.Option(
        "--games-out",
        help="Write one row per game here: JSON Lines, or Parquet for a .parquet name.",
    ),
]


def need_games_out(path: Path | None) -> None:
    """Refuse, before any game, a ``--games-out`` file that could not be written."""
    if path is None:
        return
    from naqala.lab.game_rows import GameRowsError, check_target

    try:
        check_target(path)
    except (GameRowsError, LabExtraMissing) as exc:
        fail(str(exc))


def write_games(
    path: Path | None, sides: Iterable[tuple[str, Sequence[str], Sequence[Any]]]
) -> None:
    """Write the games of ``sides`` (``(side, rules, results)``) to ``--games-out``."""
    if path is None:
        return
    from naqala.lab.game_rows import GameRowsError, rows_of, write_rows

    try:
        write_rows(path, rows_of(sides))
    except (GameRowsError, LabExtraMissing) as exc:
        fail(str(exc))


def need_figures(report: Path | None, plots: Path | None) -> None:
    """Refuse before playing when a report or plots are asked for without matplotlib."""
    if report is None and plots is None:
        return
    try:
        require("matplotlib", "--report and --plots")
        require("scipy.stats", "--report and --plots")
    except LabExtraMissing as exc:
        fail(str(exc))


def executor_for(jobs: int | None, dask: str | None, games: int, native: bool = False) -> Executor:
    """The executor of ``--jobs``/``--dask`` (threads when ``native``: every game plays
    on the kernel), or one line and exit 2."""
    if jobs is not None and dask is not None:
        fail("give --jobs or --dask, not both")
    try:
        return make_executor(jobs, dask, games, native)
    except (LabExtraMissing, DaskAddressError) as exc:
        fail(str(exc))
    except OSError as exc:  # the scheduler cannot be reached
        fail(f"--dask {dask}: cannot reach the scheduler: {exc}")


#: a run whose rest is expected to take longer than this (seconds) says so on stderr
LONG_RUN = 60.0
#: how long the first games are timed before the estimate is made (seconds)
FIRST_LOOK = 2.0


def duration_text(seconds: float) -> str:
    """``about 3 minutes``, ``about 5 hours``, ``about 12 days``, ``about 31 years``."""
    for unit, size in (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= 2 * size:
            return f"about {seconds / size:,.0f} {unit}s"
    return f"about {seconds:.0f} seconds"


class Estimate:
    """Without a progress bar (``--json``, output piped), a long run says once, on stderr,
    how long it will take, measured on the games of its first ``FIRST_LOOK`` seconds, so
    that ``--games 1000000000`` does not look like a hang. A run that will end within
    ``LONG_RUN`` seconds says nothing."""

    def __init__(
        self,
        total: int,
        label: str,
        clock: Callable[[], float] = time.monotonic,
        say: Callable[[str], None] = lambda text: typer.echo(text, err=True),
    ) -> None:
        self.total, self.label, self.clock, self.say = total, label, clock, say
        self.start = clock()
        self.done = 0
        self.said = False

    def __call__(self) -> None:
        self.done += 1
        elapsed = self.clock() - self.start
        if self.said or elapsed < FIRST_LOOK:
            return
        self.said = True
        rest = (self.total - self.done) * elapsed / self.done
        if rest > LONG_RUN:
            self.say(
                f"naqala: {self.label} {self.done:,} of {self.total:,} games took "
                f"{elapsed:.0f} s; the rest will take {duration_text(rest)} at this pace "
                "(Ctrl-C stops and reports the games finished)"
            )


@contextlib.contextmanager
def progress_bar(show: bool, total: int, label: str) -> Iterator[Advance | None]:
    """A rich progress bar over games on stderr (when ``show``, with the time left),
    advanced by the callback; otherwise the one-line estimate of a long run."""
    if not show:
        yield Estimate(total, label.lower())
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


@contextlib.contextmanager
def ctrl_c_ends_cleanly() -> Iterator[None]:
    """A Ctrl-C outside the games (building the rules, starting the workers, writing the
    report), where the study's own handler does not reach, ends the command with one
    line and exit code 130, not click's ``Aborted.`` and exit code 1."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo("naqala: interrupted", err=True)
        raise typer.Exit(130) from None


def interrupted_note(done: int, requested: int) -> None:
    typer.echo(f"naqala: interrupted: PARTIAL results of {done} of {requested} games", err=True)


def write_report(path: Path, page: str) -> None:
    """Write a study's HTML page to ``path``; one clear line if it cannot be written."""
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}")


def show_answer(
    data: dict[str, Any], as_json: bool, printer: Callable[[dict[str, Any]], None]
) -> None:
    """A study's answer on standard output: its JSON document, or the printer's tables."""
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    else:
        printer(data)


def write_outputs(
    report: Path | None,
    plots: Path | None,
    figures: dict[str, Any],
    title: str,
    data: dict[str, Any],
    captions: dict[str, str],
) -> None:
    """The HTML report and the plot files, if asked for; a clear error if not writable."""
    from naqala.lab.report import html_report, write_plots

    try:
        if report is not None:
            report.write_text(html_report(title, data, figures, captions), encoding="utf-8")
        if plots is not None:
            write_plots(figures, plots)
    except OSError as exc:
        fail(f"cannot write the report or plots: {exc.strerror or exc}")


def reported_jobs(engine_report: bool, jobs: int | None, dask: str | None) -> int | None:
    """The ``--jobs`` a study plays with: 1 with ``--engine-report`` (its counters are
    read in this process), which refuses ``--jobs`` and ``--dask`` in one line."""
    if not engine_report:
        return jobs
    if dask is not None or (jobs or 1) != 1:
        fail("--engine-report plays in this process: give it without --jobs or --dask")
    return 1


class EngineMeter:
    """The callbacks and the time of a run, from its start (``--engine-report``): the
    games play in this thread, on the rules ``rules_of`` keeps for each ruleset."""

    def __init__(self, rulesets: Iterable[Ruleset], engine: str) -> None:
        from naqala.native.report import tallies

        self.rules = [rules_of(r) for r in dict.fromkeys(rulesets)]
        self.engine = engine
        self.before = [tallies(rules, engine) for rules in self.rules]
        self.started = time.perf_counter()

    def line(self, games: int) -> str:
        """The one line of the run so far (``naqala.native.report.report_line``), every
        ruleset's callbacks added up."""
        from naqala.native.report import report_line, tallies

        seconds = time.perf_counter() - self.started
        after = [tallies(rules, self.engine) for rules in self.rules]
        return report_line(self.engine, games, seconds, _summed(self.before), _summed(after))

    def say(self, games: int) -> None:
        typer.echo(f"naqala: {self.line(games)}", err=True)


def _summed(parts: Sequence[Tallies]) -> Tallies:
    """Each callback's ``(asked, calls, seconds)`` added up over the rulesets."""
    total: Tallies = {}
    for part in parts:
        for name, (asked, calls, seconds) in part.items():
            was_asked, was_calls, was_seconds = total.get(name, (0, 0, 0.0))
            total[name] = (was_asked + asked, was_calls + calls, was_seconds + seconds)
    return total
