"use strict";
// A seat's page (web/pages.py game_page); the seat's API address is the body's data-api.
const API = document.body.dataset.api;
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
