"""State JSON: a versioned, human-readable form of a game state that round-trips exactly.

The document names its plugins, so reading it rebuilds the matching rules. Meeples are
written as colour letters (``"YWR"``), tiles by name (``c3``), players from 0 in arrays
and by seat in actions, each player's cards as one hand per deck. See docs/formats.md.

The document's shape is a set of attrs records (``StateDoc``…) read and written by one
strict cattrs converter, so a wrong type, a missing or an unknown key is reported with its
JSON path; what the shape cannot say (a letter that is no colour, a tile off the board, a
player that does not exist) is checked while the records become a ``State``. Version 1
(naqala 0.1: ``cards``/``djinns``/``held`` per player) is still read. A state of rules
with cards left out (``--without``) names them in ``without``, so reading it rebuilds the
same rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from naqala.core.board import parse_tile
from naqala.core.content import DJINNS, RESOURCES
from naqala.core.documents import DocumentError, parse_json
from naqala.core.engine import Rules, rules_for_ruleset, same_plugins
from naqala.core.files import STATE_LIMIT, read_text_bounded
from naqala.core.plugins import (
    LOAD_FAILURES,
    PluginError,
    installed_entry_points,
    installed_names,
    is_edition,
)
from naqala.core.rng import Rng, seed_problem
from naqala.core.state import (
    NOBODY,
    NON_PLAYER,
    Board,
    Counts,
    Decision,
    Deck,
    Layout,
    PlayerState,
    State,
    Turn,
    TurnValue,
)
from naqala.core.structured import OutOfBounds, strict_converter, structure
from naqala.core.turnfields import CORE_FIELDS
from naqala.core.validate import check_state
from naqala.core.without import WithoutError, leave_out

FORMAT = "naqala-state"
VERSION = 2
#: the versions this naqala reads
READS = (1, 2)

T = TypeVar("T")


class StateFormatError(ValueError):
    """A state document that cannot be read; the message says where and why."""


# -- the document's shape -------------------------------------------------------------------


@attrs.define
class DecisionDoc:
    stage: str
    player: int | None


@attrs.define
class TileDoc:
    at: str
    tile: str
    meeples: str
    owner: int | None
    tokens: dict[str, int]


@attrs.define
class BoardDoc:
    rows: int
    cols: int
    blocked: list[str]
    walls: list[list[str]]
    tiles: list[TileDoc]


@attrs.define
class PlayerDoc:
    coins: int
    camels: int
    meeples: str
    hands: dict[str, list[str]]  # deck name -> cards in hand (empty hands left out)
    extras: dict[str, int]


@attrs.define
class PlayerDocV1:
    """A player in version 1: resources, djinns and every plugin deck's cards apart."""

    coins: int
    camels: int
    meeples: str
    cards: list[str]
    djinns: list[str]
    held: list[str]
    extras: dict[str, int]


@attrs.define
class DeckDoc:
    draw: list[str]
    row: list[str]
    discard: list[str]


@attrs.define
class TurnDoc:
    """The core's part of ``turn``; the fields plugins declare are read and written
    beside it (``_turn_fields_of``, ``_with_turn_fields``)."""

    marker: int
    start: str | None
    path: list[str]
    hand: str | None
    colour: str | None
    taken: int
    used: list[str]
    revealed: list[str]
    resume: str
    #: absent from files written before stages returned to their caller
    callers: list[str] = attrs.Factory(list)


def _a_seed(_instance: Any, attribute: Any, value: Any) -> None:
    """An attrs validator: the generator's seed is a seed of a game (reported at
    ``$.rng.seed`` in the words of every other place a seed comes in)."""
    if isinstance(value, int) and (problem := seed_problem(value)):
        raise OutOfBounds(attribute.name, problem)


@attrs.define
class RngDoc:
    seed: int = attrs.field(validator=_a_seed)
    counter: int


