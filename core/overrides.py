"""Content overrides: a plugin changes the numbers of an entry another plugin defines.

Restating an entry is refused (``djinn 'jafaar' is already defined``), so a variant that
only changes numbers says so explicitly::

    [[override]]
    target = "djinn:jafaar"          # djinn:, resource:, card:, token:, colour:, tile:
    params = { vizier_vp = 4 }       # only numbers: vp, count, cost, params

A tile kind with several entries (the sacred places) is named with the value it has:
``tile:sacred-place@15``. Overrides apply once every file is merged, so they do not
depend on plugin order; two plugins overriding the same number differently are refused,
naming both, and an unknown target, field or parameter is refused with its file and path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from naqala.core.structured import at_most, numbers_within

#: the most copies of one thing content may declare (tiles of a kind, cards, meeples of a
#: colour, tokens): the games hold tens; a hundred million would be laid out for minutes
MAX_COPIES = 1_000
#: the most points one entry may be worth (the dearest tile or djinn is worth 15)
MAX_POINTS = 10_000
#: the largest number a setting, a table or a card's params may hold, either way (as many
#: as the most coins a player may hold, ``validate.MAX_COINS``)
MAX_NUMBER = 1_000_000


@attrs.frozen
class OverrideSpec:
    """``[[override]]``: new numbers for the entry ``target`` (fields left out keep theirs),
    bounded like the entries' own."""

    target: str
    vp: int | None = attrs.field(default=None, validator=at_most(MAX_POINTS))
    count: int | None = attrs.field(default=None, validator=at_most(MAX_COPIES))
    cost: str | None = None
    params: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))

    def changes(self) -> dict[str, Any]:
        """The plain fields this override sets (``params`` are handled key by key)."""
        return {
            name: value
            for name in ("vp", "count", "cost")
            if (value := getattr(self, name)) is not None
        }


#: the sections an override can target, and the fields each kind of entry has
SECTIONS = ("colour", "token", "tile", "resource", "djinn", "card")


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


def apply_overrides(
    entries: Mapping[str, list[Any]],
    found: Sequence[Located],
    problems: list[str],
) -> None:
    """Change, in place, the records of ``entries`` (target name → a one-element list
    holding the record, replaced by its changed copy) as the overrides say. Problems are
    appended to ``problems``."""
    claimed: dict[tuple[int, str], tuple[object, Located]] = {}

    def claim(target: str, field: str, value: object, by: Located) -> bool:
        key = (id(entries[target]), field)  # djinn:x and card:x are one entry
        earlier = claimed.get(key)
        if earlier is not None and earlier[0] != value:
            problems.append(
                f"{by.where}: {target} {field} = {value!r} from {by.who} conflicts with "
                f"{earlier[0]!r} from {earlier[1].who} ({earlier[1].path})"
            )
            return False
        claimed[key] = (value, by)
        return True

    for item in found:
        spec = item.spec
        holder = entries.get(spec.target)
        if holder is None:
            problems.append(f"{item.where}.target: {_unknown(spec.target, entries)}")
            continue
        record = holder[0]
        changes: dict[str, Any] = {}
        for field, value in spec.changes().items():
            if not hasattr(record, field):
                problems.append(f"{item.where}.{field}: {spec.target} has no {field} to override")
            elif claim(spec.target, field, value, item):
                changes[field] = value
        if spec.params:
            params = getattr(record, "params", None)
            if params is None:
                problems.append(f"{item.where}.params: {spec.target} has no params to override")
            else:
                merged = dict(params)
                for key, value in spec.params.items():
                    if key not in params:
                        problems.append(
                            f"{item.where}.params.{key}: {spec.target} has no params.{key} "
                            f"(it has {', '.join(sorted(params)) or 'none'})"
                        )
                    elif claim(spec.target, f"params.{key}", value, item):
                        merged[key] = value
                changes["params"] = merged
        if "count" in changes and changes["count"] < 1:
            problems.append(f"{item.where}.count: must be at least 1")
            continue
        holder[0] = attrs.evolve(record, **changes)


def _unknown(target: str, entries: Mapping[str, list[Any]]) -> str:
    section, sep, _name = target.partition(":")
    if not sep or section not in SECTIONS:
        return f"{target!r} is not '<section>:<id>' with a section of {', '.join(SECTIONS)}"
    similar = sorted(t for t in entries if t.startswith(f"{target}@"))
    if similar:
        return f"{target!r} names several entries: say which ({', '.join(similar)})"
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
