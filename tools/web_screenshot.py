"""Take the pictures of ``naqala serve`` shown in docs/web.md.

Starts the server on a free local port, makes a game of one person against two greedy
AI players and lets the AI play the person's seat into round 3, then photographs the
person's page in headless Chromium (``naqala.testing.browser``) on four screens: a
1024×768 tablet held sideways at the person's pick, the others' turns drawn
(``web-game-1024.png``); then, the move started, 1400×900 with the move preview and a
tile tapped that offers several drops (``web-game.png``), a 390×844 phone scrolled down
with the bar in sight and the tile's colours floating at the bottom (``web-game-390.png``)
and a 768×1024 tablet with the options under the board (``web-game-768.png``)::

    python tools/web_screenshot.py                 # writes docs/pictures/web-game*.png
    python tools/web_screenshot.py --out /tmp/web.png

Needs the web and test extras and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from naqala.testing.browser import chromium
from naqala.testing.serving import free_port

PICTURE = Path(__file__).resolve().parent.parent / "docs" / "pictures" / "web-game.png"


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def until(check: Any, seconds: float = 120) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise RuntimeError("the game did not get there in time")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PICTURE, help="the PNG to write")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed")
    args = parser.parse_args(argv)
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        command = [
            *(sys.executable, "-c", "from naqala.cli.app import main; main()", "serve"),
            *("--port", str(port), "--data-dir", folder, "--ai-delay", "0"),
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            until(lambda: _answers(site), 30)
            made = call(f"{site}/api/games", {"seats": ["human", "ai", "ai"], "seed": args.seed})
            link = made["seats"][0]["url"]
            api = site + "/api" + link.replace("/play/", "/games/", 1)
            call(api + "/autoplay", {"on": True})
            until(lambda: call(api)["round"] >= 3)
            call(api + "/autoplay", {"on": False})
            page = until(lambda: (lambda p: p if p["yours"] else None)(call(api)))
            # on to a pick of the person's that follows another player's move
            while not (
                page["options"][0]["action"].startswith("pick")
                and any(turn["path"] for turn in page["others"])
            ):
                call(api + "/act", {"action": page["options"][0]["action"]})
                page = until(lambda: (lambda p: p if p["yours"] else None)(call(api)))
            args.out.parent.mkdir(parents=True, exist_ok=True)
            shots = []
            with chromium(1400, 1000) as browser:
                # a tablet held sideways at the pick: the others' turns drawn, the
                # options beside the board
                sideways = args.out.with_name(args.out.stem + "-1024.png")
                show(browser, site + link, 1024, 768)
                browser.save_screenshot(str(sideways))
                shots.append(sideways)
                page = call(api + "/act", {"action": page["options"][0]["action"]})["page"]
                tiles = [option["action"].split()[1] for option in page["options"]]
                several = next((t for t in tiles if tiles.count(t) > 1), tiles[0])
                # a desktop after the pick: the move preview, a tile's colours to choose
                show(browser, site + link, 1400, 900)
                tap(browser, f"#board g#tile-{several} > rect")
                until(lambda: browser.find_elements("css selector", "#choices button"))
                browser.save_screenshot(str(args.out))
                shots.append(args.out)
                # a phone scrolled down the board: the bar in sight, a tile's colours
                # floating at the bottom
                phone = args.out.with_name(args.out.stem + "-390.png")
                show(browser, site + link, 390, 844)
                browser.execute_script("window.scrollTo(0, 180)")
                tap(browser, f"#board g#tile-{several} > rect")
                until(lambda: browser.find_elements("css selector", "#choices button"))
                browser.save_screenshot(str(phone))
                shots.append(phone)
                # a tablet held upright: the options under the board
                tablet = args.out.with_name(args.out.stem + "-768.png")
                show(browser, site + link, 768, 1024)
                browser.save_screenshot(str(tablet))
                shots.append(tablet)
        finally:
            server.terminate()
            server.wait(30)
    print("wrote " + ", ".join(str(shot) for shot in shots))
    return 0


def show(browser: Any, address: str, width: int, height: int) -> None:
    """Open ``address`` on a screen of ``width``×``height``, once the seat decides."""
    as_device(browser, width, height)
    browser.get(address)
    until(lambda: browser.find_element("tag name", "body").get_attribute("data-yours"))


def tap(browser: Any, selector: str) -> None:
    """A finger's tap on the centre of what ``selector`` finds (scrolled into view)."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    element = browser.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", element)
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(browser, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down().pause(0.05).pointer_up()
    actions.perform()


def as_device(browser: Any, width: int, height: int) -> None:
    """A phone's or tablet's screen of ``width``×``height`` CSS pixels (headless Chromium's
    window cannot be narrower than 500 px)."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1100},
    )
    browser.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
    )


def _answers(site: str) -> bool:
    try:
        with urllib.request.urlopen(site + "/", timeout=1):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
