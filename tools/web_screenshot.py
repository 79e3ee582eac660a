"""Take the pictures of ``naqala serve`` shown in docs/web.md.

Starts the server on a free local port, makes a game of one person against two greedy
AI players, lets the AI play the person's seat into round 3, starts a meeple move, then
photographs the person's page in headless Chromium (``naqala.testing.browser``) at three
widths: 1400 px with a tile clicked that offers several drops (``web-game.png``), a
390×844 phone with a djinn's power tapped open (``web-game-390.png``) and a 768×1024
tablet with the score's lines open (``web-game-768.png``)::

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
            while not page["options"][0]["action"].startswith("pick"):
                page = call(api + "/act", {"action": page["options"][0]["action"]})["page"]
                page = until(lambda: (lambda p: p if p["yours"] else None)(call(api)))
            page = call(api + "/act", {"action": page["options"][0]["action"]})["page"]
            tiles = [option["action"].split()[1] for option in page["options"]]
            several = next((t for t in tiles if tiles.count(t) > 1), tiles[0])
            args.out.parent.mkdir(parents=True, exist_ok=True)
            with chromium(1400, 1000) as browser:
                browser.get(site + link)
                until(lambda: browser.find_element("tag name", "body").get_attribute("data-yours"))
                browser.find_element("css selector", f"#board g#tile-{several}").click()
                until(lambda: browser.find_elements("css selector", "#choices button"))
                browser.save_screenshot(str(args.out))
            phone = args.out.with_name(args.out.stem + "-390.png")
            with chromium(1000, 1000) as browser:
                as_device(browser, 390, 844)
                browser.get(site + link)
                until(lambda: browser.find_element("tag name", "body").get_attribute("data-yours"))
                card = browser.find_element("css selector", "#tableau g.card.has-power")
                browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
                card.click()
                until(lambda: browser.find_element("id", "card-sheet").is_displayed())
                browser.execute_script("window.scrollTo(0, 0)")
                browser.save_screenshot(str(phone))
            tablet = args.out.with_name(args.out.stem + "-768.png")
            with chromium(1000, 1100) as browser:
                as_device(browser, 768, 1024)
                browser.get(site + link)
                until(lambda: browser.find_element("tag name", "body").get_attribute("data-yours"))
                browser.find_element("css selector", "#score summary").click()
                until(lambda: browser.find_element("id", "score-lines").is_displayed())
                browser.save_screenshot(str(tablet))
        finally:
            server.terminate()
            server.wait(30)
    print(f"wrote {args.out}, {phone} and {tablet}")
    return 0


def as_device(browser: Any, width: int, height: int) -> None:
    """A phone's or tablet's screen of ``width``×``height`` CSS pixels (headless Chromium's
    window cannot be narrower than 500 px)."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def _answers(site: str) -> bool:
    try:
        with urllib.request.urlopen(site + "/", timeout=1):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