@attrs.define
class StateDoc:
    format: str
    version: int
    ruleset: list[str]
    colours: str
    tokens: list[str]
    round: int
    decision: DecisionDoc
    board: BoardDoc
    players: list[PlayerDoc]
    bag: str
    pool: dict[str, int]
    decks: dict[str, DeckDoc]
    markers: list[int]
    bid_track: list[int | None]
    turn_track: list[int | None]
    turn: TurnDoc | None
    flags: list[str]
    extras: dict[str, int]
    rng: RngDoc
    #: the cards left out of the rules (``naqala.core.without``); absent when none are
    without: list[str] = attrs.Factory(list)
    #: plugins played at an older version they keep (an edition), by name; absent when
    #: every plugin is today's
    versions: dict[str, str] = attrs.Factory(dict)


_CONVERTER = strict_converter()
_CONVERTER.register_unstructure_hook(
    StateDoc,
    make_dict_unstructure_fn(
        StateDoc,
        _CONVERTER,
        without=override(omit_if_default=True),
        versions=override(omit_if_default=True),
    ),
)


def _structure(value: Any, kind: type[T], path: str = "$") -> T:
    """``value`` as ``kind``; a StateFormatError naming the JSON path of the first problem."""
    return structure(_CONVERTER, value, kind, _fail, path)


# -- writing --------------------------------------------------------------------------------


def letters_of(counts: Counts, letters: str) -> str:
    return "".join(letter * n for letter, n in zip(letters, counts, strict=True))


def _none_if_nobody(value: int) -> int | None:
    return None if value == NOBODY else value


def state_to_doc(rules: Rules, state: State) -> StateDoc:
    letters = rules.letters
    geo = state.geometry
    token_ids = [t.id for t in rules.tokens]
    layout = state.layout
    turn = state.turn
    return StateDoc(
        format=FORMAT,
        version=VERSION,
        ruleset=list(state.ruleset),
        colours=letters,
        tokens=token_ids,
        round=state.round,
        decision=DecisionDoc(state.decision.stage, _none_if_nobody(state.decision.player)),
        board=BoardDoc(
            rows=layout.rows,
            cols=layout.cols,
            blocked=sorted(geo.name(t) for t in layout.blocked),
            walls=sorted([geo.name(a), geo.name(b)] for a, b in layout.walls),
            tiles=[
                TileDoc(
                    at=geo.name(i),
                    tile=layout.tiles[i],
                    meeples=letters_of(state.board.meeples[i], letters),
                    owner=_none_if_nobody(state.board.owners[i]),
                    tokens={token_ids[k]: n for k, n in enumerate(state.board.tokens[i]) if n},
                )
                for i in range(len(layout.tiles))
            ],
        ),
        players=[
            PlayerDoc(
                coins=p.coins,
                camels=p.camels,
                meeples=letters_of(p.meeples, letters),
                hands={rules.deck_names[i]: list(hand) for i, hand in enumerate(p.hands) if hand},
                extras=dict(p.extras),
            )
            for p in state.players
        ],
        bag=letters_of(state.bag, letters),
        pool={token_ids[k]: n for k, n in enumerate(state.pool)},
        decks={
            rules.deck_names[i]: DeckDoc(list(d.draw), list(d.row), list(d.discard))
            for i, d in enumerate(state.decks)
        },
        markers=list(state.markers),
        bid_track=[_none_if_nobody(m) for m in state.bid_track],
        turn_track=[_none_if_nobody(m) for m in state.turn_track],
        turn=None
        if turn is None
        else TurnDoc(
            marker=turn.marker,
            start=None if turn.start == NOBODY else geo.name(turn.start),
            path=[geo.name(t) for t in turn.path],
            hand=letters_of(turn.hand, letters) if turn.hand else None,
            colour=None if turn.colour == NOBODY else letters[turn.colour],
            taken=turn.taken,
            used=list(turn.used),
            revealed=list(turn.revealed),
            resume=turn.resume,
            callers=list(turn.callers),
        ),
        flags=list(state.flags),
        extras=dict(state.extras),
        rng=RngDoc(state.rng.seed, state.rng.counter),
        without=list(rules.without),
        versions={p.id: p.version for p in rules.plugins if is_edition(p)},
    )


