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

from selenium.webdriver.common.by import By  # noqa: E402
from web_kit import (  # noqa: E402
    SCREENS,
    api_call,
    as_device,
    body,
    in_view,
    made_game,
    my_decision,
    serving,
    start_of_colours,
    tap,
    to_a_drop_with_choices,
    to_a_pick,
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


# -- cues: the game moved while the person looked elsewhere ----------------------------


def test_the_tab_says_your_turn_and_a_stale_refusal_goes_when_the_game_moves_on(
    server: str, driver: Any
) -> None:
    link, api = made_game(server, ["human", "ai:greedy"], seed=33)
    page = my_decision(api)
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    assert driver.title.startswith("● your turn")
    tap(driver, "#tile-c3 > text")  # a tile while bidding: refused
    until(lambda: "refused" in text_of(driver, "#message"))
    api_call(api + "/act", {"action": page["options"][-1]["action"]})  # from another tab
    until(lambda: text_of(driver, "#message") == "")
    assert all("409 (Conflict)" in error for error in console_errors(driver))


def test_a_cards_sheet_is_put_away_once_its_seat_has_played(server: str, driver: Any) -> None:
    link, _ = made_game(server, ["human", "ai:greedy"], seed=34)
    as_device(driver, 1400, 900)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    tap(driver, "#tableau g.card.has-power")
    until(lambda: driver.find_element(By.ID, "card-sheet").is_displayed())
    version = body(driver, "version")
    tap(driver, "#tableau g.spot.target")  # a bid, beside the open sheet
    until(lambda: body(driver, "version") != version)
    until(lambda: not driver.find_element(By.ID, "card-sheet").is_displayed())


def test_another_page_of_the_game_is_told_of_an_undo(server: str, driver: Any) -> None:
    made = api_call(server + "api/games", {"seats": ["human", "human"], "seed": 35})
    site = server.rstrip("/")
    apis = [site + "/api" + s["url"].replace("/play/", "/games/", 1) for s in made["seats"]]
    # both people play the first option until P2 is about to pick its meeples
    while True:
        page = api_call(apis[0])
        seat = page["deciding"]
        mine = api_call(apis[seat])
        if seat == 1 and mine["options"][0]["action"].startswith("pick"):
            break
        api_call(apis[seat] + "/act", {"action": mine["options"][-1]["action"]})
    as_device(driver, 390, 844)
    driver.get(site + made["seats"][0]["url"])
    until(lambda: body(driver, "version") == str(page["version"]))
    api_call(apis[1] + "/act", {"action": mine["options"][0]["action"]})
    api_call(apis[1] + "/undo", {})
    until(lambda: "P2 undid" in text_of(driver, "#message"))
    assert "1 action taken back" in text_of(driver, "#message")
    assert in_view(driver, "#message")
    assert console_errors(driver) == []


# -- a phone: the bar in sight, the end at the top -------------------------------------


def test_a_phone_keeps_the_status_holdings_and_score_in_sight(server: str, driver: Any) -> None:
    link, api = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=36)
    page = to_a_drop_with_choices(api)
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    for part in ("#status", "#holding", "#score summary"):
        assert in_view(driver, part), part
    assert (
        driver.execute_script("return document.getElementById('bar').getBoundingClientRect().top")
        == 0
    )
    assert "in hand" in text_of(driver, "#status")
    assert text_of(driver, "#holding").startswith(
        f"You: {page['view']['players'][0]['coins']} coins"
    )
    tap(driver, "#score summary")  # the score's lines open from the bottom of the page
    until(lambda: in_view(driver, "#score-lines tfoot"))


def test_the_end_is_announced_at_the_top_with_every_players_points(
    server: str, driver: Any
) -> None:
    link, _ = made_game(server, ["human", "ai:greedy"], seed=37)
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    tap(driver, "#autoplay")
    until(lambda: body(driver, "version") > "" and text_of(driver, "#autoplay") != "play for me")
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    until(lambda: body(driver, "over") == "1")
    until(lambda: in_view(driver, "#final-words"))
    words = text_of(driver, "#final-words")
    assert words.startswith("The game is over: ") and (" wins with " in words or " win " in words)
    totals = text_of(driver, "#final-totals")
    assert "P1 (you) " in totals and "P2 " in totals
    assert not driver.find_element(By.ID, "autoplay").is_displayed()  # nobody to play for
    assert (
        driver.execute_script(
            "return document.querySelector('#scores table.final').getBoundingClientRect().top"
        )
        < 844
    )
    assert driver.title.startswith("game over")


