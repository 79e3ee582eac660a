"""``naqala serve`` in a real browser: headless Chromium driven by selenium plays a game
by clicking the board against two AI seats, is refused an illegal click, has the AI play
on to the end and reads the final score table; a second person's page hides the first
person's coins.

Skipped, with the reason, only when no browser can be found (see naqala.testing.browser).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from naqala.testing.browser import chromium, console_errors, find_chromium

pytestmark = pytest.mark.browser
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
FOUND = find_chromium()
if isinstance(FOUND, str):
    if os.environ.get("NAQALA_REQUIRE_BROWSER"):  # set by .ci/run once it installed one
        pytest.fail(f"the browser tests must run here, but: {FOUND}", pytrace=False)
    pytest.skip(f"no browser for the browser tests: {FOUND}", allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

#: how long a page may take to show a change (the AI waits 0.01 s before each decision)
PATIENCE = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``naqala serve`` on a free local port, as a person would start it."""
    port = free_port()
    folder = tmp_path_factory.mktemp("games")
    command = [
        sys.executable,
        "-c",
        "from naqala.cli.app import main; main()",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(folder),
        "--ai-delay",
        "0.01",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    address = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(address, timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stderr.read() if process.stderr else "") from None
                time.sleep(0.1)
        else:
            raise AssertionError("naqala serve did not answer")
        yield address
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=30)
    assert f"open {address}" in out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1400, 1000) as driver:
        yield driver


def start(browser: Any, server: str, seats: list[str], seed: int) -> None:
    """Fill in the lobby's form and start the game."""
    browser.get(server)
    for number in range(1, 6):
        Select(browser.find_element(By.ID, f"seat-{number}")).select_by_value(
            seats[number - 1] if number <= len(seats) else ""
        )
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    browser.find_element(By.ID, "start").click()


def body(browser: Any, name: str) -> str:
    return str(browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}") or "")


def wait_for(browser: Any, check: Any) -> None:
    """Wait until ``check()`` holds, looking again when the page redrew what it read."""
    WebDriverWait(
        browser, PATIENCE, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]
    ).until(lambda _: check())


def text(browser: Any, selector: str, attribute: str | None = None) -> str:
    """The text (or ``attribute``) of the element ``selector`` finds, found again if the
    page redrew it between finding and reading (the page redraws at every change)."""

    def read(_: Any) -> tuple[str]:
        element = browser.find_element(By.CSS_SELECTOR, selector)
        value = element.get_attribute(attribute) if attribute else element.text
        return (str(value or ""),)

    waiting = WebDriverWait(browser, PATIENCE, ignored_exceptions=[StaleElementReferenceException])
    return waiting.until(read)[0]


def click(browser: Any, selector: str) -> str:
    """Click the first element ``selector`` finds, again if the page redrew it meanwhile
    (the picture is redrawn at every change); its ``data-pick``."""

    def clicked(_: Any) -> str:
        element = browser.find_element(By.CSS_SELECTOR, selector)
        pick = str(element.get_attribute("data-pick") or "")
        element.click()
        return pick or "clicked"

    waiting = WebDriverWait(browser, PATIENCE, ignored_exceptions=[StaleElementReferenceException])
    return str(waiting.until(clicked))


def test_a_game_against_two_ai_seats_is_played_by_clicking_to_its_end(
    server: str, browser: Any
) -> None:
    start(browser, server, ["human", "ai:greedy", "ai:random"], seed=11)
    wait_for(browser, lambda: body(browser, "yours") == "1")
    assert "/play/" in browser.current_url
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board g.tile")) == 30
    assert "Bid for turn order" in text(browser, "#status")
    version = body(browser, "version")

    # an illegal click: a tile while bidding; refused with the reason, nothing changes
    click(browser, "#board g#tile-c3")
    wait_for(browser, lambda: "refused" in text(browser, "#message"))
    assert "'c3' is not part of any option" in text(browser, "#message")
    assert text(browser, "#message", "class") == "refused"
    assert body(browser, "version") == version
    # the browser logs the refusal's status (409 Conflict), and nothing else
    assert all("409 (Conflict)" in error for error in console_errors(browser))

    # a legal click: a free spot of the turn-order track is a bid
    cost = click(browser, "#board g.spot.target")
    wait_for(browser, lambda: body(browser, "version") != version)
    assert f"bid {cost}" in text(browser, "#log")

    # play for me: the AI plays this seat too, the page follows to the end
    click(browser, "#autoplay")
    wait_for(browser, lambda: body(browser, "over") == "1")
    table = text(browser, "#scores table.final")
    assert "Final scores" in table and "total" in table
    assert "The game is over" in text(browser, "#status")
    assert console_errors(browser) == []


def test_a_second_person_cannot_see_the_first_persons_coins(server: str, browser: Any) -> None:
    start(browser, server, ["human", "human", "ai:random"], seed=12)
    wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "a.seat-link")) == 2)
    links = browser.execute_script(  # read in one go: the page may redraw the links
        "return [...document.querySelectorAll('a.seat-link')].map(a => a.href)"
    )
    panels = {}
    for seat, link in enumerate(links, start=1):
        browser.get(link)
        wait_for(browser, lambda: body(browser, "version") != "")
        panels[seat] = browser.execute_script(
            "return [1, 2, 3].map(n => document.getElementById('player-' + n).textContent)"
        )
    assert "(you)" in panels[1][0] and "Coins 50" in panels[1][0]
    assert "Coins ?" in panels[1][1] and "Coins ?" in panels[1][2]
    assert "(you)" in panels[2][1] and "Coins 50" in panels[2][1]
    assert "Coins ?" in panels[2][0] and "Coins ?" in panels[2][2]
    assert console_errors(browser) == []


def test_the_content_security_policy_holds_in_the_browser(server: str, browser: Any) -> None:
    """The pages work under the policy (the tests above show no console error), and the
    browser enforces it: markup that reaches a page (as a player's text might) runs no
    inline handler and no inline script."""
    start(browser, server, ["human", "ai:random"], seed=13)
    wait_for(browser, lambda: body(browser, "version") != "")
    console_errors(browser)  # forget what came before
    browser.execute_script(
        """
        document.getElementById("message").insertAdjacentHTML("beforeend",
          '<img id="probe" src="data:," onload="document.body.dataset.ran = 1">');
        const script = document.createElement("script");
        script.textContent = "document.body.dataset.ran = 2";
        document.body.appendChild(script);
        """
    )
    refusals: list[str] = []  # reading the console empties it: keep what was read
    wait_for(browser, lambda: len(refusals.__iadd__(console_errors(browser))) >= 2)
    assert body(browser, "ran") == ""
    assert all("Content Security Policy" in error for error in refusals), refusals
