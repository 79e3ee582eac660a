"""Game records: what ``naqala play`` saves and ``naqala replay`` reads.

A record is everything needed to play a game again exactly: the seed, the number of
players, who sat where, the plugins (with their versions, and the sha256 of house-rule
files), the cards left out (``--without``) and every action in notation. The engine is
deterministic, so replaying the actions from ``rules.new_game(players, seed)`` (with the
same cards left out) gives back every state of the game. See
docs/formats.md ("Game records") for every field.

The document's shape is a pair of attrs records read and written by the strict cattrs
converter of ``naqala.core.structured`` (as state documents are), so a wrong type or a
missing key is reported with its JSON path; what the shape cannot say (one seat per
player, house rules with their sha256, valid action notation) is checked after. Version 1
records (without ``without``) are still read.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from naqala.core.actions import Action, NotationError, format_action, parse_action
from naqala.core.content import ContentError
from naqala.core.documents import DocumentError, parse_json
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.files import RECORD_LIMIT, FileRefused, read_text_bounded
from naqala.core.plugins import (
    BASE,
    HouseRuleFile,
    PluginError,
    installed_entry_points,
    load_named,
    load_version,
    read_house_rule,
)
from naqala.core.rng import seed_problem
from naqala.core.serialize import pretty_json
from naqala.core.state import State
from naqala.core.structured import json_type, strict_converter, structure
from naqala.core.without import CARD_KINDS, WithoutError, leave_out

FORMAT = "naqala-record"
#: version 2 added ``without`` (the cards left out of the game)
VERSION = 2
#: the versions this naqala reads
READS = (1, 2)
ENTRY_POINT = "entry-point"
HOUSE_RULE = "house-rule"
#: plugin sources a record can hold ("object" plugins are passed to ``build_rules`` in code)
SOURCES = (ENTRY_POINT, HOUSE_RULE, "object")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class RecordError(ValueError):
    """A record that cannot be read, rebuilt or replayed; the message says where and why."""


def engine_version() -> str:
    """The installed version of naqala (``"unknown"`` when it is not installed)."""
    try:
        return version("naqala")
    except PackageNotFoundError:  # pragma: no cover - the package is always installed
        return "unknown"


@attrs.frozen
class PluginRef:
    """A plugin as a record names it. ``sha256`` and ``path`` are for house-rule files
    (``""`` and ``None`` otherwise)."""

    name: str
    version: str
    source: str = ENTRY_POINT
    sha256: str = ""
    path: str | None = None


def _str_tuple(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(values)


def _ref_tuple(values: Sequence[PluginRef]) -> tuple[PluginRef, ...]:
    return tuple(values)


def _scores_tuple(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


@attrs.frozen
class GameRecord:
    """One game: how it was set up and every action taken, in order."""

    seed: int
    players: int
    seats: tuple[str, ...] = attrs.field(converter=_str_tuple)
    plugins: tuple[PluginRef, ...] = attrs.field(converter=_ref_tuple)
    actions: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    engine: str = attrs.field(factory=engine_version)
    final_scores: tuple[int, ...] | None = attrs.field(default=None, converter=_scores_tuple)
    #: the cards left out of the game (``djinn:ID``, ``card:ID``: ``naqala.core.without``)
    without: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)


# -- making records ---------------------------------------------------------------------------


def plugin_refs(rules: Rules) -> tuple[PluginRef, ...]:
    """The plugins of ``rules`` in registration order, as a record names them (by id, as
    states do: the Whims box is ``djinns``, which every release reads). A house
    rule keeps only its file's name, as a hint for the person replaying: the file itself
    is never looked for there (see :func:`match_house_rules`), and a shared record need
    not tell the folders of the machine it was played on."""
    refs = []
    for info in rules.plugins:
        path = None
        if info.source == HOUSE_RULE:
            location = info.path or getattr(info.module, "__file__", None)
            path = Path(location).name if isinstance(location, (str, Path)) else None
        refs.append(PluginRef(info.id, info.version, info.source, info.sha256, path))
    return tuple(refs)


def new_record(rules: Rules, seed: int, players: int, seats: Sequence[str]) -> GameRecord:
    """The record of a game about to start: no actions, no final scores yet."""
    if players < 1:
        raise ValueError(f"a game needs at least one player, not {players}")
    if len(seats) != players:
        raise ValueError(f"{players} players need {players} seats, not {len(seats)}")
    return GameRecord(
        seed=seed,
        players=players,
        seats=seats,
        plugins=plugin_refs(rules),
        without=rules.without,
    )


def with_action(record: GameRecord, action: Action | str) -> GameRecord:
    """``record`` with one more action (written in canonical notation). Final scores are
    cleared: a game that goes on has not ended. ``NotationError`` for malformed text."""
    text = format_action(parse_action(action) if isinstance(action, str) else action)
    return attrs.evolve(record, actions=(*record.actions, text), final_scores=None)


def without_last(record: GameRecord, n: int) -> GameRecord:
    """``record`` without its last ``n`` actions (undo); final scores are cleared."""
    if not 0 <= n <= len(record.actions):
        raise ValueError(f"cannot take back {n} of {len(record.actions)} actions")
    if n == 0:
        return record
    return attrs.evolve(record, actions=record.actions[:-n], final_scores=None)


def with_final_scores(record: GameRecord, scores: Sequence[int]) -> GameRecord:
    """``record`` with the final scores of the finished game (one per player)."""
    if len(scores) != record.players:
        raise ValueError(f"{record.players} players need {record.players} scores")
    return attrs.evolve(record, final_scores=tuple(scores))


# -- the document's shape ---------------------------------------------------------------------


@attrs.define
class PluginDoc:
    name: str
    version: str
    source: str
    sha256: str
    path: str | None = None  # house rules only (left out of the document otherwise)


@attrs.define
class RecordDoc:
    """A record document of the current version; version 1 had no ``without``."""

    format: str
    version: int
    engine: str
    seed: int
    players: int
    seats: list[str]
    plugins: list[PluginDoc]
    without: list[str]
    actions: list[str]
    final_scores: list[int] | None


#: records may carry keys of their own (a comment…): they are ignored, not refused
_CONVERTER = strict_converter(forbid_extra_keys=False)
_CONVERTER.register_unstructure_hook(
    PluginDoc,
    make_dict_unstructure_fn(PluginDoc, _CONVERTER, path=override(omit_if_default=True)),
)


# -- writing ----------------------------------------------------------------------------------


def record_to_doc(record: GameRecord) -> RecordDoc:
    return RecordDoc(
        format=FORMAT,
        version=VERSION,
        engine=record.engine,
        seed=record.seed,
        players=record.players,
        seats=list(record.seats),
        plugins=[PluginDoc(r.name, r.version, r.source, r.sha256, r.path) for r in record.plugins],
        without=list(record.without),
        actions=list(record.actions),
        final_scores=None if record.final_scores is None else list(record.final_scores),
    )


def record_to_data(record: GameRecord) -> dict[str, Any]:
    """The record as plain JSON data (dicts, lists, strings, numbers)."""
    data: dict[str, Any] = _CONVERTER.unstructure(record_to_doc(record))
    return data


def record_to_json(record: GameRecord) -> str:
    """The record as a JSON document (stable key order, newline at the end)."""
    return pretty_json(record_to_data(record)) + "\n"


def save_record(path: Path, record: GameRecord) -> None:
    """Write ``record`` to ``path`` atomically (see :func:`write_atomically`)."""
    write_atomically(Path(path), record_to_json(record).encode("utf-8"))


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: the whole document goes to a temporary
    file in the same directory, is flushed to disk, then replaces ``path`` in one step. If
    anything fails, ``path`` keeps its old contents (or does not exist) and the temporary
    file is removed; the error is raised (``OSError`` for the file system)."""
    directory = path.parent
    mode: int | None = None
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(os.stat(path).st_mode)  # keep the permissions of the old file
    temp, fd = _create_temporary(directory, path.name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_directory(directory)


def _create_temporary(directory: Path, name: str) -> tuple[Path, int]:
    """A new file ``.<name>.<random>.tmp`` in ``directory``, opened for writing, created
    with the usual permissions (0666 less the umask) like any file the user writes."""
    while True:
        temp = directory / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable where the platform allows it (best effort)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)


