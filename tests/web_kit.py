"""What the touch-driven browser tests share: ``naqala serve`` started as a person
starts it, a Chromium page sized and touched as a phone or a tablet, a finger's tap at
a point of the screen, and games brought to a decision through the JSON API."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from naqala.testing.serving import free_port, wait_until_answering

#: how long a page or a game may take to get somewhere (the AI waits 0.01 s a decision)
PATIENCE = 60
#: the screens a player was watched on: a phone, a tablet each way, a desktop
SCREENS = ((390, 844), (768, 1024), (1024, 768), (1400, 900))


def _opens(address: str) -> bool:
    with urllib.request.urlopen(address, timeout=1):
        return True


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``naqala serve`` on a free local port (its games in ``folder``): its address."""
    port = free_port()
    command = [
        *(sys.executable, "-c", "from naqala.cli.app import main; main()", "serve"),
        *("--port", str(port), "--data-dir", str(folder), "--ai-delay", "0.01"),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    address = f"http://127.0.0.1:{port}/"
    try:
        wait_until_answering(process, lambda: _opens(address))
        yield address
    finally:
        process.terminate()
        process.communicate(timeout=30)


def api_call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def made_game(server: str, seats: list[str], seed: int, **more: Any) -> tuple[str, str]:
    """A new game through the API: the first person's page and API addresses."""
    made = api_call(server + "api/games", {"seats": seats, "seed": seed, **more})
    link = made["seats"][0]["url"]
    api = server.rstrip("/") + "/api" + link.replace("/play/", "/games/", 1)
    return server.rstrip("/") + link, api


def until(check: Any) -> Any:
    """``check()``'s first true answer, asked again until :data:`PATIENCE` runs out."""
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the game did not get there in time")


def my_decision(api: str) -> dict[str, Any]:
    """The seat's page once it is the seat's decision."""
    return dict(until(lambda: (lambda p: p if p["yours"] else None)(api_call(api))))


def to_a_pick(api: str) -> dict[str, Any]:
    """Bid (the last option) until the seat picks: the page at its pick."""
    page = my_decision(api)
    while not page["options"][0]["action"].startswith("pick"):
        api_call(api + "/act", {"action": page["options"][-1]["action"]})
        page = my_decision(api)
    return page


def start_of_colours(page: dict[str, Any]) -> str:
    """A tile the seat may pick whose meeples are of several colours."""
    meeples = {tile["at"]: tile["meeples"] for tile in page["view"]["board"]["tiles"]}
    names = [option["action"].split()[1] for option in page["options"]]
    return next(name for name in names if len(set(meeples[name])) > 1)


def to_a_drop_with_choices(api: str) -> dict[str, Any]:
    """The page at the seat's first drop of a hand of several colours, where a tile
    offers several colours."""
    start = start_of_colours(to_a_pick(api))
    return dict(api_call(api + "/act", {"action": f"pick {start}"})["page"])


def as_device(driver: Any, width: int, height: int) -> None:
    """Show pages at ``width``×``height`` CSS pixels, a touch screen below 1100 px."""
    touch = width < 1100
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch},
    )
    driver.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
    )


def tap_at(driver: Any, x: float, y: float) -> None:
    """A finger lands at (``x``, ``y``) of the screen and lifts: touch events, whatever
    the page draws there receives them (never ``element.click()``)."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pause(0.05)
    actions.pointer_action.pointer_up()
    actions.perform()


#: the centre of what ``arguments[0]`` finds, scrolled into view as a finger would, and
#: whether a tap there lands on it (nothing drawn over it)
CENTRE = """
const element = document.querySelector(arguments[0]);
if (!element) { return null; }
element.scrollIntoView({block: "center", inline: "center"});
const box = element.getBoundingClientRect();
const x = box.left + box.width / 2, y = box.top + box.height / 2;
const top = document.elementFromPoint(x, y);
return {x: x, y: y, lands: !!top && (top === element || element.contains(top))};
"""


def tap(driver: Any, selector: str) -> None:
    """Scroll what ``selector`` finds into view and tap its centre, which must show it."""
    point = until(lambda: driver.execute_script(CENTRE, selector))
    assert point["lands"], f"a tap on {selector} lands on something drawn over it"
    tap_at(driver, point["x"], point["y"])


#: where ``arguments[0]`` is on the screen: whether all of it is in the viewport (below
#: the sticky bar, if any) and shown
IN_VIEW = """
const element = document.querySelector(arguments[0]);
if (!element) { return {found: false}; }
const box = element.getBoundingClientRect();
const bar = document.getElementById("bar");
const top = bar && !bar.contains(element) ? bar.getBoundingClientRect().bottom : 0;
return {found: true, top: box.top, bottom: box.bottom, left: box.left, right: box.right,
  shown: box.height > 0 && getComputedStyle(element).visibility !== "hidden",
  inside: box.top >= top - 1 && box.bottom <= innerHeight + 1 && box.left >= -1 &&
    box.right <= innerWidth + 1};
"""


def in_view(driver: Any, selector: str) -> bool:
    where = driver.execute_script(IN_VIEW, selector)
    return bool(where["found"] and where["shown"] and where["inside"])


def body(driver: Any, name: str) -> str:
    return str(driver.execute_script("return document.body.dataset[arguments[0]] || ''", name))