def state_to_data(rules: Rules, state: State) -> dict[str, Any]:
    """The state as plain JSON data (dicts, lists, strings, numbers)."""
    data: dict[str, Any] = _CONVERTER.unstructure(state_to_doc(rules, state))
    if state.turn is not None and rules.turn_fields:
        data["turn"] = _with_turn_fields(rules, state, state.turn, data["turn"])
    return data


def _with_turn_fields(
    rules: Rules, state: State, turn: Turn, core: dict[str, Any]
) -> dict[str, Any]:
    """The turn's document with every field the plugins declare, each after the key it
    names (``TurnField.after``; at the end when that is no key), so a field that moved
    out of the core keeps its place in the file."""
    values = dict(turn.fields)
    written: dict[str, Any] = {}
    for name, field in rules.turn_fields.items():
        value = values.get(name, field.default)
        written[name] = [state.geometry.name(t) for t in value] if field.kind == "tiles" else value
    followers: dict[str, list[str]] = {}
    for name, field in rules.turn_fields.items():
        after = field.after if field.after in core or field.after in written else ""
        followers.setdefault(after, []).append(name)
    out: dict[str, Any] = {}

    def put(key: str, value: Any) -> None:
        out[key] = value
        for name in followers.get(key, ()):
            put(name, written[name])

    for key, value in core.items():
        put(key, value)
    for name in followers.get("", ()):
        put(name, written[name])
    return out


