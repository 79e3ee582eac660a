"""The designer's lab commands (skill, tune, balance, interactions, extremes) on Ctrl-C and
on a Dask cluster: an interrupted run says one line, keeps what finished and exits 130
with no traceback (tune resumes from its storage); ``--dask`` gives the ``--jobs 1``
answer (issues 28 and 30)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from typer.testing import CliRunner, Result

from naqala.cli import study as common
from naqala.cli.app import app
from naqala.lab import extremes
from naqala.lab.executors import SerialExecutor

pytest.importorskip("scipy")

T = TypeVar("T")
R = TypeVar("R")

SPACE = """\
[tune]
name = "fair-viziers"

[[knob]]
target = "settings"
field = "vizier_bonus"
low = 5
high = 20

[[knob]]
target = "tile:oasis"
field = "vp"
low = 4
high = 10
"""

SKILL = ["skill", "--seats", "random,greedy", "--games", "2", "--players", "2", "--json"]
BALANCE = ["balance", "--seats", "random,random", "-n", "4", "--ladder", "random,greedy-nobid"]
BALANCE += ["--skill-games", "2", "--json"]
INTERACTIONS = ["interactions", "--components", "djinn:jafaar,djinn:haurvatat,djinn:enki"]
INTERACTIONS += ["-n", "3", "-p", "2", "--json"]


class Interrupting:
    """An executor that passes ``after`` results through (over all its runs: a command
    may play several), then acts as if Ctrl-C came."""

    description = "interrupting"

    def __init__(self, inner: Any, after: int) -> None:
        self.inner, self.after, self.passed = inner, after, 0

    def imap(
        self, fn: Callable[[T], R], items: Sequence[T], stop: Callable[[], bool] = lambda: False
    ) -> Iterator[tuple[int, R]]:
        for pair in self.inner.imap(fn, items, stop):
            if self.passed == self.after:
                raise KeyboardInterrupt
            self.passed += 1
            yield pair

    def close(self) -> None:
        self.inner.close()


def interrupt_after(monkeypatch: pytest.MonkeyPatch, results: int) -> None:
    """Every executor the commands make from now on stops after ``results`` games."""
    monkeypatch.setattr(
        common,
        "make_executor",
        lambda jobs, dask, games, native=False: Interrupting(SerialExecutor(), results),
    )


def run(args: Sequence[str]) -> Result:
    return CliRunner().invoke(app, list(args))


def stopped(result: Result) -> None:
    """Exit 130, no traceback, and one line on stderr that says it was interrupted."""
    assert result.exit_code == 130, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0], result.stderr


@pytest.fixture
def space(tmp_path: Path) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(SPACE, encoding="utf-8")
    return path


def tune_args(space: Path, out: Path, trials: int = 3) -> list[str]:
    return ["tune", str(space), "--out", str(out), "--trials", str(trials), "--games", "4",
            "--seats", "random,random", "--json"]  # fmt: skip


# -- Ctrl-C --------------------------------------------------------------------------------


def test_an_interrupted_skill_matrix_reports_the_games_every_cell_finished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = json.loads(run([*SKILL, "-j", "1"]).stdout)
    interrupt_after(monkeypatch, 3)
    got = run(SKILL)
    stopped(got)
    data = json.loads(got.stdout)
    assert data["partial"] is True and data["requested"] == 2
    assert data["games_per_cell"] < whole["games_per_cell"]


def test_an_interrupted_balance_card_keeps_the_games_it_played(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Stopped among the card's own games: the card of those, without the skill matrix
    (its games come after); stopped in the skill matrix: the whole card, the matrix of the
    games every cell finished."""
    pytest.importorskip("matplotlib")
    interrupt_after(monkeypatch, 2)
    page = tmp_path / "card.html"
    got = run([*BALANCE, "--report", str(page)])
    stopped(got)
    data = json.loads(got.stdout)
    assert data["partial"] is True and data["games"] == 2 and data["skill"] is None
    assert "PARTIAL" in page.read_text() and 'id="fig-skill"' not in page.read_text()
    interrupt_after(monkeypatch, 4 + 3)  # the card's 4, then 3 of the matrix's 4 games
    got = run(BALANCE)
    stopped(got)
    data = json.loads(got.stdout)
    assert data["games"] == 4 and data["skill"]["games_per_cell"] == 1
    plain = run(BALANCE[:-1])
    assert plain.exit_code == 130 and "Traceback" not in plain.stderr


def test_an_interrupted_interaction_matrix_keeps_the_games_every_arm_finished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 7 distinct arms (neither, three alone, three pairs) of 3 games; 16 results are the
    # first two games of every arm
    interrupt_after(monkeypatch, 16)
    got = run(INTERACTIONS)
    stopped(got)
    data = json.loads(got.stdout)
    assert data["partial"] is True and data["games"] == 2 and data["requested"] == 3
    assert data["seeds"] == [0, 1] and data["cells"]


