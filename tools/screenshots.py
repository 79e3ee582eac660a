"""Take the reference pictures of the board shown in the documentation.

Each picture is a recorded game of ``tests/golden`` (greedy AI players) replayed up to
the first moment of a later round when a meeple move of at least two drops is under way
(the move highlighted), drawn as SVG for the first seat and photographed in headless
Chromium (``naqala.testing.browser``)::

    python tools/screenshots.py                  # writes docs/pictures/board-*.svg and *.png
    python tools/screenshots.py --out /tmp/pics --only base

The positions come from recorded actions, not from playing AI players again, so the
pictures change only when the renderer (or a recorded game) does; a test compares the SVG
files in docs/pictures with what this script draws today. Taking the photographs needs
the test extra (selenium, pillow) and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from naqala.core import build_rules
from naqala.core.actions import parse_action
from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display import board_svg

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"
GOLDEN = ROOT / "tests" / "golden"

#: name → (recorded game in tests/golden, round to stop in)
SHOTS: dict[str, tuple[str, int]] = {
    "base": ("base-3p-greedy-11.json", 5),
    "artisans": ("artisans-3p-greedy-11.json", 5),
    "artisans-djinns-5p": ("artisans-djinns-5p-greedy-11.json", 5),
    "artisans-thieves": ("artisans-thieves-3p-greedy-11.json", 5),
    "solo": ("solo-1p-greedy-11.json", 4),
}


def position(game: str, stop_round: int) -> tuple[Rules, State]:
    """The rules of the recorded ``game`` and its first position in round ``stop_round``
    or later with a meeple move of at least two drops under way (else its end)."""
    record = json.loads((GOLDEN / game).read_text(encoding="utf-8"))
    rules = build_rules(record["expansions"])
    state = rules.new_game(record["players"], record["seed"])
    for text in record["actions"]:
        turn = state.turn
        moved = turn is not None and len(turn.path) >= 2 and state.decision.stage != "drop"
        if state.round >= stop_round and moved:
            break
        state = rules.apply(state, parse_action(text))
    return rules, state


def picture(name: str) -> str:
    """The SVG document of the reference picture ``name``, as the first seat sees it."""
    rules, state = position(*SHOTS[name])
    return board_svg(rules, state, seat=0)


def fit_viewport(browser: Any, width: float, height: float) -> None:
    """Resizes the window until its viewport is ``width`` by ``height``: a resize lands a
    little later on a busy machine, so the viewport is read again until it fits (at
    most 5 seconds), rather than trusting one reading taken right after the resize."""
    wanted = [round(width), round(height)]
    browser.set_window_size(*wanted)
    deadline = time.monotonic() + 5.0
    while True:
        inner = browser.execute_script("return [window.innerWidth, window.innerHeight]")
        if inner == wanted or time.monotonic() > deadline:
            return
        outer = browser.get_window_size()
        browser.set_window_size(
            outer["width"] + wanted[0] - inner[0], outer["height"] + wanted[1] - inner[1]
        )
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=PICTURES, help="folder to write to")
    parser.add_argument("--only", choices=sorted(SHOTS), action="append", help="one picture")
    args = parser.parse_args(argv)
    from naqala.testing.browser import chromium  # only the photographs need a browser

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        for name in args.only or list(SHOTS):
            path = out / f"board-{name}.svg"
            path.write_text(picture(name), encoding="utf-8")
            browser.get(path.as_uri())
            element = browser.find_element("css selector", "svg")
            width, height = element.size["width"], element.size["height"]
            fit_viewport(browser, width, height)
            element.screenshot(str(out / f"board-{name}.png"))
            print(f"wrote {path.with_suffix('.png')} ({width}×{height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