def pretty_json(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON with every array or object that fits in ``width`` columns on one line, so a
    tile or a player reads as one line; key order is kept."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(compact) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return compact
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        inner = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty_json(v, indent + 2, width)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(inner) + "\n" + " " * indent + "}"
    if not any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + _packed(value, pad, width) + "\n" + " " * indent + "]"
    inner = [pad + pretty_json(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(inner) + "\n" + " " * indent + "]"


def _packed(values: list[Any], pad: str, width: int) -> str:
    """Scalars packed several to a line, like words in a paragraph."""
    lines: list[str] = []
    line = ""
    for value in values:
        word = json.dumps(value, ensure_ascii=False)
        if line and len(pad) + len(line) + len(word) + 2 > width:
            lines.append(pad + line + ",")
            line = ""
        line = f"{line}, {word}" if line else word
    lines.append(pad + line)
    return "\n".join(lines)


def state_to_json(rules: Rules, state: State) -> str:
    """The state as a JSON document (stable key order, newline at the end)."""
    return pretty_json(state_to_data(rules, state)) + "\n"


# -- reading --------------------------------------------------------------------------------


def _nobody(value: int | None) -> int:
    return NOBODY if value is None else value


def _fail(path: str, reason: str) -> StateFormatError:
    return StateFormatError(f"{path}: {reason}")


def _version(data: Any) -> int:
    """The document's version, once it is known to be a state document this naqala reads."""
    if not isinstance(data, dict):
        raise _fail("$", "expected an object")
    if data.get("format") != FORMAT:
        raise _fail("$.format", f"expected {FORMAT!r}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise _fail("$.version", "expected an integer")
    if version not in READS:
        raise _fail("$.version", f"this naqala reads versions {READS}, not {version}")
    return version


#: naqala 0.1 (state version 1) kept no ``callers``: each of its two steps handed back to
#: one stage, the assassins' kill to the Assassins' tribe action and the item to keep to
#: the Artisans'; a version-1 state waiting in a step gets that caller back
_V1_CALLERS = {"kill": "tribe:red", "keep-item": "tribe:purple"}


def _upgrade_v1(data: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """A version-1 document as version 2: each player's ``cards``, ``djinns`` and
    ``held`` become ``hands`` by deck; the turn's item mark ``item`` becomes the deck's;
    a pending step (``_V1_CALLERS``) gets the stage that entered it as its caller."""
    players = _structure(data.get("players"), list[PlayerDocV1], "$.players")
    upgraded = dict(data, version=VERSION, players=[])
    for i, p in enumerate(players):
        hands: dict[str, list[str]] = {}
        if p.cards:
            hands[RESOURCES] = p.cards
        if p.djinns:
            hands[DJINNS] = p.djinns
        for k, card in enumerate(p.held):
            spec = rules.card_specs.get(card)
            if spec is None:
                raise _fail(f"$.players[{i}].held[{k}]", f"unknown card {card!r}")
            hands.setdefault(spec.deck, []).append(card)
        doc = PlayerDoc(p.coins, p.camels, p.meeples, hands, p.extras)
        upgraded["players"].append(_CONVERTER.unstructure(doc))
    turn = data.get("turn")
    if (
        isinstance(turn, dict)
        and isinstance(turn.get("used"), list)
        and "items" in rules.deck_index
    ):
        used = ["items" if u == "item" else u for u in turn["used"]]
        upgraded["turn"] = turn = dict(turn, used=sorted(used, key=str))
    decision = data.get("decision")
    step = decision.get("stage") if isinstance(decision, dict) else None
    caller = _V1_CALLERS.get(step) if isinstance(step, str) else None
    if isinstance(turn, dict) and "callers" not in turn and caller in rules.stages:
        upgraded["turn"] = dict(turn, callers=[caller])
    return upgraded


#: the release that wrote state version 1: a version-1 document whose plugins keep an
#: edition of this version is read with those editions first
V1_RELEASE = "0.1.0"


def _v1_versions(ruleset: Sequence[str]) -> dict[str, str]:
    """The plugins of ``ruleset`` that keep an edition of ``V1_RELEASE``, at that version."""
    points = installed_entry_points()
    names = installed_names(points)
    versions = {}
    for name in ruleset:
        point = points.get(names.get(name, name))
        try:
            module = point.load() if point is not None else None
        except LOAD_FAILURES:  # a broken plugin is reported when the rules are built
            continue
        if V1_RELEASE in getattr(module, "EDITIONS", {}):
            versions[name] = V1_RELEASE
    return versions


def _rules_for(
    data: dict[str, Any], rules: Rules | None, versions: dict[str, str] | None = None
) -> Rules:
    """The rules the document names: its plugins (``ruleset``) at the versions it names
    (``versions``, or those given), without the cards it left out (``without``); rebuilt
    unless ``rules`` are given, which must then match."""
    ruleset = tuple(_structure(data.get("ruleset"), list[str], "$.ruleset"))
    without = tuple(_structure(data.get("without", []), list[str], "$.without"))
    if versions is None:
        versions = _structure(data.get("versions", {}), dict[str, str], "$.versions")
    if rules is None:
        try:
            rules = rules_for_ruleset(ruleset, versions)
        except PluginError as exc:
            raise _fail("$.versions" if versions else "$.ruleset", str(exc)) from exc
        try:
            leave_out(rules, without)
        except WithoutError as exc:
            raise _fail("$.without", str(exc)) from exc
    if not same_plugins(rules, ruleset):
        raise _fail("$.ruleset", f"{list(ruleset)} does not match the rules {list(rules.ruleset)}")
    if rules.without != tuple(sorted(set(without))):
        raise _fail("$.without", f"{list(without)} does not match the rules {list(rules.without)}")
    return rules


def state_from_data(
    data: Any, rules: Rules | None = None, *, meaning: bool = True
) -> tuple[Rules, State]:
    """Rules and state from a parsed document (rules are rebuilt from ``ruleset`` if not
    given). Raises ``StateFormatError`` naming the JSON path of the first problem.
    ``meaning=False`` skips the plugins' checks of what the state means (a third of the
    reading), only for a document another engine wrote for these very rules and that the
    differential harness proves equal to the Python engine's; a file is always checked.

    A version-1 document was written by naqala 0.1: rebuilt, it is read with the 0.1
    editions of its plugins (``V1_RELEASE``) and, if it does not fit them, with today's
    plugins (a document whose items were brought up to date by hand)."""
    version = _version(data)
    if version == 1 and rules is None and isinstance(data, dict):
        ruleset = _structure(data.get("ruleset"), list[str], "$.ruleset")
        old = _v1_versions(ruleset)
        if old:
            try:
                return _read(data, version, _rules_for(data, None, old))
            except StateFormatError:
                pass  # then as today's plugins, whose error is the one to report
    return _read(data, version, _rules_for(data, rules), meaning)


def _read(data: Any, version: int, rules: Rules, meaning: bool = True) -> tuple[Rules, State]:
    if version == 1:
        data = _upgrade_v1(data, rules)
    data, fields = _turn_fields_of(data, rules)
    doc = _structure(data, StateDoc)
    state = _Reader(rules, doc, fields).state()
    check_consistent(rules, state)
    if not meaning:
        return rules, state
    problems = check_state(rules, state)  # what the state means: docs/formats.md
    if problems:
        raise StateFormatError("; ".join(str(problem) for problem in problems))
    return rules, state


#: the values an older naqala wrote for a turn field of a plugin not in the rules (the
#: Artisans' ``claimed`` was written by every game): read as nothing
_EMPTY: tuple[Any, ...] = ([], "", 0)


def _turn_fields_of(data: Any, rules: Rules) -> tuple[Any, dict[str, Any]]:
    """The document without the plugins' turn fields, and those fields' values as found
    (``turn`` as the core's ``TurnDoc`` reads it). A key of ``turn`` that is neither the
    core's nor declared is refused unless it holds nothing (``_EMPTY``)."""
    if not isinstance(data, dict) or not isinstance(data.get("turn"), dict):
        return data, {}
    turn: dict[str, Any] = data["turn"]
    declared = rules.turn_fields
    core = {k: v for k, v in turn.items() if k in CORE_FIELDS}
    fields = {k: v for k, v in turn.items() if k in declared}
    for key, value in turn.items():
        if key in core or key in fields:
            continue
        if not any(type(value) is type(empty) and value == empty for empty in _EMPTY):
            names = ", ".join(declared) or "none"
            raise _fail(
                f"$.turn.{key[:40]}",
                f"no turn field {key[:40]!r} in these rules (the plugins declare {names})",
            )
    return dict(data, turn=core), fields


class _Reader:
    """Turns a structured document into a ``State``, checking what the shape cannot."""

    def __init__(self, rules: Rules, doc: StateDoc, turn_fields: dict[str, Any]) -> None:
        self.rules = rules
        self.doc = doc
        self.turn_fields = turn_fields
        self.letters = rules.letters
        self.token_ids = [t.id for t in rules.tokens]
        if doc.colours != rules.letters:
            raise _fail(
                "$.colours", f"{doc.colours!r} does not match the rules ({rules.letters!r})"
            )
        if doc.tokens != self.token_ids:
            raise _fail("$.tokens", f"expected {self.token_ids}")
        board = doc.board
        if board.rows < 1 or board.cols < 1 or board.cols > 26:
            raise _fail("$.board", "rows and cols must be positive (at most 26 columns)")

    def counts(self, text: str, path: str) -> Counts:
        for letter in text:
            if letter not in self.letters:
                raise _fail(path, f"{letter!r} is not a meeple colour ({self.letters})")
        return tuple(text.count(letter) for letter in self.letters)

    def tile(self, name: str, path: str) -> int:
        try:
            return parse_tile(name, self.doc.board.rows, self.doc.board.cols)
        except ValueError as exc:
            raise _fail(path, str(exc)) from None

    def tokens(self, values: dict[str, int], path: str) -> Counts:
        for key in values:
            if key not in self.token_ids:
                raise _fail(f"{path}.{key}", f"unknown token {key!r}")
        return tuple(values.get(t, 0) for t in self.token_ids)

    def layout_and_board(self) -> tuple[Layout, Board]:
        board = self.doc.board
        size = board.rows * board.cols
        if len(board.tiles) != size:
            raise _fail(
                "$.board.tiles", f"expected {size} tiles for a {board.rows}x{board.cols} board"
            )
        tile_ids: list[str] = []
        meeples: list[Counts] = []
        owners: list[int] = []
        tokens: list[Counts] = []
        for i, tile in enumerate(board.tiles):
            path = f"$.board.tiles[{i}]"
            if self.tile(tile.at, f"{path}.at") != i:
                raise _fail(f"{path}.at", "tiles must be listed row by row, a1 first")
            if tile.tile not in self.rules.tile_specs:
                raise _fail(f"{path}.tile", f"unknown tile {tile.tile!r}")
            tile_ids.append(tile.tile)
            meeples.append(self.counts(tile.meeples, f"{path}.meeples"))
            owners.append(_nobody(tile.owner))
            tokens.append(self.tokens(tile.tokens, f"{path}.tokens"))
        walls = []
        for i, wall in enumerate(board.walls):
            if len(wall) != 2:
                raise _fail(f"$.board.walls[{i}]", "a wall is a pair of tile names")
            a, b = (self.tile(end, f"$.board.walls[{i}][{k}]") for k, end in enumerate(wall))
            walls.append((min(a, b), max(a, b)))
        blocked = frozenset(
            self.tile(name, f"$.board.blocked[{i}]") for i, name in enumerate(board.blocked)
        )
        layout = Layout(board.rows, board.cols, tuple(tile_ids), blocked, frozenset(walls))
        return layout, Board(tuple(meeples), tuple(owners), tuple(tokens))

    def player(self, i: int, p: PlayerDoc) -> PlayerState:
        names = self.rules.deck_names
        for deck, cards in p.hands.items():
            if deck not in self.rules.deck_index:
                raise _fail(f"$.players[{i}].hands.{deck}", f"no deck {deck!r} in these rules")
            for k, card in enumerate(cards):
                spec = self.rules.card_specs.get(card)
                if spec is None or spec.deck != deck:
                    raise _fail(f"$.players[{i}].hands.{deck}[{k}]", f"no {deck} card {card!r}")
        return PlayerState(
            coins=p.coins,
            camels=p.camels,
            meeples=self.counts(p.meeples, f"$.players[{i}].meeples"),
            hands=tuple(tuple(p.hands.get(name, ())) for name in names),
            extras=tuple(sorted(p.extras.items())),
        )

    def turn(self, t: TurnDoc) -> Turn:
        if t.colour is not None and (len(t.colour) != 1 or t.colour not in self.letters):
            raise _fail("$.turn.colour", f"{t.colour!r} is not a meeple colour ({self.letters})")
        return Turn(
            marker=t.marker,
            start=NOBODY if t.start is None else self.tile(t.start, "$.turn.start"),
            path=tuple(self.tile(x, f"$.turn.path[{k}]") for k, x in enumerate(t.path)),
            hand=() if t.hand is None else self.counts(t.hand, "$.turn.hand"),
            colour=NOBODY if t.colour is None else self.letters.index(t.colour),
            taken=t.taken,
            used=tuple(t.used),
            revealed=tuple(t.revealed),
            resume=t.resume,
            callers=tuple(t.callers),
            fields=self.plugin_fields(),
        )

    def plugin_fields(self) -> tuple[tuple[str, TurnValue], ...]:
        """The declared turn fields found, each of its kind, those at their default left
        out (a missing field is at its default)."""
        found: list[tuple[str, TurnValue]] = []
        for name, field in self.rules.turn_fields.items():
            if name not in self.turn_fields:
                continue
            raw, path = self.turn_fields[name], f"$.turn.{name}"
            value: TurnValue
            if field.kind == "count":
                value = _structure(raw, int, path)
            elif field.kind == "text":
                value = _structure(raw, str, path)
            else:
                names = _structure(raw, list[str], path)
                value = tuple(self.tile(x, f"{path}[{k}]") for k, x in enumerate(names))
            if value != field.default:
                found.append((name, value))
        return tuple(sorted(found))

    def state(self) -> State:
        doc, rules = self.doc, self.rules
        layout, board = self.layout_and_board()
        for name in doc.decks:
            if name not in rules.deck_names:
                raise _fail(
                    f"$.decks.{name}",
                    f"no deck {name!r} in these rules ({', '.join(rules.deck_names)})",
                )
        empty = DeckDoc([], [], [])
        return State(
            ruleset=rules.ruleset,  # as the rules store them: ids, not aliases
            layout=layout,
            board=board,
            players=tuple(self.player(i, p) for i, p in enumerate(doc.players)),
            bag=self.counts(doc.bag, "$.bag"),
            pool=self.tokens(doc.pool, "$.pool"),
            decks=tuple(
                Deck(tuple(d.draw), tuple(d.row), tuple(d.discard))
                for d in (doc.decks.get(name, empty) for name in rules.deck_names)
            ),
            markers=tuple(doc.markers),
            bid_track=tuple(_nobody(m) for m in doc.bid_track),
            turn_track=tuple(_nobody(m) for m in doc.turn_track),
            decision=Decision(doc.decision.stage, _nobody(doc.decision.player)),
            rng=Rng(doc.rng.seed, doc.rng.counter),
            round=doc.round,
            turn=None if doc.turn is None else self.turn(doc.turn),
            flags=tuple(doc.flags),
            extras=tuple(sorted(doc.extras.items())),
        )


def check_consistent(rules: Rules, state: State) -> None:
    """Refuse states no game could reach in ways that would crash the engine later."""
    n = len(state.players)
    if state.decision.stage != "over" and state.decision.stage not in rules.stages:
        raise StateFormatError(f"$.decision.stage: unknown stage {state.decision.stage!r}")
    if not (state.decision.player == NOBODY or 0 <= state.decision.player < n):
        raise StateFormatError("$.decision.player: no such player")
    for i, owner in enumerate(state.board.owners):
        if not (owner in (NOBODY, NON_PLAYER) or 0 <= owner < n):
            raise StateFormatError(f"$.board.tiles[{i}].owner: no such player")
    for i, owner in enumerate(state.markers):
        if not 0 <= owner < n:
            raise StateFormatError(f"$.markers[{i}]: no such player")
    for name, track in (("bid_track", state.bid_track), ("turn_track", state.turn_track)):
        for i, marker in enumerate(track):
            if not (marker == NOBODY or 0 <= marker < len(state.markers)):
                raise StateFormatError(f"$.{name}[{i}]: no such marker")
    for i, p in enumerate(state.players):
        if p.coins < 0 or p.camels < 0:
            raise StateFormatError(f"$.players[{i}]: coins and camels cannot be negative")


def state_from_json(text: str, rules: Rules | None = None) -> tuple[Rules, State]:
    """Rules and state from a JSON document; ``StateFormatError`` if it is not one."""
    try:
        data = parse_json(text)
    except DocumentError as exc:  # not JSON, nested too deep, a key twice, huge numbers
        raise StateFormatError(str(exc)) from None
    return state_from_data(data, rules)


def load_state(path: str | Path, rules: Rules | None = None) -> tuple[Rules, State]:
    """Rules and state from the file ``path`` (a regular file of at most ``STATE_LIMIT``
    bytes); ``StateFormatError`` naming nothing but what is wrong (callers name the file),
    ``FileRefused`` naming the file if it is not read at all."""
    return state_from_json(read_text_bounded(path, STATE_LIMIT, "state"), rules)