# -- reading ----------------------------------------------------------------------------------


class _Reader:
    """Checks what the document's shape cannot say; every problem names ``source`` and
    its JSON path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, reason: str) -> RecordError:
        return RecordError(f"{self.source}: {path}: {reason}")

    def version(self, data: Any) -> int:
        """The document's version, once it is known to be a record this naqala reads."""
        if not isinstance(data, dict):
            raise self.fail("$", f"expected an object, got {json_type(data)}")
        if "format" not in data:
            raise self.fail("$.format", "required field missing")
        if data["format"] != FORMAT:
            raise self.fail("$.format", f"expected {FORMAT!r}, not {json.dumps(data['format'])}")
        if "version" not in data:
            raise self.fail("$.version", "required field missing")
        number = data["version"]
        if isinstance(number, bool) or not isinstance(number, int):
            raise self.fail("$.version", f"expected an integer, got {json_type(number)}")
        if number not in READS:
            versions = " and ".join(str(v) for v in READS)
            raise self.fail("$.version", f"this naqala reads versions {versions}, not {number}")
        return number

    def plugin(self, i: int, entry: PluginDoc) -> PluginRef:
        path = f"$.plugins[{i}]"
        if not entry.name:
            raise self.fail(f"{path}.name", "a plugin name cannot be empty")
        if entry.source not in SOURCES:
            raise self.fail(
                f"{path}.source", f"expected one of {', '.join(SOURCES)}, not {entry.source!r}"
            )
        if entry.source == HOUSE_RULE:
            if not _SHA256.match(entry.sha256):
                raise self.fail(
                    f"{path}.sha256", "a house rule needs its sha256 (64 lowercase hex digits)"
                )
            if entry.path is None:
                raise self.fail(f"{path}.path", "a house rule needs the name of its file")
        return PluginRef(entry.name, entry.version, entry.source, entry.sha256, entry.path)

    def record(self, doc: RecordDoc) -> GameRecord:
        if problem := seed_problem(doc.seed):
            raise self.fail("$.seed", problem)
        if doc.players < 1:
            raise self.fail("$.players", "expected at least one player")
        if len(doc.seats) != doc.players:
            raise self.fail(
                "$.seats", f"expected one seat per player ({doc.players}), not {len(doc.seats)}"
            )
        plugins = tuple(self.plugin(i, entry) for i, entry in enumerate(doc.plugins))
        names = [p.name for p in plugins]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise self.fail(f"$.plugins[{i}].name", f"plugin {name!r} is listed twice")
        for i, ref in enumerate(doc.without):
            kind, _, card = ref.partition(":")
            if kind not in CARD_KINDS or not card:
                raise self.fail(f"$.without[{i}]", f"expected djinn:ID or card:ID, not {ref!r}")
        for i, text in enumerate(doc.actions):
            try:
                parse_action(text)
            except NotationError as exc:
                raise self.fail(f"$.actions[{i}]", f"{text!r} is not an action: {exc}") from None
        final = doc.final_scores
        if final is not None and len(final) != doc.players:
            raise self.fail(
                "$.final_scores",
                f"expected one score per player ({doc.players}), not {len(final)}",
            )
        return GameRecord(
            seed=doc.seed,
            players=doc.players,
            seats=doc.seats,
            plugins=plugins,
            actions=doc.actions,
            engine=doc.engine,
            final_scores=final,
            without=doc.without,
        )


