"""Checking a state against the rules it names: what a game could hold, not just its shape.

The state JSON reader checks the shape of a document; ``check_state`` checks its meaning:
every component the rules' content declares is somewhere exactly once (meeples per colour,
cards per deck, tokens, camels, turn markers), nothing is negative or beyond a documented
bound, every id is known, and the pending decision fits the turn in progress. Each plugin
checks the components and rules it adds through the hook ``naqala_check_state``. Problems
name the JSON path of the state document (docs/formats.md), so a person can find them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import attrs

from naqala.core.board import tile_name
from naqala.core.content import DECK_NAMES
from naqala.core.effects import COUNTER_PREFIX
from naqala.core.engine import Rules
from naqala.core.state import (
    ASIDE,
    ASIDE_CARD,
    ASIDE_MEEPLE,
    EFFECTS,
    GAME_OVER,
    NOBODY,
    NON_PLAYER,
    PlayerState,
    State,
    aside_cards,
    aside_meeples,
)
from naqala.core.structured import shown as shown  # re-exported for the plugins' checks
from naqala.core.turnfields import fits

#: the most coins a player may hold: far beyond any game (a turn earns at most a few
#: hundred), low enough to refuse absurd numbers typed into a state file
MAX_COINS = 1_000_000
#: the most a counter of ``extras`` may hold (a game counts effects in the tens)
MAX_COUNTER = 1_000_000
#: the most counters a state's or a player's ``extras`` may hold: one per card set aside
#: and per card's effects is a few hundred at most
MAX_COUNTERS = 1_000
#: the counters of a state's ``extras`` the core keeps itself, without declaring them
CORE_STATE_COUNTERS = (f"{ASIDE_CARD}*", f"{ASIDE_MEEPLE}*", f"{EFFECTS}*")
#: the longest name of a counter or a flag (``aside.card.<card id>`` is about 30)
MAX_NAME = 100


@attrs.frozen
class Problem:
    """One thing wrong with a state: the JSON path it is about and what is wrong."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class InvalidState(ValueError):
    """A state that breaks the rules it names; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


# -- hands: the one place that knows where a player keeps each deck's cards ---------------------


def player_hands(rules: Rules, player: PlayerState) -> dict[str, tuple[str, ...]]:
    """The cards a player holds, by deck name (``$.players[i].hands.<deck>`` in the JSON)."""
    return {name: player.hand(i) for i, name in enumerate(rules.deck_names)}


def deck_of(rules: Rules, card: str) -> str | None:
    """The name of the deck card ``card`` belongs to, ``None`` if no deck has it."""
    spec = rules.card_specs.get(card)
    return None if spec is None else spec.deck


def deck_contents(rules: Rules) -> dict[str, Counter[str]]:
    """Every card of every deck of the rules, as many times as the content has it."""
    decks: dict[str, Counter[str]] = {name: Counter() for name in rules.deck_names}
    for spec in rules.content.cards:
        decks[spec.deck][spec.id] += spec.count
    return decks


# -- the checks ---------------------------------------------------------------------------


def check_state(rules: Rules, state: State) -> list[Problem]:
    """Every problem of ``state`` under ``rules``: the core's components first, then each
    plugin's (hook ``naqala_check_state``). An empty list means the state is sound."""
    problems = _check_shape(rules, state)
    if problems:
        return problems  # counting would index past the end of a mis-sized tuple
    for check in (
        _check_terrain,
        _check_bounds,
        _check_meeples,
        _check_cards,
        _check_tokens,
        _check_camels,
        _check_markers,
        _check_decision,
    ):
        problems.extend(check(rules, state))
    if problems:
        return problems  # plugins may rely on the core's components being sound
    for found in rules.hook.naqala_check_state(rules=rules, state=state):
        problems.extend(found)
    return problems


def require_valid(rules: Rules, state: State) -> State:
    """``state`` itself if it is sound, else ``InvalidState`` listing every problem."""
    problems = check_state(rules, state)
    if problems:
        raise InvalidState(problems)
    return state


