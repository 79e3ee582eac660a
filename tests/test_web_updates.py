"""Light updates (``web.updates``): answers gzipped, static files named with their digest
and kept by the browser, and a page that names what it holds getting the picture's new
pieces only and the card catalogue only when it changed — which together make the
same page as the whole answer."""

from __future__ import annotations

import gzip
import re
import warnings
from html import escape
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from naqala.web.app import STATIC_CACHE, create_app
from naqala.web.store import Store


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(tmp_path / "games", [], 5), ai_delay=0))


def _new_game(client: TestClient, seats: list[str]) -> str:
    """The API address of the person in a new game (of the one who decides first)."""
    answer = client.post("/api/games", json={"seats": seats, "seed": 41})
    apis = ["/api" + s["url"].replace("/play/", "/games/", 1) for s in answer.json()["seats"]]
    if len(apis) == 1:
        return apis[0]
    return next(api for api in apis if client.get(api).json()["yours"])


def _whole(light: dict[str, Any], held: list[str], catalogue: dict[str, Any]) -> dict[str, Any]:
    """What the page makes of a light answer (game.js ``whole``)."""
    page = dict(light)
    parts = [held[p] if isinstance(p, int) else p for p in page.pop("svg_parts")]
    page["svg"] = "".join(parts)
    if page["cards"] is None:
        page["cards"] = catalogue
    page.pop("svg_hash")
    return page


def test_a_light_update_makes_the_same_page_with_a_fraction_of_the_bytes(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        api = _new_game(client, ["human", "human"])
        first = client.get(api + "?light=1").json()  # a page that holds nothing yet
        assert first["svg"] is None and all(isinstance(p, str) for p in first["svg_parts"])
        assert first["cards"] is not None
        held = [p for p in first["svg_parts"]]
        catalogue = first["cards"]
        option = first["options"][0]["action"]
        query = f"?light=1&svg={first['svg_hash']}&cards={first['cards_hash']}"
        acted = client.post(api + "/act" + query, json={"action": option}).json()["page"]
        whole = client.get(api).json()
        assert acted["cards"] is None  # the catalogue did not change
        assert any(isinstance(p, int) for p in acted["svg_parts"])  # most pieces are held
        assert _whole(acted, held, catalogue) == whole
        # fewer bytes: the unchanged pieces are an index each
        assert len(str(acted["svg_parts"])) < len(whole["svg"]) / 2
        # a digest the server does not know (a restarted server) gets every piece
        again = client.get(api + "?light=1&svg=0123456789abcdef&cards=zz").json()
        assert all(isinstance(p, str) for p in again["svg_parts"]) and again["cards"] is not None
        assert _whole(again, [], {}) == whole


def test_answers_are_gzipped_but_the_event_stream_is_not(tmp_path: Path) -> None:
    with TestClient(
        create_app(Store(tmp_path / "games", [], 5), ai_delay=0, stream_seconds=0.1)
    ) as client:
        api = _new_game(client, ["human", "ai:greedy"])
        zipped = {"Accept-Encoding": "gzip"}
        answer = client.get(api, headers=zipped)
        assert answer.headers["content-encoding"] == "gzip"
        assert "content-security-policy" in answer.headers
        assert client.get("/static/game.js", headers=zipped).headers["content-encoding"] == "gzip"
        stream = client.get(api + "/events", headers=zipped)
        assert "content-encoding" not in stream.headers
        assert stream.headers["content-type"].startswith("text/event-stream")
        plain = client.get(api, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert len(gzip.compress(plain.content)) < len(plain.content) / 4


def test_static_files_are_named_by_their_digest_and_kept(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        api = _new_game(client, ["human", "ai:greedy"])
        html = client.get(api.replace("/api/games/", "/play/", 1)).text
        named = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert named and all(re.search(r"\?v=[0-9a-f]{12}$", n) for n in named)
        for address in named:
            answer = client.get(address)
            assert answer.status_code == 200
            assert answer.headers["cache-control"] == STATIC_CACHE
        # the same file without its digest, and every answer of the API, is asked anew
        assert client.get("/static/game.js").headers["cache-control"] == "no-store"
        assert client.get(api).headers["cache-control"] == "no-store"


def test_the_lobby_names_the_boxes_apart_from_house_rules_and_says_each_ai(
    tmp_path: Path,
) -> None:
    from naqala.web.lobby import AI_LINES

    with _client(tmp_path) as client:
        html = client.get("/").text
    boxes = html[html.index('id="boxes"') : html.index('id="house-rules"')]
    rules = html[html.index('id="house-rules"') : html.index("House-rule files")]
    assert "<b>The Artisans of Naqala</b>" in boxes
    assert "<b>Djinns of Naqala: Whims of the Sultan</b>" in boxes
    assert "Fabulous Cities" in boxes  # what the box adds, under its name
    assert 'value="whims"' in boxes and 'value="no-loops"' not in boxes
    assert 'value="no-loops"' in rules and 'value="artisans"' not in rules
    levels = html[html.index('id="levels"') :]
    for name in ("random", "greedy", "mcts", "ismcts", "ismcts:strong", "ismcts:deep"):
        assert f"<b>ai:{name}</b> — {escape(AI_LINES[name])}" in levels
