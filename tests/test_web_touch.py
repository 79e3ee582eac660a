"""The game page as a player meets it on a phone, a tablet and a desktop: a finger's
touch events land at a point of the screen (never ``element.click()``), and what the
tap answers — the colours to choose from, a refusal — must then be in the viewport,
without scrolling. Skipped, with the reason, only when no browser can be found."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from naqala.testing.browser import chromium, console_errors, find_chromium

pytestmark = pytest.mark.browser
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
FOUND = find_chromium()
if isinstance(FOUND, str):
    if os.environ.get("NAQALA_REQUIRE_BROWSER"):
        pytest.fail(f"the browser tests must run here, but: {FOUND}", pytrace=False)
    pytest.skip(f"no browser for the browser tests: {FOUND}", allow_module_level=True)

from web_kit import (  # noqa: E402
    SCREENS,
    as_device,
    body,
    in_view,
    made_game,
    serving,
    tap,
    to_a_drop_with_choices,
    until,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(Path(tmp_path_factory.mktemp("games"))) as address:
        yield address


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One browser for the module (the machine is shared): each test sizes its screen."""
    with chromium(1400, 1000) as browser:
        yield browser


def text_of(driver: Any, selector: str) -> str:
    return str(
        driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''",
            selector,
        )
    )


def several_colours_tile(page: dict[str, Any]) -> str:
    """A tile where the hand may drop more than one colour."""
    tiles = [option["action"].split()[1] for option in page["options"]]
    return next(tile for tile in tiles if tiles.count(tile) > 1)


def far_tile(page: dict[str, Any]) -> str:
    """A tile no option names (a tap there is refused)."""
    named = set(page["targets"])
    rows, cols = page["view"]["board"]["rows"], page["view"]["board"]["cols"]
    tiles = [f"{chr(ord('a') + c)}{r + 1}" for r in range(rows) for c in range(cols)]
    return next(tile for tile in tiles if tile not in named)


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_tap_on_a_meeple_answers_in_view_and_a_refusal_too(
    server: str, driver: Any, width: int, height: int
) -> None:
    """A meeple is drawn over its tile (in a group of its own): a tap on it is a tap on
    the tile, and its colours to choose from are in view; a tile no option names is
    refused in view; a choice played clears the box."""
    link, api = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=31)
    page = to_a_drop_with_choices(api)
    tile = several_colours_tile(page)
    as_device(driver, width, height)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    console_errors(driver)

    far = far_tile(page)
    tap(driver, f"#tile-{far} > text")
    until(lambda: "refused" in text_of(driver, "#message"))
    assert far in text_of(driver, "#message")
    assert in_view(driver, "#message"), driver.execute_script(
        "return document.getElementById('message').getBoundingClientRect().toJSON()"
    )

    version = body(driver, "version")
    tap(driver, f"#pieces-{tile} g.meeple")
    until(lambda: "choose one" in text_of(driver, "#choices"))
    assert text_of(driver, "#message") == ""  # the refusal is answered: gone
    assert in_view(driver, "#choices"), driver.execute_script(
        "return document.getElementById('choices').getBoundingClientRect().toJSON()"
    )
    choice = str(
        driver.execute_script("return document.querySelector('#choices button').dataset.action")
    )
    assert choice.startswith(f"drop {tile} ")
    tap(driver, "#choices button")
    until(lambda: body(driver, "version") != version)
    until(lambda: text_of(driver, "#choices") == "")
    assert choice in text_of(driver, "#log")
    assert [e for e in console_errors(driver) if "409 (Conflict)" not in e] == []


@pytest.mark.parametrize(("width", "height"), [(768, 1024), (1024, 768)])
def test_a_tablet_shows_the_decision_beside_or_under_the_board(
    server: str, driver: Any, width: int, height: int
) -> None:
    """Held upright the options come right under the board; held sideways, beside it:
    either way the first option is in view as the page opens."""
    link, api = made_game(server, ["human", "ai:greedy"], seed=32)
    to_a_drop_with_choices(api)
    as_device(driver, width, height)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    boxes = driver.execute_script(
        """const box = id => document.getElementById(id).getBoundingClientRect().toJSON();
        return {board: box("board"), side: box("side"), tableau: box("tableau")};"""
    )
    board, side = boxes["board"], boxes["side"]
    if width > height:
        assert side["left"] >= board["right"] - 1
    else:
        assert side["top"] >= board["bottom"] - 1
        assert boxes["tableau"]["top"] >= side["bottom"] - 1  # the side panel after it
    assert in_view(driver, "#options li:first-child button")