def _check_shape(rules: Rules, state: State) -> list[Problem]:
    """Lengths that every other check relies on."""
    problems: list[Problem] = []
    colours, tokens, size = len(rules.colours), len(rules.tokens), len(state.layout.tiles)
    if state.ruleset != rules.ruleset:
        problems.append(Problem("$.ruleset", f"{list(state.ruleset)} are not these rules"))
    if state.layout.rows * state.layout.cols != size:
        problems.append(Problem("$.board", f"{size} tiles do not fill the board"))
    for name, value, want in (
        ("meeples", state.board.meeples, size),
        ("owners", state.board.owners, size),
        ("tokens", state.board.tokens, size),
    ):
        if len(value) != want:
            problems.append(Problem("$.board.tiles", f"{len(value)} {name} for {size} tiles"))
    first: dict[str, int] = {}
    for i, tile in enumerate(state.layout.tiles):
        if tile not in rules.tile_specs:
            problems.append(Problem(f"$.board.tiles[{i}].tile", f"unknown tile {tile!r}"))
        elif tile in first:  # each tile of the content is one piece of cardboard
            at = tile_name(first[tile], state.layout.cols)
            problems.append(Problem(f"$.board.tiles[{i}].tile", f"{tile!r} is already at {at}"))
        first.setdefault(tile, i)
    for i, (meeples, placed) in enumerate(
        zip(state.board.meeples, state.board.tokens, strict=False)
    ):
        if len(meeples) != colours or len(placed) != tokens:
            problems.append(Problem(f"$.board.tiles[{i}]", "wrong number of colours or tokens"))
    for i, player in enumerate(state.players):
        if len(player.meeples) != colours:
            problems.append(Problem(f"$.players[{i}].meeples", "wrong number of colours"))
    if len(state.bag) != colours:
        problems.append(Problem("$.bag", "wrong number of colours"))
    if len(state.pool) != tokens:
        problems.append(Problem("$.pool", "wrong number of token kinds"))
    if len(state.decks) != len(rules.deck_names):
        problems.append(Problem("$.decks", f"expected the decks {list(rules.deck_names)}"))
    if not state.players:
        problems.append(Problem("$.players", "a game has at least one player"))
    if state.turn is not None and state.turn.hand and len(state.turn.hand) != colours:
        problems.append(Problem("$.turn.hand", "wrong number of colours"))
    return problems


def _check_terrain(rules: Rules, state: State) -> Iterable[Problem]:
    """The impassable tiles and the walls are those the plugins declare for these tiles
    where they lie (hooks ``naqala_impassable_tiles`` and ``naqala_blocked_edges``): a state
    cannot move a mountain or fill in the chasm."""
    layout = state.layout
    declared = rules.with_terrain(layout)
    blocked, walls = declared.blocked, declared.walls
    name = state.geometry.name
    if layout.blocked != blocked:
        want = sorted(name(t) for t in blocked)
        yield Problem("$.board.blocked", f"the tiles laid out here make {want} impassable")
    if layout.walls != walls:
        want_walls = sorted([name(a), name(b)] for a, b in walls)
        yield Problem("$.board.walls", f"the tiles laid out here put walls at {want_walls}")


