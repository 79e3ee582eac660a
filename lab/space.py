"""The search space of ``naqala tune`` (SPACE.toml) and the house rule of one point of it.

A knob names a number in the ``[[override]]`` vocabulary house rules already use:
``target`` as in ``[[override]]`` (``djinn:jafaar``, ``tile:oasis``…) with ``field`` (a
top-level field such as ``vp``) or ``param`` (a key of its ``params``), or ``target =
"settings"`` with ``field`` a setting (``vizier_bonus``). Its values are a list or the
integers ``low … high``. A point of the space is written as a content-only house rule
(``naqala.core.content_rule``): ``[settings]`` for the settings, one ``[[override]]`` per
other target. The format is documented in docs/formats.md.

A space is a file a person hands over, so it is bounded as content files are: read only
if it is a regular file of at most :data:`SPACE_LIMIT` bytes (``naqala.core.files``),
parsed as a bounded TOML document (``naqala.core.documents``), and every knob's values
checked for size and magnitude before any of them is listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from naqala.core.documents import DocumentError, parse_toml
from naqala.core.files import FileRefused, read_text_bounded
from naqala.core.overrides import MAX_NUMBER
from naqala.core.structured import problems, strict_converter

#: the target of a knob that is a setting
SETTINGS = "settings"
#: the most bytes a SPACE.toml may have (a space of a dozen knobs is under 1 kB)
SPACE_LIMIT = 1024 * 1024
#: the most values one knob may take: a tune plays tens to a few hundred trials, so a
#: wider range is sampled far too thinly to find its best (and was listed whole: a
#: range of 10**11 ran out of memory)
MAX_VALUES = 10_000
#: the most knobs of a space: each trial's rule sets them all, and the sampler models
#: them together; a search of more dimensions than trials learns nothing
MAX_KNOBS = 100


class SpaceError(ValueError):
    """A SPACE.toml that cannot be read or declares a knob wrongly (one line)."""


@attrs.frozen
class Knob:
    """One number to tune: where it lives and the values it may take."""

    target: str
    field: str = ""
    param: str = ""
    values: list[int] | None = None
    low: int | None = None
    high: int | None = None

    @property
    def name(self) -> str:
        """How the knob is called in the search and its report: ``target.field``."""
        return f"{self.target}.{self.field or self.param}"

    @property
    def choices(self) -> list[int]:
        """Every value the knob may take, in order."""
        if self.values is not None:
            return list(self.values)
        assert self.low is not None and self.high is not None
        return list(range(self.low, self.high + 1))

    def problem(self) -> str | None:
        """What is wrong with this knob, or None."""
        if bool(self.field) == bool(self.param):
            return "give either field or param"
        if self.target == SETTINGS and self.param:
            return "a setting is a field (field = NAME), it has no params"
        if (self.values is None) == (self.low is None and self.high is None):
            return "give either values = [...] or low and high"
        if self.values is not None:
            if not self.values:
                return "values is empty"
            if len(set(self.values)) != len(self.values):
                return "values repeats a value"
        elif self.low is None or self.high is None:
            return "give both low and high"
        elif self.low > self.high:
            return f"low {self.low} is above high {self.high}"
        return self._size_problem()

    def _size_problem(self) -> str | None:
        """A value beyond what an override may set (``MAX_NUMBER``), or more values than
        :data:`MAX_VALUES`; worked out without listing them."""
        bound = f"is not within ±{MAX_NUMBER} (the bound of an override's numbers)"
        if self.values is not None:
            for index, value in enumerate(self.values):
                if abs(value) > MAX_NUMBER:
                    return f"values[{index}] {value} {bound}"
            count = len(self.values)
        else:
            assert self.low is not None and self.high is not None
            for name, value in (("low", self.low), ("high", self.high)):
                if abs(value) > MAX_NUMBER:
                    return f"{name} {value} {bound}"
            count = self.high - self.low + 1
        if count > MAX_VALUES:
            return f"{count} values; a knob takes at most {MAX_VALUES}"
        return None


@attrs.frozen
class TuneTable:
    """``[tune]``: the name and description of the house rule ``tune`` writes."""

    name: str = "tuned"
    description: str = ""


@attrs.frozen
class Space:
    """Every knob of a SPACE.toml, and the name of the rule it makes."""

    knob: list[Knob]
    tune: TuneTable = TuneTable()


_CONVERTER = strict_converter()


def load_space(path: Path) -> Space:
    """Read and check SPACE.toml; ``SpaceError`` with the file and path of each problem
    (a file that is no regular file, or too large, is not read at all)."""
    try:
        raw = parse_toml(read_text_bounded(path, SPACE_LIMIT, "tuning space"))
    except FileRefused as exc:
        raise SpaceError(str(exc)) from None
    except DocumentError as exc:
        raise SpaceError(f"{path}: {exc}") from None
    try:
        space = _CONVERTER.structure(raw, Space)
    except Exception as exc:  # cattrs' exception groups, with every problem inside
        listed = "; ".join(f"{where}: {reason}" for where, reason in problems(exc))
        raise SpaceError(f"{path}: {listed}") from None
    found = [
        f"$.knob[{i}]: {problem}"
        for i, knob in enumerate(space.knob)
        if (problem := knob.problem()) is not None
    ]
    names = [knob.name for knob in space.knob]
    found += [
        f"$.knob: {name!r} is declared twice"
        for name in sorted(set(names))
        if names.count(name) > 1
    ]
    if not space.knob:
        found.append("$.knob: no knob to tune")
    if len(space.knob) > MAX_KNOBS:
        found.append(f"$.knob: {len(space.knob)} knobs; a space has at most {MAX_KNOBS}")
    if found:
        raise SpaceError(f"{path}: " + "; ".join(found))
    return space


def house_rule(space: Space, point: Mapping[str, Any], version: str, description: str) -> str:
    """The content-only house rule setting every knob to ``point[knob.name]``."""
    import tomli_w

    settings: dict[str, int] = {}
    overrides: dict[str, dict[str, Any]] = {}
    for knob in space.knob:
        value = point[knob.name]
        if knob.target == SETTINGS:
            settings[knob.field] = value
        elif knob.field:
            overrides.setdefault(knob.target, {"target": knob.target})[knob.field] = value
        else:
            entry = overrides.setdefault(knob.target, {"target": knob.target})
            entry.setdefault("params", {})[knob.param] = value
    document: dict[str, Any] = {
        "house-rule": {
            "name": space.tune.name,
            "version": version,
            "description": description,
        }
    }
    if settings:
        document["settings"] = settings
    if overrides:
        document["override"] = list(overrides.values())
    return tomli_w.dumps(document)


def self_contained(rule: str, baseline: Sequence[tuple[str, bytes]]) -> str | None:
    """The tune's answer ``rule`` (a content house rule) merged into the baseline's TOML
    house rules ``baseline`` (file name, bytes), so one file is the whole variant: their
    content first, then ``[settings]`` with the knobs' values and each knob's override
    merged into the baseline's override of the same target (a house rule may not set a value twice).
    None when a baseline rule is Python, which no TOML file can carry (the answer then
    goes with it: ``--house-rules RULE.py --house-rules BEST.toml``)."""
    import tomli
    import tomli_w

    if not baseline:
        return rule
    if any(not name.endswith(".toml") for name, _ in baseline):
        return None
    merged: dict[str, Any] = {}
    overrides: dict[str, dict[str, Any]] = {}
    for _, data in baseline:
        document = tomli.loads(data.decode("utf-8"))
        document.pop("house-rule", None)
        for entry in document.pop("override", []):
            _merge(overrides.setdefault(entry["target"], {}), entry)
        for key, value in document.items():
            if isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            elif isinstance(value, dict):
                merged.setdefault(key, {}).update(value)
            else:
                merged[key] = value
    answer = tomli.loads(rule)
    merged.setdefault("settings", {}).update(answer.get("settings", {}))
    if not merged["settings"]:
        del merged["settings"]
    for entry in answer.get("override", []):
        _merge(overrides.setdefault(entry["target"], {}), entry)
    if overrides:
        merged["override"] = list(overrides.values())
    return tomli_w.dumps({"house-rule": answer["house-rule"], **merged})


def _merge(into: dict[str, Any], entry: Mapping[str, Any]) -> None:
    """``entry``'s fields into ``into``; its ``params`` merged key by key."""
    for key, value in entry.items():
        if key == "params" and isinstance(value, Mapping):
            into.setdefault("params", {}).update(value)
        else:
            into[key] = value