# -- the others' turns: drawn until the seat decides, the log in words --------------------


def loaded_at(server: str, tmp_path: Path, seats: list[str], seed: int, there: Any) -> str:
    """A game played by the AI (the person's seat too) until ``there(game)`` holds, then
    loaded into the server: the person's page address."""
    import json
    import urllib.request

    from naqala.core.record import record_to_json
    from naqala.web.store import Store

    game = Store(tmp_path / "games", [], 5).create(seats, [], [], seed)
    game.set_autoplay(0, True)
    while not there(game):
        assert not game.state.is_over
        deciding = game.next_player()
        assert deciding is not None
        game.play(deciding[1].choose(game.rules, game.state, game.rules.legal_actions(game.state)))
    request = urllib.request.Request(
        server + "api/load",
        data=record_to_json(game.record).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return server.rstrip("/") + json.loads(answer.read())["seats"][0]["url"]


def _picks_after_a_move(game: Any) -> bool:
    state = game.state
    return (
        state.decision.player == 0
        and state.decision.stage == "pick"
        and any(turn["path"] for turn in game.others_turns(0))
    )


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1400, 900)])
def test_the_others_turns_stay_drawn_until_the_seat_decides(
    server: str, driver: Any, tmp_path: Path, width: int, height: int
) -> None:
    link = loaded_at(server, tmp_path, ["human", "ai:greedy", "ai:greedy"], 7, _picks_after_a_move)
    api = link.replace("/play/", "/api/games/", 1)
    page = api_call(api)
    moved = [turn for turn in page["others"] if turn["path"]]
    as_device(driver, width, height)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    drawn = driver.execute_script(
        """return [...document.querySelectorAll("#board g.others-move")].map(g => [g.dataset.by,
          g.querySelector("polyline").points.numberOfItems])"""
    )
    assert drawn == [[turn["by"], len(turn["path"])] for turn in moved]
    said = text_of(driver, "#others")
    for turn in moved:
        assert f"{turn['by']}: moved {' → '.join(turn['path'])}" in said
        for tile in turn["took"]:
            assert f"took {tile}" in said or f", {tile}" in said
    # the log says every action as the options do, the notation after it
    log = text_of(driver, "#log")
    assert "start at " in log and ": take its " in log and "(pick " in log
    # a tap on a tile under a drawn path still reaches the tile; once the seat has decided
    # the others' turns are gone
    tile = moved[0]["path"][0]
    version = body(driver, "version")
    tap(driver, f"#tile-{tile} > text")
    until(lambda: body(driver, "version") != version or "refused" in text_of(driver, "#message"))
    if body(driver, "version") == version:  # that tile is no start: a legal one
        tap(driver, f"#board g.tile.target#tile-{page['targets'][0]} > text")
        until(lambda: body(driver, "version") != version)
    until(
        lambda: (
            driver.execute_script("return document.querySelectorAll('#board g.others-move').length")
            == 0
        )
    )
    assert not driver.find_element(By.ID, "others-box").is_displayed()


# -- the move preview ---------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1024, 768)])
def test_a_pick_shows_where_the_hand_can_end_and_what_each_end_takes(
    server: str, driver: Any, width: int, height: int
) -> None:
    link, api = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=38)
    start = start_of_colours(to_a_pick(api))
    as_device(driver, width, height)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    assert (
        driver.execute_script("return document.querySelectorAll('#board g.end-mark').length") == 0
    )
    version = body(driver, "version")
    tap(driver, f"#tile-{start} > text")
    until(lambda: body(driver, "version") != version)
    preview = api_call(api)["preview"]
    assert preview
    marks = driver.execute_script(
        """return [...document.querySelectorAll("#board g.end-mark")].map(g =>
          [g.dataset.tile, g.textContent])"""
    )
    expected: dict[str, list[str]] = {}
    for end in preview:
        mark = f"{end['taken']}{end['letter']}{'⚑' if end['captures'] else ''}"
        expected.setdefault(end["end"], []).append(mark)
    assert sorted(marks) == sorted([tile, " ".join(each)] for tile, each in expected.items())
    # at least one end is in sight around the tile just tapped
    assert any(in_view(driver, f'#board g.end-mark[data-tile="{tile}"] rect') for tile in expected)
    listed = text_of(driver, "#preview")
    assert all(end["words"] in listed for end in preview)


# -- the lobby ----------------------------------------------------------------------------