def test_an_interaction_matrix_stopped_before_two_games_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    interrupt_after(monkeypatch, 3)
    got = run(INTERACTIONS)
    stopped(got)
    assert got.stdout == "" and "finished in every arm" in got.stderr


def test_an_interrupted_tune_keeps_its_trials_and_resumes_to_the_same_answer(
    monkeypatch: pytest.MonkeyPatch, space: Path, tmp_path: Path
) -> None:
    out = tmp_path / "best.toml"
    interrupt_after(monkeypatch, 8)  # some trials, not all three
    got = run(tune_args(space, out))
    stopped(got)
    data = json.loads(got.stdout)
    assert data["partial"] is True and out.exists()

    def complete(result: Result) -> list[Any]:
        keys = ("number", "params", "loss")
        trials = json.loads(result.stdout)["trials"]
        return [{k: t[k] for k in keys} for t in trials if t["state"] == "complete"]

    kept = complete(got)
    assert 1 <= len(kept) < 3
    monkeypatch.undo()
    again = run(tune_args(space, out))
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["partial"] is False
    resumed = complete(again)
    assert len(resumed) == 3 and resumed[: len(kept)] == kept  # kept, not played again


def test_a_tune_stopped_before_any_trial_has_nothing_to_write(
    monkeypatch: pytest.MonkeyPatch, space: Path, tmp_path: Path
) -> None:
    interrupt_after(monkeypatch, 1)
    got = run(tune_args(space, tmp_path / "best.toml"))
    stopped(got)
    assert "before any trial finished" in got.stderr and not (tmp_path / "best.toml").exists()


@pytest.mark.parametrize("at", [3, 15], ids=["in-the-sweep", "in-hypothesis-search"])
def test_an_interrupted_extremes_search_reports_the_best_so_far(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, at: int
) -> None:
    """A 40-game budget is a sweep of 10 candidates, then hypothesis' 30: Ctrl-C in
    either keeps the best candidate so far, its witness replayable."""
    pytest.importorskip("hypothesis")
    real = extremes.play_candidate
    calls = iter(range(1000))

    def play(*args: Any) -> Any:
        if next(calls) == at:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(extremes, "play_candidate", play)
    args = ["extremes", "--metric", "points-in-a-turn", "--budget", "40g", "-p", "2"]
    got = run([*args, "--json", "--out", str(tmp_path)])
    stopped(got)
    data = json.loads(got.stdout)
    assert data["partial"] is True and data["candidates"] == at and data["baseline"] is None
    assert data["value"] > 0 and Path(data["witness"]).exists()
    replay = run(["replay", "--verify", data["witness"]])
    assert replay.exit_code == 0, replay.stderr


def test_an_extremes_search_stopped_before_any_candidate_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("hypothesis")

    def play(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(extremes, "play_candidate", play)
    from naqala.cli.app import main

    with pytest.raises(SystemExit) as stop:
        main(["extremes", "--budget", "4g", "-p", "2", "--json"])
    assert stop.value.code == 130


# -- Dask ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A real local Dask cluster, two worker processes, for the whole module."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def same_on_dask(args: Sequence[str], scheduler: str) -> Result:
    alone = run([*args, "-j", "1"])
    assert alone.exit_code == 0, alone.stderr
    cluster = run([*args, "--dask", scheduler])
    assert cluster.exit_code == 0, cluster.stderr
    assert cluster.stdout == alone.stdout
    return alone


def test_skill_on_dask_is_skill_on_one_job(scheduler: str) -> None:
    data = json.loads(same_on_dask(SKILL, scheduler).stdout)
    assert data["partial"] is False


def test_balance_on_dask_is_balance_on_one_job(scheduler: str) -> None:
    same_on_dask(BALANCE, scheduler)


def test_interactions_on_dask_are_interactions_on_one_job(scheduler: str) -> None:
    same_on_dask(INTERACTIONS, scheduler)


def test_tune_on_dask_is_tune_on_one_job(scheduler: str, space: Path, tmp_path: Path) -> None:
    alone = run([*tune_args(space, tmp_path / "one.toml"), "-j", "1"])
    cluster = run([*tune_args(space, tmp_path / "dask.toml"), "--dask", scheduler])
    assert alone.exit_code == cluster.exit_code == 0, cluster.stderr

    def answer(result: Result) -> Any:
        data = json.loads(result.stdout)
        keys = ("number", "state", "params", "loss")
        return [{k: t[k] for k in keys} for t in data["trials"]], data["comparison"]

    assert answer(cluster) == answer(alone)
    assert (tmp_path / "one.toml").read_text() == (tmp_path / "dask.toml").read_text()
