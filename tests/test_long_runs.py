"""Long runs finish: every statistic of ``simulate`` and ``compare`` holds for ties and
shared wins, for a handful of games and for tens of thousands; a run of a billion games
says how long it will take; Ctrl-C at any moment ends with a note, never a traceback."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from subprocess import PIPE, Popen
from typing import Any

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.cli.study import Estimate, duration_text
from naqala.lab.compare import report
from naqala.lab.results import GameResult, split_wins, summarise
from naqala.lab.stats import seat_balance

ROOT = Path(__file__).resolve().parent.parent


def made_up(seed: int, games: int, players: int) -> list[GameResult]:
    """Games with many ties: scores drawn from a few values, so two, three or every seat
    share the win often; every fifth game nobody wins (as a solo loss)."""
    draw = random.Random(seed)
    results = []
    for index in range(games):
        scores = tuple(draw.choice((50, 60, 60, 61)) for _ in range(players))
        best = max(scores)
        winners = () if index % 5 == 4 else tuple(s for s in range(players) if scores[s] == best)
        categories = tuple({"coins": s} for s in scores)
        start = tuple(draw.sample(range(players), players))
        results.append(
            GameResult(index, 10, 200 + index % 7, scores, winners, categories, (), {}, (), start)
        )
    return results


def test_a_two_game_run_with_a_three_way_tie_reports_its_seat_test() -> None:
    """Game seed 40 of four random players ends in a three-way tie (a third of a win to
    each): the seat test adds up the exact thirds, not the summary's rounded ones
    (``scipy.stats.chisquare`` refused 1.333 + 0.333 + 0 + 0.333 against 2 games)."""
    got = CliRunner().invoke(
        app, ["simulate", "-n", "2", "-s", "39", "-p", "4", "-j", "1", "--json"]
    )
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["wins_by_seat"] == [1.333, 0.333, 0.0, 0.333]
    assert data["seat_test"]["df"] == 3 and 0 < data["seat_test"]["p_value"] <= 1
    assert data["start_position_test"]["df"] == 3


@pytest.mark.parametrize("games", [2, 3, 7, 20_000])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_statistic_holds_with_shared_wins(games: int, players: int) -> None:
    """From two games to tens of thousands, with shared wins and games nobody won: the
    summary, both seat tests and the paired comparison are finite where defined and
    within their ranges."""
    results = made_up(games * players, games, players)
    summary = summarise(results, players, 0, ("base",))
    for rate in summary["win_rate_by_seat"] + summary["win_rate_by_start_position"]:
        assert 0 <= rate["ci"][0] <= rate["rate"] <= rate["ci"][1] <= 1
    test = seat_balance(split_wins(results, players), games)
    assert test is not None and 0 <= test["p_value"] <= 1 and test["chi2"] >= 0
    variant = made_up(games * players + 1, games, players)
    data = report(results, variant, players, 0, ["base"], ["base", "house"])
    for entry in [*data["wins_by_seat"], data["score"], *data["length"].values()]:
        assert 0 <= entry["p_value"] <= 1 and 0 <= entry["p_holm"] <= 1
    json.dumps(data, allow_nan=False)


def test_no_win_at_all_has_no_seat_test() -> None:
    """Solo-like runs where nobody won: nothing to compare the seats by."""
    assert seat_balance([0.0, 0.0, 0.0], 5) is None


def test_a_long_run_without_a_bar_says_how_long_it_will_take() -> None:
    """The estimate is made on the first two seconds of games and said once, only for a
    run that will take more than a minute (a game every 1/64 s on a made-up clock)."""
    now = [0.0]
    said: list[str] = []
    estimate = Estimate(1_000_000_000, "simulating", lambda: now[0], said.append)
    for _ in range(32):
        now[0] += 1 / 64
        estimate()
    assert said == []  # half a second: too early to tell
    for _ in range(200):
        now[0] += 1 / 64
        estimate()
    # 128 games in 2 s: the other 999,999,872 take 15,624,998 s
    assert said == [
        "naqala: simulating 128 of 1,000,000,000 games took 2 s; the rest will take about "
        "181 days at this pace (Ctrl-C stops and reports the games finished)"
    ]
    short: list[str] = []
    estimate = Estimate(300, "simulating", lambda: now[0], short.append)
    for _ in range(300):
        now[0] += 1 / 64
        estimate()
    assert short == []
    assert duration_text(90) == "about 90 seconds" and duration_text(7200) == "about 2 hours"
    assert duration_text(3 * 365.25 * 86400) == "about 3 years"


#: the start of a command run as a terminal's foreground job: Ctrl-C not ignored. A shell
#: starts a background job with SIGINT ignored, which its children inherit (and a Python
#: started so keeps ignoring it), so a test run launched in the background would hand
#: the command a Ctrl-C it ignores until the study's own handler is set
FOREGROUND = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "


def run_until(args: list[str], ready: Callable[[Popen[str], list[str]], bool]) -> Popen[str]:
    """``naqala ARGS`` in its own process group (a terminal's foreground job), once
    ``ready(process, stderr lines so far)`` holds (at most a minute); its stderr lines
    keep arriving in ``process.lines``."""
    code = FOREGROUND + "from naqala.cli.app import main; main()"
    process = Popen(
        [sys.executable, "-c", code, *args],
        stdout=PIPE,
        stderr=PIPE,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    assert process.stderr is not None
    stream = process.stderr
    threading.Thread(target=lambda: lines.extend(stream), daemon=True).start()
    deadline = time.monotonic() + 60
    try:
        while not ready(process, lines):
            assert time.monotonic() < deadline, "the command never got ready"
            assert process.poll() is None, "".join(lines)
            time.sleep(0.02)
    except BaseException:
        stop(process)
        raise
    process.lines = lines  # type: ignore[attr-defined]
    return process


def stop(process: Popen[str]) -> None:
    """End the command's whole process group if it still runs (a failed test leaves no
    process behind: it runs in a session of its own)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def interrupt(process: Popen[str]) -> tuple[str, str]:
    """Ctrl-C: SIGINT to every process of the group, then what it wrote."""
    try:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=120)  # its JSON (a few kB) fits in the pipe meanwhile
        out = process.stdout.read() if process.stdout else ""
    finally:
        stop(process)
    time.sleep(0.2)  # the reader thread takes the last lines
    return out, "".join(process.lines)  # type: ignore[attr-defined]


