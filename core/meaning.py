"""Content checked for meaning when the rules are built, not when a game trips over it.

The loader (``core/content.py``) checks each file's shape; this module checks what the
merged content means to the plugins in play: every djinn and card ``kind`` has a
registered power, every colour has a tribe action, counts and points are not negative,
board shapes fit their tile counts; then each plugin checks the numbers it reads (hook
``naqala_check_rules``). Every problem names the content file and plugin it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from naqala.core.content import (
    DJINNS,
    RESOURCES,
    CardSpec,
    ContentError,
    ContentFile,
    parse_content_file,
)
from naqala.core.effects import settings_read, sources_of
from naqala.core.setting_values import kind

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: what a problem is about, at its start: ``settings.key``, ``tables.key``, or a section
#: and an id (``djinn 'enki'``, ``tile 'oasis'``) — used to find the file that set it;
#: ``tiles:`` (the number of tiles) names every file that brings tiles
_SUBJECT = re.compile(r"^(?:(settings|tables)\.([\w.-]+?)(?=[:\[ ]|$)|(\w+) '([^']*)')")
_SECTIONS = {
    "colour": ("colour", "id"),
    "token": ("token", "id"),
    "tile": ("tile", "kind"),
    "resource": ("resource", "id"),
    "djinn": ("djinn", "id"),
    "card": ("card", "id"),
}
#: the widest board the tile names can write (columns a to z)
MAX_COLUMNS = 26


class Origins:
    """Which content file (and which plugin shipped it) set a setting or declared an id.
    Files are parsed again only when a problem needs its origin."""

    def __init__(self, files: Sequence[tuple[str, Path]]) -> None:
        self.files = files
        self._parsed: list[tuple[str, Path, ContentFile]] | None = None

    def parsed(self) -> list[tuple[str, Path, ContentFile]]:
        """Every file that parses, with the plugin that ships it, in content order."""
        return self._all()

    def _all(self) -> list[tuple[str, Path, ContentFile]]:
        if self._parsed is None:
            self._parsed = []
            for plugin, path in self.files:
                data, _ = parse_content_file(path)
                if data is not None:
                    self._parsed.append((plugin, path, data))
        return self._parsed

    def of(self, subject: str) -> str:
        """``path (plugin 'name')`` of the file ``subject`` comes from, or ``""``."""
        if subject.startswith("tiles:"):
            return self.tiles_from()
        match = _SUBJECT.match(subject)
        if match is None:
            return ""
        table, key, section, ident = match.groups()
        found = ""
        for plugin, path, data in self._all():
            if table is not None:
                present = key in getattr(data, table)
            elif section in _SECTIONS:
                field, attribute = _SECTIONS[section]
                present = any(getattr(e, attribute) == ident for e in getattr(data, field))
            else:
                present = False
            if present:
                found = f"{path} (plugin {plugin!r})"
                if table is None:
                    break  # ids are declared once; settings: the last file to set one wins
        if not found and table == "tables" and key.startswith("board_"):
            return self.tiles_from()  # no file sets the shape: name who brings the tiles
        if found and section is not None:
            found += self.overridden(f"{section}:{ident}")
        return found

    def overridden(self, target: str) -> str:
        """``, changed by an override in path (plugin 'name')`` for each file with an
        ``[[override]]`` of ``target`` (``djinn:jafaar``; ``tile:oasis`` also finds
        ``tile:oasis@6``): the number a problem is about may be theirs."""
        changed = [
            f", changed by an override in {path} (plugin {plugin!r})"
            for plugin, path, data in self._all()
            if any(o.target.partition("@")[0] == target for o in data.override)
        ]
        return "".join(changed)

    def tiles_from(self) -> str:
        """The files (and plugins) that bring tiles, with how many each."""
        counts = [
            f"{path} (plugin {plugin!r}) {sum(t.count for t in data.tile)}"
            for plugin, path, data in self._all()
            if data.tile
        ]
        return "tiles from " + ", ".join(counts) if counts else ""


def check_rules(rules: Rules, files: Sequence[tuple[str, Path]]) -> None:
    """Refuse content whose meaning the plugins cannot play: a ``ContentError`` listing
    every problem, each with its file and plugin (and the plugin that found it)."""
    origins = Origins(files)
    problems = [_located(origins, p, "") for p in core_problems(rules)]
    mistyped = unknown_settings(rules, origins)
    if mistyped:  # the plugins' checks would read a value of the wrong type: not yet
        raise ContentError(problems + mistyped)
    problems.extend(unchosen_settings(rules, origins))
    for impl in rules.hook.naqala_check_rules.get_hookimpls():
        check = cast(Callable[..., Iterable[str]], impl.function)
        for problem in check(rules=rules):
            problems.append(_located(origins, problem, impl.plugin_name))
    if problems:
        raise ContentError(problems)


def _content_only(rules: Rules, plugin: str) -> bool:
    """Whether ``plugin`` is content alone: its only hook names its content files, so no
    code of its own reads a setting."""
    module = rules.pm.get_plugin(plugin)
    callers = (rules.pm.get_hookcallers(module) or []) if module is not None else []
    return all(caller.name == "naqala_content_files" for caller in callers)


def unknown_settings(rules: Rules, origins: Origins) -> list[str]:
    """Settings that nothing reads: set by a plugin made of content alone (a house rule of
    a TOML file, the files of ``naqala content check``) and by no plugin with code. A
    plugin with code may bring settings of its own; content alone can only set the
    settings of the plugins in play, or the ``<deck>_row`` of one of their decks."""
    content_only = {name for name, _path in origins.files if _content_only(rules, name)}
    if not content_only:
        return []
    set_by = [(plugin, path, data.settings) for plugin, path, data in origins.parsed()]
    known = {
        key for plugin, _path, values in set_by if plugin not in content_only for key in values
    }
    known |= {f"{deck}_row" for deck in rules.deck_names}
    content = rules.content
    known |= settings_read(sources_of(content.triggers, content.tile_actions, content.powers))
    declared = {
        key: value
        for plugin, _path, values in set_by
        if plugin not in content_only
        for key, value in values.items()
    }
    listed = ", ".join(sorted(known))
    found = []
    for plugin, path, values in set_by:
        for key, value in values.items() if plugin in content_only else ():
            where = f"{path} (plugin {plugin!r}): settings.{key}"
            if key not in known:
                found.append(
                    f"{where}: no plugin reads a setting {key!r} (the settings of these "
                    f"rules: {listed})"
                )
            elif key in declared and kind(value) != kind(declared[key]):
                found.append(f"{where}: expected {kind(declared[key])}, got {kind(value)}")
    found.extend(
        f"{path} (plugin {plugin!r}): setting_choices.{key}: only the plugin that reads a "
        "setting declares its choices"
        for plugin, path, data in origins.parsed()
        if plugin in content_only
        for key in data.setting_choices
    )
    return found


def unchosen_settings(rules: Rules, origins: Origins) -> list[str]:
    """Text settings whose value is none of the choices the plugin reading them declares
    (``[setting_choices]``), named with the file that set the value."""
    content = rules.content
    found = []
    for key, choices in sorted(content.setting_choices.items()):
        value = content.typed_settings.get(key, content.settings.get(key))
        if value not in choices:
            found.append(
                f"{origins.of(f'settings.{key}') or 'content'}: settings.{key}: {value!r} is "
                f"none of {', '.join(map(repr, choices))}"
            )
    return found


#: a setting or table a problem mentions after its subject: ``(settings.meeples_per_tile)``
_MENTIONED = re.compile(r"\b((?:settings|tables)\.[\w.-]*\w)")


def _located(origins: Origins, problem: str, checker: str) -> str:
    """``problem`` after the file it is about, and the files of the other settings and
    tables it mentions where they differ: a house rule that set the number at fault is
    named even when the problem is about the base game's tiles."""
    where = origins.of(problem) or "content"
    subject = _SUBJECT.match(problem)
    also = []
    for key in dict.fromkeys(_MENTIONED.findall(problem)):
        if subject is not None and subject.group(0) == key:
            continue
        origin = origins.of(key)
        if origin and origin != where:
            also.append(f"{key} from {origin}")
    if also:
        where += "; " + "; ".join(also)
    by = f" (checked by plugin {checker!r})" if checker else ""
    return f"{where}: {problem}{by}"