def record_from_data(data: Any, source: str = "record") -> GameRecord:
    """The record in a parsed document (version 1 or 2). Raises ``RecordError`` naming
    ``source``, the JSON path of the first problem and what is wrong there."""
    reader = _Reader(source)
    if reader.version(data) == 1:
        data = dict(data, without=[])  # version 1 left nothing out
    doc = structure(_CONVERTER, data, RecordDoc, reader.fail)
    return reader.record(doc)


def record_from_json(text: str, source: str = "record") -> GameRecord:
    """The record in a JSON document; ``RecordError`` naming ``source`` and the JSON path
    of the first problem if it is not one."""
    try:
        data = parse_json(text)
    except DocumentError as exc:  # not JSON, nested too deep, a key twice, huge numbers
        raise RecordError(f"{source}: {exc}") from None
    return record_from_data(data, source)


def load_record(path: Path) -> GameRecord:
    """The record saved in ``path``; ``RecordError`` if it cannot be read (not a regular
    file, or more than ``RECORD_LIMIT`` bytes) or is not one."""
    try:
        text = read_text_bounded(path, RECORD_LIMIT, "record")
    except FileRefused as exc:
        raise RecordError(str(exc)) from None
    return record_from_json(text, str(path))


# -- rebuilding the rules and replaying -------------------------------------------------------


