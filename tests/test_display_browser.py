"""The SVG picture and the HTML replay page in a real browser: headless Chromium driven by
selenium. They load without console errors, show the board (a screenshot with content,
the expected elements), step through the game and end on the final scores.

Skipped, with the reason, only when no browser can be found (see naqala.testing.browser).
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core import build_rules
from naqala.core.record import new_record, save_record
from naqala.display import board_svg
from naqala.testing.browser import chromium, console_errors, find_chromium

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.browser
FOUND = find_chromium()
if isinstance(FOUND, str):
    if os.environ.get("NAQALA_REQUIRE_BROWSER"):  # set by .ci/run once it installed one
        pytest.fail(f"the browser tests must run here, but: {FOUND}", pytrace=False)
    pytest.skip(f"no browser for the browser tests: {FOUND}", allow_module_level=True)

from PIL import Image  # noqa: E402  (only needed when a browser runs)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1400, 1000) as driver:
        yield driver


def colours_in(png: bytes) -> int:
    """How many distinct colours a screenshot has (a blank page has one or two)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    found = image.getcolors(maxcolors=1 << 20)
    return len(found) if found is not None else 1 << 20


@pytest.fixture(scope="module")
def replay_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A whole 2-player game with the Artisans written by ``naqala replay --html``."""
    folder = tmp_path_factory.mktemp("replay")
    rules = build_rules(["artisans"])
    state = rules.new_game(2, 21)
    chooser = random.Random(21)
    actions = []
    while not state.is_over:
        action = chooser.choice(rules.legal_actions(state))
        actions.append(str(action))
        state = rules.apply(state, action)
    record = attrs.evolve(new_record(rules, 21, 2, ["ai:random"] * 2), actions=actions)
    save_record(folder / "game.json", record)
    page = folder / "game.html"
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--html", str(page)])
    assert result.exit_code == 0, result.output
    return page, len(actions)


@pytest.mark.parametrize(
    ("box", "players"),
    [(("djinns",), 5), (("artisans", "djinns", "thieves"), 5), (("solo",), 1)],
    ids=["djinns", "artisans+djinns+thieves", "solo"],
)
def test_the_svg_file_opens_and_shows_the_board(
    browser: Any, tmp_path: Path, box: tuple[str, ...], players: int
) -> None:
    rules = build_rules(box)
    state = rules.new_game(players, 2)
    path = tmp_path / "board.svg"
    path.write_text(board_svg(rules, state, seat=0), encoding="utf-8")
    browser.get(path.as_uri())
    assert console_errors(browser) == []
    tiles = browser.find_elements(By.CSS_SELECTOR, "g.tile")
    assert len(tiles) == state.layout.rows * state.layout.cols
    assert all(tile.is_displayed() for tile in tiles)
    size = browser.find_element(By.CSS_SELECTOR, "svg").size
    assert size["width"] > 900 and size["height"] > 600
    assert len(browser.find_elements(By.CSS_SELECTOR, "g.player")) == players
    meeples = browser.find_elements(By.CSS_SELECTOR, "g.pieces g.meeple")
    assert meeples and all(m.is_displayed() for m in meeples)
    aside = browser.find_elements(By.CSS_SELECTOR, "g.aside")
    assert (len(aside) == 1) == ("solo" in box)
    assert colours_in(browser.get_screenshot_as_png()) > 50


def test_the_replay_page_steps_through_the_game(
    browser: Any, replay_page: tuple[Path, int]
) -> None:
    page, steps = replay_page
    browser.get(page.as_uri())
    assert console_errors(browser) == []
    body = browser.find_element(By.TAG_NAME, "body")
    assert body.get_attribute("data-step") == "0"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board g.tile")) == 36
    assert colours_in(browser.get_screenshot_as_png()) > 50
    assert len(browser.find_elements(By.CSS_SELECTOR, "#moves li")) == steps
    assert browser.find_elements(By.CSS_SELECTOR, "#moves li.current") == []

    def board() -> str:
        return str(browser.find_element(By.ID, "board").get_attribute("innerHTML"))

    # the first actions are bids: each moves a marker on the bid track
    start = board()
    body.send_keys(Keys.ARROW_RIGHT)
    assert body.get_attribute("data-step") == "1"
    assert board() != start
    current = browser.find_element(By.CSS_SELECTOR, "#moves li.current")
    assert current.get_attribute("data-step") == "1"
    browser.find_element(By.ID, "forward").click()
    assert body.get_attribute("data-step") == "2"
    assert (
        browser.find_element(By.CSS_SELECTOR, "#moves li.current").get_attribute("id") == "move-2"
    )
    body.send_keys(Keys.ARROW_LEFT)
    assert body.get_attribute("data-step") == "1"
    browser.find_element(By.ID, "back").click()
    assert body.get_attribute("data-step") == "0" and board() == start
    assert "Scores so far" in browser.find_element(By.ID, "scores").text

    # jump by clicking a move in the list, then go to the end with the End key
    browser.find_element(By.ID, "move-12").click()
    assert body.get_attribute("data-step") == "12"
    body.send_keys(Keys.END)
    assert body.get_attribute("data-step") == str(steps)
    scores = browser.find_element(By.CSS_SELECTOR, "#scores table.final")
    assert "Final scores" in scores.text and "★" in scores.text
    assert "game over" in browser.find_element(By.CSS_SELECTOR, "#board g.header").text
    assert browser.find_element(By.ID, "counter").text.endswith("(end)")
    assert console_errors(browser) == []


def test_the_reference_pictures_script_photographs_the_board(tmp_path: Path) -> None:
    """tools/screenshots.py writes an SVG and a PNG of the whole picture per shot."""
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "tools" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--out", str(tmp_path), "--only", "base"]) == 0
    svg = (tmp_path / "board-base.svg").read_text(encoding="utf-8")
    image = Image.open(tmp_path / "board-base.png")
    width = int(svg.split('width="')[1].split('"')[0])
    height = float(svg.split('height="')[1].split('"')[0])
    assert image.size == (width, round(height))
    assert colours_in((tmp_path / "board-base.png").read_bytes()) > 50
