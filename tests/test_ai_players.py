"""AI players are plugins: the worked example of docs/ai.md ("Writing an AI player"), a
house-rule file that adds ``ai:coiny``, played through ``naqala play``, ``naqala simulate
--jobs 2`` and the web server's new-game API; and seats as bounded input that every
command resolves the same way, with the same messages."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.agents import SeatError, canonical_seat, make_agent
from naqala.core.engine import build_rules
from naqala.core.record import load_record, new_record, save_record
from naqala.core.simulate import agent_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "ai.md"
BLOCK = re.compile(r"^```python\n(# file: coiny\.py\n.*?)^```$", re.M | re.S)
runner = CliRunner()


def run(*args: str, given: str = "") -> Result:
    return runner.invoke(app, list(args), input=given)


@pytest.fixture(scope="module")
def coiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example file exactly as docs/ai.md prints it, in a folder of its own."""
    found = BLOCK.search(GUIDE.read_text(encoding="utf-8"))
    assert found, "docs/ai.md has no '# file: coiny.py' example"
    path = tmp_path_factory.mktemp("house") / "coiny.py"
    path.write_text(found.group(1), encoding="utf-8")
    return path


def test_the_example_player_is_a_fair_deterministic_player(coiny: Path) -> None:
    """Built with the rules it joins; the same seed plays the same game, and it hoards:
    it never pays for turn order when a free bid is on offer."""
    rules = build_rules(house_rules=[coiny])
    assert canonical_seat(rules, "AI:Coiny") == "ai:coiny"
    games = []
    for _ in range(2):
        seats = [make_agent(rules, "ai:coiny", agent_seed(4, 0)), make_agent(rules, "ai", 9)]
        state, count = play_game(rules, 2, 4, seats)
        games.append((rules.scores(state), count))
        assert state.is_over
    assert games[0] == games[1]
    state = rules.new_game(2, 4)
    options = rules.legal_actions(state)
    chosen = make_agent(rules, "coiny", 1).choose(rules, state, options)
    assert state.decision.stage == "bid" and str(chosen) == "bid 0"
    with pytest.raises(SeatError, match="the coiny player takes no setting"):
        canonical_seat(rules, "ai:coiny:rich")


def test_the_example_plays_through_naqala_play(coiny: Path, tmp_path: Path) -> None:
    """``naqala play --seats ai:coiny,ai`` plays a whole game, saved with the seats; the
    saved game loads again with the file (and the same seed plays the same game)."""
    saved = tmp_path / "game.json"
    args = ["play", "--house-rules", str(coiny), "--seats", "ai:coiny,ai", "--seed", "6"]
    result = run(*args, "--save", str(saved))
    assert result.exit_code == 0, result.stderr
    assert "seats ai:coiny, ai:greedy" in result.stdout
    record = load_record(saved)
    assert record.seats == ("ai:coiny", "ai:greedy") and record.final_scores is not None
    assert "coiny" in [plugin.name for plugin in record.plugins]
    again = tmp_path / "again.json"
    assert run(*args, "--save", str(again)).exit_code == 0
    assert load_record(again).actions == record.actions
    resumed = run("play", "--load", str(saved), "--house-rules", str(coiny))
    assert resumed.exit_code == 0, resumed.stderr


def test_the_example_plays_through_simulate_in_two_worker_processes(coiny: Path) -> None:
    """The workers rebuild the rules from plain data, house rule included, so they seat
    ``ai:coiny`` too, with the results of a serial run."""
    args = ["simulate", "--house-rules", str(coiny), "--seats", "ai:coiny,greedy"]
    args += ["--games", "4", "--seed", "2", "--json"]
    serial = run(*args, "--jobs", "1")
    parallel = run(*args, "--jobs", "2")
    assert parallel.exit_code == 0, parallel.stderr
    assert parallel.stdout == serial.stdout
    summary = json.loads(parallel.stdout)
    assert summary["games"] == 4 and summary["seats"] == ["coiny", "greedy"]
    assert set(summary["wins_by_agent"]) == {"coiny", "greedy"}


def test_the_example_plays_on_a_dask_cluster_as_in_one_process(coiny: Path) -> None:
    """Dask workers rebuild the rules from the study's plain data as well (skipped
    without the ``distributed`` package)."""
    distributed = pytest.importorskip("distributed")
    args = ["simulate", "--house-rules", str(coiny), "--seats", "ai:coiny,greedy"]
    args += ["--games", "2", "--json"]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        spread = run(*args, "--dask", cluster.scheduler_address)
    assert spread.exit_code == 0, spread.stderr
    assert spread.stdout == run(*args, "--jobs", "1").stdout


