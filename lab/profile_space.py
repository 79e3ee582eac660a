"""The knobs of a player profile that ``naqala tune --profile`` searches (``--knob``).

A knob names one number of a profile (``naqala.agents.profile``) by its table and key,
``tribes.blue``, ``tiles.oasis``, ``djinns.jafaar``, ``bid.share`` or ``bid.max``, with
its values: the integers ``LOW:HIGH`` or a list ``0,0.1,0.25``. A point of the search is
the base profile with those numbers set, written as a whole profile TOML
(:func:`profile_document`), so the answer is seated alone as ``greedy:profile=FILE``.

The lab never imports the players, so the command checks each knob's values with the
profile's own checks (``naqala.cli.tune_profile``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from naqala.core.documents import parse_toml
from naqala.lab.space import MAX_VALUES

#: the tables whose numbers a knob may name (``restrict`` holds no number)
WEIGHTS = ("tribes", "tiles", "djinns", "bid")
#: a knob on the command line: ``TABLE.KEY=VALUES``
_KNOB = re.compile(r"^([a-z]+)\.([a-z0-9_-]+)=(.+)$")
_RANGE = re.compile(r"^(-?\d+):(-?\d+)$")


class ProfileSpaceError(ValueError):
    """A ``--profile`` or ``--knob`` that cannot be tuned, in one line."""


@attrs.frozen
class ProfileKnob:
    """One number of a profile to tune: its table, key and values."""

    table: str
    key: str
    values: list[float] | None = None
    low: int | None = None
    high: int | None = None

    @property
    def name(self) -> str:
        """``table.key``, how the search and its report call the knob."""
        return f"{self.table}.{self.key}"

    @property
    def choices(self) -> list[float]:
        if self.values is not None:
            return list(self.values)
        assert self.low is not None and self.high is not None
        return list(range(self.low, self.high + 1))


@attrs.frozen
class ProfileSpace:
    """The profile tuned (as given and as read) and its knobs."""

    profile: str
    source: str
    knob: list[ProfileKnob]


def _number(text: str) -> float:
    try:
        value = float(text) if re.search(r"[.eE]", text) else int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    return value


def parse_knob(text: str) -> ProfileKnob:
    """``tribes.blue=0:6`` or ``bid.share=0,0.1,0.25``; ``ProfileSpaceError`` if not."""
    where = f"--knob {text}"
    found = _KNOB.match(text.strip().lower())
    if found is None:
        raise ProfileSpaceError(
            f"{where}: give TABLE.KEY=LOW:HIGH or TABLE.KEY=V1,V2,... (tribes.blue=0:6)"
        )
    table, key, values = found.groups()
    if table not in WEIGHTS:
        raise ProfileSpaceError(
            f"{where}: {table!r} holds no weight; a knob is one of "
            + ", ".join(f"{t}.KEY" for t in WEIGHTS)
        )
    if table == "bid" and key not in ("share", "max"):
        raise ProfileSpaceError(f"{where}: [bid] has share and max, not {key!r}")
    span = _RANGE.match(values)
    if span is not None:
        low, high = int(span.group(1)), int(span.group(2))
        if low > high:
            raise ProfileSpaceError(f"{where}: low {low} is above high {high}")
        if high - low + 1 > MAX_VALUES:
            raise ProfileSpaceError(
                f"{where}: {high - low + 1} values; a knob takes at most {MAX_VALUES}"
            )
        return ProfileKnob(table, key, low=low, high=high)
    parts = values.split(",")
    if len(parts) > MAX_VALUES:
        raise ProfileSpaceError(f"{where}: {len(parts)} values; a knob takes at most {MAX_VALUES}")
    try:
        numbers = [_number(part.strip()) for part in parts]
    except ValueError as exc:
        raise ProfileSpaceError(f"{where}: {exc}") from None
    if len(set(numbers)) != len(numbers):
        raise ProfileSpaceError(f"{where}: a value is given twice")
    return ProfileKnob(table, key, values=numbers)


def with_point(document: Mapping[str, Any], point: Mapping[str, float]) -> dict[str, Any]:
    """A copy of the profile ``document`` with each ``table.key`` of ``point`` set."""
    copy = {table: dict(entries) for table, entries in document.items()}
    for name, value in point.items():
        table, _, key = name.partition(".")
        copy.setdefault(table, {})[key] = value
    return copy


def profile_document(space: ProfileSpace, point: Mapping[str, float], description: str) -> str:
    """The whole profile of ``point``: the base profile with the knobs' values, named
    ``<base>-tuned`` and described by ``description``."""
    import tomli_w

    document = with_point(parse_toml(space.source), point)
    header = document.setdefault("profile", {})
    header["name"] = f"{header.get('name', space.profile)}-tuned"
    header["description"] = description
    ordered = {"profile": document.pop("profile"), **document}
    return tomli_w.dumps(ordered)
