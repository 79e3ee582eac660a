"""Content overrides: a plugin changes the numbers of entries another plugin defines.

Restating an entry is refused (``djinn 'jafaar' is already defined``), so a variant that
only changes numbers says so explicitly::

    [[override]]
    target = "djinn:jafaar"          # djinn:, resource:, card:, token:, colour:, tile:,
    params = { vizier_vp = 4 }       # player_count:, setting:; deck:, kind:, <section>:*

A tile kind with several entries (the sacred places) is named with the value it has:
``tile:sacred-place@15``. A *bulk* target selects many entries: ``deck:whims`` (every card
of a deck), ``kind:sacred-place`` (every card and tile of a kind), ``djinn:*`` or
``player_count:*`` (every entry of a section). A number is absolute (``vp = 4``),
relative to the entry's merged value (``vp = "+2"``, ``coins = "-10%"``, rounded to the
nearest integer, halves away from zero) or relative to a setting (``elder_vp =
"settings.elder_vp + 2"``), and is resolved here, at merge, so whatever reads the content
(the native kernel included) gets plain numbers.

Overrides apply once every file is merged, against the merged values, so they do not
depend on plugin order; two overrides giving one number of one entry different values
are refused, naming both, and an unknown target, field or parameter, or a result out of
its bounds, is refused with its file and path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from naqala.core.structured import OutOfBounds, shown

#: the most copies of one thing content may declare (tiles of a kind, cards, meeples of a
#: colour, tokens): the games hold tens; a hundred million would be laid out for minutes
MAX_COPIES = 1_000
#: the most points one entry may be worth (the dearest tile or djinn is worth 15)
MAX_POINTS = 10_000
#: the largest number a setting, a table or a card's params may hold, either way (as many
#: as the most coins a player may hold, ``validate.MAX_COINS``)
MAX_NUMBER = 1_000_000
#: the most players any content may describe (a number, not a design: games have 1-5)
MAX_PLAYERS = 100

#: a number of an override: an integer, or text in one of the relative forms (``Amount``
#: is ``Any`` so that the content's strict converter passes it to ``amount`` unchanged)
Amount = Any

#: ``+2``, ``-10%``: relative to the entry's merged value
RELATIVE = re.compile(r"(?P<sign>[+-])(?P<digits>\d{1,9})(?P<percent>%?)")
#: ``settings.elder_vp``, ``settings.elder_vp + 2``: relative to a merged setting
FROM_SETTING = re.compile(
    r"settings\.(?P<key>[a-z][a-z0-9_]*)(?:\s*(?P<sign>[+-])\s*(?P<digits>\d{1,9}))?"
)
#: what an override's number may be, in words
FORMS = "a whole number, '+N', '-N', '+N%', '-N%' or 'settings.KEY' (+ or - N)"

#: each field that takes a number, with its bounds (least, most) once resolved
BOUNDS: dict[str, tuple[int, int]] = {
    "vp": (-MAX_POINTS, MAX_POINTS),  # below 0 is refused by the meaning checks, naming both files
    "count": (1, MAX_COPIES),
    "camels": (0, MAX_COPIES),
    "markers": (1, MAX_PLAYERS),
    "value": (-MAX_NUMBER, MAX_NUMBER),
    "params": (-MAX_NUMBER, MAX_NUMBER),
}


def _form_problem(value: Any) -> str | None:
    """Why ``value`` is no number an override may give, or None."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return f"expected {FORMS}, not {type(value).__name__}"
    if isinstance(value, str) and not (RELATIVE.fullmatch(value) or FROM_SETTING.fullmatch(value)):
        return f"{value[:40]!r} is not {FORMS}"
    return None


