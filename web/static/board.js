"use strict";
// The picture of a position, laid out for the screen it is on. The server draws one SVG
// (board, side panel, a panel per player); drawn as one, it shrinks to nothing on a
// phone. So the page cuts it in pieces of their own: the board (which scrolls
// sideways on a narrow screen rather than shrinking its labels below reading size),
// the side panel, and one panel per player, which the style sheet places side by side
// or one under the other as the screen allows.
const SVG_NS = "http://www.w3.org/2000/svg";
const PAD = 6;

function boxOf(elements) {
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  elements.forEach(function (element) {
    const box = element.getBBox();
    if (box.width === 0 && box.height === 0) { return; }
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  });
  if (left === Infinity) { return null; }
  return {x: left - PAD, y: top - PAD, width: right - left + 2 * PAD,
    height: bottom - top + 2 * PAD};
}

function frame(svg, box) {
  svg.setAttribute("viewBox", [box.x, box.y, box.width, box.height].join(" "));
  svg.setAttribute("width", String(Math.ceil(box.width)));
  svg.setAttribute("height", String(Math.ceil(box.height)));
}

function pieceOf(source, groups, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "piece " + cls);
  svg.setAttribute("font-family", source.getAttribute("font-family") || "sans-serif");
  groups.forEach(function (g) { svg.appendChild(g); });
  return svg;
}

// Draw ``markup`` (one <svg>) into the board, tableau and players containers.
function drawPicture(markup, board, tableau, players) {
  board.innerHTML = markup;
  tableau.innerHTML = "";
  players.innerHTML = "";
  const whole = board.querySelector("svg");
  if (!whole) { return; }
  const paper = whole.querySelector(":scope > rect");
  if (paper) { paper.remove(); }  // the page's background stands in for the paper
  const panels = Array.from(whole.querySelectorAll(":scope > g.panel"));
  const seats = Array.from(whole.querySelectorAll(":scope > g.player, :scope > g.aside"));
  // measure while everything is still drawn in one picture
  const panelBox = boxOf(panels);
  const seatBoxes = seats.map(function (g) { return boxOf([g]); });
  if (panelBox) {
    const side = pieceOf(whole, panels, "side-panel");
    tableau.appendChild(side);
    frame(side, panelBox);
  }
  seats.forEach(function (g, i) {
    const piece = pieceOf(whole, [g], "seat-panel");
    players.appendChild(piece);
    if (seatBoxes[i]) { frame(piece, seatBoxes[i]); }
  });
  const rest = boxOf(Array.from(whole.children).filter(function (child) {
    return child.tagName.toLowerCase() === "g";
  }));
  if (rest) { frame(whole, rest); }
  whole.classList.add("piece", "board-piece");
}
