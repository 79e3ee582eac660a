"""The server's HTML pages: the lobby (a new game, or a saved one loaded) and a seat's
game page. Each is one document with its style inline and its script in a static file of
this server (``web/static/``, served at ``/static/``): the Content-Security-Policy of
``web/app.py`` runs no inline script, so nothing injected into a page could run. The game
page asks the JSON API for what it shows and listens to the game's event stream to show
each change without a reload.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["game_page", "lobby_page", "message_page"]

#: the seats of the lobby's form, and what each holds at first
LOBBY_SEATS = ("human", "ai:greedy", "ai:greedy", "", "")

_STYLE = """
body { margin: 0; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif;
  background: #f3eee3; color: #2b2b2b; }
header { padding: 10px 16px; background: #3b2f23; color: #fbf7ef; }
header h1 { font-size: 18px; margin: 0 0 6px; }
header a { color: #ffd8a8; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
button, select, input { font: inherit; }
button { padding: 3px 10px; border-radius: 4px; border: 1px solid #8f846f;
  background: #fbf7ef; color: #2b2b2b; cursor: pointer; }
button:disabled { color: #9a917f; cursor: default; }
fieldset { border: 1px solid #c9bfa9; border-radius: 4px; margin: 0 0 12px; background: #fbf7ef; }
#message { min-height: 1.4em; padding: 4px 8px; border-radius: 4px; }
#message.refused { background: #f9d6cf; color: #7a1d0c; font-weight: bold; }
#message.ok { background: #e0efd4; }
table.scores { border-collapse: collapse; margin: 12px 0; background: #fbf7ef; }
table.scores caption { text-align: left; font-weight: bold; padding: 4px 0; color: #8a3b12; }
table.scores th, table.scores td { border: 1px solid #c9bfa9; padding: 2px 8px; }
table.scores td { text-align: right; min-width: 4em; }
table.scores tbody th { text-align: left; font-weight: normal; }
table.scores tfoot { font-weight: bold; }
.seat { color: #fff; border-radius: 3px; padding: 0 4px; font-weight: bold; font-size: 12px; }
"""


def _page(title: str, body: str, script: str = "", style: str = "", data: str = "") -> str:
    """A page; ``script`` names its file in ``web/static/`` and ``data`` is the body's
    attributes that the script reads (its only input from the page)."""
    loads = f'<script src="/static/{escape(script)}"></script>\n' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}{style}</style>\n</head>\n"
        f"<body{data}>\n{body}\n{loads}</body>\n</html>\n"
    )


def message_page(status: int, reason: str) -> str:
    """A page for a refused page request (an unknown game or seat)."""
    body = (
        f"<header><h1>naqala · {status}</h1></header>"
        f'<main><p id="error">{escape(reason)}</p><p><a href="/">Start a new game</a></p></main>'
    )
    return _page(f"naqala · {status}", body)


def lobby_page(expansions: Sequence[str], houses: Sequence[str], agents: Sequence[str]) -> str:
    """The first page: seats, expansions, house-rule files, seed; and loading a record."""
    kinds = ["human", *(f"ai:{name}" for name in agents)]
    seats = []
    for number, chosen in enumerate(LOBBY_SEATS, start=1):
        choices = [("", "nobody")] if number > 2 else []
        choices += [(kind, kind) for kind in kinds]
        options = "".join(
            f'<option value="{escape(value)}"{" selected" if value == chosen else ""}>'
            f"{escape(text)}</option>"
            for value, text in choices
        )
        seats.append(
            f'<label>P{number} <select class="seat" id="seat-{number}">{options}</select></label> '
        )
    boxes = "".join(
        f'<label><input type="checkbox" class="expansion" value="{escape(name)}"> '
        f"{escape(name)}</label><br>"
        for name in expansions
    )
    house_boxes = (
        "".join(
            f'<label><input type="checkbox" class="house" value="{escape(name)}"> '
            f"{escape(name)}</label><br>"
            for name in houses
        )
        or "none (start the server with --house-rules FILE to offer one)"
    )
    body = f"""<header><h1>naqala · Five Tribes in the browser</h1></header>
<main><div>
<form id="new-game">
<fieldset><legend>Seats</legend>{"".join(seats)}</fieldset>
<fieldset><legend>Expansions and installed house rules</legend>{boxes}</fieldset>
<fieldset><legend>House-rule files of this server</legend>{house_boxes}</fieldset>
<fieldset><legend>Seed</legend>
<label>seed <input id="seed" type="number" min="0" placeholder="random"></label></fieldset>
<button id="start" type="submit">Start the game</button>
</form>
<fieldset><legend>Load a saved game (a record downloaded with “save”)</legend>
<input id="record-file" type="file" accept=".json,application/json">
<button id="load" type="button">Load and play on</button></fieldset>
<div id="message" role="alert"></div>
<div id="links"></div>
</div></main>"""
    return _page("naqala · new game", body, "lobby.js")


def game_page(game_id: str, token: str, seat: int) -> str:
    """A seat's page of a game; what it shows comes from the API, for this seat only."""
    api = f"/api/games/{game_id}/{token}"
    body = f"""<header><h1>naqala · game {escape(game_id)} · you are P{seat + 1}</h1>
<div id="status" aria-live="polite"></div>
<div class="controls">
<button id="undo" type="button">undo</button>
<button id="autoplay" type="button">play for me</button>
<a id="save" href="{escape(api)}/record" download>save (download the record)</a> ·
<a href="/">new game</a>
</div></header>
<main>
<div id="picture"><div id="board"></div><div id="scores"></div></div>
<aside>
<div id="message" role="alert"></div>
<div id="choices"></div>
<h2>Your options</h2>
<ol id="options"></ol>
<form id="typed"><label>or type an action
<input id="action" autocomplete="off" placeholder="e.g. pick c3"></label>
<button type="submit">play</button></form>
<h2>Seats</h2><ul id="seats"></ul>
<h2>Latest moves</h2><ul id="log"></ul>
</aside>
</main>"""
    data = f' data-api="{escape(api)}"'
    return _page(f"naqala · P{seat + 1}", body, "game.js", _GAME_STYLE, data)


_GAME_STYLE = """
#picture { flex: 1; min-width: 0; }
#board svg { width: 100%; height: auto; display: block; box-shadow: 0 1px 4px #0003; }
#board g.tile, #board g.spot, #board g.card { cursor: pointer; }
#board g.target > rect:first-of-type { stroke: #ff8c1a; stroke-width: 4; }
#board g.tile:hover > rect:first-of-type { stroke: #3b2f23; stroke-width: 4; }
aside { width: 340px; flex-shrink: 0; }
aside h2 { font-size: 15px; margin: 12px 0 4px; }
#options { max-height: 40vh; overflow-y: auto; padding-left: 2.4em; margin: 0; }
#options button, #choices button { margin: 1px 0; text-align: left; }
#choices:not(:empty) { padding: 6px; border: 2px solid #ff8c1a; border-radius: 4px;
  background: #fff4e5; margin: 6px 0; }
#log { max-height: 25vh; overflow-y: auto; font-size: 12px; padding-left: 0; margin: 0;
  list-style: none; }
.controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
"""