def _check_bounds(rules: Rules, state: State) -> Iterable[Problem]:
    """Nothing negative, coins within ``MAX_COINS``, counters within ``MAX_COUNTER``, the
    round counted from 1, counters and flags the rules know: the core's own state counters
    (``aside.…``, ``effects.…``) and those the plugins declare."""
    if state.round < 1:
        yield Problem("$.round", f"rounds are counted from 1, not {shown(state.round)}")
    for i, p in enumerate(state.players):
        where = f"$.players[{i}]"
        if not 0 <= p.coins <= MAX_COINS:
            yield Problem(f"{where}.coins", f"{shown(p.coins)} is not between 0 and {MAX_COINS}")
        if p.camels < 0:
            yield Problem(f"{where}.camels", f"{shown(p.camels)} is negative")
        if min(p.meeples, default=0) < 0:
            yield Problem(f"{where}.meeples", "a count is negative")
        yield from _check_player_extras(rules, where, p)
    counted = list(_check_counters("$.extras", state.extras))
    yield from counted
    colours = {colour.id for colour in rules.colours}
    for key, _value in () if counted else state.extras:
        if key.startswith(ASIDE_MEEPLE) and key[len(ASIDE_MEEPLE) :] not in colours:
            yield Problem(f"$.extras.{key}", f"no colour {key[len(ASIDE_MEEPLE) :]!r}")
        elif key.startswith(ASIDE) and not key.startswith((ASIDE_MEEPLE, ASIDE_CARD)):
            yield Problem(
                f"$.extras.{key}",
                f"set aside are only {ASIDE_MEEPLE}<colour> and {ASIDE_CARD}<card>",
            )
        elif key.startswith(EFFECTS) and key[len(EFFECTS) :] not in rules.card_specs:
            yield Problem(f"$.extras.{key}", f"no card {key[len(EFFECTS) :]!r} in these rules")
        elif not key.startswith((ASIDE, EFFECTS)) and len(key) <= MAX_NAME:
            yield from _check_declared(
                rules, "$.extras", key, "naqala_state_counters", "state", CORE_STATE_COUNTERS
            )
    yield from _check_flags(rules, state)
    for i, tile in enumerate(state.board.meeples):
        if min(tile, default=0) < 0:
            yield Problem(f"$.board.tiles[{i}].meeples", "a count is negative")
    for i, placed in enumerate(state.board.tokens):
        if min(placed, default=0) < 0:
            yield Problem(f"$.board.tiles[{i}].tokens", "a count is negative")
    for k, left in enumerate(state.pool):
        if left < 0:
            yield Problem(f"$.pool.{rules.tokens[k].id}", f"{shown(left)} is negative")
    if min(state.bag, default=0) < 0:
        yield Problem("$.bag", "a count is negative")
    turn = state.turn
    if turn is not None:
        if turn.taken < 0:
            yield Problem("$.turn.taken", f"{shown(turn.taken)} is negative")
        counts = {n for n, f in rules.turn_fields.items() if f.kind == "count"}
        for name, value in turn.fields:
            if name in counts and isinstance(value, int) and value < 0:
                yield Problem(f"$.turn.{name}", f"{shown(value)} is negative")
        if min(turn.hand, default=0) < 0:
            yield Problem("$.turn.hand", "a count is negative")


def declared_names(rules: Rules, hook: str) -> frozenset[str]:
    """The names the plugins declare through ``hook`` (``naqala_flags``,
    ``naqala_player_counters``, ``naqala_state_counters``), worked out once per rules
    (``Rules.memo``)."""
    key = f"validate.{hook}"
    found: frozenset[str] | None = rules.memo.get(key)
    if found is None:
        answers = getattr(rules.hook, hook)()
        found = rules.memo[key] = frozenset(name for names in answers for name in names)
    return found


def _check_counters(where: str, extras: tuple[tuple[str, int], ...]) -> Iterable[Problem]:
    """What every ``extras`` object must be, a state's or a player's: at most
    ``MAX_COUNTERS`` counters of names of at most ``MAX_NAME`` characters, each from 0 to
    ``MAX_COUNTER``. Too many counters are one problem, not one per counter."""
    if len(extras) > MAX_COUNTERS:
        yield Problem(where, f"{len(extras)} counters; at most {MAX_COUNTERS}")
        return
    for key, value in extras:
        if len(key) > MAX_NAME:
            yield Problem(f"{where}.{key[:20]}…", f"a name longer than {MAX_NAME} characters")
        elif not 0 <= value <= MAX_COUNTER:
            yield Problem(f"{where}.{key}", f"{shown(value)} is not between 0 and {MAX_COUNTER}")


def _check_player_extras(rules: Rules, where: str, player: PlayerState) -> Iterable[Problem]:
    """A player's counters are bounded like the state's, and each is one the rules keep
    for a player: a name a plugin declares (hook ``naqala_player_counters``; a declared
    ``prefix*`` stands for every name that begins so, as the base game's ``piece.*`` for
    each piece still to place and ``round-used:*`` for one counter per card)."""
    problems = list(_check_counters(f"{where}.extras", player.extras))
    yield from problems
    if problems:
        return
    for key, _value in player.extras:
        yield from _check_declared(
            rules, f"{where}.extras", key, "naqala_player_counters", "player"
        )


