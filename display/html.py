"""A recorded game as one self-contained HTML page: every position as an SVG picture,
stepped through with buttons, a slider, the move list or the arrow keys.

The page needs nothing but itself (no network, no CDN; it opens from a ``file://`` URL).
Positions are stored as the SVG fragments of :func:`naqala.display.svg.svg_parts`, each
distinct fragment once, so a whole game stays a few megabytes; a few lines of inline
JavaScript join a position's fragments when it is shown. Each step also shows the score
table of that position; the last one the final score lines and the winners.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from naqala.core.engine import Rules
from naqala.core.scoresheet import result_line, row_label, score_sheet
from naqala.core.state import NOBODY, State
from naqala.display.svg import last_move, seat_colour, seat_label, svg_parts

__all__ = ["replay_html", "score_table_html"]


def score_table_html(rules: Rules, state: State, seats: Sequence[str], final: bool) -> str:
    """The score lines of every player as an HTML table: a row per category (and per
    card that changed one), totals last; at the end the winners are starred."""
    rows, points = score_sheet(rules, state)
    winners = rules.winners(state) if final else ()
    scores = rules.scores(state)
    head = "".join(
        f'<th scope="col"><span class="seat" style="background:{seat_colour(p)}">'
        f"{seat_label(p)}</span>{' ★' if p in winners else ''}"
        f"<br><small>{escape(seats[p] if p < len(seats) else '?')}</small></th>"
        for p in range(len(state.players))
    )
    body = "".join(
        f'<tr><th scope="row">{escape(row_label(row))}</th>'
        + "".join(f"<td>{p.get(row, 0)}</td>" for p in points)
        + "</tr>"
        for row in rows
    )
    total = "".join(f"<td>{score}</td>" for score in scores)
    title = "Final scores" if final else "Scores so far"
    caption = title
    if final:
        caption += " — " + result_line(rules, state, seat_label).rstrip(".")
    return (
        f'<table class="scores{" final" if final else ""}"><caption>{escape(caption)}</caption>'
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody>"
        f'<tfoot><tr><th scope="row">total</th>{total}</tr></tfoot></table>'
    )


def replay_html(
    rules: Rules,
    states: Sequence[State],
    actions: Sequence[str],
    seats: Sequence[str],
    title: str,
) -> str:
    """The page of a game: ``states`` are the initial position and one per action of
    ``actions`` (as :func:`naqala.core.record.replay` gives them); ``seats`` name the
    players (``human``, ``ai:greedy``…). Everyone's coins and cards are shown: a replay
    is watched after the game."""
    if len(states) != len(actions) + 1:
        raise ValueError(
            f"{len(actions)} actions need {len(actions) + 1} states, not {len(states)}"
        )
    parts: dict[str, int] = {}
    tables: dict[str, int] = {}
    frames: list[list[int]] = []
    score_of: list[int] = []
    move: tuple[int, ...] = ()
    for index, state in enumerate(states):
        # a finished move stays highlighted until the next one starts, through the
        # bidding between rounds and at the end of the game
        move = last_move(state) or move
        fragments = svg_parts(rules, state, reveal=True, move=move)
        frames.append([parts.setdefault(f, len(parts)) for f in fragments])
        final = index == len(states) - 1 and state.is_over
        table = score_table_html(rules, state, seats, final)
        score_of.append(tables.setdefault(table, len(tables)))
    moves = []
    for number, (before, text) in enumerate(zip(states[:-1], actions, strict=True), start=1):
        player = before.decision.player
        who = seat_label(player) if player != NOBODY else "—"
        colour = seat_colour(player) if player != NOBODY else "#777777"
        moves.append(
            f'<li data-step="{number}" id="move-{number}">'
            f'<span class="round">R{before.round}</span>'
            f' <span class="seat" style="background:{colour}">{who}</span> '
            f"<code>{escape(text)}</code></li>"
        )
    data = {"parts": list(parts), "frames": frames, "tables": list(tables), "scoreOf": score_of}
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return (
        _PAGE.replace("@TITLE@", escape(title))
        .replace("@MOVES@", "".join(moves))
        .replace("@LAST@", str(len(states) - 1))
        .replace("@DATA@", payload)
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>@TITLE@</title>
<style>
body { margin: 0; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif;
  background: #f3eee3; color: #2b2b2b; }
header { padding: 10px 16px; background: #3b2f23; color: #fbf7ef; }
header h1 { font-size: 18px; margin: 0 0 8px; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.controls button { font: inherit; padding: 3px 10px; border-radius: 4px;
  border: 1px solid #8f846f; background: #fbf7ef; color: #2b2b2b; cursor: pointer; }
.controls input[type=range] { flex: 1; min-width: 160px; }
.controls input[type=number] { width: 5em; font: inherit; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#picture { flex: 1; min-width: 0; }
#board svg { width: 100%; height: auto; display: block; box-shadow: 0 1px 4px #0003; }
aside { width: 300px; flex-shrink: 0; }
#moves { max-height: 85vh; overflow-y: auto; margin: 0; padding: 4px 0;
  background: #fbf7ef; border: 1px solid #c9bfa9; border-radius: 4px; list-style: none; }
#moves li { padding: 1px 8px; cursor: pointer; white-space: nowrap; }
#moves li.current { background: #ffd8a8; font-weight: bold; }
#moves li.future { color: #9a917f; }
.round { color: #6b6357; font-size: 12px; display: inline-block; width: 2.6em; }
.seat { color: #fff; border-radius: 3px; padding: 0 4px; font-weight: bold; font-size: 12px; }
table.scores { border-collapse: collapse; margin-top: 12px; background: #fbf7ef; }
table.scores caption { text-align: left; font-weight: bold; padding: 4px 0; }
table.scores th, table.scores td { border: 1px solid #c9bfa9; padding: 2px 8px; }
table.scores td { min-width: 5em; }
table.scores tbody th { text-align: left; font-weight: normal; }
table.scores td { text-align: right; }
table.scores tfoot { font-weight: bold; }
table.final caption { color: #8a3b12; }
h2 { font-size: 15px; margin: 0 0 4px; }
</style>
</head>
<body>
<header>
<h1>@TITLE@</h1>
<div class="controls">
<button id="first" title="Start (Home)">« start</button>
<button id="back" title="Back (←)">◀ back</button>
<button id="forward" title="Step (→)">step ▶</button>
<button id="last" title="End (End)">end »</button>
<input id="slider" type="range" min="0" max="@LAST@" value="0" aria-label="step">
<label>step <input id="jump" type="number" min="0" max="@LAST@" value="0"></label>
<span id="counter" aria-live="polite"></span>
</div>
</header>
<main>
<div id="picture">
<div id="board"></div>
<div id="scores"></div>
</div>
<aside>
<h2>Moves</h2>
<ol id="moves">@MOVES@</ol>
</aside>
</main>
<script type="application/json" id="replay-data">@DATA@</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const last = data.frames.length - 1;
  const board = document.getElementById("board");
  const scores = document.getElementById("scores");
  const slider = document.getElementById("slider");
  const jump = document.getElementById("jump");
  const counter = document.getElementById("counter");
  const items = Array.from(document.querySelectorAll("#moves li"));
  let step = -1;
  function show(target) {
    const next = Math.max(0, Math.min(last, Number(target) || 0));
    if (next === step) { return; }
    step = next;
    board.innerHTML = data.frames[step].map(function (k) { return data.parts[k]; }).join("");
    scores.innerHTML = data.tables[data.scoreOf[step]];
    slider.value = String(step);
    jump.value = String(step);
    counter.textContent = "step " + step + " of " + last +
      (step === 0 ? " (start)" : "") + (step === last ? " (end)" : "");
    items.forEach(function (li, i) {
      li.classList.toggle("current", i + 1 === step);
      li.classList.toggle("future", i + 1 > step);
    });
    if (step > 0) { items[step - 1].scrollIntoView({block: "nearest"}); }
    document.body.dataset.step = String(step);
  }
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(slider.value); });
  jump.addEventListener("change", function () { show(jump.value); });
  items.forEach(function (li) {
    li.addEventListener("click", function () { show(li.dataset.step); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.target === jump) { return; }
    const moves = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1,
      PageDown: 10, PageUp: -10};
    if (event.key in moves) { show(step + moves[event.key]); }
    else if (event.key === "Home") { show(0); }
    else if (event.key === "End") { show(last); }
    else { return; }
    event.preventDefault();
  });
  show(0);
}());
</script>
</body>
</html>
"""