def children(process: Popen[str]) -> list[str]:
    path = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    return path.read_text().split() if path.exists() else []


def test_a_billion_games_start_at_once_and_stop_on_ctrl_c() -> None:
    """``simulate --games 1000000000`` plays at once (no list of a billion tasks first),
    says how long it would take, and Ctrl-C reports the games finished, marked partial,
    with no traceback and no leaked semaphore."""
    process = run_until(
        ["simulate", "-n", "1000000000", "-p", "2", "-j", "2", "--json"],
        lambda _, lines: any("the rest will take" in line for line in lines),
    )
    out, err = interrupt(process)
    assert process.returncode == 130, err
    assert "days" in err or "years" in err
    for word in ("Traceback", "leaked", "internal error", "Aborted"):
        assert word not in err
    data = json.loads(out)
    assert data["partial"] and data["requested"] == 1_000_000_000 and data["games"] > 0


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.3])
def test_ctrl_c_while_the_workers_start_ends_cleanly(delay: float) -> None:
    """A Ctrl-C as the worker processes are starting (it reaches the fork server and the
    workers too): exit code 130 and one line, not a broken pool, a traceback or leaked
    semaphores."""
    process = run_until(  # the Python engine's games go to worker processes
        ["simulate", "-n", "1000", "-p", "2", "-j", "2", "--json", "--engine", "python"],
        lambda p, _: bool(children(p)),
    )
    time.sleep(delay)
    out, err = interrupt(process)
    assert process.returncode == 130, err
    for word in ("Traceback", "leaked", "internal error", "Aborted", "BrokenProcessPool"):
        assert word not in err
    assert out == "" or json.loads(out)["partial"]


