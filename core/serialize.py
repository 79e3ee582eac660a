"""State JSON: a versioned, human-readable form of a game state that round-trips exactly.

The document names its plugins, so reading it rebuilds the matching rules. Meeples are
written as colour letters (``"YWR"``), tiles by name (``c3``), players from 0 in arrays
and by seat in actions. See docs/formats.md for every field.
"""

from __future__ import annotations

import json
from typing import Any

from naqala.core.board import parse_tile
from naqala.core.engine import Rules, rules_for_ruleset
from naqala.core.jsonread import JsonReader
from naqala.core.plugins import PluginError
from naqala.core.rng import Rng
from naqala.core.state import (
    NOBODY,
    Board,
    Counts,
    Decision,
    Deck,
    Layout,
    PlayerState,
    State,
    Turn,
)
from naqala.core.validate import check_state

FORMAT = "naqala-state"
VERSION = 1


class StateFormatError(ValueError):
    """A state document that cannot be read; the message says where and why."""


# -- writing --------------------------------------------------------------------------------


def letters_of(counts: Counts, letters: str) -> str:
    return "".join(letter * n for letter, n in zip(letters, counts, strict=True))


def _tile_or_none(index: int, layout: Layout) -> str | None:
    return None if index == NOBODY else layout.geometry.name(index)


def _none_if_nobody(value: int) -> int | None:
    return None if value == NOBODY else value


def state_to_data(rules: Rules, state: State) -> dict[str, Any]:
    letters = rules.letters
    geo = state.geometry
    token_ids = [t.id for t in rules.tokens]
    layout = state.layout
    turn = state.turn
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": list(state.ruleset),
        "colours": letters,
        "tokens": token_ids,
        "round": state.round,
        "decision": {
            "stage": state.decision.stage,
            "player": _none_if_nobody(state.decision.player),
        },
        "board": {
            "rows": layout.rows,
            "cols": layout.cols,
            "blocked": sorted(geo.name(t) for t in layout.blocked),
            "walls": sorted([geo.name(a), geo.name(b)] for a, b in layout.walls),
            "tiles": [
                {
                    "at": geo.name(i),
                    "tile": layout.tiles[i],
                    "meeples": letters_of(state.board.meeples[i], letters),
                    "owner": _none_if_nobody(state.board.owners[i]),
                    "tokens": {token_ids[k]: n for k, n in enumerate(state.board.tokens[i]) if n},
                }
                for i in range(len(layout.tiles))
            ],
        },
        "players": [
            {
                "coins": p.coins,
                "camels": p.camels,
                "meeples": letters_of(p.meeples, letters),
                "cards": list(p.cards),
                "djinns": list(p.djinns),
                "held": list(p.held),
                "extras": dict(p.extras),
            }
            for p in state.players
        ],
        "bag": letters_of(state.bag, letters),
        "pool": {token_ids[k]: n for k, n in enumerate(state.pool)},
        "decks": {
            rules.deck_names[i]: {
                "draw": list(d.draw),
                "row": list(d.row),
                "discard": list(d.discard),
            }
            for i, d in enumerate(state.decks)
        },
        "markers": list(state.markers),
        "bid_track": [_none_if_nobody(m) for m in state.bid_track],
        "turn_track": [_none_if_nobody(m) for m in state.turn_track],
        "turn": None
        if turn is None
        else {
            "marker": turn.marker,
            "start": _tile_or_none(turn.start, layout),
            "path": [geo.name(t) for t in turn.path],
            "hand": letters_of(turn.hand, letters) if turn.hand else None,
            "colour": None if turn.colour == NOBODY else letters[turn.colour],
            "taken": turn.taken,
            "reach": turn.reach,
            "kills": turn.kills,
            "target": turn.target,
            "used": list(turn.used),
            "revealed": list(turn.revealed),
            "resume": turn.resume,
            "claimed": [geo.name(t) for t in turn.claimed],
        },
        "flags": list(state.flags),
        "extras": dict(state.extras),
        "rng": {"seed": state.rng.seed, "counter": state.rng.counter},
    }


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


