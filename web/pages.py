"""The server's HTML pages: the lobby (a new game, or a saved one loaded) and a seat's
game page. A page is markup only: its style and scripts are static files
(``web/static``, served under ``/static/``), never inline, so that a
Content-Security-Policy can forbid inline scripts; nothing comes from the network. The
game page asks the JSON API for what it shows and listens to the game's event stream
(one per browser, shared by its tabs) to show each change without a reload.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from html import escape
from pathlib import Path

from naqala.web.lobby import Offer, ai_line, with_levels

__all__ = ["STATIC", "game_page", "lobby_page", "message_page", "static_address"]

#: the pages' style sheet and scripts, served as they are under ``/static/``
STATIC = Path(__file__).resolve().parent / "static"

#: the seats of the lobby's form, and what each holds at first
LOBBY_SEATS = ("human", "ai:greedy", "ai:greedy", "", "")


@functools.cache
def static_address(name: str) -> str:
    """The address of static file ``name`` with its content's digest (``?v=``): the
    browser keeps it for good, and a changed file has a new address."""
    version = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
    return f"/static/{name}?v={version}"


def _page(
    title: str, body: str, scripts: Sequence[str] = (), data: dict[str, str] | None = None
) -> str:
    """A whole document: ``scripts`` are static files, ``data`` the body's ``data-*``
    attributes (how a page tells its script what it needs, such as its API address)."""
    attributes = "".join(f' data-{name}="{escape(value)}"' for name, value in (data or {}).items())
    tags = "".join(
        f'<script src="{escape(static_address(name))}" defer></script>\n' for name in scripts
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{escape(static_address("naqala.css"))}">\n'
        f"{tags}</head>\n<body{attributes}>\n{body}\n</body>\n</html>\n"
    )


def message_page(status: int, reason: str) -> str:
    """A page for a refused page request (an unknown game or seat)."""
    body = (
        f"<header><h1>naqala · {status}</h1></header>"
        f'<main><p id="error">{escape(reason)}</p><p><a href="/">Start a new game</a></p></main>'
    )
    return _page(f"naqala · {status}", body)


def lobby_page(offered: Sequence[Offer], houses: Sequence[str], agents: Sequence[str]) -> str:
    """The first page: seats (each AI player with a line on how it plays), the boxes by
    their names apart from the installed house rules, house-rule files, seed; and loading
    a record."""
    kinds = [("human", "human")] + [
        (f"ai:{name}", f"ai:{name}") for name in with_levels(list(agents))
    ]
    seats = []
    for number, chosen in enumerate(LOBBY_SEATS, start=1):
        choices = [("", "nobody")] if number > 1 else []
        choices += kinds
        options = "".join(
            f'<option value="{escape(value)}"{" selected" if value == chosen else ""}>'
            f"{escape(text)}</option>"
            for value, text in choices
        )
        seats.append(
            f'<label>P{number} <select class="seat-kind" id="seat-{number}">'
            f"{options}</select></label> "
        )
    levels = "".join(
        f"<li><b>ai:{escape(name)}</b> — {escape(ai_line(name))}</li>"
        for name in with_levels(list(agents))
    )

    def box(offer: Offer) -> str:
        return (
            f'<label class="offer"><input type="checkbox" class="expansion" '
            f'value="{escape(offer.name)}"> <b>{escape(offer.title)}</b>'
            f'<span class="adds">{escape(offer.adds)}</span></label>'
        )

    boxes = "".join(box(offer) for offer in offered if not offer.house) or "none installed"
    rules = "".join(box(offer) for offer in offered if offer.house) or "none installed"
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
<fieldset><legend>Seats</legend>{"".join(seats)}
<ul id="levels" class="levels">{levels}</ul></fieldset>
<fieldset id="boxes"><legend>Expansions (the boxes)</legend>{boxes}</fieldset>
<fieldset id="house-rules"><legend>House rules</legend>{rules}</fieldset>
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
    return _page("naqala · new game", body, ("lobby.js",))


def game_page(game_id: str, token: str, seat: int) -> str:
    """A seat's page of a game; what it shows comes from the API, for this seat only."""
    api = f"/api/games/{game_id}/{token}"
    body = f"""<header><h1>naqala · game {escape(game_id)} · you are P{seat + 1}</h1>
<div class="controls">
<button id="undo" type="button">undo</button>
<button id="autoplay" type="button">play for me</button>
<label class="tell" title="a short tone, and a notification when this tab is hidden"><input
type="checkbox" id="tell"> tell me my turn</label>
<a id="save" href="{escape(api)}/record" download>save (download the record)</a> ·
<a href="/">new game</a>
</div></header>
<div id="bar">
<div id="status" aria-live="polite"></div>
<div id="holding"></div>
<button id="fit" type="button" aria-pressed="false">whole board</button>
<details id="score"><summary><span class="what">Score</span> <span id="score-line"></span>
</summary><table class="scores" id="score-lines"></table>
<p id="score-note"></p></details>
</div>
<section id="final" hidden><h2 id="final-words"></h2><p id="final-totals"></p>
<div id="scores"></div></section>
<main class="game" id="main">
<section id="table">
<div id="board" class="scroller"></div>
<div id="tableau"></div>
<div id="players"></div>
</section>
<aside id="side">
<div id="answer"><div id="message" role="alert"></div>
<div id="choices"></div></div>
<h2>Your options</h2>
<ol id="options"></ol>
<form id="typed"><label>or type an action
<input id="action" autocomplete="off" placeholder="e.g. pick c3"></label>
<button type="submit">play</button></form>
<div id="preview-box" hidden><h2>Where this hand can end</h2>
<p class="hint">the meeples each end collects, ⚑ where it takes the tile, and what follows</p>
<ul id="preview"></ul></div>
<div id="others-box" hidden><h2>Since your last decision</h2><ul id="others"></ul></div>
<h2>Your cards</h2><ul id="mine" class="cards"></ul>
<h2>Cards in play</h2><ul id="in-play" class="cards"></ul>
<h2>Seats</h2><ul id="seats"></ul>
<h2>Latest moves</h2><ul id="log"></ul>
<details id="glossary-box"><summary>What the tiles and pieces do</summary>
<ul id="glossary"></ul></details>
</aside>
</main>
<button id="sheet-toggle" type="button" aria-controls="options" aria-expanded="false"
hidden></button>
<div id="card-sheet" role="dialog" aria-modal="false" aria-labelledby="card-name" hidden>
<button id="card-close" type="button" aria-label="close">×</button>
<h3 id="card-name"></h3><p id="card-facts"></p><p id="card-effect"></p>
<div id="card-options"></div>
</div>"""
    scripts = ("stream.js", "cards.js", "board.js", "game.js")
    return _page(f"naqala · P{seat + 1}", body, scripts, {"api": api})
