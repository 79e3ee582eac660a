"""What ``naqala simulate`` and ``naqala compare`` share: the study options, the
executor, the progress bar, Ctrl-C, and writing the report and plots."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from naqala.cli.common import Without as Without  # re-exported for the study commands
from naqala.cli.common import fail as fail
from naqala.lab import LabExtraMissing, require
from naqala.lab.executors import Executor, make_executor
from naqala.lab.runner import Advance

Seats = Annotated[
    str | None,
    typer.Option(
        "--seats",
        help="Agent per seat, comma-separated (random, greedy, greedy-nobid, mcts:200; "
        "ai:NAME as in naqala play, a house rule's player too); fixes the player count. "
        "Default: random players.",
    ),
]
Rotate = Annotated[
    bool, typer.Option("--rotate", help="Move the agents one seat on with every game.")
]
Jobs = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores)."),
]
Dask = Annotated[
    str | None,
    typer.Option("--dask", help="Play on a Dask cluster: the scheduler's address."),
]
ReportPath = Annotated[
    Path | None, typer.Option("--report", help="Write a self-contained HTML report here.")
]
PlotsDir = Annotated[
    Path | None, typer.Option("--plots", help="Write every figure as SVG and PNG here.")
]


def need_figures(report: Path | None, plots: Path | None) -> None:
    """Refuse before playing when a report or plots are asked for without matplotlib."""
    if report is None and plots is None:
        return
    try:
        require("matplotlib", "--report and --plots")
        require("scipy.stats", "--report and --plots")
    except LabExtraMissing as exc:
        fail(str(exc))


def executor_for(jobs: int | None, dask: str | None, games: int) -> Executor:
    if jobs is not None and dask is not None:
        fail("give --jobs or --dask, not both")
    try:
        return make_executor(jobs, dask, games)
    except LabExtraMissing as exc:
        fail(str(exc))
    except OSError as exc:  # the scheduler cannot be reached
        fail(f"--dask {dask}: cannot reach the scheduler: {exc}")


@contextlib.contextmanager
def progress_bar(show: bool, total: int, label: str) -> Iterator[Advance | None]:
    """A rich progress bar over games on stderr (when ``show``), advanced by the callback."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


def interrupted_note(done: int, requested: int) -> None:
    typer.echo(f"naqala: interrupted: PARTIAL results of {done} of {requested} games", err=True)


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
