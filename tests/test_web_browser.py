"""``naqala serve`` in a real browser: headless Chromium driven by selenium plays a game
by clicking the board against two AI seats, is refused an illegal click, has the AI play
on to the end and reads the final score table; a second person's page hides the first
person's coins.

Skipped, with the reason, only when no browser can be found (see naqala.testing.browser).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from naqala.testing.browser import chromium, console_errors, find_chromium
from naqala.testing.serving import free_port, wait_until_answering

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


def _opens(address: str) -> bool:
    with urllib.request.urlopen(address, timeout=1):
        return True


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
        wait_until_answering(process, lambda: _opens(address))
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
    cost = click(browser, "#tableau g.spot.target")
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
    # a handler that surely fires: a click (an empty data: image's onload never fired,
    # and Chromium 148 reports no violation for a handler that never runs)
    browser.execute_script(
        """
        document.getElementById("message").insertAdjacentHTML("beforeend",
          '<button id="probe" onclick="document.body.dataset.ran = 1">probe</button>');
        document.getElementById("probe").click();
        const script = document.createElement("script");
        script.textContent = "document.body.dataset.ran = 2";
        document.body.appendChild(script);
        """
    )
    refusals: list[str] = []  # reading the console empties it: keep what was read
    wait_for(browser, lambda: len(refusals.__iadd__(console_errors(browser))) >= 2)
    assert body(browser, "ran") == ""
    assert all("Content Security Policy" in error for error in refusals), refusals


# -- phones, tablets, cards, words, the lobby's contrast, many tabs -------------------------

#: the text colours of a page must keep this contrast with their background (WCAG AA)
AA_CONTRAST = 4.5
#: seconds a tab may take to load and to show a move: far less than the minute an event
#: stream lasts, after which a tab waiting for a connection would get one
TAB_LOADS = 20
#: a tile's name must be drawn at least this many CSS pixels high to be read
READABLE_PX = 10


def api_call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def made_game(server: str, seats: list[str], seed: int, **more: Any) -> tuple[str, str]:
    """A new game through the API: the first person's page and API addresses."""
    made = api_call(server + "api/games", {"seats": seats, "seed": seed, **more})
    link = made["seats"][0]["url"]
    return server.rstrip("/") + link, server.rstrip("/") + "/api" + link.replace(
        "/play/", "/games/", 1
    )


def until_api(check: Any) -> Any:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the game did not get there in time")


def as_device(driver: Any, width: int, height: int, touch: bool) -> None:
    """Make the page ``width``×``height`` CSS pixels, as a phone or tablet shows it
    (headless Chromium's window cannot be narrower than 500 px), with touch input."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch},
    )
    driver.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5}
    )


def tap(driver: Any, element: Any) -> None:
    """A finger's tap on the centre of ``element`` (touch events, not a mouse click),
    scrolled to the middle of the screen, clear of the bars at its top and bottom."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    x, y = driver.execute_script(
        """arguments[0].scrollIntoView({block: "center", inline: "center"});
        const box = arguments[0].getBoundingClientRect();
        return [box.left + box.width / 2, box.top + box.height / 2];""",
        element,
    )
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pause(0.05)
    actions.pointer_action.pointer_up()
    actions.perform()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (768, 1024)])
def test_the_board_fills_a_phone_or_a_tablet_and_its_tile_names_can_be_read(
    server: str, width: int, height: int
) -> None:
    page, _ = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=21)
    with chromium(1000, 1000) as driver:
        as_device(driver, width, height, touch=True)
        driver.get(page)
        wait_for(driver, lambda: body(driver, "yours") == "1")
        sizes = driver.execute_script(
            """
            const board = document.getElementById("board").getBoundingClientRect();
            const labels = [...document.querySelectorAll("#board g.tile > text")].map(t =>
              t.getBoundingClientRect().height);
            const side = document.getElementById("side").getBoundingClientRect();
            return {viewport: innerWidth, board: board.width, bottom: board.bottom,
              sideTop: side.top, labels: labels, page: document.documentElement.scrollWidth};
            """
        )
        assert sizes["viewport"] == width
        assert sizes["board"] >= 0.9 * width
        assert len(sizes["labels"]) == 30
        # a text box's height is about 1.15 times its font size
        assert min(sizes["labels"]) / 1.15 >= READABLE_PX, sizes["labels"][:3]
        assert sizes["sideTop"] >= sizes["bottom"]  # the panels stack below the board
        assert sizes["page"] <= width  # only the board scrolls sideways, never the page
        assert console_errors(driver) == []


