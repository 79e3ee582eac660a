"""What an ``[[override]]`` may name in given rules: every target, its fields, their
current values and bounds (``naqala content ids``; the reference table of
docs/house-rules.md is this list for the base game, checked by a test).

The list is made from the merged content, so it names exactly what the override
vocabulary of ``naqala.core.overrides`` accepts, with the numbers an override of these
rules would start from (relative forms are resolved against them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import attrs

from naqala.core.content import CARD_SECTIONS, Content
from naqala.core.overrides import BOUNDS
from naqala.core.setting_values import SettingValue


@attrs.frozen
class Nameable:
    """One number (or code) an override may change: ``target`` and ``field`` as an
    override writes them, what the target is, its value now and the values it may take."""

    target: str
    what: str
    field: str
    value: int | str
    bound: str

    def as_json(self) -> dict[str, int | str]:
        return attrs.asdict(self)


def _bound(field: str) -> str:
    if field == "cost":
        return "a payment code"
    least, most = BOUNDS["params" if field.startswith("params.") else field]
    if field == "vp":
        return f"0 to {most}"
    return f"{least} to {most}"


def nameables(content: Content) -> list[Nameable]:
    """Every target and field an override of ``content`` may name, in a stable order:
    settings, player counts, colours, tokens, tiles, cards by deck, then the bulk targets
    (decks and kinds) with how many entries each selects."""
    return list(_rows(content))


def _rows(content: Content) -> Iterator[Nameable]:
    def row(target: str, what: str, field: str, value: int | str) -> Nameable:
        return Nameable(target, what, field, value, _bound(field))

    for key, value in sorted(content.settings.items()):
        if type(value) is int:
            yield row(f"setting:{key}", "setting", "value", value)
    for key, typed in sorted(content.typed_settings.items()):
        yield _reading(key, typed, content.setting_choices.get(key, ()))
    for pc in content.player_counts:
        for field in ("camels", "markers"):
            yield row(f"player_count:{pc.players}", "player count", field, getattr(pc, field))
    for colour in content.colours:
        yield row(f"colour:{colour.id}", "meeple colour", "count", colour.count)
    for token in content.tokens:
        yield row(f"token:{token.id}", "token", "vp", token.vp)
        yield row(f"token:{token.id}", "token", "count", token.count)
    kinds = [tile.kind for tile in content.tiles]
    for tile in content.tiles:
        target = f"tile:{tile.kind}" + (f"@{tile.vp}" if kinds.count(tile.kind) > 1 else "")
        yield row(target, "tile", "vp", tile.vp)
        yield row(target, "tile", "count", tile.count)
    for card in content.cards:
        target = f"{CARD_SECTIONS.get(card.deck, 'card')}:{card.id}"
        what = f"{card.deck} card, kind {card.kind}"
        yield row(target, what, "vp", card.vp)
        yield row(target, what, "count", card.count)
        if card.cost:
            yield row(target, what, "cost", card.cost)
        for key, value in sorted(card.params.items()):
            yield row(target, what, f"params.{key}", value)
    yield from _bulk(content)


def _reading(key: str, value: SettingValue, choices: tuple[str, ...]) -> Nameable:
    """A setting that is no number (a reading such as ``bidding``): written in a
    ``[settings]`` table, never by an override, which changes numbers."""
    if isinstance(value, bool):
        bound = "true or false"
    elif isinstance(value, str):
        bound = "one of " + ", ".join(f'"{c}"' for c in choices) if choices else "a text"
    else:
        bound = "an array"
    shown = json.dumps(value, default=dict)  # a table of start.cards is a mapping
    return Nameable(f"setting:{key}", "reading, set in [settings]", "value", shown, bound)


def _bulk(content: Content) -> Iterator[Nameable]:
    """The bulk targets: each deck, and each kind of several entries, with the fields of
    their entries (a bulk override changes those of the entries that have it)."""
    decks = dict.fromkeys(card.deck for card in content.cards)
    kinds = dict.fromkeys([*(t.kind for t in content.tiles), *(c.kind for c in content.cards)])
    for section, names in (("deck", decks), ("kind", kinds)):
        for name in names:
            chosen = [
                *(c for c in content.cards if getattr(c, section) == name),
                *(t for t in content.tiles if section == "kind" and t.kind == name),
            ]
            if section == "kind" and len(chosen) < 2:
                continue  # a kind of one entry is named by the entry's own target
            params = sorted({key for c in chosen for key in getattr(c, "params", {})})
            fields = ["vp", "count", *(f"params.{key}" for key in params)]
            what = f"{len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'}"  # a deck of one
            for field in fields:
                yield Nameable(f"{section}:{name}", what, field, "(each)", _bound(field))


def table(rows: list[Nameable]) -> list[list[str]]:
    """The rows as text cells: target, what, field, value, bound."""
    return [[r.target, r.what, r.field, str(r.value), r.bound] for r in rows]


def markdown(rows: list[Nameable]) -> str:
    """The rows as a Markdown table (the reference of docs/house-rules.md)."""
    lines = ["| target | what | field | value | bound |", "|---|---|---|---|---|"]
    lines += [f"| `{t}` | {w} | `{f}` | {v} | {b} |" for t, w, f, v, b in table(rows)]
    return "\n".join(lines) + "\n"
