"use strict";
// The lobby: a new game from the form, or a saved one loaded from a record file.
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
    item.appendChild(copyButton(window.location.origin + seat.url));
    list.appendChild(item);
  });
  links.appendChild(list);
  say("The game is ready.", false);
}
// a button that copies a person's link, to send it on; where the clipboard is refused
// the link is selected for a copy by hand
function copyButton(address) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "copy";
  button.addEventListener("click", async function () {
    try {
      await navigator.clipboard.writeText(address);
      button.textContent = "copied";
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents(button.previousSibling);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = "selected: copy it";
    }
  });
  return button;
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
  const seats = Array.from(document.querySelectorAll("select.seat-kind"))
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