def test_a_tap_on_a_face_up_djinn_shows_its_power_and_a_hover_too(server: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    from naqala.cli.decisions import djinn_power
    from naqala.core.engine import rules_for_ruleset

    rules = rules_for_ruleset(("base",))
    page, _ = made_game(server, ["human", "ai:greedy"], seed=22)
    with chromium(1000, 1000) as driver:
        as_device(driver, 390, 844, touch=True)
        driver.get(page)
        wait_for(driver, lambda: body(driver, "version") != "")
        card = driver.find_element(By.CSS_SELECTOR, "#tableau g.card.has-power")
        djinn = str(card.get_attribute("data-pick"))
        driver.execute_script("arguments[0].scrollIntoView()", card)
        tap(driver, card)
        wait_for(driver, lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
        spec = rules.card_specs[djinn]
        assert text(driver, "#card-name") == spec.name
        facts = text(driver, "#card-facts")
        assert f"{spec.vp} VP" in facts and rules.power_of(spec).when in facts
        assert (
            text(driver, "#card-effect") == djinn_power(rules, djinn, brief=True).split(": ", 1)[1]
        )
        tap(driver, driver.find_element(By.ID, "card-close"))
        wait_for(driver, lambda: not driver.find_element(By.ID, "card-sheet").is_displayed())
    with chromium(1400, 1000) as driver:
        driver.get(page)
        wait_for(driver, lambda: body(driver, "version") != "")
        chip = driver.find_element(By.CSS_SELECTOR, f'#in-play [data-card="{djinn}"]')
        ActionChains(driver).move_to_element(chip).perform()
        wait_for(driver, lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
        assert text(driver, "#card-name") == rules.card_specs[djinn].name
        assert console_errors(driver) == []


def test_your_own_djinn_shows_its_power_in_your_panel(server: str) -> None:
    from naqala.cli.decisions import djinn_power
    from naqala.core.engine import rules_for_ruleset

    rules = rules_for_ruleset(("base",))
    page, api = made_game(server, ["human", "ai:greedy"], seed=1)
    api_call(api + "/autoplay", {"on": True})
    view = until_api(
        lambda: (lambda v: v if v["players"][0]["hands"].get("djinns") else None)(
            api_call(api)["view"]
        )
    )
    api_call(api + "/autoplay", {"on": False})
    djinn = view["players"][0]["hands"]["djinns"][0]
    with chromium(390, 844) as driver:
        as_device(driver, 390, 844, touch=True)
        driver.get(page)
        wait_for(driver, lambda: body(driver, "version") != "")
        mine = text(driver, "#mine")
        assert rules.card_specs[djinn].name in mine
        assert djinn_power(rules, djinn, brief=True).split(": ", 1)[1] in mine
        # a tap on your panel of the picture lists your cards; a tap on one explains it
        panel = driver.find_element(By.CSS_SELECTOR, "#players g#player-1")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
        tap(driver, panel)
        wait_for(driver, lambda: text(driver, "#card-name") == "Your cards")
        tap(driver, driver.find_element(By.CSS_SELECTOR, f'#card-options [data-card="{djinn}"]'))
        wait_for(driver, lambda: text(driver, "#card-name") == rules.card_specs[djinn].name)
        # the other player's panel shows only what of theirs may be seen
        tap(driver, driver.find_element(By.ID, "card-close"))
        other = driver.find_element(By.CSS_SELECTOR, "#players g#player-2")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", other)
        tap(driver, other)
        wait_for(driver, lambda: text(driver, "#card-name") == "P2's cards")
        theirs = api_call(api)["view"]["players"][1]["hands"].get("djinns", [])
        chips = driver.find_elements(By.CSS_SELECTOR, "#card-options [data-card]")
        assert sorted(str(c.get_attribute("data-card")) for c in chips) == sorted(theirs)
        assert console_errors(driver) == []


def test_options_say_what_they_do_with_the_notation_below(server: str) -> None:
    page, _ = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=23)
    with chromium(1400, 1000) as driver:
        driver.get(page)
        wait_for(driver, lambda: body(driver, "yours") == "1")
        buttons = driver.execute_script(
            """return [...document.querySelectorAll("#options button")].map(b => [
              b.querySelector(".words").textContent, b.querySelector(".notation").textContent,
              getComputedStyle(b.querySelector(".notation")).fontSize,
              getComputedStyle(b.querySelector(".words")).fontSize])"""
        )
        assert buttons, "no option listed"
        for words, notation, small, large in buttons:
            cost = notation.split()[1]
            assert notation.startswith("bid ") and words.startswith(f"bid {cost}: pay ")
            assert "turn-order space" in words
            assert float(small[:-2]) < float(large[:-2])


#: the texts of a page whose colour has less than ``arguments[0]`` contrast with what is
#: behind them (WCAG's relative luminance; translucent backgrounds composed)
LOW_CONTRAST_TEXTS = """
        function rgba(text) { const v = text.match(/[\\d.]+/g).map(Number);
          return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; }
        function over(top, bottom) { const a = top[3];
          return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]); }
        function background(element) {
          const layers = [];
          for (let e = element; e; e = e.parentElement) {
            const colour = rgba(getComputedStyle(e).backgroundColor);
            if (colour[3] > 0) { layers.push(colour); if (colour[3] === 1) { break; } }
          }
          let colour = [255, 255, 255, 1];
          for (let i = layers.length - 1; i >= 0; i--) { colour = over(layers[i], colour); }
          return colour;
        }
        function luminance(c) { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
          return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; }
        const limit = arguments[0];
        const low = [];
        document.querySelectorAll("body *").forEach(function (e) {
          const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
          if (!own && !["SELECT", "INPUT", "BUTTON"].includes(e.tagName)) { return; }
          if (e.tagName === "OPTION" || e.getClientRects().length === 0) { return; }
          const ink = background(e);
          const fg = over(rgba(getComputedStyle(e).color), ink);
          const [a, b] = [luminance(fg), luminance(ink)].sort((x, y) => y - x);
          const ratio = (a + 0.05) / (b + 0.05);
          if (ratio < limit) { low.push(e.tagName + "#" + e.id + "." + e.className + ": " +
            ratio.toFixed(2)); }
        });
        return low;
        """


def test_every_text_of_the_lobby_and_a_game_page_has_aa_contrast(server: str, browser: Any) -> None:
    browser.get(server)
    assert browser.execute_script(LOW_CONTRAST_TEXTS, AA_CONTRAST) == []
    page, _ = made_game(server, ["human", "ai:greedy"], seed=25)
    browser.get(page)
    wait_for(browser, lambda: body(browser, "yours") == "1")
    assert browser.execute_script(LOW_CONTRAST_TEXTS, AA_CONTRAST) == []


def test_more_tabs_than_a_browser_has_connections_all_load_and_follow(server: str) -> None:
    """A browser opens at most six connections to one host; with an event stream per tab
    the seventh tab waited for one of them to end (a stream lasts a minute). The tabs
    share one stream: eight load at once, and all follow a move."""
    page, api = made_game(server, ["human", "human"], seed=24)
    with chromium(1000, 800) as driver:
        driver.set_page_load_timeout(TAB_LOADS)
        loaded = WebDriverWait(driver, TAB_LOADS, poll_frequency=0.05)
        for tab in range(8):
            if tab:
                driver.switch_to.new_window("tab")
            driver.get(page)
            loaded.until(lambda _: body(driver, "version") != "")
            assert body(driver, "stream") == "shared"
        version = api_call(api)["version"]
        option = api_call(api)["options"][0]["action"]
        api_call(api + "/act", {"action": option})
        for handle in driver.window_handles:
            driver.switch_to.window(handle)
            loaded.until(lambda _: body(driver, "version") == str(version + 1))


def test_the_score_is_in_sight_and_its_lines_a_tap_away(server: str) -> None:
    page, _ = made_game(server, ["human", "human"], seed=26)
    with chromium(1000, 1000) as driver:
        as_device(driver, 390, 844, touch=True)
        driver.get(page)
        wait_for(driver, lambda: body(driver, "version") != "")
        line = text(driver, "#score-line")
        assert line.startswith("P1 (you) 50 · P2 ")  # 50 coins are 50 points
        assert not driver.find_element(By.ID, "score-lines").is_displayed()
        tap(driver, driver.find_element(By.CSS_SELECTOR, "#score summary"))
        wait_for(driver, lambda: driver.find_element(By.ID, "score-lines").is_displayed())
        lines = text(driver, "#score-lines")
        assert "coins" in lines and "total" in lines
        assert "P2 + coins" in text(driver, "#score-note")
        assert console_errors(driver) == []


@pytest.mark.parametrize(
    ("expansions", "deck"),
    [(["djinns"], "whims"), (["thieves"], "thieves"), (["solo"], "")],
)
def test_a_tap_explains_whims_thieves_and_sultan_yazid(
    server: str, expansions: list[str], deck: str
) -> None:
    """The whims on the cities, the thief on offer and, in the solo mode, Sultan Yazid's
    state open their sheet on a tap, with the rules' own words."""
    from naqala.core.engine import rules_for_ruleset

    seats = ["human"] if expansions == ["solo"] else ["human", "ai:greedy"]
    page, api = made_game(server, seats, seed=27, expansions=expansions)
    data = api_call(api)
    card = next(
        held["card"] for held in data["in_play"] if data["cards"][held["card"]]["deck"] == deck
    )
    with chromium(1000, 1000) as driver:
        as_device(driver, 390, 844, touch=True)
        driver.get(page)
        wait_for(driver, lambda: body(driver, "version") != "")
        chip = driver.find_element(By.CSS_SELECTOR, f'#in-play [data-card="{card}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chip)
        tap(driver, chip)
        wait_for(driver, lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
        effect = text(driver, "#card-effect")
    if deck:
        rules = rules_for_ruleset(("base", *expansions))
        spec = rules.card_specs[card]
        assert effect == rules.power_of(spec).describe(rules, spec)
    else:
        assert "Camels left" in effect and "you lose at either" in effect
        # his panel beside the players' explains him too
        with chromium(1400, 1000) as driver:
            driver.get(page)
            wait_for(driver, lambda: body(driver, "version") != "")
            click(driver, "#players g.aside")
            wait_for(driver, lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
            assert text(driver, "#card-name") == "Sultan Yazid"


def test_a_cards_sheet_offers_the_options_that_name_it(server: str, tmp_path: Any) -> None:
    """At a sacred place, a face-up djinn's sheet offers taking it, and the sheet of the
    seat's own Enki offers its power: a tap on that button plays it."""
    from naqala.core.record import record_to_json
    from naqala.web.store import Store

    game = Store(tmp_path / "games", [], 5).create(["human", "ai:greedy"], [], [], 7)
    game.set_autoplay(0, True)
    while not (
        game.state.decision.player == 0
        and game.state.decision.stage == "tile:sacred-place"
        and any(a.kind == "enki" for a in game.rules.legal_actions(game.state))
    ):
        assert not game.state.is_over
        deciding = game.next_player()
        assert deciding is not None
        options = game.rules.legal_actions(game.state)
        game.play(deciding[1].choose(game.rules, game.state, options))
    request = urllib.request.Request(
        server + "api/load",
        data=record_to_json(game.record).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        link = json.loads(answer.read())["seats"][0]["url"]
    with chromium(1000, 1000) as driver:
        as_device(driver, 390, 844, touch=True)
        driver.get(server.rstrip("/") + link)
        wait_for(driver, lambda: body(driver, "yours") == "1")
        version = body(driver, "version")
        offered = driver.find_element(By.CSS_SELECTOR, "#tableau g.card.has-power")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", offered)
        tap(driver, offered)
        wait_for(driver, lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
        takes = text(driver, "#card-options")
        assert "take it" in takes and f"djinn {offered.get_attribute('data-pick')}" in takes
        tap(driver, driver.find_element(By.ID, "card-close"))
        chip = driver.find_element(By.CSS_SELECTOR, '#mine [data-card="enki"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chip)
        tap(driver, chip)
        wait_for(driver, lambda: "Enki on " in text(driver, "#card-options"))
        use = driver.find_element(By.CSS_SELECTOR, "#card-options button")
        action = str(use.get_attribute("data-action"))
        assert action.startswith("enki ")
        tap(driver, use)
        wait_for(driver, lambda: body(driver, "version") != version)
        assert action in text(driver, "#log")
        assert console_errors(driver) == []
