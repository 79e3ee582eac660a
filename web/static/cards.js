"use strict";
// What every card does, a tap or a hover away: the page's cards (in the side panel's
// lists and face up on the board) open a sheet with the card's cost, timing and effect
// and, when the seat decides, the options that name the card. A tap (or a click, or
// Enter on a focused card) pins the sheet; a hover shows it until the pointer leaves.
const cardSheet = {
  sheet: null, pinned: false, catalogue: {}, options: [], onChoose: null,

  start: function (onChoose) {
    this.sheet = document.getElementById("card-sheet");
    this.onChoose = onChoose;
    const self = this;
    document.getElementById("card-close").addEventListener("click", function () {
      self.hide(true);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { self.hide(true); }
    });
  },

  update: function (catalogue, options) {
    this.catalogue = catalogue;
    this.options = options;
    if (!this.sheet.hidden && this.sheet.dataset.card && this.known(this.sheet.dataset.card)) {
      this.show(this.sheet.dataset.card, this.pinned);
    }
  },

  known: function (id) { return Object.prototype.hasOwnProperty.call(this.catalogue, id); },

  facts: function (card) {
    const facts = [card.noun];
    if (card.vp) { facts.push(card.vp + " VP"); }
    if (card.cost) { facts.push("costs " + card.cost); }
    if (card.when) { facts.push(card.when); }
    return facts.join(" · ");
  },

  show: function (id, pin) {
    const card = this.catalogue[id];
    if (!card) { return; }
    if (this.pinned && !pin && this.sheet.dataset.card !== id) { return; }
    this.pinned = this.pinned || pin;
    this.sheet.dataset.card = id;
    document.getElementById("card-name").textContent = card.name;
    document.getElementById("card-facts").textContent = this.facts(card);
    document.getElementById("card-effect").textContent = card.effect;
    const box = document.getElementById("card-options");
    box.innerHTML = "";
    const self = this;
    this.options.filter(function (o) { return optionNames(o.action).has(id); })
      .forEach(function (o) {
        box.appendChild(optionButton(o, "card-option", function () {
          self.hide(true);
          self.onChoose(o.action);
        }));
      });
    // a sheet shown by a hover lets the pointer through: covering the card it
    // explains, it would end the hover
    this.sheet.classList.toggle("peek", !this.pinned);
    this.sheet.hidden = false;
  },

  // a player's panel: the cards of theirs this seat may see, each opening its own sheet
  showHand: function (title, ids) {
    this.pinned = true;
    this.sheet.dataset.card = "";
    document.getElementById("card-name").textContent = title;
    document.getElementById("card-facts").textContent = ids.length ?
      "tap a card for what it does" : "no card with a power that you may see";
    document.getElementById("card-effect").textContent = "";
    const box = document.getElementById("card-options");
    box.innerHTML = "";
    const self = this;
    ids.forEach(function (id) { box.appendChild(self.chip(id, "")); });
    this.sheet.classList.remove("peek");
    this.sheet.hidden = false;
  },

  hide: function (force) {
    if (this.pinned && !force) { return; }
    this.pinned = false;
    this.sheet.hidden = true;
    delete this.sheet.dataset.card;
  },

  // an HTML chip for card ``id``: its name, opening the sheet on tap, focus or hover
  chip: function (id, prefix) {
    const card = this.catalogue[id];
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "card-chip";
    chip.dataset.card = id;
    chip.textContent = (prefix ? prefix + ": " : "") + (card ? card.name : id);
    chip.title = card ? this.facts(card) + " — " + card.effect : id;
    this.follow(chip, id);
    return chip;
  },

  // make ``element`` (a chip, or a card drawn on the board) open the sheet of ``id``
  follow: function (element, id) {
    const self = this;
    // hover only with a mouse: a finger's tap sends mouse events too, and a sheet shown
    // by them would cover the card and take the tap
    element.addEventListener("pointerenter", function (event) {
      if (event.pointerType === "mouse") { self.show(id, false); }
    });
    element.addEventListener("pointerleave", function (event) {
      if (event.pointerType === "mouse") { self.hide(false); }
    });
    element.addEventListener("click", function (event) {
      event.stopPropagation();
      self.show(id, true);
    });
  },
};

// what an option names: its kind, each argument and each card of a joined one
function optionNames(action) {
  const names = new Set();
  action.toLowerCase().split(" ").forEach(function (part) {
    names.add(part);
    part.split("+").forEach(function (p) { names.add(p); });
  });
  return names;
}

// a button for an option: its effect in words, the notation as a small second line
function optionButton(option, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.dataset.action = option.action;
  const words = document.createElement("span");
  words.className = "words";
  words.textContent = option.words;
  b.appendChild(words);
  if (option.words !== option.action) {
    const notation = document.createElement("span");
    notation.className = "notation";
    notation.textContent = option.action;
    b.appendChild(notation);
  }
  if (option.warning) {  // a drop that leaves a tile for the next player to take
    const warning = document.createElement("span");
    warning.className = "warning";
    warning.textContent = "⚠ " + option.warning;
    b.appendChild(warning);
  }
  b.addEventListener("click", onClick);
  return b;
}