def _describe(ref: PluginRef) -> str:
    if ref.source == HOUSE_RULE:
        return f"{ref.name} (house rule {ref.sha256[:12]}…)"
    return f"{ref.name} {ref.version}"


#: how a command asks for a house-rule file a record needs
GIVE_HOUSE_RULE = "pass the file with --house-rules PATH"


def _file_hint(ref: PluginRef) -> str:
    """The recorded file name of a house rule, quoted (the record's author wrote it: it is
    shown, never opened). Old records hold a whole path; only its last part is shown."""
    recorded = re.split(r"[\\/]", ref.path or "")[-1] or "?"
    return repr(recorded[:80])


def _house_rule_words(ref: PluginRef) -> str:
    return (
        f"house rule {ref.name[:80]!r} (recorded file {_file_hint(ref)}, sha256 {ref.sha256[:12]}…)"
    )


def match_house_rules(
    record: GameRecord,
    given: Sequence[Path | HouseRuleFile],
    ask: str = GIVE_HOUSE_RULE,
    pool: bool = False,
) -> tuple[HouseRuleFile, ...]:
    """The files of ``given`` that are the record's house rules, in the record's order,
    each matched by sha256 to the bytes that will run. This is the one place where a
    record and house-rule code meet: every command and the web server use it, and the
    path a record names is never read. Paths in ``given`` are read once here.

    ``RecordError`` if a house rule of the record is not among ``given`` (the message
    names the rule, its recorded file name and ends with ``ask``, how to give it), or, unless
    ``given`` is a ``pool`` to choose from (the web server's files), if a given file is not
    one of the record's house rules (changed since the game, or another file)."""
    try:
        files = [f if isinstance(f, HouseRuleFile) else read_house_rule(f) for f in given]
    except PluginError as exc:
        raise RecordError(str(exc)) from None
    houses = [ref for ref in record.plugins if ref.source == HOUSE_RULE]
    wanted = {ref.sha256 for ref in houses}
    if not pool:
        for file in files:
            if file.sha256 not in wanted:
                raise RecordError(_not_of_the_record(file, houses))
    by_hash = {file.sha256: file for file in files}
    for ref in houses:
        if ref.sha256 not in by_hash:
            raise RecordError(f"the record needs the {_house_rule_words(ref)}; {ask}")
    return tuple(by_hash[ref.sha256] for ref in houses)


def _not_of_the_record(file: HouseRuleFile, houses: Sequence[PluginRef]) -> str:
    """Why a given file cannot replay the record; a file of a recorded file's name has
    most likely changed since the game."""
    same_name = [ref for ref in houses if _file_hint(ref) == repr(file.name[:80])]
    if same_name:
        return (
            f"--house-rules {file.path} is not the {_house_rule_words(same_name[0])} the "
            f"record was made with: its sha256 is {file.sha256[:12]}… (the file has changed)"
        )
    if not houses:
        return f"--house-rules {file.path}: the record has no house rules"
    known = "; ".join(_house_rule_words(ref) for ref in houses)
    return (
        f"--house-rules {file.path} (sha256 {file.sha256[:12]}…) is none of the record's "
        f"house rules: {known}"
    )


