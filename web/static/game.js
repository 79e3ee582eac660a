"use strict";
// A seat's game page: shows what the API sends for this seat, plays what is clicked,
// tapped or typed, and follows the game's changes (stream.js).
const API = document.body.dataset.api;
const board = document.getElementById("board");
const message = document.getElementById("message");
const choices = document.getElementById("choices");
const answer = document.getElementById("answer");
let version = -1;
const TITLE = document.title;
// the answer to a tap or a button (a refusal, "undone", the colours to choose from) is
// seen where the eye is: when its place beside or under the board is out of sight, it
// floats at the bottom of the screen until it is answered or cleared
function inSight() {
  answer.classList.remove("afloat");
  if (!answer.textContent.trim()) { return; }
  const box = answer.getBoundingClientRect();
  const bar = document.getElementById("bar");
  const top = bar ? bar.getBoundingClientRect().bottom : 0;
  if (box.top < top || box.bottom > window.innerHeight) { answer.classList.add("afloat"); }
}
function say(text, bad) {
  message.textContent = text;
  message.className = text ? (bad ? "refused" : "ok") : "";
  inSight();
}
function button(option, cls) {
  const b = optionButton(option, cls, function () { act(option.action); });
  // an option about a card: its whole text on a hover (the words give its first sentence)
  const card = Array.from(optionNames(option.action)).find(function (name) {
    return cardSheet.known(name);
  });
  if (card) {
    const facts = cardSheet.catalogue[card];
    b.title = facts.name + " (" + cardSheet.facts(facts) + "): " + facts.effect;
  }
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
function showCards(page) {
  const mine = document.getElementById("mine");
  mine.innerHTML = "";
  page.mine.forEach(function (id) {
    const card = page.cards[id];
    const item = document.createElement("li");
    item.appendChild(cardSheet.chip(id, ""));
    if (card) {
      const power = document.createElement("p");
      power.className = "power";
      power.textContent = cardSheet.facts(card) + ": " + card.effect;
      item.appendChild(power);
    }
    mine.appendChild(item);
  });
  if (page.mine.length === 0) { fill(mine, ["none yet"]); }
  const inPlay = document.getElementById("in-play");
  fill(inPlay, page.in_play.map(function (held) { return cardSheet.chip(held.card, held.where); }));
  if (page.in_play.length === 0) { fill(inPlay, ["none"]); }
}
// the score in sight: each player's points as this seat may see them, the lines a tap
// away (a <details>, which fingers and keyboards open as well as a mouse)
function showScore(score) {
  const box = document.getElementById("score");
  box.hidden = score === null;
  if (score === null) { return; }
  document.getElementById("score-line").textContent = score.players.map(function (p) {
    return p.label + (p.you ? " (you) " : " ") + p.total + (p.full ? "" : "+");
  }).join(" · ");
  const table = document.getElementById("score-lines");
  table.innerHTML = "";
  const head = table.createTHead().insertRow();
  head.appendChild(document.createElement("th"));
  score.players.forEach(function (p) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = p.label + (p.you ? " (you)" : "");
    head.appendChild(th);
  });
  const lines = table.createTBody();
  score.rows.forEach(function (row) {
    const tr = lines.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row[0];
    tr.appendChild(th);
    row[1].forEach(function (points) { tr.insertCell().textContent = String(points); });
  });
  const foot = table.createTFoot().insertRow();
  const total = document.createElement("th");
  total.scope = "row";
  total.textContent = "total";
  foot.appendChild(total);
  score.players.forEach(function (p) { foot.insertCell().textContent = String(p.total); });
  document.getElementById("score-note").textContent = score.players
    .filter(function (p) { return !p.full; })
    .map(function (p) { return p.label + " + " + p.uncounted.join(", ") + " (not shown to you)"; })
    .join("; ");
}
// asked for: a short tone when the turn comes back, and a notification if the tab is hidden
// (both made here: no sound file, nothing from the network)
const tell = document.getElementById("tell");
tell.checked = localStorage.getItem("naqala-tell") === "1";
tell.addEventListener("change", function () {
  localStorage.setItem("naqala-tell", tell.checked ? "1" : "");
  if (tell.checked && "Notification" in window && Notification.permission === "default") {
    Notification.requestPermission();
  }
});
function tellTurn(page) {
  try {
    const context = new AudioContext();
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.frequency.value = 660;
    volume.gain.value = 0.08;
    tone.connect(volume).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.18);
  } catch (error) { /* no sound here: the title still says it */ }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("naqala: your turn", {body: page.status});
  }
}
// what tells a person the game moved while they looked elsewhere: the tab's title, a
// stale refusal gone, another page's undo said
let wasYours = null;
function cues(page, previous) {
  document.title = (page.yours ? "● your turn · " : page.over ? "game over · " : "") + TITLE;
  const turnCame = page.yours && wasYours === false;
  wasYours = page.yours;
  if (turnCame && tell.checked) { tellTurn(page); }
  if (previous < 0 || page.version <= previous) { return; }
  if (message.className === "refused") { say("", false); }
  if (page.undo && page.undo.version > previous && page.undo.by !== page.you) {
    say(page.undo.words, false);
  }
}
// the other players' turns since this seat last decided, drawn over the board (each path
// in its player's colour, the tiles taken framed) and said in words, until it decides
function drawOthers(turns) {
  const whole = board.querySelector("svg");
  const list = document.getElementById("others");
  list.innerHTML = "";
  document.getElementById("others-box").hidden = turns.length === 0;
  turns.forEach(function (turn, number) {
    const item = document.createElement("li");
    const line = document.createElement("span");
    const moved = turn.path.length ? ": moved " + turn.path.join(" → ") :
      ": " + turn.words.join("; ");
    const took = turn.took.length ? ", took " + turn.took.join(", ") : "";
    line.textContent = turn.by + moved + took;
    item.appendChild(line);
    const steps = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = turn.words.length + " action" + (turn.words.length === 1 ? "" : "s");
    steps.appendChild(summary);
    const each = document.createElement("ol");
    turn.words.forEach(function (words) {
      const step = document.createElement("li");
      step.textContent = words;
      each.appendChild(step);
    });
    steps.appendChild(stepper(whole, turn, number, each));
    steps.appendChild(each);
    item.appendChild(steps);
    list.appendChild(item);
    if (whole && turn.path.length) { whole.appendChild(othersMove(whole, turn, number)); }
  });
}
// a step-through of another player's turn: each action in turn, the path drawn as far
// as that action took it (a pick or a drop is a step of the path)
function stepper(whole, turn, number, each) {
  const box = document.createElement("div");
  box.className = "stepper";
  let at = -1;
  const back = document.createElement("button");
  const on = document.createElement("button");
  const where = document.createElement("span");
  back.type = on.type = "button";
  back.className = "step-back";
  on.className = "step-on";
  back.textContent = "◀";
  on.textContent = "▶";
  back.setAttribute("aria-label", "the action before");
  on.setAttribute("aria-label", "the next action");
  where.className = "step-at";
  where.textContent = "step through";
  function show() {
    Array.from(each.children).forEach(function (li, i) { li.classList.toggle("current", i === at); });
    where.textContent = "action " + (at + 1) + " of " + turn.words.length;
    const moved = turn.words.slice(0, at + 1).filter(function (w) {
      return /\((pick|drop) /.test(w);
    }).length;
    const old = whole && whole.querySelector('g.others-move[data-turn="' + number + '"]');
    if (old) { old.remove(); }
    if (whole && moved > 0) {
      const part = Object.assign({}, turn, {path: turn.path.slice(0, moved),
        took: moved >= turn.path.length ? turn.took : []});
      whole.appendChild(othersMove(whole, part, number));
    }
  }
  back.addEventListener("click", function () { at = Math.max(at - 1, 0); show(); });
  on.addEventListener("click", function () { at = Math.min(at + 1, turn.words.length - 1); show(); });
  box.appendChild(back);
  box.appendChild(where);
  box.appendChild(on);
  return box;
}
function tileCentre(whole, name) {
  const ground = whole.querySelector("#tile-" + name + " > rect");
  if (!ground) { return null; }
  const box = ground.getBBox();
  return {x: box.x + box.width / 2, y: box.y + box.height / 2, box: box};
}
function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
  return element;
}
function othersMove(whole, turn, number) {
  const g = svgElement("g", {"class": "others-move", "data-by": turn.by, "data-turn": number});
  const title = svgElement("title", {});
  title.textContent = turn.by + "'s move " + turn.path.join("→");
  g.appendChild(title);
  const points = turn.path.map(function (name) { return tileCentre(whole, name); })
    .filter(function (p) { return p !== null; });
  g.appendChild(svgElement("polyline", {points: points.map(function (p) {
    return p.x + "," + p.y; }).join(" "), fill: "none", stroke: turn.colour, "stroke-width": 5,
    "stroke-dasharray": "12 7", "stroke-linecap": "round", "stroke-linejoin": "round",
    "stroke-opacity": 0.85}));
  const start = points[0], end = points[points.length - 1];
  g.appendChild(svgElement("circle", {cx: start.x, cy: start.y, r: 8, fill: "#ffffff",
    stroke: turn.colour, "stroke-width": 3}));
  turn.took.forEach(function (name) {
    const taken = tileCentre(whole, name);
    if (taken) {
      g.appendChild(svgElement("rect", {x: taken.box.x + 5, y: taken.box.y + 5,
        width: taken.box.width - 10, height: taken.box.height - 10, fill: "none",
        stroke: turn.colour, "stroke-width": 4, "stroke-dasharray": "4 4"}));
    }
  });
  const label = svgElement("text", {x: end.x + 10, y: end.y - 10, fill: "#ffffff",
    stroke: turn.colour, "stroke-width": 4, "paint-order": "stroke", "font-size": 15,
    "font-weight": "bold"});
  label.textContent = turn.by;
  g.appendChild(label);
  return g;
}
// where the hand in play can end: said beside the options, and marked on each end tile
// (the colours it collects there, ⚑ when the tile is taken)
function showPreview(ends) {
  document.getElementById("preview-box").hidden = ends.length === 0;
  fill(document.getElementById("preview"), ends.map(function (end) { return end.words; }));
  const whole = board.querySelector("svg");
  if (!whole) { return; }
  const byTile = {};
  ends.forEach(function (end) { (byTile[end.end] = byTile[end.end] || []).push(end); });
  Object.keys(byTile).forEach(function (name) {
    const here = tileCentre(whole, name);
    if (!here) { return; }
    const mark = svgElement("g", {"class": "end-mark", "data-tile": name});
    const text = byTile[name].map(function (end) {
      return end.taken + end.letter + (end.captures ? "⚑" : "");
    }).join(" ");
    const width = 12 + 8.5 * text.length;
    mark.appendChild(svgElement("rect", {x: here.x - width / 2, y: here.box.y + here.box.height - 30,
      width: width, height: 20, rx: 10, fill: "#3b2f23", "fill-opacity": 0.88}));
    const label = svgElement("text", {x: here.x, y: here.box.y + here.box.height - 15.5,
      "text-anchor": "middle", fill: "#ffffff", "font-size": 13, "font-weight": "bold"});
    label.textContent = text;
    mark.appendChild(label);
    whole.appendChild(mark);
  });
}
// the end, at the top of the page: who won, every player's points, then the score table
function showFinal(page, previous) {
  const box = document.getElementById("final");
  const shown = !box.hidden;
  box.hidden = !page.final;
  document.getElementById("scores").innerHTML = page.scores;
  if (!page.final) { return; }
  document.getElementById("final-words").textContent = "The game is over: " + page.final.words;
  document.getElementById("final-totals").textContent = page.final.totals.map(function (t) {
    return t[0] + (t[0] === page.you ? " (you)" : "") + " " + t[1];
  }).join(" · ");
  if (!shown && previous >= 0) { window.scrollTo(0, 0); }  // it just ended: look up
}
function render(page) {
  const previous = version;
  version = page.version;
  cues(page, previous);
  drawPicture(page.svg, board, document.getElementById("tableau"),
    document.getElementById("players"));
  drawOthers(page.others);
  showPreview(page.preview);
  const targets = new Set(page.targets);
  document.querySelectorAll("#board g.tile").forEach(function (g) {
    g.classList.toggle("target", targets.has(g.id.slice(5)));
  });
  document.querySelectorAll("#table g[data-pick]").forEach(function (g) {
    const pick = g.dataset.pick.toLowerCase();
    g.classList.toggle("target", targets.has(pick));
    if (Object.prototype.hasOwnProperty.call(page.cards, pick)) {
      g.classList.add("has-power");
      cardSheet.follow(g, pick);
    }
  });
  // the area beside the board (the solo mode's Sultan Yazid) explains itself as well
  document.querySelectorAll("#players g.aside").forEach(function (g) {
    if (Object.prototype.hasOwnProperty.call(page.cards, "aside")) {
      g.classList.add("has-power");
      cardSheet.follow(g, "aside");
    }
  });
  // a player's panel lists, on a tap, the cards of theirs this seat may see
  document.querySelectorAll("#players g.player").forEach(function (g) {
    const label = "P" + g.id.slice(7);
    const ids = label === page.you ? page.mine : page.in_play
      .filter(function (held) { return held.where === label; })
      .map(function (held) { return held.card; });
    g.classList.add("has-power");
    g.addEventListener("click", function (event) {
      event.stopPropagation();
      cardSheet.showHand((label === page.you ? "Your" : label + "'s") + " cards", ids);
    });
  });
  reachable();
  cardSheet.update(page.cards, page.options);
  document.getElementById("status").textContent = "Round " + page.round + " · " + page.status;
  // a game an AI seat could not go on with: its one-line reason, where refusals are said
  if (page.stopped) { say("The game cannot continue: " + page.stopped, true); }
  fill(document.getElementById("options"),
    page.options.map(function (o) { return button(o, "option"); }));
  optionsSheet(page);
  showCards(page);
  fill(document.getElementById("seats"), page.seats);
  fill(document.getElementById("glossary"), page.glossary);
  const log = document.getElementById("log");
  fill(log, page.log);
  log.scrollTop = log.scrollHeight;
  document.getElementById("holding").textContent = page.over ? "" : "You: " + page.holding;
  showFinal(page, previous);
  showScore(page.score);
  document.getElementById("undo").disabled = !page.yours;
  const auto = document.getElementById("autoplay");
  auto.textContent = page.autoplay ? "stop playing for me" : "play for me";
  auto.dataset.on = page.autoplay ? "1" : "";
  auto.hidden = page.over;  // nobody plays for anyone once the game is over
  if (!page.yours) { choices.innerHTML = ""; inSight(); }
  document.body.dataset.version = String(page.version);
  document.body.dataset.yours = page.yours ? "1" : "";
  document.body.dataset.over = page.over ? "1" : "";
}
// a light page made whole with what the page holds, then shown
function show(page, basis) {
  held = whole(page, basis);
  render(page);
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
// light updates (web/updates.py): the page names the picture and the catalogue it holds
// and gets the picture's new pieces only, the catalogue only when it changed
let held = {parts: [], svg: "", cards: "", catalogue: {}};
// (each answer is made whole with what was held when it was asked for: answers may cross)
function lightQuery(basis) {
  return "?light=1&svg=" + basis.svg + "&cards=" + basis.cards;
}
function whole(page, basis) {
  const parts = page.svg_parts.map(function (part) {
    return typeof part === "number" ? basis.parts[part] : part;
  });
  if (page.cards === null) { page.cards = basis.catalogue; }
  page.svg = parts.join("");
  return {parts: parts, svg: page.svg_hash, cards: page.cards_hash, catalogue: page.cards};
}
async function load(announced) {
  const basis = held;
  const answer = await fetch(API + lightQuery(basis));
  if (answer.ok) {
    const page = await answer.json();
    // answers may arrive out of order: show only a newer page, or the one the stream
    // announced (a restarted server counts its versions anew)
    const wanted = page.version > version || page.version === announced;
    if (wanted && page.version !== version) { show(page, basis); }
    return;
  }
  const data = await answer.json().catch(function () { return {}; });
  say(data.error || ("the game cannot be shown: " + answer.status), true);
}
async function call(path, body) {
  const basis = held;
  const answer = await fetch(API + path + lightQuery(basis), {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await answer.json().catch(function () { return {error: answer.statusText}; });
  if (!answer.ok) { say("refused: " + (data.error || answer.status), true); return null; }
  if (data.page && data.page.version > version) { show(data.page, basis); }
  return data;
}
async function act(action) {
  choices.innerHTML = "";
  const data = await call("/act", {action: action});
  if (data) { played(data); }
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
    data.choices.forEach(function (o) { choices.appendChild(button(o, "choice")); });
    inSight();
  } else {
    played(data);
  }
}
// a phone's options sheet: a handle at the bottom while the seat decides, the options
// over the board once it is tapped, put away when an option is played
const sheetToggle = document.getElementById("sheet-toggle");
function optionsSheet(page) {
  const open = document.body.classList.contains("sheet-open") && page.yours;
  sheetToggle.hidden = !page.yours || page.options.length === 0;
  document.body.classList.toggle("has-sheet", !sheetToggle.hidden);
  sheetOpen(open);
  sheetToggle.dataset.count = String(page.options.length);
  sheetLabel();
}
function sheetOpen(open) {
  document.body.classList.toggle("sheet-open", open);
  sheetToggle.setAttribute("aria-expanded", open ? "true" : "false");
  sheetLabel();
}
function sheetLabel() {
  const open = document.body.classList.contains("sheet-open");
  sheetToggle.textContent = (open ? "▼ hide the options" : "▲ your options (" +
    sheetToggle.dataset.count + ")");
}
sheetToggle.addEventListener("click", function () {
  sheetOpen(!document.body.classList.contains("sheet-open"));
});
// an action of this seat went through: said, and a card's sheet is put away (its
// options were for the decision just taken)
function played(data) {
  say("played " + data.played.join(", "), false);
  cardSheet.hide(true);
  sheetOpen(false);
}
// the tile a tap names: its own group, or the pieces drawn over it (meeples, a camel,
// tokens: a group of their own, "pieces-c3", drawn after every tile)
function tapped(g) {
  if (g.classList.contains("tile")) { return g.id.slice("tile-".length); }
  if (g.classList.contains("pieces")) { return g.id.slice("pieces-".length); }
  return g.dataset.pick;
}
document.getElementById("table").addEventListener("click", function (event) {
  const g = event.target.closest("g.tile, g.pieces, g[data-pick]");
  if (!g || g.classList.contains("has-power")) { return; }  // a card opens its sheet
  click(tapped(g));
});
// the tiles, spots and cards of the picture can be reached by keyboard: Tab to one,
// Enter or Space to tap it (a tile's own title says what it is)
function reachable() {
  document.querySelectorAll("#board g.tile, #table g[data-pick], #players g.has-power")
    .forEach(function (g) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      const title = g.querySelector(":scope > title");
      const name = g.classList.contains("tile") ? "tile " + g.id.slice(5) :
        (g.dataset.pick || g.id);
      g.setAttribute("aria-label", title ? name + ": " + title.textContent : name);
    });
}
document.getElementById("main").addEventListener("keydown", function (event) {
  if (event.key !== "Enter" && event.key !== " ") { return; }
  const g = event.target.closest && event.target.closest("g[tabindex]");
  if (!g) { return; }
  event.preventDefault();
  g.dispatchEvent(new MouseEvent("click", {bubbles: true}));
});
// the list of what the tiles do is opened at the foot of the page: brought into view
document.getElementById("glossary-box").addEventListener("toggle", function (event) {
  if (event.target.open) {
    document.getElementById("glossary").scrollIntoView({block: "nearest"});
  }
});
// a tap on an answer floating over the board puts it away
message.addEventListener("click", function () {
  if (answer.classList.contains("afloat") && !choices.textContent) { say("", false); }
});
document.getElementById("fit").addEventListener("click", function () {
  const fit = document.body.classList.toggle("fit");
  this.setAttribute("aria-pressed", fit ? "true" : "false");
  this.textContent = fit ? "readable board" : "whole board";
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
cardSheet.start(act);
followGame(API, function (announced) {
  if (announced !== version) { refresh(announced); }
}, function () { say("this game was deleted", true); });
refresh(-1);
