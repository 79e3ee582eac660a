"""A web game that cannot go on says why (issue 36): when an AI seat's decision fails (a
house rule's player that raises, an engine that refuses or panics), the seat's page and
the API give the one-line reason, a person's move is refused with it, and the server
keeps serving its other games."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from naqala.core.engine import build_rules
from naqala.core.plugins import read_house_rule
from naqala.web import server as web_server
from naqala.web.app import create_app
from naqala.web.store import Store

ROOT = Path(__file__).resolve().parent.parent

#: a house rule whose player raises at its first decision (its author's bug)
CLUMSY = """\
from naqala.core.agents import without_setting
from naqala.core.hookspecs import hookimpl

NAME = "clumsy"
VERSION = "1.0"
DESCRIPTION = "a player that cannot count"


class Clumsy:
    def __init__(self, seed):
        self.seed = seed

    def choose(self, rules, state, options):
        raise ValueError("cannot count to three")


@hookimpl
def naqala_agents():
    return {"clumsy": without_setting(Clumsy, "clumsy player")}
"""


@pytest.fixture
def clumsy(tmp_path: Path) -> Iterator[TestClient]:
    path = tmp_path / "clumsy.py"
    path.write_text(CLUMSY, encoding="utf-8")
    store = Store(tmp_path / "games", [read_house_rule(path)], 5)
    with TestClient(create_app(store, ai_delay=0)) as client:
        yield client


def first_to_decide(seat: int, players: int = 2) -> int:
    """A seed whose game of ``players`` asks ``seat`` first."""
    rules = build_rules()
    return next(s for s in range(100) if rules.new_game(players, s).decision.player == seat)


def seat_apis(client: TestClient, seats: list[str], first: int = 0, **more: Any) -> list[str]:
    """The API address of each human seat of a new game where ``first`` decides first."""
    seed = first_to_decide(first, len(seats))
    answer = client.post("/api/games", json={"seats": seats, "seed": seed, **more})
    assert answer.status_code == 201, answer.text
    return ["/api" + seat["url"].replace("/play/", "/games/", 1) for seat in answer.json()["seats"]]


def seat_api(client: TestClient, seats: list[str], first: int = 0, **more: Any) -> str:
    """The API address of the first human seat of a new game."""
    return seat_apis(client, seats, first, **more)[0]


def stopped_page(client: TestClient, api: str) -> dict[str, Any]:
    """The seat's page once the game says it has stopped (the AI runs in the background)."""
    page: dict[str, Any] = {}
    for _ in range(200):
        page = client.get(api).json()
        if page.get("stopped"):
            return page
        time.sleep(0.05)
    raise AssertionError(f"the game never said it stopped: {page.get('status')}")


def test_a_player_that_raises_stops_the_game_with_its_reason(clumsy: TestClient) -> None:
    api = seat_api(clumsy, ["ai:clumsy", "human"], house_rules=["clumsy.py"])
    page = stopped_page(clumsy, api)
    reason = page["stopped"]
    assert "\n" not in reason
    assert "P1 (ai:clumsy)" in reason and "ValueError: cannot count to three" in reason
    assert page["status"] == f"The game cannot continue: {reason}"
    assert not page["yours"] and page["options"] == []
    refused = clumsy.post(api + "/act", json={"action": "bid 0"})
    assert refused.status_code == 409
    assert refused.json() == {"error": f"the game cannot continue: {reason}"}
    # the server goes on: another game is made and played
    other = seat_api(clumsy, ["human", "ai:random"])
    assert clumsy.get(other).json()["stopped"] is None


def test_any_person_of_a_stopped_game_may_delete_it(clumsy: TestClient) -> None:
    """A game with other people in it is deleted only once it is over; a stopped one
    never will be, and would hold one of the server's ``--max-games`` for ever."""
    first, second = seat_apis(clumsy, ["ai:clumsy", "human", "human"], house_rules=["clumsy.py"])
    stopped_page(clumsy, first)
    assert clumsy.get(second + "/record").status_code == 403  # the seed stays secret
    answer = clumsy.delete(second)
    assert answer.status_code == 200, answer.text
    assert clumsy.get(first).status_code == 404