def rules_for_record(
    record: GameRecord,
    house_rules: Sequence[Path | HouseRuleFile] = (),
    ask: str = GIVE_HOUSE_RULE,
    pool: bool = False,
) -> Rules:
    """Rebuild the rules a record was played with: installed plugins by name, house rules
    from the files ``house_rules`` matched by sha256 (:func:`match_house_rules`, before any
    plugin is loaded), without the cards the record left out. ``RecordError`` if a house
    rule is not given, a plugin is missing or has another version, or a card left out is
    not in the rebuilt rules."""
    files = match_house_rules(record, house_rules, ask, pool)
    points = installed_entry_points()
    expansions: list[str] = []
    versions: dict[str, str] = {}
    stored: list[PluginRef] = []  # the record's plugins under the names records store
    for ref in record.plugins:
        if ref.source == ENTRY_POINT:
            try:
                stored.append(attrs.evolve(ref, name=load_named(ref.name, points).id))
            except PluginError as exc:
                raise RecordError(
                    f"the record needs plugin {ref.name!r} version {ref.version}, which is "
                    f"not available: {exc}"
                ) from None
            try:  # the version it names: today's, or an older one the plugin keeps
                load_version(ref.name, ref.version, points)
            except PluginError as exc:
                raise RecordError(str(exc).replace("the game was", "the record was")) from None
            versions[ref.name] = ref.version
            if ref.name != BASE:
                expansions.append(ref.name)
        elif ref.source == HOUSE_RULE:
            stored.append(ref)
        else:
            raise RecordError(
                f"plugin {ref.name!r} was passed to the game as a {ref.source!r} plugin, "
                "which a record cannot rebuild"
            )
    try:
        rules = build_rules(expansions, files, versions=versions)
    except (PluginError, ContentError) as exc:
        raise RecordError(f"the record's plugins cannot be combined: {exc}") from None
    rebuilt = plugin_refs(rules)
    if [(r.name, r.version, r.source, r.sha256) for r in rebuilt] != [
        (r.name, r.version, r.source, r.sha256 or _installed_sha256(r, rebuilt)) for r in stored
    ]:
        raise RecordError(
            "the rebuilt rules do not match the record: plugins "
            f"{', '.join(_describe(r) for r in rebuilt)} instead of "
            f"{', '.join(_describe(r) for r in record.plugins)}"
        )
    try:
        return leave_out(rules, record.without)
    except WithoutError as exc:
        raise RecordError(f"the record's cards left out ($.without) do not fit: {exc}") from None


def _installed_sha256(stored: PluginRef, rebuilt: Sequence[PluginRef]) -> str:
    """The sha256 of the installed plugin ``stored`` names, for a record that names none:
    installed ``.toml`` rules are named by it since they are one file, and a record made
    before (or by an installed Python plugin, which has none) matches on name and version."""
    if stored.source != ENTRY_POINT:
        return stored.sha256
    return next((r.sha256 for r in rebuilt if r.name == stored.name), "")


def replay(record: GameRecord, rules: Rules) -> list[State]:
    """Every state of the recorded game: the initial state, then one per action.
    ``RecordError`` naming the action (index and text) that is malformed or illegal."""
    try:
        state = rules.new_game(record.players, record.seed)
    except ValueError as exc:
        raise RecordError(
            f"the game cannot be set up ({record.players} players, seed {record.seed}): {exc}"
        ) from None
    states = [state]
    for index, text in enumerate(record.actions):
        where = f"action $.actions[{index}] ({text!r})"
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise RecordError(f"{where} is malformed: {exc}") from None
        try:
            state = rules.apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"{where} is illegal: {exc}") from None
        states.append(state)
    return states
