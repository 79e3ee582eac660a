"""The web server's HTTP API (``naqala serve``), through starlette's test client: games are
made, played, refused, undone, saved, loaded and resumed; each seat sees only its view;
bad requests get clear errors and change nothing."""

from __future__ import annotations

import json
import random
import shutil
import time
import warnings
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from naqala.core.plugins import read_house_rule
from naqala.core.record import record_from_json
from naqala.core.rng import SEED_RULE
from naqala.core.serialize import state_to_json
from naqala.web.app import CONTENT_SECURITY_POLICY, MAX_UPLOAD, create_app, host_name
from naqala.web.store import Store

ROOT = Path(__file__).resolve().parent.parent
JSON = {"content-type": "application/json"}
NO_LOOPS = ROOT / "plugins" / "house" / "no_loops.toml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "games"


def client_for(store: Store, **options: Any) -> TestClient:
    return TestClient(create_app(store, ai_delay=0, **options))


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with client_for(Store(folder, [], 5)) as test_client:
        yield test_client


def new_game(client: TestClient, seats: list[str], seed: int = 3, **more: Any) -> list[str]:
    """The API address of each human seat of a new game."""
    answer = client.post("/api/games", json={"seats": seats, "seed": seed, **more})
    assert answer.status_code == 201, answer.text
    return ["/api" + seat["url"].replace("/play/", "/games/", 1) for seat in answer.json()["seats"]]


def wait(client: TestClient, api: str, until: str = "yours") -> dict[str, Any]:
    """The seat's page once ``until`` holds (the AI moves in the background)."""
    for _ in range(600):
        page = client.get(api).json()
        if page[until]:
            return page
        time.sleep(0.05)
    raise AssertionError(f"{until} never came: {page['status']}")


def decide(client: TestClient, apis: list[str]) -> None:
    """The seat that decides now (in a game of people only) plays its first option."""
    for api in apis:
        page = client.get(api).json()
        if page["yours"]:
            answer = client.post(api + "/act", json={"action": page["options"][0]["action"]})
            assert answer.status_code == 200, answer.text
            return
    raise AssertionError("nobody decides")


def test_the_lobby_offers_seats_expansions_and_house_rules(folder: Path) -> None:
    houses = [read_house_rule(NO_LOOPS)]
    with client_for(Store(folder, houses, 5)) as client:
        page = client.get("/")
    assert page.status_code == 200
    for text in ("ai:greedy", "ai:mcts", "artisans", "whims", "no_loops.toml", "Load"):
        assert text in page.text
    assert page.headers["referrer-policy"] == "no-referrer"


def test_a_new_game_gives_a_secret_link_to_each_human_seat_only(client: TestClient) -> None:
    answer = client.post("/api/games", json={"seats": ["human", "ai", "human"], "seed": 1})
    assert answer.status_code == 201
    seats = answer.json()["seats"]
    assert [s["seat"] for s in seats] == [0, 2]
    assert seats[0]["url"] != seats[1]["url"]
    assert client.get(seats[0]["url"]).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seats": ["human"]}, 422, "1 player is not supported with these rules"),
        ({"seats": []}, 422, "1 to 6 seats"),
        ({"seats": ["ai", "ai"]}, 422, "at least one human seat"),
        ({"seats": ["human", "robot"]}, 422, "unknown seat 'robot'"),
        ({"seats": ["human", "ai"], "expansions": ["nope"]}, 422, "unknown expansion 'nope'"),
        ({"seats": ["human", "ai"], "house_rules": ["x.py"]}, 422, "unknown house-rule file"),
        ({"seats": ["human", "ai"], "seed": "one"}, 400, "or null, not a string"),
        ({"seats": "human,ai"}, 400, "'seats' must be list"),
        ({"seats": ["human"] * 7}, 422, "1 to 6 seats"),
    ],
)
def test_a_bad_new_game_is_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]
    assert client.app.state.server.store.games == {}  # type: ignore[attr-defined]