def test_each_persons_link_has_a_copy_button_that_a_finger_can_use(
    server: str, driver: Any
) -> None:
    from selenium.webdriver.support.ui import Select

    as_device(driver, 390, 844)
    driver.get(server)
    for number, kind in enumerate(["human", "human", "ai:greedy", "", ""], start=1):
        Select(driver.find_element(By.ID, f"seat-{number}")).select_by_value(kind)
    tap(driver, "#start")
    until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#links button.copy")) == 2)
    link = text_of(driver, "#links li:nth-child(2) a.seat-link")
    tap(driver, "#links li:nth-child(2) button.copy")
    until(lambda: text_of(driver, "#links li:nth-child(2) button.copy") != "copy")
    said = text_of(driver, "#links li:nth-child(2) button.copy")
    if said == "copied":  # the clipboard took it
        return
    assert said == "selected: copy it"  # else the link is selected for a copy by hand
    assert driver.execute_script("return window.getSelection().toString()") == link


def test_the_tiles_and_cards_can_be_reached_by_keyboard(server: str, driver: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    link, api = made_game(server, ["human", "ai:greedy"], seed=39)
    my_decision(api)
    as_device(driver, 1400, 900)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    focused = "return document.activeElement.id || document.activeElement.dataset.pick || ''"
    for _ in range(20):  # past the header's buttons and links, to the board's first tile
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script(focused) == "tile-a1":
            break
    assert driver.execute_script(focused) == "tile-a1"
    label = driver.execute_script("return document.activeElement.getAttribute('aria-label')")
    assert label.startswith("tile a1: ")
    ActionChains(driver).send_keys(Keys.ENTER).perform()  # a tile while bidding: refused
    until(lambda: "refused" in text_of(driver, "#message"))
    assert "a1" in text_of(driver, "#message")
    # the face-up djinns are reached too, and Enter opens a card's sheet
    cards = driver.execute_script(
        "return [...document.querySelectorAll('#tableau g.card.has-power')]"
        ".map(g => g.getAttribute('tabindex'))"
    )
    assert cards and all(index == "0" for index in cards)
    driver.execute_script("document.querySelector('#tableau g.card.has-power').focus()")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    until(lambda: driver.find_element(By.ID, "card-sheet").is_displayed())


def test_a_phone_fits_the_whole_board_to_its_width_on_a_tap_and_back(
    server: str, driver: Any
) -> None:
    link, _ = made_game(server, ["human", "ai:greedy"], seed=40)
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "version") != "")
    last_column = "#board #tile-f1 > rect"  # the base game has six columns
    right = "return document.querySelector(arguments[0]).getBoundingClientRect().right"
    assert driver.execute_script(right, last_column) > 390  # drawn size: it scrolls
    tap(driver, "#fit")
    until(lambda: driver.execute_script(right, last_column) <= 390)
    assert text_of(driver, "#fit") == "readable board"
    tap(driver, "#fit")
    until(lambda: driver.execute_script(right, last_column) > 390)
    assert text_of(driver, "#fit") == "whole board"
    as_device(driver, 768, 1024)  # a tablet's board fits anyway: no button
    assert not driver.find_element(By.ID, "fit").is_displayed()


def test_asked_to_tell_the_turn_the_page_sounds_and_notifies_when_hidden(
    server: str, driver: Any
) -> None:
    made = api_call(server + "api/games", {"seats": ["human", "human"], "seed": 42})
    site = server.rstrip("/")
    apis = [site + "/api" + s["url"].replace("/play/", "/games/", 1) for s in made["seats"]]
    as_device(driver, 390, 844)
    driver.execute_cdp_cmd(
        "Browser.grantPermissions", {"permissions": ["notifications"], "origin": site}
    )
    first = api_call(apis[0])["deciding"]  # the person who decides first watches
    driver.get(site + made["seats"][first]["url"])
    until(lambda: body(driver, "yours") == "1")
    # what the page makes is recorded: a tone, a notification; the tab is hidden
    driver.execute_script(
        """window.told = [];
        window.AudioContext = class { constructor() { this.currentTime = 0;
            this.destination = {}; told.push("tone"); }
          createOscillator() { return {frequency: {}, connect: x => x, start() {}, stop() {}}; }
          createGain() { return {gain: {}, connect: x => x}; } };
        window.Notification = class { constructor(title, o) { told.push(title + ": " + o.body); }
          static get permission() { return "granted"; } };
        Object.defineProperty(document, "hidden", {get: () => true});"""
    )
    tap(driver, "#tell")
    assert driver.execute_script("return document.getElementById('tell').checked")
    assert driver.execute_script("return window.told") == []
    for seat in (first, 1 - first):  # a decision each: the turn comes back
        page = api_call(apis[seat])
        api_call(apis[seat] + "/act", {"action": page["options"][-1]["action"]})
        if seat == first:
            until(lambda: body(driver, "yours") == "")
    until(lambda: body(driver, "yours") == "1")
    told = driver.execute_script("return window.told")
    assert told[0] == "tone" and told[1].startswith("naqala: your turn: Your decision")