def _check_declared(
    rules: Rules, where: str, key: str, hook: str, holder: str, core: tuple[str, ...] = ()
) -> Iterable[Problem]:
    """``key`` is a counter some plugin declares through ``hook`` (a declared ``prefix*``
    stands for every name that begins so), else one problem naming the known ones (the
    core's own, ``core``, among them)."""
    if key.startswith(COUNTER_PREFIX):
        yield from _check_content_counter(rules, where, key, holder)
        return
    known = declared_names(rules, hook) | frozenset(core)
    prefixes = tuple(name[:-1] for name in known if name.endswith("*"))
    if not key.startswith(prefixes) and key not in known:
        names = ", ".join(sorted(known)) or "none"
        yield Problem(f"{where}.{key}", f"no {holder} counter {key!r} ({names})")


def _check_content_counter(rules: Rules, where: str, key: str, holder: str) -> Iterable[Problem]:
    """``counter.<id>``: a counter content declares (``[[counter]]``), held by a player or
    by the game as it says."""
    of = "player" if holder == "player" else "game"
    ids = sorted(c.id for c in rules.content.counters if c.of == of)
    if key[len(COUNTER_PREFIX) :] not in ids:
        names = ", ".join(ids) or "none"
        yield Problem(f"{where}.{key}", f"no {holder} counter {key!r} in content ({names})")


def _check_flags(rules: Rules, state: State) -> Iterable[Problem]:
    """The flags are the ones the rules know (hook ``naqala_flags``), each given once; a
    list longer than the rules' own is one problem, however long it is."""
    known = declared_names(rules, "naqala_flags")
    if len(state.flags) > len(known):
        names = ", ".join(sorted(known)) or "none"
        yield Problem(
            "$.flags", f"{len(state.flags)} flags; these rules know {len(known)} ({names})"
        )
        return
    seen: set[str] = set()
    for i, flag in enumerate(state.flags):
        if flag not in known:
            shown_flag = flag if len(flag) <= MAX_NAME else f"{flag[:20]}…"
            names = ", ".join(sorted(known)) or "none"
            yield Problem(f"$.flags[{i}]", f"no flag {shown_flag!r} in these rules ({names})")
        elif flag in seen:
            yield Problem(f"$.flags[{i}]", f"{flag!r} is given twice")
        seen.add(flag)


def _check_meeples(rules: Rules, state: State) -> Iterable[Problem]:
    """Each colour has exactly its content count between the board, the bag, the players
    and the hand of the move in progress; impassable tiles hold none. A tile with
    ``holds_meeples = false`` is only dealt none at set-up: a move may end on it."""
    for i, tile in enumerate(state.layout.tiles):
        if i in state.layout.blocked and any(state.board.meeples[i]):
            yield Problem(f"$.board.tiles[{i}].meeples", f"{tile!r} holds no meeples")
    for i, tile_meeples in enumerate(state.board.meeples):
        for c, n in enumerate(tile_meeples):
            colour = rules.colours[c]
            if n > colour.count:  # the total is wrong too; this says where it went wrong
                yield Problem(
                    f"$.board.tiles[{i}].meeples",
                    f"{shown(n)} {colour.name} meeples ({colour.letter}) on one tile; the "
                    f"rules have {colour.count} in all",
                )
    hand = state.turn.hand if state.turn is not None and state.turn.hand else None
    for c, colour in enumerate(rules.colours):
        on_board = sum(tile[c] for tile in state.board.meeples)
        kept = sum(p.meeples[c] for p in state.players)
        moving = hand[c] if hand else 0
        aside = aside_meeples(state, colour.id)
        total = on_board + state.bag[c] + kept + moving + aside
        if total != colour.count:
            beside = f", aside {aside}" if aside else ""
            yield Problem(
                "$.bag",
                f"{total} {colour.name} meeples ({colour.letter}) in the game (board "
                f"{on_board}, bag {state.bag[c]}, players {kept}, hand {moving}{beside}); "
                f"the rules have {colour.count}",
            )