def amount(field: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: an absolute number within ``BOUNDS[field]``, or a relative
    form (checked against the bounds once resolved)."""
    least, most = BOUNDS[field]

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        if problem := _form_problem(value):
            raise OutOfBounds(attribute.name, problem)
        if isinstance(value, int) and (problem := _out_of(value, least, most)):
            raise OutOfBounds(attribute.name, problem)

    return check


def amounts(_instance: Any, attribute: Any, value: Any) -> None:
    """An attrs validator for ``params``: each value is an ``amount("params")``."""
    least, most = BOUNDS["params"]
    for key, number in value.items():
        if problem := _form_problem(number):
            raise OutOfBounds(f"{attribute.name}.{key}", problem)
        if isinstance(number, int) and (problem := _out_of(number, least, most)):
            raise OutOfBounds(f"{attribute.name}.{key}", problem)


def _out_of(value: int, least: int, most: int) -> str | None:
    """Why ``value`` is out of [least, most], in the words of the records' own bounds."""
    if value > most:
        return f"{shown(value)} is more than {most}"
    if value < least:
        if least >= 0:  # the count, camels and markers fields: a game needs that many
            return f"must be at least {least}, not {shown(value)}"
        return f"{shown(value)} is less than {least}"
    return None


@attrs.frozen
class OverrideSpec:
    """``[[override]]``: new numbers for the entries ``target`` selects (fields left out
    keep theirs), bounded like the entries' own."""

    target: str
    vp: Amount = attrs.field(default=None, validator=amount("vp"))
    count: Amount = attrs.field(default=None, validator=amount("count"))
    cost: str | None = None
    params: dict[str, Amount] = attrs.field(factory=dict, validator=amounts)
    #: a ``player_count:`` target's numbers
    camels: Amount = attrs.field(default=None, validator=amount("camels"))
    markers: Amount = attrs.field(default=None, validator=amount("markers"))
    #: a ``setting:`` target's number
    value: Amount = attrs.field(default=None, validator=amount("value"))

    def changes(self) -> dict[str, Any]:
        """The plain fields this override sets (``params`` are handled key by key)."""
        return {
            name: value
            for name in ("vp", "count", "cost", "camels", "markers", "value")
            if (value := getattr(self, name)) is not None
        }


#: the sections an override can target one entry of
SECTIONS = ("colour", "token", "tile", "resource", "djinn", "card", "player_count", "setting")
#: targets that select every entry with a given deck or kind
GROUPS = ("deck", "kind")


@attrs.frozen
class Located:
    """An override as found: the file, its index in ``override`` and who ships it."""

    path: Path
    index: int
    spec: OverrideSpec
    who: str

    @property
    def where(self) -> str:
        return f"{self.path}: $.override[{self.index}]"


def resolve(value: Amount, current: int, settings: Mapping[str, Any]) -> int | str:
    """The number ``value`` (an override's, already in one of ``FORMS``) means for an
    entry whose merged value is ``current``: the number, or why it has none."""
    if isinstance(value, int):
        return value
    found = RELATIVE.fullmatch(value)
    if found is not None:
        step = int(found["digits"]) * (1 if found["sign"] == "+" else -1)
        if not found["percent"]:
            return current + step
        return _rounded(Fraction(current) * (100 + step) / 100)
    found = FROM_SETTING.fullmatch(value)
    assert found is not None  # the validator let only the forms through
    base = settings.get(found["key"])
    if isinstance(base, bool) or not isinstance(base, int):
        known = ", ".join(sorted(k for k, v in settings.items() if type(v) is int))
        return f"no number settings.{found['key']} (the number settings: {known})"
    step = int(found["digits"] or 0) * (1 if found["sign"] != "-" else -1)
    return base + step


def _rounded(number: Fraction) -> int:
    """The integer nearest ``number``; halves away from zero (4.5 → 5, -4.5 → -5)."""
    whole = int(abs(number) + Fraction(1, 2))
    return whole if number >= 0 else -whole


def apply_overrides(
    entries: Mapping[str, list[Any]],
    found: Sequence[Located],
    problems: list[str],
    settings: MutableMapping[str, Any] | None = None,
) -> None:
    """Change, in place, the records of ``entries`` (target name → a one-element list
    holding the record, replaced by its changed copy) and the numbers of ``settings`` as
    the overrides say. Problems are appended to ``problems``."""
    Applying(entries, {} if settings is None else settings, problems).apply(found)


@attrs.define
class Applying:
    """The overrides of one merge being applied: what each number was before any of them
    (relative forms are resolved against it) and who set each."""

    entries: Mapping[str, list[Any]]
    settings: MutableMapping[str, Any]
    problems: list[str]
    merged: dict[int, Any] = attrs.field(factory=dict)
    merged_settings: dict[str, Any] = attrs.field(factory=dict)
    claimed: dict[tuple[object, str], tuple[object, Located]] = attrs.field(factory=dict)

    def apply(self, found: Sequence[Located]) -> None:
        self.merged = {id(holder): holder[0] for holder in self.entries.values()}
        self.merged_settings = dict(self.settings)
        # settings first, each against the merged ones, so that a number written from a
        # setting follows its final value, whatever the order of the overrides
        for item in found:
            if item.spec.target.startswith("setting:"):
                self.set_setting(item)
        for item in found:
            if item.spec.target.startswith("setting:"):
                continue
            selected = select(item.spec.target, self.entries)
            if isinstance(selected, str):
                self.problems.append(f"{item.where}.target: {selected}")
                continue
            self.apply_one(item, selected, bulk=len(selected) != 1 or "*" in item.spec.target)

    def claim(self, entry: object, name: str, field: str, value: object, by: Located) -> bool:
        """Note that ``by`` sets ``field`` of ``entry`` (a holder's id, or a setting's
        name) to ``value``; False, a problem noted, if another override set it otherwise."""
        key = (entry, field)  # djinn:x and card:x are one entry
        earlier = self.claimed.get(key)
        if earlier is not None and earlier[0] != value:
            self.problems.append(
                f"{by.where}: {name} {field} = {value!r} from {by.who} conflicts with "
                f"{earlier[0]!r} from {earlier[1].who} ({earlier[1].path})"
            )
            return False
        self.claimed[key] = (value, by)
        return True

    def number(self, item: Located, where: str, field: str, value: Amount, current: Any) -> Any:
        """``value`` resolved against ``current``, or None (a problem noted) if it has no
        number or one out of the field's bounds."""
        if isinstance(value, str) and not isinstance(current, int):
            self.problems.append(f"{item.where}.{where}: only a number can change by {value!r}")
            return None
        start = current if isinstance(current, int) else 0
        # a setting's own override resolves against the merged settings, the rest against
        # the settings as overridden
        settings = self.merged_settings if field == "value" else self.settings
        resolved = resolve(value, start, settings)
        if isinstance(resolved, str):
            self.problems.append(f"{item.where}.{where}: {resolved}")
            return None
        least, most = BOUNDS[field]
        if problem := _out_of(resolved, least, most):
            said = f" ({value!r} of {current})" if isinstance(value, str) else ""
            self.problems.append(f"{item.where}.{where}: {problem}{said}")
            return None
        return resolved

    def apply_one(self, item: Located, selected: list[tuple[str, list[Any]]], bulk: bool) -> None:
        spec = item.spec
        for field, value in spec.changes().items():
            having = [(n, h) for n, h in selected if hasattr(self.merged[id(h)], field)]
            if field == "value" or not having or (not bulk and len(having) < len(selected)):
                self.problems.append(
                    f"{item.where}.{field}: {spec.target} has no {field} to override"
                )
                continue
            for name, holder in having:
                current = getattr(self.merged[id(holder)], field)
                number = (
                    value if field == "cost" else self.number(item, field, field, value, current)
                )
                if number is not None and self.claim(id(holder), name, field, number, item):
                    holder[0] = attrs.evolve(holder[0], **{field: number})
        for key, value in spec.params.items():
            having = [
                (n, h)
                for n, h in selected
                if key in (getattr(self.merged[id(h)], "params", None) or {})
            ]
            if not having or (not bulk and len(having) < len(selected)):
                why = _no_param(spec.target, key, selected, self.merged)
                self.problems.append(f"{item.where}.params.{key}: {why}")
                continue
            for name, holder in having:
                current = self.merged[id(holder)].params[key]
                number = self.number(item, f"params.{key}", "params", value, current)
                if number is not None and self.claim(
                    id(holder), name, f"params.{key}", number, item
                ):
                    holder[0] = attrs.evolve(holder[0], params={**holder[0].params, key: number})

    def set_setting(self, item: Located) -> None:
        """A ``setting:KEY`` target: ``value`` is the setting's new number."""
        spec = item.spec
        key = spec.target.partition(":")[2]
        others = sorted(set(spec.changes()) - {"value"}) + (["params"] if spec.params else [])
        if others:
            self.problems.append(f"{item.where}.{others[0]}: a setting has only a value")
            return
        current = self.merged_settings.get(key)
        if (
            key not in self.merged_settings
            or isinstance(current, bool)
            or not isinstance(current, int)
        ):
            known = ", ".join(sorted(k for k, v in self.merged_settings.items() if type(v) is int))
            self.problems.append(f"{item.where}.target: no number setting {key!r} (known: {known})")
            return
        if spec.value is None:
            self.problems.append(f"{item.where}.value: missing: the setting's new number")
            return
        number = self.number(item, "value", "value", spec.value, current)
        if number is not None and self.claim(spec.target, spec.target, "value", number, item):
            self.settings[key] = number


def _no_param(
    target: str, key: str, selected: list[tuple[str, list[Any]]], merged: dict[int, Any]
) -> str:
    """Why ``params.key`` of ``target`` cannot be overridden: no entry selected has it."""
    if len(selected) == 1:
        params = getattr(merged[id(selected[0][1])], "params", None)
        if params is None:
            return f"{target} has no params to override"
        return f"{target} has no params.{key} (it has {', '.join(sorted(params)) or 'none'})"
    return f"no entry {target} selects has params.{key}"


def select(target: str, entries: Mapping[str, list[Any]]) -> list[tuple[str, list[Any]]] | str:
    """The entries ``target`` names, as (name, holder) pairs, each once (``djinn:x`` and
    ``card:x`` are one entry); or why it names none."""
    holder = entries.get(target)
    if holder is not None:
        return [(target, holder)]
    section, sep, name = target.partition(":")
    if sep and name and (section in GROUPS or (section in SECTIONS and name == "*")):
        chosen: dict[int, tuple[str, list[Any]]] = {}
        for entry, held in entries.items():
            if _selects(section, name, entry, held[0]):
                chosen.setdefault(id(held), (entry, held))
        if chosen:
            return list(chosen.values())
        return f"{target!r} selects no entry"
    return _unknown(target, entries)


def _selects(section: str, name: str, entry: str, record: Any) -> bool:
    if section == "deck":
        return getattr(record, "deck", None) == name
    if section == "kind":
        return getattr(record, "kind", None) == name
    return entry.partition(":")[0] == section


def _unknown(target: str, entries: Mapping[str, list[Any]]) -> str:
    section, sep, _name = target.partition(":")
    if not sep or (section not in SECTIONS and section not in GROUPS):
        return (
            f"{target!r} is not '<section>:<id>' with a section of {', '.join(SECTIONS)}, "
            f"or {', '.join(f'{g}:<name>' for g in GROUPS)}, or '<section>:*'"
        )
    similar = sorted(t for t in entries if t.startswith(f"{target}@"))
    if similar:
        return (
            f"{target!r} names several entries: say which ({', '.join(similar)}), or kind:{_name}"
        )
    return f"no entry {target!r} to override"


def targets(records: Sequence[tuple[str, list[Any]]]) -> dict[str, list[Any]]:
    """Target names for records given as (``section:id``, one-element holder) pairs; tiles
    of a kind with several entries are named ``tile:<kind>@<vp>``."""
    table: dict[str, list[Any]] = {}
    by_name: dict[str, list[list[Any]]] = {}
    for name, holder in records:
        by_name.setdefault(name, []).append(holder)
    for name, holders in by_name.items():
        if len(holders) == 1:
            table[name] = holders[0]
        else:
            for holder in holders:
                table[f"{name}@{holder[0].vp}"] = holder
    return table
