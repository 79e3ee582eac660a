"""Content-only house rules: a ``.toml`` content file that is a house rule by itself.

A house rule that only changes numbers (``[settings]``, ``[[override]]``, new cards)
needs no Python wrapper: its ``[house-rule]`` table gives the name, version and
description a Python house rule keeps in ``NAME``, ``VERSION`` and ``DESCRIPTION``, and
the rest of the file is content like any plugin's. Its identity, in records as for a
Python file, is the sha256 of its bytes; the content is parsed from those very bytes
(``CONTENT_TEXTS``), never read again from the disk, and no code of it ever runs.

The table also says what is in and out of the game: ``without`` leaves cards out as
``--without`` does (``WITHOUT``, applied by ``naqala.core.without.declared_without``), and
``requires`` and ``conflicts`` name the boxes it needs or cannot be played with, as a
Python plugin's ``REQUIRES`` and ``CONFLICTS`` do.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from naqala.core.content import HOUSE_RULE_TABLE
from naqala.core.documents import DocumentError, parse_toml
from naqala.core.hookspecs import hookimpl
from naqala.core.without import CARD_KINDS, WithoutError, leave_out

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: the table naming a content-only house rule (skipped by the content loader)
TABLE = HOUSE_RULE_TABLE
#: the keys of the table that are text; ``name`` is required
KEYS = ("name", "version", "description")
#: the keys of the table that are lists of text: cards left out, boxes needed or refused
LISTS = ("without", "requires", "conflicts")
#: what a house rule's name may look like (as an expansion's: lower case, digits, dashes)
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


class HouseRuleTableError(ValueError):
    """A ``.toml`` house rule whose ``[house-rule]`` table is missing or wrong."""


def header(path: Path, data: bytes) -> dict[str, Any]:
    """The ``[house-rule]`` table of ``data`` (the file's bytes): name, version (default
    ``"1"``), description (default empty) and the lists ``without``, ``requires`` and
    ``conflicts`` (as tuples, default empty); ``HouseRuleTableError`` saying where and
    what is wrong, for every problem at once."""
    try:
        raw = parse_toml(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise HouseRuleTableError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except DocumentError as exc:  # not TOML, nested too deep, numbers Python cannot read
        raise HouseRuleTableError(f"{path}: {exc}") from None
    table = raw.get(TABLE)
    if not isinstance(table, dict):
        raise HouseRuleTableError(
            f"{path}: $.{TABLE}: missing: a .toml house rule names itself in a [{TABLE}] "
            "table (name, version, description)"
        )
    problems = [f"$.{TABLE}.{key}: unknown key" for key in sorted(set(table) - {*KEYS, *LISTS})]
    for key in LISTS:
        problems += _list_problems(key, table.get(key, []))
    for key in KEYS:
        if key in table and not isinstance(table[key], str):
            problems.append(f"$.{TABLE}.{key}: must be text, not {type(table[key]).__name__}")
    name = table.get("name")
    if "name" not in table:
        problems.append(f"$.{TABLE}.name: missing")
    elif isinstance(name, str) and NAME.fullmatch(name) is None:
        problems.append(f"$.{TABLE}.name: {name!r} is not lower-case letters, digits and dashes")
    if problems:
        raise HouseRuleTableError(f"{path}: " + "; ".join(problems))
    return {
        "name": str(name),
        "version": str(table.get("version", "1")),
        "description": str(table.get("description", "")),
        **{key: tuple(table.get(key, ())) for key in LISTS},
    }


def _list_problems(key: str, value: Any) -> list[str]:
    """What is wrong with the list ``key`` of the table: not a list, or an item that is
    not a name (``djinn:ID`` for ``without``, a plugin's name otherwise)."""
    where = f"$.{TABLE}.{key}"
    if not isinstance(value, list):
        return [f"{where}: must be a list of text, not {type(value).__name__}"]
    problems = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            problems.append(f"{where}[{i}]: must be text, not {type(item).__name__}")
            continue
        kind, sep, card = item.partition(":")
        if key == "without" and (not sep or kind not in CARD_KINDS or not card):
            problems.append(f"{where}[{i}]: {item!r}: write djinn:ID or card:ID")
        elif key != "without" and NAME.fullmatch(item) is None:
            problems.append(f"{where}[{i}]: {item!r} is not a plugin's name")
    return problems


def content_module(path: Path, data: bytes, module_name: str) -> ModuleType:
    """The plugin of a content-only house rule: its header as the plugin's attributes,
    and its bytes as the content it ships."""
    found = header(path, data)
    module = ModuleType(module_name, found["description"])
    attributes: dict[str, Any] = {
        "NAME": found["name"],
        "VERSION": found["version"],
        "DESCRIPTION": found["description"],
        # the content of this path, as hashed: the loader parses it instead of the file
        "CONTENT_TEXTS": {path: data.decode("utf-8")},
        # what records name it by, installed or not: the file is everything the rule is
        "SHA256": hashlib.sha256(data).hexdigest(),
        "REQUIRES": found["requires"],
        "CONFLICTS": {
            other: f"{path.name} says so ($.{TABLE}.conflicts)" for other in found["conflicts"]
        },
        "WITHOUT": found["without"],
        "WITHOUT_WHERE": f"{path}: $.{TABLE}.without",
    }

    @hookimpl
    def naqala_content_files() -> Iterable[Path]:
        return [path]

    attributes["naqala_content_files"] = naqala_content_files
    module.__dict__.update(attributes)
    return module


@functools.cache
def installed_rule(path: Path) -> ModuleType:
    """The plugin of an installed ``.toml`` house rule (an entry point's attribute, as in
    ``naqala.plugins.house``), read once for the whole process: named like a module
    beside the file, identified by the sha256 of its bytes as when it is given by path."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise HouseRuleTableError(f"{path}: cannot read: {exc.strerror}") from None
    return content_module(path, data, f"naqala_installed_{path.stem}")


def table_problems(path: Path, data: bytes, rules: Rules) -> list[str]:
    """What is wrong with the ``[house-rule]`` table of a file checked as content
    (``naqala content check PATH``) against the ``rules`` it was checked with: its shape,
    a card ``without`` names that the rules lack, a box it requires that is not in them
    or one it conflicts with that is; nothing for a file without the table."""
    try:
        raw = parse_toml(data.decode("utf-8"))
    except (UnicodeDecodeError, DocumentError):
        return []  # the content loader has said so already
    if TABLE not in raw:
        return []
    try:
        found = header(path, data)
    except HouseRuleTableError as exc:
        return [str(exc)]
    problems = []
    names = {name for info in rules.plugins for name in info.known_as}
    for i, other in enumerate(found["requires"]):
        if other not in names:
            problems.append(
                f"{path}: $.{TABLE}.requires[{i}]: {other!r} is not among the rules checked "
                f"(add -x {other})"
            )
    for i, other in enumerate(found["conflicts"]):
        if other in names:
            problems.append(f"{path}: $.{TABLE}.conflicts[{i}]: {other!r} is among the rules")
    try:
        leave_out(rules, found["without"], f"{path}: $.{TABLE}.without")
    except WithoutError as exc:
        problems.append(str(exc))
    return problems