def test_malformed_and_oversized_requests_get_clear_errors(client: TestClient) -> None:
    not_json = client.post(
        "/api/games", content=b"{seats", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 400 and "not JSON" in not_json.json()["error"]
    form = client.post("/api/games", content=b"seats=human", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    huge = client.post(
        "/api/games",
        content=b'{"seats": [' + b" " * 20_000 + b"]}",
        headers={"content-type": "application/json"},
    )
    assert huge.status_code == 413 and "at most" in huge.json()["error"]
    listed = client.post("/api/games", json=["human", "ai"])
    assert listed.status_code == 400 and "JSON object" in listed.json()["error"]


def test_unknown_games_and_seats_are_not_found(client: TestClient) -> None:
    (api,) = new_game(client, ["human", "ai"])
    game = api.split("/")[3]
    assert client.get(f"/api/games/{'0' * 16}/{'a' * 22}").status_code == 404
    wrong = client.get(f"/api/games/{game}/{'a' * 22}")
    assert wrong.status_code == 404 and "no seat" in wrong.json()["error"]
    page = client.get(f"/play/{game}/nonsense")
    assert page.status_code == 404 and "no seat" in page.text
    assert client.post(f"/api/games/{game}/x/act", json={"action": "bid 0"}).status_code == 404


def test_each_seat_sees_its_own_coins_and_not_the_others(client: TestClient) -> None:
    first, second = new_game(client, ["human", "human"])
    mine, theirs = client.get(first).json(), client.get(second).json()
    assert mine["view"]["players"][0]["coins"] == 50
    assert mine["view"]["players"][1]["coins"] is None
    assert theirs["view"]["players"][0]["coins"] is None
    assert all(isinstance(d["draw"], int) for d in mine["view"]["decks"].values())
    assert "rng" not in mine["view"]
    assert "Coins 50" in mine["svg"] and "Coins ?" in mine["svg"]
    assert mine["scores"] == ""  # score lines count coins: shown only at the end


def test_a_legal_action_is_played_and_an_illegal_one_changes_nothing(client: TestClient) -> None:
    first, second = new_game(client, ["human", "human"])
    me, other = (first, second) if client.get(first).json()["yours"] else (second, first)
    before = client.get(me).json()
    refused = client.post(me + "/act", json={"action": "pick a1"})
    assert refused.status_code == 409
    assert "the decision is 'bid'" in refused.json()["error"]
    malformed = client.post(me + "/act", json={"action": "bid 1 2 3 !"})
    assert malformed.status_code == 422 and "not an action" in malformed.json()["error"]
    not_mine = client.post(other + "/act", json={"action": "bid 0"})
    assert not_mine.status_code == 409 and "not yours" in not_mine.json()["error"]
    assert client.get(me).json()["version"] == before["version"]
    played = client.post(me + "/act", json={"action": "bid 0"})
    assert played.status_code == 200 and played.json()["played"] == ["bid 0"]
    assert played.json()["page"]["version"] == before["version"] + 1


def test_a_click_plays_the_one_option_it_names_offers_several_or_gives_the_reason(
    client: TestClient,
) -> None:
    apis = new_game(client, ["human", "human"])
    pages = [client.get(api).json() for api in apis]
    while not any(p["yours"] and p["status"].startswith("Your decision: Move") for p in pages):
        decide(client, apis)
        pages = [client.get(api).json() for api in apis]
    api = apis[[p["yours"] for p in pages].index(True)]
    page = client.get(api).json()
    start = page["options"][0]["action"].split()[1]
    played = client.post(api + "/click", json={"target": start})
    assert played.json()["played"] == [f"pick {start}"]
    drops = played.json()["page"]["options"]
    tiles = [o["action"].split()[1] for o in drops]
    several = next(t for t in tiles if tiles.count(t) > 1)
    offered = client.post(api + "/click", json={"target": several})
    assert {c["action"] for c in offered.json()["choices"]} == {
        o["action"] for o in drops if o["action"].split()[1] == several
    }
    version = played.json()["page"]["version"]
    assert offered.json()["page"]["version"] == version
    wrong = next(t for t in ("a1", "f5", "a5", "f1") if t not in tiles)
    refused = client.post(api + "/click", json={"target": wrong})
    assert refused.status_code == 409 and wrong in refused.json()["error"]
    assert client.post(api + "/click", json={"target": ""}).status_code == 400
    assert client.get(api).json()["version"] == version


def test_undo_goes_back_to_the_seats_previous_decision(client: TestClient) -> None:
    apis = new_game(client, ["human", "human"])
    refusals: dict[str, str] = {}
    while True:
        pages = [client.get(api).json() for api in apis]
        seat = [p["yours"] for p in pages].index(True)
        api, page = apis[seat], pages[seat]
        actors = [line.split()[2].rstrip(":") for line in page["log"]]
        if not actors:
            refusals["first"] = client.post(api + "/undo", json={}).json()["error"]
        elif page["you"] in actors and actors[-1] != page["you"] and "other" not in refusals:
            refusals["other"] = client.post(api + "/undo", json={}).json()["error"]
        if page["status"].startswith("Your decision: Move"):
            break
        decide(client, apis)
    assert "nothing to undo" in refusals["first"]
    assert "another person has decided" in refusals["other"]
    other = apis[1 - seat]
    client.post(api + "/act", json={"action": page["options"][0]["action"]})
    assert "not yours" in client.post(other + "/undo", json={}).json()["error"]
    undone = client.post(api + "/undo", json={})
    assert undone.status_code == 200
    assert undone.json()["page"]["options"] == page["options"]
    assert undone.json()["page"]["log"] == page["log"]


def test_play_for_me_ends_the_game_with_the_final_score_table(client: TestClient) -> None:
    (api,) = new_game(client, ["human", "ai", "ai:random"], seed=5)
    assert client.post(api + "/autoplay", json={"on": True}).json()["page"]["autoplay"]
    page = wait(client, api, "over")
    assert "Final scores" in page["scores"] and "total" in page["scores"]
    record = record_from_json(client.get(api + "/record").text)
    assert record.final_scores is not None and len(record.final_scores) == 3
    refused = client.post(api + "/act", json={"action": "end"})
    assert refused.status_code == 409 and "over" in refused.json()["error"]


def test_a_downloaded_record_loads_and_resumes_exactly(client: TestClient) -> None:
    (api,) = new_game(client, ["human", "ai:random"], seed=8)
    for _ in range(6):
        page = wait(client, api)
        client.post(api + "/act", json={"action": page["options"][-1]["action"]})
    wait(client, api)
    saved = client.get(api + "/record")
    assert "attachment" in saved.headers["content-disposition"]
    loaded = client.post(
        "/api/load", content=saved.content, headers={"content-type": "application/json"}
    )
    assert loaded.status_code == 201
    again = "/api" + loaded.json()["seats"][0]["url"].replace("/play/", "/games/", 1)
    games = client.app.state.server.store.games  # type: ignore[attr-defined]
    old, new = (games[a.split("/")[3]] for a in (api, again))
    assert new.record.actions == old.record.actions
    assert state_to_json(new.rules, new.state) == state_to_json(old.rules, old.state)
    # both go on the same way: the AI seats draw as they would have
    for game_api in (api, again):
        client.post(game_api + "/autoplay", json={"on": True})
    assert wait(client, api, "over")["scores"] == wait(client, again, "over")["scores"]


@pytest.mark.parametrize(
    ("content", "status", "words"),
    [
        (b"\xff\xfe", 422, "not UTF-8"),
        (b"{", 422, "not JSON"),
        (b'{"format": "naqala-state"}', 422, "expected 'naqala-record'"),
        (b" " * (MAX_UPLOAD + 1), 413, "at most"),
    ],
)
def test_a_corrupt_or_oversized_upload_is_refused(
    client: TestClient, content: bytes, status: int, words: str
) -> None:
    answer = client.post("/api/load", content=content, headers=JSON)
    assert answer.status_code == status
    assert words in answer.json()["error"]
    assert client.app.state.server.store.games == {}  # type: ignore[attr-defined]


def test_an_upload_uses_the_servers_house_rule_files_never_a_path_it_names(
    folder: Path, tmp_path: Path
) -> None:
    own = tmp_path / "server" / "villages.py"
    own.parent.mkdir()
    shutil.copy(NO_LOOPS, own)
    elsewhere = tmp_path / "uploader" / "villages.py"
    elsewhere.parent.mkdir()
    shutil.copy(NO_LOOPS, elsewhere)
    with client_for(Store(folder, [read_house_rule(own)], 5)) as server:
        (api,) = new_game(server, ["human", "ai"], house_rules=["villages.py"])
        record = json.loads(server.get(api + "/record").text)
    (ref,) = [p for p in record["plugins"] if p["source"] == "house-rule"]
    ref["path"] = str(elsewhere)  # the file exists there and has the same sha256
    upload = json.dumps(record).encode()
    with client_for(Store(tmp_path / "other", [], 5)) as bare:
        refused = bare.post(
            "/api/load", content=upload, headers={"content-type": "application/json"}
        )
        assert refused.status_code == 422
        assert "not one of this server's house-rule files" in refused.json()["error"]
    with client_for(Store(tmp_path / "third", [read_house_rule(own)], 5)) as server:
        loaded = server.post(
            "/api/load", content=upload, headers={"content-type": "application/json"}
        )
        assert loaded.status_code == 201
        (game,) = server.app.state.server.store.games.values()  # type: ignore[attr-defined]
        assert [p.path for p in game.rules.plugins if p.source == "house-rule"] == [str(own)]


def test_games_are_saved_and_resumed_after_a_restart(folder: Path) -> None:
    with client_for(Store(folder, [], 5)) as client:
        (api,) = new_game(client, ["human", "ai"], seed=4)
        page = wait(client, api)
        client.post(api + "/act", json={"action": page["options"][0]["action"]})
        before = wait(client, api)
    (folder / "0123456789abcdef.record.json").write_text("{broken", encoding="utf-8")
    store = Store(folder, [], 5)
    warnings = store.resume()
    assert len(warnings) == 1 and "0123456789abcdef" in warnings[0]
    with client_for(store) as client:
        after = client.get(api).json()
    assert after["log"] == before["log"] and after["options"] == before["options"]
    assert not list(folder.glob(".*.tmp"))  # atomic saves leave no temporary file


def test_the_number_of_games_is_bounded(folder: Path) -> None:
    with client_for(Store(folder, [], 2)) as client:
        new_game(client, ["human", "ai"])
        (api,) = new_game(client, ["human", "ai"])
        full = client.post("/api/games", json={"seats": ["human", "ai"]})
        assert full.status_code == 503 and "--max-games" in full.json()["error"]
        assert client.delete(api).status_code == 200
        assert client.get(api).status_code == 404
        new_game(client, ["human", "ai"])


def test_a_game_with_other_people_is_saved_or_deleted_only_once_over(client: TestClient) -> None:
    first, _ = new_game(client, ["human", "human"])
    refused = client.get(first + "/record")
    assert refused.status_code == 403 and "seed" in refused.json()["error"]
    assert client.delete(first).status_code == 403


def test_the_event_stream_names_the_games_version(folder: Path) -> None:
    with TestClient(create_app(Store(folder, [], 5), ai_delay=0, stream_seconds=0.2)) as client:
        api, _ = new_game(client, ["human", "human"])
        page = client.get(api).json()
        answer = client.get(api + "/events")
    assert answer.headers["content-type"].startswith("text/event-stream")
    assert f"data: {page['version']}" in answer.text


def test_a_local_server_answers_only_to_local_host_names(folder: Path) -> None:
    store = Store(folder, [], 5)
    with TestClient(create_app(store, allowed_hosts=["127.0.0.1"])) as client:
        assert client.get("/").status_code == 400  # the test client's Host is testserver
        assert client.get("http://127.0.0.1/").status_code == 200


def test_a_card_kept_from_those_revealed_to_another_player_stays_hidden(folder: Path) -> None:
    """With the Artisans a player keeps one of the items revealed to them: the other
    seat's page shows neither the items nor which one was kept."""
    store = Store(folder, [], 5)
    game = store.create(["human", "human"], ["artisans"], [], 0)
    chooser = random.Random(0)
    while not (game.state.turn and game.state.turn.revealed):
        assert not game.state.is_over
        game.play(chooser.choice(game.rules.legal_actions(game.state)))
    decider = game.state.decision.player
    revealed = game.state.turn.revealed
    other = game.page(1 - decider)
    assert other["options"] == [] and other["view"]["turn"]["revealed"] == len(revealed)
    assert not any(card in json.dumps(other["status"]) for card in revealed)
    kept = game.act(decider, str(game.rules.legal_actions(game.state)[0]))
    assert str(kept) in game.log(decider)[-1]
    assert game.log(1 - decider)[-1].endswith(f"{kept.kind} (a card you do not see)")


@pytest.mark.parametrize(
    ("header", "name"),
    [("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:8000", "::1"),
     ("[::1]", "::1"), ("evil.example:80", "evil.example")],
)  # fmt: skip
def test_the_host_header_names_a_host_with_any_port(header: str, name: str) -> None:
    assert host_name(header) == name


# -- the Content-Security-Policy ---------------------------------------------------------------


class _Scripts(HTMLParser):
    """The scripts of a page and every attribute that would run code (``on…=``)."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handlers += [f"{tag} {name}" for name, _ in attrs if name.startswith("on")]
        if tag == "script":
            self._in_script = True
            self.sources += [value or "" for name, value in attrs if name == "src"]

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


def test_every_answer_carries_the_content_security_policy(folder: Path) -> None:
    store = Store(folder, [], 5)
    with TestClient(create_app(store, ai_delay=0, stream_seconds=0.1)) as client:
        (api,) = new_game(client, ["human", "ai"])
        page = "/play/" + api.removeprefix("/api/games/")
        answers = {
            "lobby": client.get("/"),
            "game page": client.get(page),
            "script": client.get("/static/game.js"),
            "state": client.get(api),
            "action": client.post(api + "/act", json={"action": "bid 99"}),
            "events": client.get(api + "/events"),
            "unknown page": client.get("/play/0123456789abcdef/nope"),
            "unknown address": client.get("/nowhere"),
            "unknown script": client.get("/static/nope.js"),
            "not json": client.post("/api/games", content=b"x"),
        }
    for name, answer in answers.items():
        assert answer.headers.get("content-security-policy") == CONTENT_SECURITY_POLICY, name
    policy = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert policy["frame-ancestors"] == "'none'"


def test_the_pages_run_no_inline_script(folder: Path) -> None:
    """What the policy refuses the pages do not need: their scripts are files of this
    server, and no element carries an inline handler."""
    with client_for(Store(folder, [read_house_rule(NO_LOOPS)], 5)) as client:
        (api,) = new_game(client, ["human", "ai"])
        pages = [
            client.get("/").text,
            client.get("/play/" + api.removeprefix("/api/games/")).text,
            client.get("/play/0123456789abcdef/nope").text,
        ]
        for html in pages:
            scripts = _Scripts()
            scripts.feed(html)
            assert scripts.inline == [] and scripts.handlers == []
            for source in scripts.sources:
                assert source.startswith("/static/")
                answer = client.get(source)
                assert answer.status_code == 200
                assert "javascript" in answer.headers["content-type"]
        # each named with its content's digest, which the browser then keeps
        assert [s.split("?v=")[0] for s in _sources(pages[0])] == ["/static/lobby.js"]
        assert "/static/game.js" in [s.split("?v=")[0] for s in _sources(pages[1])]


def _sources(html: str) -> list[str]:
    scripts = _Scripts()
    scripts.feed(html)
    return scripts.sources


# -- an uploaded record's seed -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "shown"),
    [
        (-5, f"$.seed: {SEED_RULE}, not -5"),
        (2**64, f"$.seed: {SEED_RULE}, not {2**64}"),
        (2**70, f"$.seed: {SEED_RULE}, not {2**70}"),
        # the document reader refuses so long a number before the seed is looked at
        (10**4000, "not JSON: a number of 4001 digits (at most 1000)"),
    ],
    ids=["negative", "2**64", "2**70", "4001 digits"],
)
def test_an_uploaded_record_s_seed_is_checked_like_a_new_game_s(
    client: TestClient, seed: int, shown: str
) -> None:
    """The web refuses the seeds every command and file refuses, in the same words
    (``naqala.core.rng.check_seed``)."""
    (api,) = new_game(client, ["human", "ai:random"], seed=8)
    data = json.loads(client.get(api + "/record").text)
    data["seed"] = seed
    answer = client.post("/api/load", content=json.dumps(data), headers=JSON)
    assert answer.status_code == 422
    assert answer.json()["error"] == f"the uploaded record: {shown}"
    assert len(client.app.state.server.store.games) == 1  # type: ignore[attr-defined]
    refused = client.post("/api/games", json={"seats": ["human", "ai"], "seed": seed})
    assert refused.status_code == 400
    written = seed if abs(seed) < 10**30 else f"a number of {seed.bit_length():,} bits"
    assert refused.json()["error"] == f"'seed': {SEED_RULE}, not {written}"


def test_the_largest_seed_is_a_seed(client: TestClient) -> None:
    (api,) = new_game(client, ["human", "ai:random"], seed=2**64 - 1)
    upload = client.post("/api/load", content=client.get(api + "/record").text, headers=JSON)
    assert upload.status_code == 201, upload.text


def test_the_pages_have_no_inline_script_and_their_static_files_are_served(
    client: TestClient,
) -> None:
    """A page's style and scripts are static files (a Content-Security-Policy can then
    forbid inline scripts), each served with its type, and installed as package data."""
    import re
    import tomllib

    api = new_game(client, ["human", "ai:greedy"])[0]
    pages = [client.get("/").text, client.get(api.replace("/api/games/", "/play/", 1)).text]
    names = set()
    for html in pages:
        assert "<script>" not in html and "<style>" not in html
        assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
        names.update(re.findall(r'(?:src|href)="/static/([^"?]+)\?v=[0-9a-f]{12}"', html))
    assert {"naqala.css", "lobby.js", "game.js", "stream.js"} <= names
    for name in names:
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        kind = "text/css" if name.endswith(".css") else "javascript"
        assert kind in answer.headers["content-type"]
    assert client.get("/static/stream-worker.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "static/*" in data["tool"]["setuptools"]["package-data"]["naqala.web"]


def test_one_person_plays_the_solo_mode_against_sultan_yazid(client: TestClient) -> None:
    """One seat is a game of the solo mode (the rules decide which counts they allow):
    before, the server refused every game of fewer than two seats."""
    (api,) = new_game(client, ["human"], expansions=["solo"])
    page = wait(client, api)
    assert page["seats"] == ["P1 (person)"] and page["options"]
    assert page["cards"]["aside"]["name"] == "Sultan Yazid"