def test_an_engine_panic_stops_the_game_and_not_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """pyo3's ``PanicException`` derives from ``BaseException``, past ``except
    Exception``: it stopped the AI's task without a word, and the game waited for ever."""

    class PanicException(BaseException):
        pass

    def panics(*args: object) -> None:
        raise PanicException("below() needs n >= 1")

    monkeypatch.setattr(web_server, "ai_move", panics)
    with TestClient(create_app(Store(tmp_path / "games", [], 5), ai_delay=0)) as client:
        api = seat_api(client, ["ai:greedy", "human"])
        page = stopped_page(client, api)
        assert "P1 (ai:greedy)" in page["stopped"]
        assert "PanicException: below() needs n >= 1" in page["stopped"]
        monkeypatch.undo()
        assert client.get("/").status_code == 200
        assert client.get(seat_api(client, ["human", "ai:random"])).status_code == 200


def test_a_stand_in_that_fails_lets_its_person_take_the_seat_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ "Play for me" whose AI fails stops the game; the person who stops it plays on."""
    calls: list[int] = []

    def fails_once(rules: object, state: object, agent: object) -> None:
        calls.append(1)
        raise ValueError("no idea")

    monkeypatch.setattr(web_server, "ai_move", fails_once)
    with TestClient(create_app(Store(tmp_path / "games", [], 5), ai_delay=0)) as client:
        api = seat_api(client, ["human", "ai:random"])
        page = client.get(api).json()
        assert page["yours"]
        client.post(api + "/autoplay", json={"on": True})
        page = stopped_page(client, api)
        assert "P1 (person)" in page["stopped"] and "ValueError: no idea" in page["stopped"]
        answer = client.post(api + "/autoplay", json={"on": False})
        assert answer.status_code == 200, answer.text
        page = answer.json()["page"]
        assert page["stopped"] is None and page["yours"] and page["options"]
        assert len(calls) == 1


def test_a_game_the_asked_engine_cannot_play_is_resumed_stopped_saying_why(
    tmp_path: Path,
) -> None:
    """A game saved by a server on the Python engine, resumed by one started with
    ``--engine native`` whose kernel cannot play its house rule: it was left out ("not
    resumed" on the server's stderr) and its players got 404 "no game" for a game on
    disk. Now it is there, stopped, saying why; nothing of it is lost."""
    from native_kit import require_native

    require_native()
    rule = read_house_rule(ROOT / "plugins" / "examples" / "double_palms.py")
    folder = tmp_path / "games"
    with TestClient(create_app(Store(folder, [rule], 5, engine="python"), ai_delay=0)) as client:
        api = seat_api(client, ["human", "ai:greedy"], house_rules=["double_palms.py"])
        before = client.get(api).json()
        assert before["yours"] and before["stopped"] is None
    saved = sorted((path.name, path.read_bytes()) for path in folder.iterdir())
    store = Store(folder, [rule], 5, engine="native")
    warnings = store.resume()
    assert len(warnings) == 1 and "resumed stopped" in warnings[0]
    with TestClient(create_app(store, ai_delay=0)) as client:
        page = client.get(api).json()
        reason = page["stopped"]
        assert "naqala serve --engine native" in reason and "'double-palms'" in reason
        assert page["status"] == f"The game cannot continue: {reason}"
        assert not page["yours"] and page["options"] == []
        refused = client.post(api + "/act", json={"action": before["options"][0]["action"]})
        assert refused.status_code == 409 and reason in refused.json()["error"]
        # stopping "play for me" is no way round the engine the server was asked for
        client.post(api + "/autoplay", json={"on": False})
        assert client.get(api).json()["stopped"] == reason
        assert client.get(api + "/record").status_code == 200  # the person takes it away
    assert [name for name, _ in saved] == sorted(p.name for p in folder.iterdir())
    record = next(data for name, data in saved if name.endswith(".record.json"))
    assert record == next(folder.glob("*.record.json")).read_bytes()