def _reader(data: Any) -> JsonReader:
    return JsonReader(data, StateFormatError)


def counts_from(reader: JsonReader, letters: str) -> Counts:
    text = reader.str()
    for letter in text:
        if letter not in letters:
            raise reader.fail(f"{letter!r} is not a meeple colour ({letters})")
    return tuple(text.count(letter) for letter in letters)


def state_from_data(data: Any, rules: Rules | None = None) -> tuple[Rules, State]:
    """Rules and state from a parsed document (rules are rebuilt from ``ruleset`` if not
    given). Raises ``StateFormatError`` naming the JSON path of the first problem."""
    doc = _reader(data)
    if doc["format"].str() != FORMAT:
        raise StateFormatError(f"$.format: expected {FORMAT!r}")
    version = doc["version"].int()
    if version != VERSION:
        raise StateFormatError(f"$.version: this naqala reads version {VERSION}, not {version}")
    ruleset = tuple(r.str() for r in doc["ruleset"].items())
    if rules is None:
        try:
            rules = rules_for_ruleset(ruleset)
        except PluginError as exc:
            raise StateFormatError(f"$.ruleset: {exc}") from exc
    if rules.ruleset != ruleset:
        raise StateFormatError(
            f"$.ruleset: {list(ruleset)} does not match the rules {list(rules.ruleset)}"
        )
    letters = doc["colours"].str()
    if letters != rules.letters:
        raise StateFormatError(
            f"$.colours: {letters!r} does not match the rules ({rules.letters!r})"
        )
    token_ids = [t.id for t in rules.tokens]
    if [t.str() for t in doc["tokens"].items()] != token_ids:
        raise StateFormatError(f"$.tokens: expected {token_ids}")

    board = doc["board"]
    rows, cols = board["rows"].int(), board["cols"].int()
    if rows < 1 or cols < 1 or cols > 26:
        raise board.fail("rows and cols must be positive (at most 26 columns)")
    size = rows * cols

    def tile_index(reader: JsonReader) -> int:
        try:
            return parse_tile(reader.str(), rows, cols)
        except ValueError as exc:
            raise reader.fail(str(exc)) from None

    tiles = board["tiles"].items()
    if len(tiles) != size:
        raise board["tiles"].fail(f"expected {size} tiles for a {rows}x{cols} board")
    tile_ids: list[str] = []
    meeples: list[Counts] = []
    owners: list[int] = []
    tokens: list[Counts] = []
    for i, tile in enumerate(tiles):
        if tile_index(tile["at"]) != i:
            raise tile["at"].fail("tiles must be listed row by row, a1 first")
        tile_id = tile["tile"].str()
        if tile_id not in rules.tile_specs:
            raise tile["tile"].fail(f"unknown tile {tile_id!r}")
        tile_ids.append(tile_id)
        meeples.append(counts_from(tile["meeples"], letters))
        owners.append(tile["owner"].optional(JsonReader.int, NOBODY))
        on_tile = tile["tokens"].mapping()
        for key in on_tile:
            if key not in token_ids:
                raise on_tile[key].fail(f"unknown token {key!r}")
        tokens.append(tuple(on_tile[t].int() if t in on_tile else 0 for t in token_ids))
    walls = []
    for wall in board["walls"].items():
        ends = wall.items()
        if len(ends) != 2:
            raise wall.fail("a wall is a pair of tile names")
        a, b = (tile_index(end) for end in ends)
        walls.append((min(a, b), max(a, b)))
    layout = Layout(
        rows=rows,
        cols=cols,
        tiles=tuple(tile_ids),
        blocked=frozenset(tile_index(t) for t in board["blocked"].items()),
        walls=frozenset(walls),
    )

    players = tuple(
        PlayerState(
            coins=p["coins"].int(),
            camels=p["camels"].int(),
            meeples=counts_from(p["meeples"], letters),
            cards=tuple(c.str() for c in p["cards"].items()),
            djinns=tuple(d.str() for d in p["djinns"].items()),
            held=tuple(c.str() for c in p["held"].items()),
            extras=tuple(sorted((k, v.int()) for k, v in p["extras"].mapping().items())),
        )
        for p in doc["players"].items()
    )
    pool = doc["pool"].mapping()
    for key in pool:
        if key not in token_ids:
            raise pool[key].fail(f"unknown token {key!r}")
    decks = doc["decks"].mapping()
    for name, reader in decks.items():
        if name not in rules.deck_names:
            raise reader.fail(f"no deck {name!r} in these rules ({', '.join(rules.deck_names)})")
    turn_doc = doc["turn"]

    def read_turn(t: JsonReader) -> Turn:
        colour = t["colour"].optional(JsonReader.str, None)
        if colour is not None and (len(colour) != 1 or colour not in letters):
            raise t["colour"].fail(f"{colour!r} is not a meeple colour ({letters})")
        return Turn(
            marker=t["marker"].int(),
            start=t["start"].optional(tile_index, NOBODY),
            path=tuple(tile_index(x) for x in t["path"].items()),
            hand=t["hand"].optional(lambda h: counts_from(h, letters), ()),
            colour=NOBODY if colour is None else letters.index(colour),
            taken=t["taken"].int(),
            reach=t["reach"].int(),
            kills=t["kills"].int(),
            target=t["target"].str(),
            used=tuple(u.str() for u in t["used"].items()),
            revealed=tuple(c.str() for c in t["revealed"].items()),
            resume=t["resume"].str(),
            claimed=tuple(tile_index(x) for x in t["claimed"].items()),
        )

    decision = doc["decision"]
    state = State(
        ruleset=ruleset,
        layout=layout,
        board=Board(meeples=tuple(meeples), owners=tuple(owners), tokens=tuple(tokens)),
        players=players,
        bag=counts_from(doc["bag"], letters),
        pool=tuple(pool[t].int() if t in pool else 0 for t in token_ids),
        decks=tuple(
            Deck(
                draw=tuple(c.str() for c in decks[name]["draw"].items()),
                row=tuple(c.str() for c in decks[name]["row"].items()),
                discard=tuple(c.str() for c in decks[name]["discard"].items()),
            )
            if name in decks
            else Deck()
            for name in rules.deck_names
        ),
        markers=tuple(m.int() for m in doc["markers"].items()),
        bid_track=tuple(m.optional(JsonReader.int, NOBODY) for m in doc["bid_track"].items()),
        turn_track=tuple(m.optional(JsonReader.int, NOBODY) for m in doc["turn_track"].items()),
        decision=Decision(
            stage=decision["stage"].str(),
            player=decision["player"].optional(JsonReader.int, NOBODY),
        ),
        rng=Rng(doc["rng"]["seed"].int(), doc["rng"]["counter"].int()),
        round=doc["round"].int(),
        turn=turn_doc.optional(read_turn, None),
        flags=tuple(f.str() for f in doc["flags"].items()),
        extras=tuple(sorted((k, v.int()) for k, v in doc["extras"].mapping().items())),
    )
    check_consistent(rules, state)
    problems = check_state(rules, state)  # what the state means: docs/formats.md
    if problems:
        raise StateFormatError("; ".join(str(problem) for problem in problems))
    return rules, state


def check_consistent(rules: Rules, state: State) -> None:
    """Refuse states no game could reach in ways that would crash the engine later."""
    n = len(state.players)
    if state.decision.stage != "over" and state.decision.stage not in rules.stages:
        raise StateFormatError(f"$.decision.stage: unknown stage {state.decision.stage!r}")
    if not (state.decision.player == NOBODY or 0 <= state.decision.player < n):
        raise StateFormatError("$.decision.player: no such player")
    for i, owner in enumerate(state.board.owners):
        if not (owner == NOBODY or 0 <= owner < n):
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
        data = json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or a number of thousands of digits
        raise StateFormatError(f"not JSON: {exc}") from None
    return state_from_data(data, rules)
