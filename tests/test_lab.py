"""The balance lab: a study is a pure function of its arguments, so worker processes and a
Dask cluster give exactly the serial results; Ctrl-C keeps what finished, marked partial;
seats, rotation and cards left out; the HTML report is complete and deterministic."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypeVar

import pytest
from typer.testing import CliRunner, Result

from naqala.agents.nobid import NoBidGreedyAgent
from naqala.cli import study as common
from naqala.cli.app import app
from naqala.core.agents import make_agent
from naqala.lab.agents import seat_name
from naqala.lab.compare import compare
from naqala.lab.executors import DaskExecutor, ProcessExecutor, SerialExecutor
from naqala.lab.report import COMPARE_FIGURES, SIMULATE_FIGURES
from naqala.lab.results import GameResult, summarise
from naqala.lab.runner import Run, run_studies
from naqala.lab.study import Ruleset, Study, StudyError, leave_out, seats_of
from naqala.testing.scenario import DJINN_DECK, base_rules

ROOT = Path(__file__).resolve().parent.parent
BIG_VIZIERS = ROOT / "plugins" / "house" / "big_viziers.toml"
T = TypeVar("T")
R = TypeVar("R")

#: random players, a house rule file a worker must load itself, a djinn left out, rotation
STUDY = Study(
    Ruleset.of(["rich-villages"], [BIG_VIZIERS], ["djinn:jafaar"]), ("random",) * 3, 11, True
)
BASELINE = Study(Ruleset.of([], []), ("random",) * 3, 11)
VARIANT = Study(Ruleset.of([], [BIG_VIZIERS]), ("random",) * 3, 11)
GAMES = 6


@pytest.fixture(scope="module")
def serial() -> Run:
    return run_studies([STUDY], GAMES, SerialExecutor())


def test_worker_processes_give_exactly_the_serial_results(serial: Run) -> None:
    """Two worker processes rebuild the rules (expansion, house-rule file, card left out)
    and play the same games: the results are equal, in the same order."""
    executor = ProcessExecutor(2)
    try:
        parallel = run_studies([STUDY], GAMES, executor)
    finally:
        executor.close()
    assert parallel == serial
    assert [r.seed for r in serial.sides[0]] == list(range(11, 11 + GAMES))
    assert not serial.partial


def test_a_dask_cluster_gives_exactly_the_serial_results(serial: Run) -> None:
    """A real Dask scheduler with two worker processes on localhost, through the same
    executor interface; then the same cluster with threads (rules are per thread)."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = DaskExecutor(client=client)
        assert executor.description.startswith("dask tcp://")
        assert run_studies([STUDY], GAMES, executor) == serial
        report, _ = compare(BASELINE, VARIANT, 4, executor)
        assert report == compare(BASELINE, VARIANT, 4, SerialExecutor())[0]
        got = CliRunner().invoke(
            app, ["simulate", "-n", "4", "-p", "2", "--json", "--dask", cluster.scheduler_address]
        )
        assert got.exit_code == 0, got.stderr
        alone = CliRunner().invoke(app, ["simulate", "-n", "4", "-p", "2", "--json", "-j", "1"])
        assert got.stdout == alone.stdout
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=3, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert run_studies([STUDY], GAMES, DaskExecutor(client=client)) == serial


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    got = CliRunner().invoke(app, ["simulate", "-n", "2", "--dask", "tcp://127.0.0.1:9"])
    assert got.exit_code == 2
    assert "cannot reach the scheduler" in got.stderr and "Traceback" not in got.stderr


def test_the_simulate_command_is_the_same_on_one_or_two_jobs() -> None:
    args = ["simulate", "-n", "5", "-p", "3", "-s", "4", "--json", "--rotate"]
    one = CliRunner().invoke(app, [*args, "-j", "1"])
    two = CliRunner().invoke(app, [*args, "-j", "2"])
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["rotate"] is True


# -- Ctrl-C --------------------------------------------------------------------------------


class Interrupting:
    """An executor that passes ``after`` results through, then acts as if Ctrl-C came."""

    description = "interrupting"

    def __init__(self, inner: Any, after: int) -> None:
        self.inner, self.after, self.closed = inner, after, False

    def imap(
        self, fn: Callable[[T], R], items: Sequence[T], stop: Callable[[], bool] = lambda: False
    ) -> Iterator[tuple[int, R]]:
        for count, pair in enumerate(self.inner.imap(fn, items, stop)):
            if count == self.after:
                raise KeyboardInterrupt
            yield pair

    def close(self) -> None:
        self.closed = True
        self.inner.close()