def test_the_example_plays_through_the_web_servers_new_game_api(
    coiny: Path, tmp_path: Path
) -> None:
    """A lobby with the file ticked seats ``ai:coiny``, which then moves by itself; the
    lobby lists it; without the file ticked the seat is unknown, as on the command line."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from naqala.core.plugins import read_house_rule
    from naqala.web.app import create_app
    from naqala.web.store import Store

    store = Store(tmp_path / "games", [read_house_rule(coiny)], 5)
    with TestClient(create_app(store, ai_delay=0)) as client:
        assert "ai:coiny" in client.get("/").text
        body = {"seats": ["ai:coiny", "human"], "seed": 5, "house_rules": ["coiny.py"]}
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 201, answer.text
        (game,) = store.games.values()
        assert game.record.seats == ("ai:coiny", "human")
        assert game.agents[0] is not None and type(game.agents[0]).__name__ == "Coiny"
        api = "/api" + answer.json()["seats"][0]["url"].replace("/play/", "/games/", 1)
        client.post(api + "/autoplay", json={"on": True})
        for _ in range(1200):
            if game.state.is_over:
                break
            client.get(api)  # let the server's AI task run
        assert game.state.is_over and game.record.final_scores is not None
        refused = client.post("/api/games", json={"seats": ["ai:coiny", "human"], "seed": 5})
        assert refused.status_code == 422
        assert refused.json()["error"].startswith("unknown seat 'ai:coiny'; seats are human")


def test_the_example_plays_as_a_gymnasium_opponent(coiny: Path) -> None:
    """The learning environment seats the rules' players as well, a house rule's too."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    import numpy as np

    from naqala.envs.gym import NaqalaGym

    env = NaqalaGym(players=2, house_rules=(str(coiny),), opponents=("ai:coiny",))
    observation, _ = env.reset(seed=2)
    assert type(env.agents[1]).__name__ == "Coiny"
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, done, _, _ = env.step(action)
    with pytest.raises(ValueError, match="no one types at a 'human' seat"):
        NaqalaGym(players=2, opponents=("human",))


# -- seats are input: one resolver, one message, bounded budgets ----------------------------


def message_of(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    return line


@pytest.mark.parametrize(
    "seat", ["mcts:0", "ai:mcts:0", "wizard", "ai:wizard", "ai:mcts:999999999", "greedy:3"]
)
def test_play_simulate_and_compare_refuse_a_bad_seat_with_the_same_message(
    seat: str, tmp_path: Path
) -> None:
    """The same seat gets the same one line from every command (exit 2): not an
    'unknown agent' in one and a budget error in another."""
    house = tmp_path / "rule.py"
    house.write_text('NAME = "rule"\n', encoding="utf-8")
    played = message_of(run("play", "--seats", f"human,{seat}"))
    simulated = message_of(run("simulate", "--seats", f"greedy,{seat}", "-n", "2"))
    compared = message_of(
        run("compare", "--house-rules", str(house), "--seats", f"greedy,{seat}", "-n", "2")
    )
    assert played == simulated == compared
    assert repr(seat) in played


def test_a_house_rule_whose_player_clashes_is_one_line_in_play_and_simulate(
    tmp_path: Path,
) -> None:
    """A player named like a shipped one is refused naming both, by every command."""
    house = tmp_path / "clash.py"
    house.write_text(
        "from naqala.core.agents import RandomAgent, without_setting\n"
        "from naqala.core.hookspecs import hookimpl\n"
        'NAME = "clash"\n'
        "@hookimpl\n"
        "def naqala_agents():\n"
        '    return {"greedy": without_setting(RandomAgent, "impostor")}\n',
        encoding="utf-8",
    )
    played = message_of(run("play", "--house-rules", str(house), "--seats", "human,ai"))
    simulated = message_of(run("simulate", "--house-rules", str(house), "-n", "2"))
    assert played == simulated
    assert "AI player 'ai:greedy' is provided by both" in played
    assert "'agents'" in played and "'clash'" in played and "REPLACES" in played


def test_a_record_seating_a_search_beyond_the_bound_is_refused_by_play_load(
    tmp_path: Path,
) -> None:
    """``ai:mcts:999999999`` in a shared record would search for ever at its first
    decision; ``play --load`` refuses it in one line naming the seat's path and the
    bound, before anything is played."""
    rules = build_rules()
    seed = next(s for s in range(100) if rules.new_game(2, s).decision.player == 0)
    path = tmp_path / "shared.json"
    save_record(path, new_record(rules, seed, 2, ["human", "ai:mcts:999999999"]))
    line = message_of(run("play", "--load", str(path), given="quit\n"))
    assert "$.seats[1]" in line and "at most 5000 playouts a decision" in line
    assert str(path) in line


def test_the_web_server_bounds_a_lobbys_and_an_uploaded_records_budgets(
    tmp_path: Path,
) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from naqala.web.app import create_app
    from naqala.web.store import Store

    store = Store(tmp_path / "games", [], 5)
    text = (tmp_path / "record.json").as_posix()
    save_record(Path(text), new_record(build_rules(), 3, 2, ["human", "ai:mcts:99999"]))
    with TestClient(create_app(store, ai_delay=0)) as client:
        lobby = client.post("/api/games", json={"seats": ["human", "ai:mcts:3600s"], "seed": 1})
        assert lobby.status_code == 422
        assert "at most 60 CPU seconds a decision" in lobby.json()["error"]
        upload = client.post(
            "/api/load",
            content=Path(text).read_bytes(),
            headers={"content-type": "application/json"},
        )
        assert upload.status_code == 422
        assert "$.seats[1]" in upload.json()["error"]
        assert "at most 5000 playouts" in upload.json()["error"]
    assert store.games == {}
