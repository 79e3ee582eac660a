"""Reading parsed documents (content TOML, state JSON, game records) into attrs records
with one strict cattrs converter, and saying what is wrong in one way: ``$.path: reason``.

The converter never converts silently: a boolean is no integer, a number no string, a
table or a string no array, an array or a string no object. Every problem cattrs finds is
reported with its path inside the document, in the words of JSON (``expected an integer,
got a string``), so a file of any of the three kinds gets the same kind of message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import cattrs
from cattrs.cols import is_sequence, list_structure_factory
from cattrs.gen import make_dict_structure_fn, override
from cattrs.v import format_exception

T = TypeVar("T")

#: Python types as a JSON (or TOML) document calls them
_WORDS = {
    "bool": "a boolean",
    "int": "an integer",
    "float": "a number",
    "str": "a string",
    "list": "an array",
    "dict": "an object",
    "NoneType": "null",
}
#: marks the field of a validator's reason, carried through cattrs's message to the path
_FIELD = "\x00"
#: what cattrs says when a mapping or a record was expected and something else was there
_NOT_A_MAPPING = re.compile(r"^'(\w+)' object has no attribute '(?:keys|items)'$")


class ShapeError(TypeError):
    """A value of the wrong JSON type; its message is the reason shown to the user."""


class OutOfBounds(ValueError):
    """A number beyond what its field may hold, raised by an attrs validator (``at_most``,
    ``numbers_within``): reported at the field's own path (``$.tile[0].count``)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


def shown(number: int) -> str:
    """A number from a file for a message: absurdly long ones are not written out (Python
    refuses to print integers of thousands of digits)."""
    if abs(number) < 10**15:
        return str(number)
    return f"{'-' if number < 0 else ''}a number of about {number.bit_length() * 3 // 10} digits"


def _bound_reason(value: int, most: int, least: int | None) -> str | None:
    if value > most:
        return f"{shown(value)} is more than {most}"
    if least is not None and value < least:
        return f"{shown(value)} is less than {least}"
    return None


def at_most(most: int, least: int | None = None) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: an integer field (or ``None``) is at most ``most`` and, when
    given, at least ``least``. Lower bounds that depend on meaning are checked where the
    meaning is (``core/meaning.py``); this keeps absurd numbers out of the records."""

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, int) and (reason := _bound_reason(value, most, least)):
            raise OutOfBounds(attribute.name, reason)

    return check


def numbers_within(most: int) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: every number of a table of numbers, or of numbers lists, lies
    between ``-most`` and ``most``; reported at the key (``$.settings.starting_coins``)."""

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        for key, entry in value.items():
            for i, number in enumerate(entry if isinstance(entry, list) else [entry]):
                if isinstance(number, int) and (reason := _bound_reason(number, most, -most)):
                    where = f"{attribute.name}.{key}" + (
                        f"[{i}]" if isinstance(entry, list) else ""
                    )
                    raise OutOfBounds(where, reason)

    return check


def json_type(value: Any) -> str:
    """``an integer``, ``a string``…: the kind of ``value`` in a document's words."""
    name = type(value).__name__
    return _WORDS.get(name, name)


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    wanted = _WORDS[kind.__name__]

    def hook(value: Any, _type: Any) -> Any:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ShapeError(f"expected {wanted}, got {json_type(value)}")
        return value

    return hook


def _strict_list(type_: Any, converter: cattrs.BaseConverter) -> Callable[[Any, Any], Any]:
    """Lists only from arrays: cattrs would otherwise iterate an object (``[tile]`` written
    for ``[[tile]]``) or a string and report confusing errors per key or letter."""
    structure = list_structure_factory(type_, converter)

    def hook(value: Any, _type: Any) -> Any:
        if not isinstance(value, list):
            raise ShapeError(f"expected an array, got {json_type(value)}")
        return structure(value, _type)

    return hook


def _strict_record(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """Records only from objects: cattrs would otherwise index a string or an array and
    report the record's first field instead of the value that is wrong. A field whose key
    in files is a Python keyword names it in its metadata (``{"key": "if"}``)."""
    renamed = {
        field.name: override(rename=field.metadata["key"])
        for field in attrs.fields(cls)
        if "key" in field.metadata
    }
    structure = make_dict_structure_fn(cls, converter, **renamed)  # type: ignore[arg-type]

    def hook(value: Any, _type: Any) -> Any:
        if not isinstance(value, dict):
            raise ShapeError(f"expected an object, got {json_type(value)}")
        return structure(value, _type)

    return hook


def strict_converter(forbid_extra_keys: bool = True) -> cattrs.Converter:
    """A converter that refuses wrong scalar types and anything but an array for a list,
    and (unless ``forbid_extra_keys`` is false) keys the record does not have."""
    converter = cattrs.Converter(forbid_extra_keys=forbid_extra_keys)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook_factory(is_sequence, _strict_list)
    converter.register_structure_hook_factory(attrs.has, _strict_record)
    return converter


def _reason(exc: BaseException, type_: type | None) -> str:
    """One problem in words: ours for wrong types, cattrs's for the rest (``required
    field missing``, ``extra fields found (x)``)."""
    if isinstance(exc, ShapeError):
        return str(exc)
    if isinstance(exc, OutOfBounds):
        return f"{_FIELD}{exc.field}{_FIELD}{exc.reason}"
    if isinstance(exc, AttributeError) and (found := _NOT_A_MAPPING.match(str(exc))):
        return f"expected an object, got {_WORDS.get(found.group(1), found.group(1))}"
    return format_exception(exc, type_)


def problems(exc: Exception, path: str = "$") -> list[tuple[str, str]]:
    """Every problem in a cattrs structuring error as ``(json path, reason)``."""
    found = []
    for message in cattrs.transform_error(exc, path=path, format_exception=_reason):
        reason, sep, where = message.rpartition(" @ ")
        if not sep:
            where, reason = path, message
        if reason.startswith(_FIELD):  # a validator's: the field is below the record
            field, _, reason = reason[len(_FIELD) :].partition(_FIELD)
            where = f"{where}.{field}"
        found.append((where, reason))
    return found


def structure(
    converter: cattrs.Converter,
    value: Any,
    kind: type[T],
    fail: Callable[[str, str], Exception],
    path: str = "$",
) -> T:
    """``value`` as ``kind``; else raises ``fail(path, reason)`` for the first problem."""
    try:
        return converter.structure(value, kind)
    except Exception as exc:  # cattrs raises exception groups with every problem inside
        where, reason = problems(exc, path)[0]
        raise fail(where, reason) from None


__all__ = [
    "OutOfBounds",
    "ShapeError",
    "at_most",
    "json_type",
    "numbers_within",
    "problems",
    "shown",
    "strict_converter",
    "structure",
]