def bench_long_runs() -> Any:
    """``bench/long_runs.py``, whose cases and checks this test samples."""
    spec = importlib.util.spec_from_file_location("long_runs", ROOT / "bench" / "long_runs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["long_runs"] = module  # attrs resolves the module of its classes
    spec.loader.exec_module(module)
    return module


def test_the_bench_covers_every_player_kind_and_expansion_set() -> None:
    from naqala.core import build_rules

    shipped = set(build_rules().agents)  # every player the rules of a plain game can seat
    bench = bench_long_runs()
    every = bench.cases()
    assert {c.kind.partition(":")[0] for c in every} == shipped
    assert {x for c in every for x in c.expansions} == {"artisans", "djinns", "thieves", "solo"}
    assert len(every) == 9 * len(shipped)


@pytest.mark.parametrize(
    ("expansions", "kind"), [(("artisans", "djinns", "thieves"), "random"), (("solo",), "greedy")]
)
def test_a_sample_of_the_long_runs(tmp_path: Path, expansions: tuple[str, ...], kind: str) -> None:
    """The bench's check of ``simulate``, ``compare`` and both reports, on a sample of its
    cases with a few games (the whole matrix at scale is ``python bench/long_runs.py``)."""
    bench = bench_long_runs()
    bench.check_case(bench.Case(expansions, kind), 4, tmp_path, seed=38, jobs=1)


def test_on_a_terminal_a_billion_games_show_progress_at_once() -> None:
    """In a terminal, ``simulate --games 1000000000`` shows its progress bar with the time
    left within seconds (a list of a billion tasks was built first), and Ctrl-C ends it
    with the partial summary, exit code 130."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        str(Path(sys.executable).with_name("naqala")),
        ["simulate", "-n", "1000000000", "-p", "2", "-j", "1"],
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 160),
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "160"},
    )
    try:
        child.expect(r"Simulating")
        child.expect(r"\d+:\d\d:\d\d")  # the time left, from the games played already
        child.sendintr()
        child.expect("PARTIAL")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130


#: a fresh process starts the workers and reports the signal masks (Linux ``/proc``)
MASKS = """
import json, pathlib, multiprocessing.forkserver as fs
from naqala.lab.executors import ProcessExecutor

def masks(text):
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {k: int(fields[k], 16) for k in ("SigBlk", "SigIgn")}

executor = ProcessExecutor(1)
try:
    status = pathlib.Path("/proc/self/status")
    [(_, worker)] = list(executor.imap(pathlib.Path.read_text, [status]))
    server = pathlib.Path(f"/proc/{fs._forkserver._forkserver_pid}/status").read_text()
finally:
    executor.close()
print(json.dumps({"worker": masks(worker), "server": masks(server),
                  "main": masks(status.read_text())}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_the_fork_server_and_its_workers_hold_ctrl_c_blocked_and_the_main_process_free() -> None:
    """Ctrl-C reaches the whole process group: the fork server and the workers keep it
    blocked from their start (so one landing as they start breaks no pool), and the main
    process neither blocks nor ignores it afterwards (so no Ctrl-C is lost)."""
    done = subprocess.run(
        [sys.executable, "-c", FOREGROUND + MASKS],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    masks = json.loads(done.stdout)
    sigint = 1 << (signal.SIGINT - 1)
    assert masks["server"]["SigBlk"] & sigint
    assert masks["worker"]["SigBlk"] & sigint
    assert not masks["main"]["SigBlk"] & sigint
    assert not masks["main"]["SigIgn"] & sigint