def test_ctrl_c_keeps_the_finished_games_marked_partial(serial: Run) -> None:
    """Interrupted after 3 games (in worker processes: Ctrl-C raised in the main process
    while they play), the run keeps the finished games, each exactly as in a serial run."""
    executor = ProcessExecutor(2)
    stops = iter(range(100))

    def advance() -> None:
        if next(stops) == 2:
            raise KeyboardInterrupt

    try:
        run = run_studies([STUDY], GAMES, executor, advance)
    finally:
        executor.close()
    assert run.interrupted and run.partial and run.games == 3
    by_seed = {r.seed: r for r in serial.sides[0]}
    assert all(by_seed[r.seed] == r for r in run.sides[0])


def test_an_interrupted_command_prints_a_partial_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate and compare report what finished, say PARTIAL, and exit with code 130; a
    comparison keeps only the games both sides finished."""
    monkeypatch.setattr(
        common,
        "make_executor",
        lambda jobs, dask, games, native=False: Interrupting(SerialExecutor(), 3),
    )
    got = CliRunner().invoke(app, ["simulate", "-n", "10", "-p", "2", "--json"])
    assert got.exit_code == 130
    data = json.loads(got.stdout)
    assert (data["games"], data["requested"], data["partial"]) == (3, 10, True)
    assert "PARTIAL results of 3 of 10 games" in got.stderr
    plain = CliRunner().invoke(app, ["simulate", "-n", "10", "-p", "2"])
    assert plain.stdout.startswith("PARTIAL: 3 of 10 games")
    monkeypatch.setattr(
        common,
        "make_executor",
        lambda jobs, dask, games, native=False: Interrupting(SerialExecutor(), 5),
    )
    got = CliRunner().invoke(
        app, ["compare", "--house-rules", str(BIG_VIZIERS), "-n", "10", "-p", "2", "--json"]
    )
    assert got.exit_code == 130
    data = json.loads(got.stdout)
    assert (data["games"], data["seeds"], data["partial"]) == (2, [0, 1], True)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_real_ctrl_c_stops_cleanly(engine: str) -> None:
    """SIGINT to the process group of a running ``naqala simulate -j 2`` (as Ctrl-C on a
    terminal): exit code 130 and no traceback, with either a partial summary or a note
    that no game had finished yet. On the Python engine the games are in worker
    processes; on the native kernel, in threads of the command's process."""
    if engine == "native":
        pytest.importorskip("naqala.native._native")
    code = "from naqala.cli.app import main; main()"
    games = "100000" if engine == "python" else "100000000"
    command = ["simulate", "-n", games, "-p", "2", "-j", "2", "--json", "--engine", engine]
    process = subprocess.Popen(
        [sys.executable, "-c", code, *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    threads = Path(f"/proc/{process.pid}/task")
    for _ in range(600):  # wait (at most a minute) until the workers exist
        if engine == "python" and children.exists() and children.read_text().split():
            break
        if engine == "native" and len(list(threads.iterdir())) > 2:  # the two game threads
            break
        time.sleep(0.1)
    time.sleep(3)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches every process of the group
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    if out:
        data = json.loads(out)
        assert data["partial"] and 0 < data["games"] < int(games)
        assert "PARTIAL" in err
    else:
        assert "before any game finished" in err


# -- seats, agents and cards ---------------------------------------------------------------


def test_seats_name_the_agents_and_fix_the_player_count() -> None:
    rules = base_rules()
    assert seats_of(rules, "greedy,ai:random,ai", None) == ("greedy", "random", "greedy")
    assert seats_of(rules, None, 3) == ("random",) * 3
    assert seats_of(rules, None, None) == ("random",) * 4
    with pytest.raises(StudyError, match="seat 'human': a study seats AI players only"):
        seats_of(rules, "human,random", None)
    with pytest.raises(StudyError, match="--players 2"):
        seats_of(rules, "random,random,random", 2)
    assert seat_name(rules, "greedy-nobid") == "greedy-nobid"


def test_rotation_seats_every_agent_once_at_every_seat() -> None:
    study = Study(Ruleset(), ("greedy", "random", "greedy-nobid"), rotate=True)
    assert study.agents_of(0) == ("greedy", "random", "greedy-nobid")
    assert study.agents_of(1) == ("greedy-nobid", "greedy", "random")
    assert study.agents_of(2) == ("random", "greedy-nobid", "greedy")
    for name in study.seats:
        assert sorted(study.agents_of(i).index(name) for i in range(3)) == [0, 1, 2]
    assert Study(Ruleset(), ("greedy", "random")).agents_of(1) == ("greedy", "random")


def test_the_no_bid_greedy_agent_takes_the_cheapest_bid() -> None:
    """At the bid it takes the cheapest spot (``bid 0``); ``naqala play`` knows it too."""
    rules = base_rules()
    state = rules.new_game(3, 5)
    assert state.decision.stage == "bid"
    options = rules.legal_actions(state)
    agent = make_agent(rules, "greedy-nobid", 1)
    assert isinstance(agent, NoBidGreedyAgent)
    assert str(agent.choose(rules, state, options)) == "bid 0"
    greedy = make_agent(rules, "greedy", 1).choose(rules, state, options)
    assert greedy.kind == "bid"


def test_wins_by_agent_counts_seats_played() -> None:
    def game(winners: tuple[int, ...], agents: tuple[str, ...]) -> GameResult:
        return GameResult(0, 1, 1, (1, 1), winners, ({}, {}), (), {}, agents)

    results = [game((0,), ("a", "b")), game((0,), ("b", "a")), game((0, 1), ("a", "b"))]
    summary = summarise(results, 2, 0, ("base",))
    assert summary["wins_by_agent"]["a"]["games"] == 3
    assert summary["wins_by_agent"]["a"]["wins"] == 1.5
    assert summary["wins_by_agent"]["b"]["rate"] == pytest.approx(1.5 / 3, abs=1e-4)


def test_a_card_left_out_is_never_dealt() -> None:
    """``--without djinn:jafaar``: in no game does Jafaar come into the djinn deck; the
    card stays known to the rules; unknown cards and kinds are refused."""
    rules = leave_out(Ruleset().build(), ["djinn:jafaar"])
    assert "jafaar" in rules.card_specs
    full = Ruleset().build()
    for seed in range(5):
        deck = rules.new_game(4, seed).decks[DJINN_DECK]
        assert "jafaar" not in (*deck.draw, *deck.row)
        assert len(deck.draw) + len(deck.row) == len(full.content.deck("djinns")) - 1
    with pytest.raises(StudyError, match="no djinn 'nosuch'"):
        leave_out(Ruleset().build(), ["djinn:nosuch"])
    with pytest.raises(StudyError, match="djinn:ID or card:ID"):
        leave_out(Ruleset().build(), ["jafaar"])
    artisans = leave_out(Ruleset(("artisans",)).build(), ["card:horn-of-plenty"])
    assert all(c.id != "horn-of-plenty" for c in artisans.content.cards)
    got = CliRunner().invoke(
        app, ["simulate", "-n", "2", "-p", "2", "--json", "--without", "djinn:jafaar"]
    )
    assert got.exit_code == 0
    data = json.loads(got.stdout)
    assert data["without"] == ["djinn:jafaar"]


# -- the report ----------------------------------------------------------------------------


class Page(HTMLParser):
    """Figures (with their SVG), table cells by table id, the data block, outside links."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, int] = {}
        self.cells: dict[str, list[str]] = {}
        self.data = ""
        self.outside: list[str] = []
        self._figure: str | None = None
        self._table: str | None = None
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for key in ("src", "href"):
            if key in found:
                self.outside.append(str(found[key]))
        if tag in ("script", "link", "img", "iframe"):
            self.outside.append(tag)
        if tag == "figure":
            self._figure = str(found["id"])
            self.figures[self._figure] = 0
        if tag == "svg" and self._figure is not None:
            self.figures[self._figure] += 1
        if tag == "table":
            self._table = str(found["id"])
            self.cells[self._table] = []
        if tag in ("td", "pre"):
            self._in = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self._figure = None
        if tag in ("td", "pre"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "td" and self._table is not None:
            self.cells[self._table].append(data)
        elif self._in == "pre":
            self.data += data


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def invoke(*args: str) -> Result:
    got = CliRunner().invoke(app, list(args))
    assert got.exit_code == 0, got.stderr
    return got


def test_the_simulate_report_is_complete_and_deterministic(tmp_path: Path) -> None:
    """Every figure is there as inline SVG, nothing is fetched from outside, the data block
    is the ``--json`` output, the seat table shows its numbers; the same arguments write
    the same bytes; ``--plots`` writes each figure as SVG and PNG."""
    args = ["simulate", "-n", "4", "-p", "3", "-x", "artisans", "--json", "-j", "1"]
    first = invoke(*args, "--report", str(tmp_path / "a.html"), "--plots", str(tmp_path / "p"))
    invoke(*args, "--report", str(tmp_path / "b.html"))
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    page = parse(tmp_path / "a.html")
    assert page.figures == {f"fig-{name}": 1 for name in SIMULATE_FIGURES}
    assert page.outside == []
    data = json.loads(first.stdout)
    assert json.loads(page.data) == data
    seats = page.cells["table-seats"]
    for seat, rate in enumerate(data["win_rate_by_seat"]):
        row = seats[seat * 5 : seat * 5 + 5]
        assert row[0] == f"seat {seat + 1}"
        assert float(row[2]) == rate["rate"]
        assert float(row[4]) == data["mean_score_by_seat"][seat]
    assert page.cells["table-seat-test"][3] == f"{data['seat_test']['p_value']:g}"
    for name in SIMULATE_FIGURES:
        assert (tmp_path / "p" / f"{name}.svg").read_text().startswith("<svg")
        assert (tmp_path / "p" / f"{name}.png").read_bytes().startswith(b"\x89PNG")


def test_the_compare_report_is_complete(tmp_path: Path) -> None:
    """Every comparison figure, and a row per metric whose numbers are the JSON's."""
    out = tmp_path / "c.html"
    got = invoke(
        "compare",
        "--house-rules",
        str(BIG_VIZIERS),
        "-n",
        "6",
        "-p",
        "3",
        "--json",
        "-j",
        "1",
        "--report",
        str(out),
    )
    data = json.loads(got.stdout)
    page = parse(out)
    assert page.figures == {f"fig-{name}": 1 for name in COMPARE_FIGURES}
    assert page.outside == []
    assert json.loads(page.data) == data
    cells = page.cells["table-paired"]
    rows = [cells[i : i + 9] for i in range(0, len(cells), 9)]
    metrics = [
        *data["wins_by_seat"],
        *(e["wins"] for e in data["by_position"]),
        data["score"],
        *data["categories"].values(),
        *data["length"].values(),
        *(e["score"] for e in data["by_position"]),
        *(e["wins"] for e in data["by_turn_position"]),
    ]
    assert len(data["by_position"]) == len(data["by_turn_position"]) == 3
    assert len(rows) == len(metrics) == data["correction"]["metrics"]
    for row, entry in zip(rows, metrics, strict=True):
        assert float(row[3]) == entry["difference"]
        assert float(row[7]) == entry["p_holm"]
        assert row[8] == ("yes" if entry["significant"] else "no")


def test_a_report_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.delitem(sys.modules, "matplotlib", raising=False)
    got = CliRunner().invoke(app, ["simulate", "-n", "1", "--report", "x.html"])
    assert got.exit_code == 2
    assert "pip install 'naqala[lab]'" in got.stderr
    assert got.stdout == ""


def test_svg_has_no_date_and_a_fixed_salt() -> None:
    from naqala.lab.report import simulate_figures, svg_text

    results = list(run_studies([BASELINE], 2, SerialExecutor()).sides[0])
    figures = simulate_figures(results, 3)
    text = svg_text(figures["win-rate"])
    assert "<dc:date>" not in text
    assert svg_text(simulate_figures(results, 3)["win-rate"]) == text
    assert re.search(r"\d{4}-\d\d-\d\dT", text) is None


def test_the_report_shows_undefined_numbers_as_a_dash() -> None:
    """A seat that won only under the variant has an infinite odds ratio: JSON null, and
    a dash in the page (not a crash)."""
    from naqala.lab.compare import report
    from naqala.lab.report import html_report

    def game(seed: int, winners: tuple[int, ...]) -> GameResult:
        return GameResult(seed, 10, 100, (5, 5), winners, ({}, {}), (), {})

    baseline = [game(0, (0,)), game(1, (0,)), game(2, (0,))]
    variant = [game(0, (1,)), game(1, (0,)), game(2, (0,))]
    data = report(baseline, variant, 2, 0, ["base"], ["base", "house"])
    assert data["wins_by_seat"][1]["odds_ratio"]["value"] is None
    data.update(requested=3, partial=False, seats=["random", "random"], rotate=False)
    page = html_report("t", data, {}, {})
    assert "odds ratio –" in page


def test_the_first_round_bidding_order_is_recorded_and_summarised() -> None:
    """Each game records who bids first, second, … in round 1 (the turn order a player
    starts with, drawn at set-up); the summary gives the win rate of each position."""
    from naqala.lab.results import start_order

    rules = base_rules()
    state = rules.new_game(2, 3)
    order = start_order(state)
    assert sorted(order) == [0, 1]
    assert order[0] == state.markers[state.bid_track[0]]
    results = run_studies([BASELINE], 3, SerialExecutor()).sides[0]
    for r in results:
        assert r.start_order == start_order(base_rules().new_game(3, r.seed))

    def game(winners: tuple[int, ...], first: tuple[int, ...]) -> GameResult:
        return GameResult(0, 1, 1, (1, 1), winners, ({}, {}), (), {}, (), first)

    summary = summarise([game((1,), (1, 0)), game((0,), (0, 1)), game((0, 1), (1, 0))], 2, 0, ())
    assert summary["wins_by_start_position"] == [2.5, 0.5]
    assert summary["win_rate_by_start_position"][0]["rate"] == pytest.approx(2.5 / 3, abs=1e-4)


def test_the_first_ctrl_c_asks_the_executor_to_stop() -> None:
    """A SIGINT while a study runs sets the stop flag the executor polls (no exception
    inside the pool); the run ends after the games already done, marked partial, and the
    usual Ctrl-C handler is back afterwards."""
    before = signal.getsignal(signal.SIGINT)
    executor = ProcessExecutor(2)
    sent = iter(range(100))

    def advance() -> None:
        if next(sent) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    try:
        run = run_studies([STUDY], GAMES, executor, advance)
    finally:
        executor.close()
    assert run.interrupted and 2 <= run.games < GAMES
    assert signal.getsignal(signal.SIGINT) is before


def test_simulate_works_without_the_lab_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without scipy, ``simulate`` still prints its summary (no seat test), while
    ``compare`` says what to install."""
    for module in ("scipy", "scipy.stats", "scipy.special"):  # importing them now fails
        monkeypatch.setitem(sys.modules, module, None)
    got = CliRunner().invoke(app, ["simulate", "-n", "2", "-p", "2", "--json", "-j", "1"])
    assert got.exit_code == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["seat_test"] is None and data["games"] == 2
    got = CliRunner().invoke(app, ["compare", "--house-rules", str(BIG_VIZIERS), "-n", "2"])
    assert got.exit_code == 2 and got.stdout == ""
    assert "naqala compare needs scipy, from the lab extra: pip install 'naqala[lab]'" in got.stderr


def test_a_studys_house_rule_travels_as_the_bytes_read_on_the_command_line(
    tmp_path: Path,
) -> None:
    """A worker runs the house rule as it was read once, not whatever is at its path when
    the worker starts: the file gone, or changed, after the study was made changes nothing
    (and a Dask worker on another machine needs no copy of it)."""
    copy = tmp_path / "big_viziers.toml"
    copy.write_bytes(BIG_VIZIERS.read_bytes())
    study = Study(Ruleset.of([], [copy]), ("random",) * 3, 11)
    copy.write_text("[house-rule]\nname = 'changed'\n", encoding="utf-8")
    executor = ProcessExecutor(2)
    try:
        results = run_studies([study], 2, executor).sides
    finally:
        executor.close()
    assert results == run_studies([VARIANT], 2, SerialExecutor()).sides
    assert study.ruleset.identity() == VARIANT.ruleset.identity()[:1] + [
        [["big_viziers.toml", VARIANT.ruleset.house_rules[0].sha256]],
        [],
    ]


@pytest.mark.parametrize("command", ["simulate", "compare", "skill", "balance"])
def test_an_unreadable_house_rule_is_one_line_for_every_study(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope.py"
    result = CliRunner().invoke(app, [command, "--games", "2", "--house-rules", str(missing)])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"naqala: {missing}: cannot read: No such file or directory"