def _subject(card: CardSpec) -> str:
    """How a problem names a card: by the TOML table it is written in (``[[djinn]]``,
    ``[[resource]]`` or ``[[card]]``), so its file can be found."""
    section = {RESOURCES: "resource", DJINNS: "djinn"}.get(card.deck, "card")
    return f"{section} {card.id!r}"


def core_problems(rules: Rules) -> Iterable[str]:
    """What every game needs of its content, whatever the plugins."""
    content = rules.content
    for card in content.cards:
        if card.deck != RESOURCES and (card.deck, card.kind) not in rules.powers:
            yield f"{_subject(card)}: no plugin gives the power of kind {card.kind!r}"
    for colour in content.colours:
        if f"tribe:{colour.id}" not in rules.stages:
            yield f"colour {colour.id!r}: no plugin provides its tribe action (tribe:{colour.id})"
        if colour.count < 0:
            yield f"colour {colour.id!r}: count {colour.count} is negative"
    for token in content.tokens:
        if token.count < 0 or token.vp < 0:
            yield f"token {token.id!r}: count and vp must not be negative"
    for tile in content.tiles:
        if tile.vp < 0:
            yield f"tile {tile.kind!r}: vp {tile.vp} is negative"
    for card in content.cards:
        if card.vp < 0:  # (a count below 1 is refused by the record's own validator)
            yield f"{_subject(card)}: vp {card.vp} is negative"
    for key, shape in content.tables.items():
        match = re.fullmatch(r"board_(\d+)", key)
        if match is None:
            continue
        tiles = int(match.group(1))
        if len(shape) != 2 or min(shape) < 1 or shape[1] > MAX_COLUMNS:
            yield f"tables.{key}: {list(shape)} is not [rows, cols] (at most {MAX_COLUMNS} cols)"
        elif shape[0] * shape[1] != tiles:
            yield f"tables.{key}: {shape[0]}x{shape[1]} is not {tiles} tiles"