def _check_cards(rules: Rules, state: State) -> Iterable[Problem]:
    """Every card id is known and belongs where it lies; each deck's cards are all there."""
    found: dict[str, Counter[str]] = {name: Counter() for name in rules.deck_names}

    def place(path: str, card: str, decks: tuple[str, ...]) -> Problem | None:
        deck = deck_of(rules, card)
        if deck is None:
            return Problem(path, f"unknown card {card!r}")
        if deck not in decks:
            return Problem(path, f"{card!r} is a card of the {deck} deck")
        found[deck][card] += 1
        return None

    for name, deck in zip(rules.deck_names, state.decks, strict=True):
        for pile in ("draw", "row", "discard"):
            for i, card in enumerate(getattr(deck, pile)):
                if card == "" and pile == "row" and name not in DECK_NAMES:
                    continue  # a row laid out in fixed places marks an empty place ""
                problem = place(f"$.decks.{name}.{pile}[{i}]", card, (name,))
                if problem:
                    yield problem
    for seat, player in enumerate(state.players):
        for name, cards in player_hands(rules, player).items():
            for i, card in enumerate(cards):
                problem = place(f"$.players[{seat}].hands.{name}[{i}]", card, (name,))
                if problem:
                    yield problem
    if state.turn is not None:
        for i, card in enumerate(state.turn.revealed):
            problem = place(f"$.turn.revealed[{i}]", card, tuple(rules.deck_names))
            if problem:
                yield problem
    for card, copies in aside_cards(state).items():  # beside the board (a solo opponent)
        for _ in range(copies):
            problem = place(f"$.extras.aside.card.{card}", card, tuple(rules.deck_names))
            if problem:
                yield problem
    for name, want in deck_contents(rules).items():
        have = found[name]
        for card in sorted(set(want) | set(have)):
            if have[card] != want[card]:
                yield Problem(
                    f"$.decks.{name}",
                    f"{have[card]} copies of {card!r} in the game; the rules have {want[card]}",
                )


def _check_tokens(rules: Rules, state: State) -> Iterable[Problem]:
    """Each token kind has exactly its content count between the bank and the board."""
    for k, token in enumerate(rules.tokens):
        placed = sum(tile[k] for tile in state.board.tokens)
        if placed + state.pool[k] != token.count:
            yield Problem(
                f"$.pool.{token.id}",
                f"{state.pool[k]} in the bank and {placed} on the board; the rules have "
                f"{token.count}",
            )


def _check_camels(rules: Rules, state: State) -> Iterable[Problem]:
    """Each player's camels: those in supply plus those on the tiles they own (a token
    that stands for the camel, such as the Artisans' tent, counts as one) make the number
    a player of this player count gets."""
    counts = {pc.players: pc for pc in rules.content.player_counts}
    players = len(state.players)
    if players not in counts:
        allowed = ", ".join(str(n) for n in sorted(counts)) or "none"
        yield Problem("$.players", f"{players} players; these rules allow {allowed}")
        return
    stand_ins = [k for k, t in enumerate(rules.tokens) if t.replaces_camel]
    size = len(state.layout.tiles)
    for i, owner in enumerate(state.board.owners):
        if not (owner in (NOBODY, NON_PLAYER) or 0 <= owner < players):
            yield Problem(f"$.board.tiles[{i}].owner", f"no player {shown(owner)}")
    held = sum(1 for owner in state.board.owners if owner == NON_PLAYER)
    most = rules.content.settings.get("non_player_camels", 0)
    if held > most:
        yield Problem(
            "$.board.tiles",
            f"{held} tiles held by a non-player opponent (owner {NON_PLAYER}); these rules "
            f"give one {most} camels (settings.non_player_camels)",
        )
    for seat, p in enumerate(state.players):
        placed = sum(
            1
            for tile in range(size)
            if state.board.owners[tile] == seat
            and not any(state.board.tokens[tile][k] for k in stand_ins)
        )
        want = counts[players].camels
        if p.camels + placed != want:
            yield Problem(
                f"$.players[{seat}].camels",
                f"{shown(p.camels)} in supply and {placed} on tiles; a player of a "
                f"{players}-player game has {want}",
            )


