"""Parsing JSON and TOML documents into plain data a person cannot make dangerous.

Python's parsers accept more than a document of naqala ever needs, and some of it is
harmful: nesting thousands of levels deep raises ``RecursionError`` in the parser or in
whatever walks the result later, a number of thousands of digits raises Python's
digit-limit ``ValueError``, and JSON keeps the last of two equal keys, so a file saying
``"coins": 50, "coins": 999999`` means what a reader of its first line would not think.
Here each of them is one ``DocumentError`` with the path where it is (``$.players[0]``),
so every reader (states, records, board files, content) refuses them in the same words.
"""

from __future__ import annotations

import json
from typing import Any

import tomli

#: the deepest a document may nest arrays and objects (naqala's documents nest about 5)
MAX_DEPTH = 32
#: the most digits a JSON integer may have: far more than any number of a game (a 64-bit
#: seed has 20, and a seed typed on the command line is kept as typed), far less than the
#: 4,300 beyond which Python refuses to read an integer at all
MAX_DIGITS = 1_000


class DocumentError(ValueError):
    """A document that is not read; ``path`` is where (``""`` when the text is not a
    document at all) and ``reason`` what is wrong, both for one line of a message."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.path = path
        self.reason = reason


class _Duplicated(dict[str, Any]):
    """An object whose text gave a key twice: ``key`` is the first key given again."""

    key: str


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    marked = _Duplicated(result)
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            marked.key = key
            break
        seen.add(key)
    return marked


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise DocumentError("", f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str) -> Any:
    raise DocumentError("", f"{name} is not a JSON number")


def _member(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}"  # as the readers name keys (``$.extras.effects.enki``)


def _check(data: Any, what: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and objects that repeat a key, naming the
    path of the first in the text. Iterative: the walk must not be the recursion it
    refuses."""
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(data, 0, ())]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, dict):
            children: Any = value.items()
        elif isinstance(value, list):
            children = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise DocumentError(_path(where), f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, _Duplicated):
            raise DocumentError(
                _path((*where, value.key)), f"the key {value.key!r} is given twice in {what}"
            )
        nested = [
            (child, depth + 1, (*where, key))
            for key, child in children
            if isinstance(child, (dict, list))
        ]
        stack.extend(reversed(nested))  # the first problem in the text is the one said


def _path(where: tuple[Any, ...]) -> str:
    path = "$"
    for key in where:
        path = _member(path, key)
    return path


def parse_json(text: str) -> Any:
    """The data of a JSON document, or ``DocumentError``: not JSON, nested more than
    ``MAX_DEPTH`` levels, an integer of more than ``MAX_DIGITS`` digits, ``NaN`` or a key
    given twice in one object."""
    try:
        data = json.loads(
            text, object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant
        )
    except RecursionError:
        raise DocumentError("", f"not JSON: nested more than {MAX_DEPTH} levels deep") from None
    except DocumentError as exc:
        raise DocumentError("", f"not JSON: {exc.reason}") from None
    except ValueError as exc:  # JSONDecodeError
        raise DocumentError("", f"not JSON: {exc}") from None
    _check(data, "one object")
    return data


def parse_toml(text: str) -> dict[str, Any]:
    """The data of a TOML document, or ``DocumentError``: not TOML, nested more than
    ``MAX_DEPTH`` levels, or an integer Python refuses to read (thousands of digits). TOML
    itself refuses keys given twice."""
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        raise DocumentError("", f"not valid TOML: {exc}") from None
    except RecursionError:
        too_deep = f"not valid TOML: nested more than {MAX_DEPTH} levels deep"
        raise DocumentError("", too_deep) from None
    except ValueError:  # an integer of more digits than Python reads
        raise DocumentError("", "not valid TOML: a number of thousands of digits") from None
    _check(data, "one table")
    return data


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "DocumentError", "parse_json", "parse_toml"]
