"""Bytes a game page receives over one game of ``naqala serve``, before and after light
updates (``web/updates.py``): a page asks for its seat's page at every change of the
game; it used to get the whole JSON (picture and card catalogue included), uncompressed;
it now names the picture and catalogue it holds, gets only the picture's new pieces and a
changed catalogue, gzipped. Counted in one process from the server's own answers (the
JSON starlette sends, gzipped as its middleware does), one answer per version::

    python bench/web_bytes.py                      # the Artisans and Djinns, 3 seats
    python bench/web_bytes.py -x djinns --seed 5 --seats 4
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
from pathlib import Path

from starlette.responses import JSONResponse

from naqala.web.pages import STATIC
from naqala.web.store import Store

#: the gzip level of starlette's GZipMiddleware
LEVEL = 9


def _sent(content: object, zipped: bool) -> int:
    body = JSONResponse(content).body
    return len(gzip.compress(body, LEVEL)) if zipped else len(body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-x", "--expansion", action="append", default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args(argv)
    expansions = args.expansion if args.expansion is not None else ["artisans", "djinns"]
    seats = ["human"] + ["ai:greedy"] * (args.seats - 1)
    with tempfile.TemporaryDirectory() as folder:
        game = Store(Path(folder), [], 5).create(seats, expansions, [], args.seed)
        game.set_autoplay(0, True)
        before = after = updates = 0
        held = {"svg": "", "cards": ""}
        while not game.state.is_over:
            deciding = game.next_player()
            assert deciding is not None
            options = game.rules.legal_actions(game.state)
            game.play(deciding[1].choose(game.rules, game.state, options))
            updates += 1
            before += _sent(game.page(0), zipped=False)
            light = game.update(0, held["svg"], held["cards"])
            after += _sent(light, zipped=True)
            held = {"svg": light["svg_hash"], "cards": light["cards_hash"]}
    files = [path.read_bytes() for path in sorted(STATIC.iterdir()) if path.is_file()]
    static_raw = sum(len(body) for body in files)
    static_zipped = sum(len(gzip.compress(body, LEVEL)) for body in files)
    boxes = " + ".join(expansions) or "base"
    print(f"{boxes}, {args.seats} seats, seed {args.seed}: {updates} updates")
    print(f"  before: {before:>11,} bytes ({before // updates:,} a update), whole JSON, plain")
    print(f"  after:  {after:>11,} bytes ({after // updates:,} a update), light and gzipped")
    print(f"  after / before: {after / before:.1%}")
    print(
        f"  static files: {static_raw:,} bytes plain at every page load before; "
        f"{static_zipped:,} gzipped once per browser after"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
