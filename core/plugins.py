"""Finding, loading and ordering plugins.

Plugins are found through the entry-point group ``naqala.plugins``; a plugin is a module (or
any object) with hook implementations and a few attributes: ``NAME``, ``VERSION``,
``DESCRIPTION``, and optionally ``ID`` (what saved games call it, see below),
``REQUIRES`` (names it builds on), ``ALIASES`` (other names a person may type) and
``REPLACES`` (stages, ``tribe:``/``tile:`` actions or ``djinn:`` kinds it replaces) and
``EDITIONS`` (released versions it still plays: version → the module of a plugin of that
version, marked ``EDITION = True``, so a game saved with it replays as it was played). House
rules are single Python files named by the user (``--house-rules FILE``): each is read once
(:func:`read_house_rule`) and the very bytes that were hashed are compiled and run, so a
file swapped after its sha256 was checked cannot run. A ``.toml`` house rule is content
alone (``naqala.core.content_rule``): its bytes are parsed as content, and nothing runs.
Order is deterministic: base, then expansions by dependency (ties in the order given),
then house rules in the order given.

A plugin's ``NAME`` is what people type and read; its ``ID`` (its ``NAME`` unless it says
otherwise) is what states and records store and what the content is merged by. A plugin
renamed keeps its old name as its ``ID``, so the files saved before load and the games of
a seed stay the same (the Whims box: ``NAME = "whims"``, ``ID = "djinns"``).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from naqala.core.files import HOUSE_RULE_LIMIT, FileRefused, read_bounded
from naqala.core.parsing import PARSE_LOCK

GROUP = "naqala.plugins"
BASE = "base"
#: the entry-point group of installed AI players: modules answering ``naqala_agents``
#: for every game, whatever its rules (players are not rules: no record lists them)
AGENT_GROUP = "naqala.agents"


class PluginError(Exception):
    """A plugin that cannot be found, loaded or combined."""


@attrs.frozen
class PluginInfo:
    """A loaded plugin and what identifies it in a game record."""

    name: str
    version: str
    module: Any = attrs.field(eq=False)
    description: str = ""
    requires: tuple[str, ...] = ()
    source: str = "entry-point"  # or "house-rule"
    sha256: str = ""  # for house-rule files
    path: str | None = None  # where a house-rule file was loaded from
    #: what states and records call the plugin, and the key its content is merged by:
    #: its ``NAME`` unless the plugin was renamed (``ID``, kept from the old name)
    id: str = attrs.field(default=attrs.Factory(lambda info: info.name, takes_self=True))
    aliases: tuple[str, ...] = ()  # other names a person may type for it

    @property
    def known_as(self) -> frozenset[str]:
        """Every name that means this plugin: its name, its id and its aliases."""
        return frozenset((self.name, self.id, *self.aliases))


def installed_entry_points() -> dict[str, EntryPoint]:
    """Installed plugins by entry-point name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def installed_clashes() -> dict[str, str]:
    """Entry-point names that two installed distributions give to different modules, each
    with a message naming both: such a name stands for no plugin (which one would load
    depends on the order of the installation's folders)."""
    found: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, []).append(point)
    clashes = {}
    for name, points in found.items():
        values = sorted({_installed_source(point) for point in points})
        if len(values) > 1:
            clashes[name] = (
                f"two installed plugins are named {name!r}: {' and '.join(values)}; "
                "uninstall one of them"
            )
    return clashes


