"""Take the reference pictures of the board shown in the documentation.

Each picture is a game between greedy AI players, stopped in the middle of a turn of a
later round (the move in progress highlighted), drawn as SVG for the first seat and
photographed in headless Chromium (``naqala.testing.browser``)::

    python tools/screenshots.py                  # writes docs/pictures/*.svg and *.png
    python tools/screenshots.py --out /tmp/pics --only base --agent random

Needs the test extra (selenium, pillow) and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from naqala.core import build_rules
from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.display import board_svg
from naqala.plugins.base.agents import make_agent
from naqala.testing.browser import chromium

PICTURES = Path(__file__).resolve().parent.parent / "docs" / "pictures"

#: name → (expansions, players, seed, round to stop in)
SHOTS: dict[str, tuple[tuple[str, ...], int, int, int]] = {
    "base": ((), 4, 7, 5),
    "artisans": (("artisans",), 4, 7, 5),
    "artisans-djinns-5p": (("artisans", "djinns"), 5, 7, 5),
}


def position(
    rules: Rules, players: int, seed: int, stop_round: int, agent: str = "greedy"
) -> State:
    """The first moment of round ``stop_round`` or later when a meeple move of at least
    two drops is under way, in a game between AI players of kind ``agent``."""
    agents = [make_agent(agent, agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    while not state.is_over:
        turn = state.turn
        moved = turn is not None and len(turn.path) >= 2 and state.decision.stage != "drop"
        if state.round >= stop_round and moved:
            return state
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PICTURES, help="folder to write to")
    parser.add_argument("--only", choices=sorted(SHOTS), action="append", help="one picture")
    parser.add_argument(
        "--agent", default="greedy", help="the AI players' kind (random is quicker)"
    )
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        for name in args.only or list(SHOTS):
            expansions, players, seed, stop_round = SHOTS[name]
            rules = build_rules(expansions)
            state = position(rules, players, seed, stop_round, args.agent)
            svg = board_svg(rules, state, seat=0)
            picture = out / f"board-{name}.svg"
            picture.write_text(svg, encoding="utf-8")
            browser.get(picture.as_uri())
            element = browser.find_element("css selector", "svg")
            width, height = element.size["width"], element.size["height"]
            browser.set_window_size(width, height)
            # the window's outer size includes nothing in headless mode; check the viewport
            inner = browser.execute_script("return [window.innerWidth, window.innerHeight]")
            browser.set_window_size(2 * width - inner[0], 2 * height - inner[1])
            element.screenshot(str(out / f"board-{name}.png"))
            print(f"wrote {picture.with_suffix('.png')} ({width}×{height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