def _check_markers(rules: Rules, state: State) -> Iterable[Problem]:
    """Each player has their turn markers, and each marker is on exactly one spot of the
    bid and turn-order tracks."""
    counts = {pc.players: pc for pc in rules.content.player_counts}
    players = len(state.players)
    for i, owner in enumerate(state.markers):
        if not 0 <= owner < players:
            yield Problem(f"$.markers[{i}]", f"no player {shown(owner)}")
    if players in counts:
        per_player = counts[players].markers
        for seat in range(players):
            have = state.markers.count(seat)
            if have != per_player:
                yield Problem("$.markers", f"player {seat} has {have} markers, not {per_player}")
    if len(state.bid_track) != len(state.markers):
        yield Problem(
            "$.bid_track", f"{len(state.bid_track)} spots for {len(state.markers)} markers"
        )
    seen: dict[int, str] = {}
    for track, spots in (("bid_track", state.bid_track), ("turn_track", state.turn_track)):
        for i, marker in enumerate(spots):
            if marker == NOBODY:
                continue
            where = f"$.{track}[{i}]"
            if not 0 <= marker < len(state.markers):
                yield Problem(where, f"no marker {shown(marker)}")
            elif marker in seen:
                yield Problem(where, f"marker {shown(marker)} is also on {seen[marker]}")
            seen[marker] = where
    missing = [m for m in range(len(state.markers)) if m not in seen]
    if missing:
        yield Problem("$.bid_track", f"markers {missing} are on no track")


def _check_decision(rules: Rules, state: State) -> Iterable[Problem]:
    """The pending decision names a stage of the rules and a player, and a turn is in
    progress exactly when that stage belongs to one (then its owner decides)."""
    decision, turn, players = state.decision, state.turn, len(state.players)
    if decision.stage == GAME_OVER:
        if decision.player != NOBODY:
            yield Problem("$.decision.player", "nobody decides once the game is over")
        if turn is not None:
            yield Problem("$.turn", "no turn is in progress once the game is over")
        return
    stage = rules.stages.get(decision.stage)
    if stage is None:
        yield Problem("$.decision.stage", f"unknown stage {decision.stage!r}")
        return
    if not 0 <= decision.player < players:
        yield Problem("$.decision.player", f"no player {shown(decision.player)}")
        return
    if stage.in_turn and turn is None:
        yield Problem(
            "$.turn",
            f"the decision {decision.stage!r} belongs to a turn, but no turn is in progress",
        )
    elif not stage.in_turn and turn is not None:
        yield Problem("$.turn", f"no turn is in progress during {decision.stage!r}")
    if turn is None:
        return
    if not 0 <= turn.marker < len(state.markers):
        yield Problem("$.turn.marker", f"no marker {shown(turn.marker)}")
        return
    owner = state.markers[turn.marker]
    if stage.in_turn and stage.owner_decides and owner != decision.player:
        yield Problem(
            "$.decision.player",
            f"the turn in progress is player {shown(owner)}'s, "
            f"not player {shown(decision.player)}'s",
        )
    if turn.colour != NOBODY and not 0 <= turn.colour < len(rules.colours):
        yield Problem("$.turn.colour", f"no colour {shown(turn.colour)}")
    if turn.resume and turn.resume not in rules.stages:
        yield Problem("$.turn.resume", f"unknown stage {turn.resume!r}")
    for i, caller in enumerate(turn.callers):
        if caller not in rules.stages:
            yield Problem(f"$.turn.callers[{i}]", f"unknown stage {caller[:40]!r}")
    size = len(state.layout.tiles)
    tiles = {"start": (turn.start,) if turn.start != NOBODY else (), "path": turn.path}
    declared = rules.turn_fields
    for name, value in turn.fields:
        field = declared.get(name)
        if field is None:
            yield Problem(f"$.turn.{name[:40]}", f"no turn field {name[:40]!r} in these rules")
        elif not fits(field, value):
            yield Problem(f"$.turn.{name}", f"not a value of a {field.kind} field")
        elif isinstance(value, tuple):
            tiles[name] = value
    for name, found in tiles.items():
        if any(not 0 <= t < size for t in found):
            yield Problem(f"$.turn.{name}", "a tile off the board")