def _installed_source(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    owner = f" (distribution {dist.name})" if dist is not None else ""
    return f"{point.value}{owner}"


def describe(
    module: Any, source: str = "entry-point", sha256: str = "", path: str | None = None
) -> PluginInfo:
    """The ``PluginInfo`` of a plugin object, checked for the attributes a plugin needs."""
    name = getattr(module, "NAME", None)
    if not isinstance(name, str) or not name:
        raise PluginError(f"plugin {module!r} has no NAME")
    stored = getattr(module, "ID", name)
    if not isinstance(stored, str) or not stored:
        raise PluginError(f"plugin {name!r}: its ID must be a name, not {stored!r}")
    return PluginInfo(
        name=name,
        version=str(getattr(module, "VERSION", "0")),
        module=module,
        description=str(getattr(module, "DESCRIPTION", "")),
        requires=tuple(getattr(module, "REQUIRES", ())),
        source=source,
        # a .toml rule, installed too, is named by the sha256 of its one file
        sha256=sha256 or str(getattr(module, "SHA256", "")),
        path=path,
        id=stored,
        aliases=tuple(str(alias) for alias in getattr(module, "ALIASES", ())),
    )


def _aliases(points: dict[str, EntryPoint]) -> dict[str, str]:
    """Alias → entry-point name for installed plugins known by other names (their
    ``ALIASES`` and their ``ID``), loaded lazily by name."""
    aliases: dict[str, str] = {}
    for name, point in points.items():
        try:
            module = point.load()
        except LOAD_FAILURES:  # a broken plugin must not stop the others
            continue
        own = (getattr(module, "NAME", name), getattr(module, "ID", name))
        for alias in (*own, *getattr(module, "ALIASES", ())):
            if alias != name and alias not in points:
                aliases[alias] = name
    return aliases


def installed_names(points: dict[str, EntryPoint] | None = None) -> dict[str, str]:
    """Every name an installed plugin may be asked for by (its entry-point name, its
    ``ALIASES``, its ``ID``) → its entry-point name: what a lobby or a study accepts."""
    points = installed_entry_points() if points is None else points
    return {**_aliases(points), **{name: name for name in points}}


def stored_name(name: str) -> str:
    """What states and records call the installed plugin asked for as ``name`` (its
    ``ID``): the one spelling of a plugin that has several (``whims``, ``djinns``).
    ``PluginError`` if no installed plugin goes by ``name``."""
    return load_named(name).id


def unknown_plugin_message(name: str, known: Sequence[str], aliases: Sequence[str] = ()) -> str:
    """Say that ``name`` is unknown, list the known names and suggest the closest one
    (of the names and their ``aliases``: ``djins`` is closest to ``djinns``)."""
    message = f"unknown expansion {name!r}; known expansions: {', '.join(sorted(known)) or 'none'}"
    close = difflib.get_close_matches(name, sorted({*known, *aliases}), n=1, cutoff=0.5)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return message


def describe_installed() -> list[dict[str, Any]]:
    """Every installed plugin as a dict (name, aliases, version, status, description,
    hooks, error), sorted by name; a plugin that fails to load is reported, never raised."""
    entries = []
    clashes = installed_clashes()
    for name, point in sorted(installed_entry_points().items()):
        entry: dict[str, Any] = {
            "name": name,
            "aliases": [],
            "version": "",
            "status": "ok",
            "description": "",
            "hooks": [],
            "error": "",
        }
        if name in clashes:
            entry.update(status="broken", error=clashes[name])
            entries.append(entry)
            continue
        try:
            info = describe(point.load())
        except LOAD_FAILURES as exc:  # a broken plugin is reported, not raised
            entry.update(status="broken", error=load_failure(exc))
        else:
            entry.update(
                aliases=sorted(getattr(info.module, "ALIASES", ())),
                version=info.version,
                description=info.description,
                hooks=sorted(
                    attr
                    for attr in dir(info.module)
                    if attr.startswith("naqala_") and callable(getattr(info.module, attr))
                ),
            )
        entries.append(entry)
    return entries


def load_named(
    name: str,
    points: dict[str, EntryPoint] | None = None,
    clashes: dict[str, str] | None = None,
) -> PluginInfo:
    """Load the installed plugin called ``name`` (or one of its aliases); ``points`` and
    ``clashes`` are looked up when not given."""
    points = installed_entry_points() if points is None else points
    clash = (installed_clashes() if clashes is None else clashes).get(name)
    if clash is not None:
        raise PluginError(clash)
    if name not in points:
        aliases = _aliases(points)
        real = aliases.get(name)
        if real is None:
            others = [n for n in points if n != BASE]
            raise PluginError(unknown_plugin_message(name, others, list(aliases)))
        name = real
    try:
        module = points[name].load()
    except LOAD_FAILURES as exc:
        raise PluginError(f"plugin {name!r} failed to load: {load_failure(exc)}") from exc
    return describe(module)


def load_version(
    name: str,
    version: str,
    points: dict[str, EntryPoint] | None = None,
    clashes: dict[str, str] | None = None,
) -> PluginInfo:
    """The installed plugin ``name`` at ``version``: itself, or the edition of that version
    it keeps (``EDITIONS``); a PluginError saying which versions it plays otherwise."""
    info = load_named(name, points, clashes)
    if info.version == version:
        return info
    editions: Mapping[str, str] = getattr(info.module, "EDITIONS", {})
    if version not in editions:
        plays = ", ".join(sorted({info.version, *editions}))
        raise PluginError(
            f"plugin {name!r} is mismatched: the game was made with version {version}, but "
            f"version {info.version} is installed (it plays versions {plays})"
        )
    try:
        edition = describe(importlib.import_module(editions[version]))
    except LOAD_FAILURES as exc:
        raise PluginError(
            f"plugin {name!r} version {version} failed to load: {load_failure(exc)}"
        ) from exc
    if (edition.name, edition.version) != (info.name, version):
        raise PluginError(
            f"plugin {name!r}: its edition {version} is {edition.name!r} {edition.version}"
        )
    return edition


def is_edition(info: PluginInfo) -> bool:
    """Whether ``info`` is a kept edition of an older version, not the installed one."""
    return bool(getattr(info.module, "EDITION", False))


def installed_players() -> list[tuple[str, Any]]:
    """The installed player modules (group ``AGENT_GROUP``) by entry-point name, sorted;
    ``PluginError`` naming one that fails to load."""
    found = []
    for point in sorted(entry_points(group=AGENT_GROUP), key=lambda p: (p.name, p.value)):
        try:
            module = point.load()
        except LOAD_FAILURES as exc:
            raise PluginError(
                f"installed AI players {point.name!r} failed to load: {load_failure(exc)}"
            ) from exc
        if not callable(getattr(module, "naqala_agents", None)):
            raise PluginError(
                f"installed AI players {point.name!r} ({point.value}) answer no naqala_agents"
            )
        found.append((point.name, module))
    return found


@attrs.frozen
class HouseRuleFile:
    """A house-rule file as it was read: its contents and their sha256. The contents are
    what :func:`load_house_rule` runs, so what was hashed (and matched against a record)
    is exactly what executes, whatever happens to the file on disk afterwards."""

    path: Path
    data: bytes = attrs.field(repr=False, eq=False)
    sha256: str

    @property
    def name(self) -> str:
        """The file's name (how the web server offers it, how a record hints at it)."""
        return self.path.name


#: what a house-rule file may be: Python source, or content alone (``core.content_rule``)
HOUSE_RULE_SUFFIXES = (".py", ".toml")


def read_house_rule(path: Path) -> HouseRuleFile:
    """Read a house-rule file once; ``PluginError`` naming it if it cannot be read or is
    neither Python source nor a ``.toml`` content file (a ``.so`` or ``.pyc`` would run
    code nobody can read)."""
    path = Path(path)
    if path.suffix not in HOUSE_RULE_SUFFIXES:
        raise PluginError(
            f"{path}: not a house-rule file (a .py file, or a .toml content file with a "
            "[house-rule] table)"
        )
    try:
        data = read_bounded(path, HOUSE_RULE_LIMIT, "house rule")
    except FileRefused as exc:
        raise PluginError(str(exc)) from exc
    return HouseRuleFile(path.resolve(), data, hashlib.sha256(data).hexdigest())


#: every house-rule file loaded in this process, by sha256: the bytes pickled rules carry
#: (``Rules.__reduce__``), so a worker process runs what was hashed here
LOADED_HOUSE_RULES: dict[str, HouseRuleFile] = {}


def load_house_rule(source: Path | HouseRuleFile) -> PluginInfo:
    """Run a house-rule file (read now if given as a path) as a module of its own, named
    after its whole sha256: the same contents are one module for the whole process."""
    file = source if isinstance(source, HouseRuleFile) else read_house_rule(source)
    LOADED_HOUSE_RULES.setdefault(file.sha256, file)
    module_name = f"naqala_house_{file.sha256}"
    module: ModuleType | None = sys.modules.get(module_name)
    if module is None and file.path.suffix == ".toml":
        module = _content_house_rule(file, module_name)
    elif module is None:
        module = _run_house_rule(file, module_name)
    if not hasattr(module, "NAME"):
        setattr(module, "NAME", file.path.stem)  # noqa: B010 - a module attribute set at run time
    return describe(module, source="house-rule", sha256=file.sha256, path=str(file.path))


def _content_house_rule(file: HouseRuleFile, module_name: str) -> ModuleType:
    """The plugin of a content-only house rule, kept under ``module_name`` like a Python
    one (the same bytes are one plugin for the whole process); nothing of it runs."""
    from naqala.core.content_rule import HouseRuleTableError, content_module

    try:
        module = content_module(file.path, file.data, module_name)
    except HouseRuleTableError as exc:
        raise PluginError(str(exc)) from None
    sys.modules[module_name] = module
    return module


def _run_house_rule(file: HouseRuleFile, module_name: str) -> ModuleType:
    """Compile and run ``file.data`` (never the file on disk) as the module ``module_name``,
    registered while it runs as an import would (attrs and dataclasses look it up)."""
    spec = importlib.machinery.ModuleSpec(module_name, None, origin=str(file.path))
    spec.has_location = True
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        with PARSE_LOCK:
            code = compile(file.data, str(file.path), "exec", dont_inherit=True)
        exec(code, module.__dict__)  # a file the user named, checked by sha256 where it must be
    except LOAD_FAILURES as exc:
        del sys.modules[module_name]
        raise PluginError(f"{file.path}: house rule failed to load: {load_failure(exc)}") from exc
    return module


def source_of(info: PluginInfo) -> str:
    """Where a plugin comes from, in words (for messages about two plugins)."""
    if info.source == "house-rule":
        return f"the house rule {info.path}"
    if info.source == "entry-point":
        module = getattr(info.module, "__name__", repr(info.module))
        return f"the installed plugin {module}"
    return f"the plugin object {info.module!r}"


def load_failure(exc: BaseException) -> str:
    """A failure while importing a plugin, in one line (``sys.exit()`` included)."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while loading"
    return f"{type(exc).__name__}: {exc}"


#: what importing a plugin may raise without stopping naqala: any error, and
#: ``SystemExit`` from a plugin that calls ``sys.exit()`` on import
LOAD_FAILURES = (Exception, SystemExit)


def order_plugins(plugins: Sequence[PluginInfo]) -> list[PluginInfo]:
    """Base first, then each plugin after the ones it requires (stable otherwise). A
    plugin is required by any name it is known as (``known_as``); two plugins sharing a
    name or an id are refused, as a state could not tell them apart."""
    unique: list[PluginInfo] = []
    by_name: dict[str, PluginInfo] = {}
    for info in plugins:
        for key in sorted({info.name, info.id}):
            known = by_name.get(key)
            if known is not None and known.module is not info.module:
                raise PluginError(
                    f"two plugins are named {key!r}: {source_of(known)} and "
                    f"{source_of(info)}; give one of them another NAME"
                )
        if info.name in by_name:  # the same plugin asked for twice is fine
            continue
        unique.append(info)
        by_name.update(dict.fromkeys((info.name, info.id), info))
    for info in unique:
        for alias in info.aliases:
            by_name.setdefault(alias, info)
    ordered: list[PluginInfo] = []
    placed: set[str] = set()

    def place(info: PluginInfo, trail: tuple[str, ...]) -> None:
        if info.name in placed:
            return
        if info.name in trail:
            raise PluginError(f"plugins require each other in a cycle: {' -> '.join(trail)}")
        for need in info.requires:
            if need not in by_name:
                raise PluginError(f"plugin {info.name!r} requires {need!r}, which is not enabled")
            place(by_name[need], (*trail, info.name))
        placed.add(info.name)
        ordered.append(info)

    if BASE in by_name:
        place(by_name[BASE], ())
    for info in unique:
        if info.source != "house-rule":
            place(info, ())
    for info in unique:
        place(info, ())
    return ordered


def resolve(
    expansions: Sequence[str] = (),
    house_rules: Sequence[Path | HouseRuleFile] = (),
    extra: Sequence[Any] = (),
    versions: Mapping[str, str] | None = None,
) -> list[PluginInfo]:
    """The ordered plugins of a game: base, the named expansions, house-rule files (paths,
    or files already read), and any plugin objects passed directly (tests do that).
    ``versions`` asks for plugins at the versions a saved game names (``load_version``);
    the others are today's."""
    points, clashes = installed_entry_points(), installed_clashes()
    wanted = dict(versions or {})

    def load(name: str) -> PluginInfo:
        info = load_named(name, points, clashes)
        asked = [wanted[key] for key in sorted(info.known_as | {name}) if key in wanted]
        return load_version(name, asked[0], points, clashes) if asked else info

    infos = [load(BASE)]
    infos += [load(name) for name in expansions]
    infos += [describe(obj, source="object") for obj in extra]
    house = [load_house_rule(p if isinstance(p, HouseRuleFile) else Path(p)) for p in house_rules]
    return order_plugins(infos + house)
