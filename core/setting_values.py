"""The values a ``[settings]`` entry may hold, and the one way dotted names are written.

A setting is a number (as it always was), a boolean, a text among choices its plugin
declares (``[setting_choices]``), or an array of texts or of small tables of scalars
(``start.cards = [{deck = "resources", kind = "fakir", count = 2}]``). TOML reads
``end.after_round = 8`` as a nested table: it is flattened here to the one name
``end.after_round``, so a setting has one name in a file, a message, Python and the kernel.
The type a setting must have is the type of the value the plugin that reads it sets (the
default in its own file); ``core/meaning.py`` checks content alone against it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from naqala.core.overrides import MAX_NUMBER
from naqala.core.structured import OutOfBounds, json_type, shown

#: a scalar inside a setting's array (a field of a small table, or one text)
Scalar = int | bool | str
#: one setting's value as content holds it once read (arrays as tuples)
SettingValue = int | bool | str | tuple[str, ...] | tuple[Mapping[str, Scalar], ...]
#: the longest text a setting (or a text inside one) may hold, and the most entries of an
#: array: settings are names and small lists, never data
MAX_TEXT = 200
MAX_ENTRIES = 100
#: one part of a dotted name
_PART = re.compile(r"[A-Za-z0-9_-]+")


def flatten(table: Any, problems: list[str], where: str, prefix: str = "") -> Any:
    """``table`` with nested tables turned into dotted names (``end.after_round``); a
    value that is no table is returned as it is (the structuring reports it). A name
    written twice (``"end.after_round"`` quoted and nested) is a problem."""
    if not isinstance(table, dict):
        return table
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            nested = flatten(value, problems, where, f"{name}.")
            entries = nested.items()
        else:
            entries = {name: value}.items()
        for dotted, entry in entries:
            if dotted in flat:
                problems.append(f"{where}.{dotted}: is written twice")
            flat[dotted] = entry
    return flat


def check_value(name: str, value: Any) -> None:
    """Raise ``OutOfBounds`` (at ``settings.<name>…``) unless ``value`` is a setting's
    value: a bounded number, a boolean, a short text, or a short array of texts or of
    tables of those scalars."""
    if not all(_PART.fullmatch(part) for part in name.split(".")):
        raise OutOfBounds(name, "a setting's name is words joined by dots")
    if isinstance(value, list):
        if len(value) > MAX_ENTRIES:
            raise OutOfBounds(name, f"{len(value)} entries, more than {MAX_ENTRIES}")
        for i, entry in enumerate(value):
            if isinstance(entry, dict):
                for key, scalar in entry.items():
                    _check_scalar(f"{name}[{i}].{key}", scalar, MAX_NUMBER)
            elif isinstance(entry, str):
                _check_scalar(f"{name}[{i}]", entry, MAX_NUMBER)
            else:
                raise OutOfBounds(
                    f"{name}[{i}]", f"expected a string or a table, got {json_type(entry)}"
                )
        kinds = {type(entry) for entry in value}
        if len(kinds) > 1:
            raise OutOfBounds(name, "mixes strings and tables")
        return
    _check_scalar(name, value, MAX_NUMBER)


def _check_scalar(name: str, value: Any, most: int) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if value > most:
            raise OutOfBounds(name, f"{shown(value)} is more than {most}")
        if value < -most:
            raise OutOfBounds(name, f"{shown(value)} is less than {-most}")
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise OutOfBounds(name, f"a text of {len(value)} characters, more than {MAX_TEXT}")
        return
    raise OutOfBounds(
        name, f"expected an integer, a boolean, a string or an array, got {json_type(value)}"
    )


def setting_values(_instance: Any, attribute: Any, value: Any) -> None:
    """An attrs validator for ``[settings]``: every value is a setting's value."""
    for name, entry in value.items():
        try:
            check_value(name, entry)
        except OutOfBounds as exc:
            raise OutOfBounds(f"{attribute.name}.{exc.field}", exc.reason) from None


def choice_lists(_instance: Any, attribute: Any, value: Any) -> None:
    """An attrs validator for ``[setting_choices]``: each names a short list of texts."""
    for name, entry in value.items():
        if not entry or len(entry) > MAX_ENTRIES:
            raise OutOfBounds(f"{attribute.name}.{name}", f"lists 1 to {MAX_ENTRIES} choices")


def frozen(value: Any) -> SettingValue:
    """A setting's value as content keeps it: arrays as tuples (tables as new dicts)."""
    if isinstance(value, list):
        return tuple(dict(entry) if isinstance(entry, dict) else entry for entry in value)
    return value  # type: ignore[no-any-return]


def kind(value: object) -> str:
    """A setting value's type in a document's words (``an integer``, ``an array``)."""
    return json_type(list(value) if isinstance(value, tuple) else value)


def is_number(value: object) -> bool:
    """Whether a setting's value is a number (a boolean is not)."""
    return isinstance(value, int) and not isinstance(value, bool)