def test_another_players_turn_can_be_stepped_through_on_the_board(
    server: str, driver: Any, tmp_path: Path
) -> None:
    link = loaded_at(server, tmp_path, ["human", "ai:greedy", "ai:greedy"], 7, _picks_after_a_move)
    page = api_call(link.replace("/play/", "/api/games/", 1))
    number, turn = next((i, t) for i, t in enumerate(page["others"]) if t["path"])
    words = turn["words"]
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    item = f"#others > li:nth-child({number + 1})"
    tap(driver, f"{item} summary")
    drawn = (
        "const g = document.querySelector('#board g.others-move[data-turn=\"' + arguments[0] +"
        " '\"]'); return g ? g.querySelector('polyline').points.numberOfItems : 0"
    )

    def steps(upto: int) -> int:
        return sum(1 for w in words[:upto] if "(pick " in w or "(drop " in w)

    for at in range(len(words)):
        tap(driver, f"{item} button.step-on")
        wanted = words[at]
        until(lambda wanted=wanted: text_of(driver, f"{item} li.current") == wanted)
        assert driver.execute_script(drawn, number) == steps(at + 1)
    assert steps(len(words)) == len(turn["path"])  # at the end, the whole path
    tap(driver, f"{item} button.step-back")
    until(lambda: text_of(driver, f"{item} li.current") == words[-2])
    assert driver.execute_script(drawn, number) == steps(len(words) - 1)
    assert text_of(driver, f"{item} .step-at") == f"action {len(words) - 1} of {len(words)}"


def test_a_phones_options_open_in_a_sheet_over_the_board(server: str, driver: Any) -> None:
    link, api = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=43)
    page = to_a_pick(api)
    as_device(driver, 390, 844)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    assert in_view(driver, "#sheet-toggle")
    assert text_of(driver, "#sheet-toggle") == f"▲ your options ({len(page['options'])})"
    assert not in_view(driver, "#options li:first-child button")  # under the board
    tap(driver, "#sheet-toggle")
    until(lambda: in_view(driver, "#options li:first-child button"))
    version = body(driver, "version")
    action = page["options"][0]["action"]
    tap(driver, "#options li:first-child button")
    until(lambda: body(driver, "version") != version)
    assert action in text_of(driver, "#log")
    until(lambda: not in_view(driver, "#options li:first-child button"))  # put away
    as_device(driver, 768, 1024)  # a tablet shows its options under the board
    assert not driver.find_element(By.ID, "sheet-toggle").is_displayed()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1400, 900)])
def test_what_followed_a_move_and_what_each_tile_does_are_read_where_a_finger_opens_them(
    server: str, driver: Any, width: int, height: int
) -> None:
    """The log says what the AI seats' moves gave them (the meeples kept, beyond the
    option's words), and a tap on *What the tiles and pieces do* opens a list whose
    first lines are then in view: each tile kind's action in the rules' numbers."""
    link, api = made_game(server, ["human", "ai:greedy", "ai:greedy"], seed=33)
    page = my_decision(api)
    while not page["options"][0]["action"].startswith("pick"):  # bid least: move last
        api_call(api + "/act", {"action": page["options"][0]["action"]})
        page = my_decision(api)
    followed = [line for line in page["log"] if " → P2 kept " in line or " → P3 kept " in line]
    assert followed, page["log"]
    as_device(driver, width, height)
    driver.get(link)
    until(lambda: body(driver, "yours") == "1")
    console_errors(driver)  # what earlier pages of this browser logged is theirs
    assert followed[-1] in text_of(driver, "#log")

    tap(driver, "#glossary-box > summary")
    until(lambda: driver.execute_script("return document.getElementById('glossary-box').open"))
    until(lambda: in_view(driver, "#glossary li"))  # brought into view once opened
    listed = text_of(driver, "#glossary")
    assert "Oasis: place a palm tree" in listed
    assert "Small market: buy one card for 3 coins" in listed
    assert console_errors(driver) == []
