"""The server's HTML pages: the lobby (a new game, or a saved one loaded) and a seat's
game page. Each is one self-contained document (inline style and script, nothing from
the network); the game page asks the JSON API for what it shows and listens to the
game's event stream to show each change without a reload.
"""

from __future__ import annotations

import json
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


def _page(title: str, body: str, script: str = "", style: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}{style}</style>\n</head>\n"
        f'<body>\n{body}\n<script>\n"use strict";\n{script}</script>\n</body>\n</html>\n'
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
    return _page("naqala · new game", body, _LOBBY_SCRIPT)


_LOBBY_SCRIPT = """
const message = document.getElementById("message");
function say(text, bad) {
  message.textContent = text;
  message.className = bad ? "refused" : "ok";
}
function opened(data) {
  if (data.seats.length === 1) { window.location.href = data.seats[0].url; return; }
  const links = document.getElementById("links");
  links.innerHTML = "<p>Each person opens their own link (keep it secret: it shows that " +
    "seat's coins and cards):</p>";
  const list = document.createElement("ul");
  data.seats.forEach(function (seat) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = seat.url;
    link.className = "seat-link";
    link.textContent = seat.label + ": " + window.location.origin + seat.url;
    item.appendChild(link);
    list.appendChild(item);
  });
  links.appendChild(list);
  say("The game is ready.", false);
}
async function send(path, body) {
  const answer = await fetch(path, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: body});
  const data = await answer.json().catch(function () { return {error: answer.statusText}; });
  if (!answer.ok) { say(data.error || ("refused: " + answer.status), true); return; }
  opened(data);
}
document.getElementById("new-game").addEventListener("submit", function (event) {
  event.preventDefault();
  const seats = Array.from(document.querySelectorAll("select.seat"))
    .map(function (s) { return s.value; }).filter(function (v) { return v !== ""; });
  const checked = function (cls) {
    return Array.from(document.querySelectorAll("input." + cls + ":checked"))
      .map(function (c) { return c.value; });
  };
  const seed = document.getElementById("seed").value;
  send("/api/games", JSON.stringify({seats: seats, expansions: checked("expansion"),
    house_rules: checked("house"), seed: seed === "" ? null : Number(seed)}));
});
document.getElementById("load").addEventListener("click", async function () {
  const file = document.getElementById("record-file").files[0];
  if (!file) { say("choose a record file first", true); return; }
  send("/api/load", await file.text());
});
"""


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
    script = f"const API = {json.dumps(api)};\n" + _GAME_SCRIPT
    return _page(f"naqala · P{seat + 1}", body, script, _GAME_STYLE)


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

_GAME_SCRIPT = """
const board = document.getElementById("board");
const message = document.getElementById("message");
const choices = document.getElementById("choices");
let version = -1;
function say(text, bad) {
  message.textContent = text;
  message.className = text ? (bad ? "refused" : "ok") : "";
}
function button(option, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.dataset.action = option.action;
  b.textContent = option.label;
  b.addEventListener("click", function () { act(option.action); });
  return b;
}
function fill(list, lines) {
  list.innerHTML = "";
  lines.forEach(function (line) {
    const item = document.createElement("li");
    if (typeof line === "string") { item.textContent = line; } else { item.appendChild(line); }
    list.appendChild(item);
  });
}
function render(page) {
  version = page.version;
  board.innerHTML = page.svg;
  const targets = new Set(page.targets);
  board.querySelectorAll("g.tile").forEach(function (g) {
    g.classList.toggle("target", targets.has(g.id.slice(5)));
  });
  board.querySelectorAll("g[data-pick]").forEach(function (g) {
    g.classList.toggle("target", targets.has(g.dataset.pick.toLowerCase()));
  });
  document.getElementById("status").textContent = "Round " + page.round + " · " + page.status;
  fill(document.getElementById("options"),
    page.options.map(function (o) { return button(o, "option"); }));
  fill(document.getElementById("seats"), page.seats);
  const log = document.getElementById("log");
  fill(log, page.log);
  log.scrollTop = log.scrollHeight;
  document.getElementById("scores").innerHTML = page.scores;
  document.getElementById("undo").disabled = !page.yours;
  const auto = document.getElementById("autoplay");
  auto.textContent = page.autoplay ? "stop playing for me" : "play for me";
  auto.dataset.on = page.autoplay ? "1" : "";
  auto.disabled = page.over;
  if (!page.yours) { choices.innerHTML = ""; }
  document.body.dataset.version = String(page.version);
  document.body.dataset.yours = page.yours ? "1" : "";
  document.body.dataset.over = page.over ? "1" : "";
}
let loading = false;
let pending = null;
async function refresh(announced) {
  // one request at a time: while one is out, only the latest announcement waits
  if (loading) { pending = announced; return; }
  loading = true;
  try { await load(announced); } finally { loading = false; }
  if (pending !== null) { const next = pending; pending = null; refresh(next); }
}
async function load(announced) {
  const answer = await fetch(API);
  if (answer.ok) {
    const page = await answer.json();
    // answers may arrive out of order: show only a newer page, or the one the stream
    // announced (a restarted server counts its versions anew)
    const wanted = page.version > version || page.version === announced;
    if (wanted && page.version !== version) { render(page); }
    return;
  }
  const data = await answer.json().catch(function () { return {}; });
  say(data.error || ("the game cannot be shown: " + answer.status), true);
}
async function call(path, body) {
  const answer = await fetch(API + path, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await answer.json().catch(function () { return {error: answer.statusText}; });
  if (!answer.ok) { say("refused: " + (data.error || answer.status), true); return null; }
  if (data.page && data.page.version > version) { render(data.page); }
  return data;
}
async function act(action) {
  choices.innerHTML = "";
  const data = await call("/act", {action: action});
  if (data) { say("played " + data.played.join(", "), false); }
}
async function click(target) {
  choices.innerHTML = "";
  const data = await call("/click", {target: target});
  if (!data) { return; }
  if (data.choices) {
    say("", false);
    const title = document.createElement("p");
    title.textContent = target + ": choose one";
    choices.appendChild(title);
    data.choices.forEach(function (o) {
      choices.appendChild(button(o, "choice"));
      choices.appendChild(document.createElement("br"));
    });
  } else {
    say("played " + data.played.join(", "), false);
  }
}
board.addEventListener("click", function (event) {
  const g = event.target.closest("g.tile, g[data-pick]");
  if (!g) { return; }
  click(g.classList.contains("tile") ? g.id.slice(5) : g.dataset.pick);
});
document.getElementById("undo").addEventListener("click", async function () {
  if (await call("/undo", {})) { say("undone: back to your previous decision", false); }
});
document.getElementById("autoplay").addEventListener("click", function () {
  call("/autoplay", {on: !this.dataset.on});
});
document.getElementById("typed").addEventListener("submit", function (event) {
  event.preventDefault();
  const field = document.getElementById("action");
  if (field.value.trim()) { act(field.value.trim()); field.value = ""; }
});
const stream = new EventSource(API + "/events");
stream.onmessage = function (event) {
  const announced = Number(event.data);
  if (announced !== version) { refresh(announced); }
};
stream.addEventListener("gone", function () {
  stream.close();
  say("this game was deleted", true);
});
refresh(-1);
"""
