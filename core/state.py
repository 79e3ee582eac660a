"""The game state: one immutable, hashable value.

Every field is a tuple, an int, a string or another frozen record, so a state can be kept,
shared, hashed and compared freely; ``apply`` builds a new state that shares the unchanged
parts of the old one. The core knows the *components* of the Five Tribes family — a grid of
tiles holding meeples and tokens, players holding coins, camels, meeples and cards, decks
with face-up rows, bid and turn tracks — but not the rules that move them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from naqala.core.board import Geometry, geometry
from naqala.core.content import DECK_NAMES, DJINNS, RESOURCES
from naqala.core.rng import Rng

#: counts per colour (meeples) or per token kind (palm trees, palaces…), by index
Counts = tuple[int, ...]
#: the value of a plugin's turn field: a count, a text or tiles (``naqala.core.turnfields``)
TurnValue = int | str | tuple[int, ...]
T = TypeVar("T")
_UNCHANGED: Any = object()
_REPLACERS: dict[type, Callable[..., Any]] = {}


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen attrs ``record`` with ``changes`` — like ``attrs.evolve``, several
    times faster, which matters on the hot path of every action. The copier of each
    class is generated once from its fields (as attrs itself generates ``__init__``)."""
    cls = type(record)
    replace = _REPLACERS.get(cls)
    if replace is None:
        replace = _REPLACERS[cls] = _make_replacer(cls)
    return replace(record, **changes)  # type: ignore[no-any-return]


def _make_replacer(cls: type) -> Callable[..., Any]:
    """The copier of ``cls``. A plain record (slots, no validators, converters or
    post-init, every field set by ``__init__`` or derived in ``DERIVED``) is copied by
    setting its slots directly, skipping ``__init__``; any other class calls it."""
    fields = attrs.fields(cls)
    names = [f.name for f in fields if f.init]
    params = ", ".join(f"{n}=_UNCHANGED" for n in names)
    derived = DERIVED.get(cls, {})
    slots = set(cls.__dict__.get("__slots__", ()))
    plain = (
        not hasattr(cls, "__attrs_post_init__")
        and all(f.validator is None and f.converter is None for f in fields)
        and all(f.init or f.name in derived for f in fields)
        and slots - {"__weakref__"} == {f.name for f in fields}
    )
    namespace: dict[str, Any] = {"cls": cls, "_UNCHANGED": _UNCHANGED}
    if not plain:
        values = ", ".join(f"{n}=record.{n} if {n} is _UNCHANGED else {n}" for n in names)
        exec(f"def replace(record, *, {params}):\n    return cls({values})\n", namespace)
        return namespace["replace"]  # type: ignore[no-any-return]
    lines = ["def replace(record, *, " + params + "):", "    new = make(cls)"]
    namespace["make"] = object.__new__
    for f in fields:
        namespace[f"set_{f.name}"] = getattr(cls, f.name).__set__
        if f.init:
            value = f"record.{f.name} if {f.name} is _UNCHANGED else {f.name}"
        else:  # a cache derived from one field: kept while that field is unchanged
            source = derived[f.name]
            value = f"record.{f.name} if {source} is _UNCHANGED else None"
        lines.append(f"    set_{f.name}(new, {value})")
    lines.append("    return new")
    exec("\n".join(lines) + "\n", namespace)
    return namespace["replace"]  # type: ignore[no-any-return]


#: per class, its derived (``init=False``) fields and the field each is derived from;
#: ``evolve`` keeps such a cache while its source is unchanged and resets it to None
DERIVED: dict[type, dict[str, str]] = {}


NOBODY = -1
#: the owner of a tile held by a non-player opponent (the solo mode's Sultan): no player's,
#: yet not free — nobody may take it, and it scores for no player
NON_PLAYER = -2
GAME_OVER = "over"


def add_at(counts: Counts, index: int, delta: int) -> Counts:
    """``counts`` with ``delta`` added at ``index``."""
    return counts[:index] + (counts[index] + delta,) + counts[index + 1 :]


def replace_at(items: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    """``items`` with position ``index`` replaced by ``value``."""
    return items[:index] + (value,) + items[index + 1 :]


@attrs.frozen(slots=True, cache_hash=True)
class Layout:
    """What never changes during a game: the grid, which tile lies where, blocked terrain."""

    rows: int
    cols: int
    tiles: tuple[str, ...]  # content id of the tile at each position
    blocked: frozenset[int] = frozenset()  # impassable tiles
    walls: frozenset[tuple[int, int]] = frozenset()  # blocked edges, as sorted pairs
    #: the shared geometry of this shape, kept once found (no part of the value)
    _geometry: Geometry | None = attrs.field(
        init=False, default=None, eq=False, repr=False, hash=False
    )

    @property
    def geometry(self) -> Geometry:
        found = self._geometry
        if found is None:
            found = _geometry_of(self)
            object.__setattr__(self, "_geometry", found)
        return found


@functools.lru_cache(maxsize=64)
def _geometry_of(layout: Layout) -> Geometry:
    return geometry(layout.rows, layout.cols, layout.blocked, layout.walls)


@attrs.frozen(slots=True)
class Board:
    """What lies on the tiles: meeples per colour, the owner, tokens per kind.

    ``colour_masks`` (which tiles hold each colour, as bit masks) is derived from
    ``meeples`` when first asked for and kept with the board; ``with_meeples_at`` carries
    it over to the next board changing only the tile it changes. It is no part of the
    value: not compared, hashed or saved."""

    meeples: tuple[Counts, ...]
    owners: tuple[int, ...]
    tokens: tuple[Counts, ...]
    _masks: tuple[int, ...] | None = attrs.field(
        init=False, default=None, eq=False, repr=False, hash=False
    )

    @property
    def colour_masks(self) -> tuple[int, ...]:
        """For each colour, a bit mask of the tiles holding at least one meeple of it."""
        masks = self._masks
        if masks is None:
            found = [0] * (len(self.meeples[0]) if self.meeples else 0)
            for tile, counts in enumerate(self.meeples):
                bit = 1 << tile
                for colour, n in enumerate(counts):
                    if n:
                        found[colour] |= bit
            masks = tuple(found)
            object.__setattr__(self, "_masks", masks)
        return masks

    def with_meeples_at(self, tile: int, counts: Counts) -> Board:
        """This board with the meeples on ``tile`` replaced by ``counts`` (the colour masks
        updated for that tile alone when they are known)."""
        meeples = self.meeples
        board = _new_board(Board)
        _set_meeples(board, meeples[:tile] + (counts,) + meeples[tile + 1 :])
        _set_owners(board, self.owners)
        _set_tokens(board, self.tokens)
        masks = self._masks
        if masks is not None:
            before = meeples[tile]
            bit = 1 << tile
            changed = [
                colour for colour, n in enumerate(counts) if (n > 0) is not (before[colour] > 0)
            ]
            if changed:
                updated = list(masks)
                for colour in changed:
                    updated[colour] ^= bit
                masks = tuple(updated)
        _set_masks(board, masks)
        return board


# a board is built field by field on the hot path (as ``evolve`` copies records)
_new_board = object.__new__
_SLOT_SETTERS: dict[str, Callable[[Board, Any], None]] = {
    name: vars(Board)[name].__set__ for name in ("meeples", "owners", "tokens", "_masks")
}
_set_meeples = _SLOT_SETTERS["meeples"]
_set_owners = _SLOT_SETTERS["owners"]
_set_tokens = _SLOT_SETTERS["tokens"]
_set_masks = _SLOT_SETTERS["_masks"]

DERIVED[Board] = {"_masks": "meeples"}

#: where the hands of the two decks every game has sit in ``PlayerState.hands``: found by
#: their names in ``DECK_NAMES`` (the order the state JSON lists them in), for the two
#: shorthands below; code with rules finds any deck by name (``rules.deck_index``)
_RESOURCE_HAND = DECK_NAMES.index(RESOURCES)
_DJINN_HAND = DECK_NAMES.index(DJINNS)


@attrs.frozen(slots=True)
class PlayerState:
    """One player's holdings. ``hands`` holds one hand per deck, by deck index (as
    ``State.decks``); each deck's policy says whether its hand is sorted or in the order
    taken (resources sorted, djinns as taken)."""

    coins: int
    camels: int  # camels still in the player's supply
    meeples: Counts  # meeples kept in front of the player, per colour
    hands: tuple[tuple[str, ...], ...] = ()
    extras: tuple[tuple[str, int], ...] = ()  # plugin counters, sorted by key

    def hand(self, deck: int) -> tuple[str, ...]:
        """The cards of deck number ``deck`` in this player's hand."""
        return self.hands[deck] if deck < len(self.hands) else ()

    def with_hand(self, deck: int, cards: tuple[str, ...]) -> PlayerState:
        """This player with the hand of deck number ``deck`` replaced by ``cards``."""
        hands = self.hands + ((),) * (deck + 1 - len(self.hands))
        return evolve(self, hands=replace_at(hands, deck, cards))

    @property
    def cards(self) -> tuple[str, ...]:
        """The resource cards in hand (sorted): the hand of the resources deck."""
        return self.hand(_RESOURCE_HAND)

    @property
    def djinns(self) -> tuple[str, ...]:
        """The djinns in hand, in the order taken: the hand of the djinns deck."""
        return self.hand(_DJINN_HAND)


@attrs.frozen(slots=True)
class Deck:
    """A deck of cards: the draw pile (top first), the face-up row, the discard pile.

    A row laid out in fixed places (one card per city) marks an empty place with ``""``.
    """

    draw: tuple[str, ...] = ()
    row: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class Turn:
    """The turn in progress: the marker played, the meeple move and what it collected —
    what every rule set's turn has. What a plugin keeps besides (the assassins' range, the
    tiles claimed) is in ``fields``, declared by that plugin."""

    marker: int
    start: int = NOBODY  # tile the meeples were picked up from
    path: tuple[int, ...] = ()  # tiles dropped on, in order
    hand: Counts = ()  # meeples still in hand during the move
    colour: int = NOBODY  # colour collected at the end of the move
    taken: int = 0  # how many meeples of that colour were collected
    used: tuple[str, ...] = ()  # once-per-turn things already done (sorted)
    revealed: tuple[str, ...] = ()  # cards drawn to be looked at and chosen from
    resume: str = ""  # the stage to return to when a power's own decision is over
    callers: tuple[str, ...] = ()  # stages waiting for a step they entered (rules.call)
    #: the fields plugins declare (hook ``naqala_turn_fields``, ``naqala.core.turnfields``:
    #: the assassins' ``reach``…), sorted by name, each left out at its default
    fields: tuple[tuple[str, TurnValue], ...] = ()

    @property
    def here(self) -> int:
        return self.path[-1] if self.path else self.start

    @property
    def previous(self) -> int:
        if len(self.path) >= 2:
            return self.path[-2]
        return self.start if self.path else NOBODY


@attrs.frozen(slots=True)
class Decision:
    """Who must decide what now. ``stage`` names the decision; it is ``over`` at game end,
    where ``player`` is -1."""

    stage: str
    player: int = NOBODY


@attrs.frozen(slots=True)
class State:
    """A whole game position."""

    ruleset: tuple[str, ...]  # plugin names, in registration order
    layout: Layout
    board: Board
    players: tuple[PlayerState, ...]
    bag: Counts  # meeples in the bag, per colour
    pool: Counts  # tokens left in the bank, per token kind
    decks: tuple[Deck, ...]  # by deck index (see Rules.deck_index)
    markers: tuple[int, ...]  # owner (player index) of each turn marker
    bid_track: tuple[int, ...]  # marker on each bid-order spot, -1 if empty
    turn_track: tuple[int, ...]  # marker on each turn-order spot, -1 if empty
    decision: Decision
    rng: Rng
    round: int = 1
    turn: Turn | None = None
    flags: tuple[str, ...] = ()  # game-wide flags, sorted (e.g. "last-round")
    extras: tuple[tuple[str, int], ...] = ()  # plugin counters, sorted by key

    @property
    def geometry(self) -> Geometry:
        return self.layout.geometry

    @property
    def is_over(self) -> bool:
        return self.decision.stage == GAME_OVER

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags

    def full_state(self) -> State:
        """The whole state: this one. A hook the native engine calls back is shown a
        read-only ``StateView`` whose ``full_state()`` is the Python ``State``, at the
        cost of building it (``naqala.native.state_form``), so a hook that needs more
        than the view asks the same way on both engines (docs/hooks.md, "Hooks called
        back")."""
        return self

    def with_flag(self, flag: str) -> State:
        if flag in self.flags:
            return self
        return evolve(self, flags=tuple(sorted((*self.flags, flag))))

    def replace_player(self, index: int, player: PlayerState) -> State:
        return evolve(self, players=replace_at(self.players, index, player))


def get_extra(extras: tuple[tuple[str, int], ...], key: str, default: int = 0) -> int:
    for k, v in extras:
        if k == key:
            return v
    return default


def set_extra(
    extras: tuple[tuple[str, int], ...], key: str, value: int
) -> tuple[tuple[str, int], ...]:
    return tuple(sorted({**dict(extras), key: value}.items()))


#: prefix of the state counters that record how often a card's power changed the game
EFFECTS = "effects."


#: prefix of the state counters of components set aside in a non-player opponent's area,
#: beside the board: ``aside.meeple.<colour id>`` meeples and ``aside.card.<card id>``
#: cards. They are still in the game: the conservation checks count them.
ASIDE = "aside."
ASIDE_MEEPLE = ASIDE + "meeple."
ASIDE_CARD = ASIDE + "card."


def aside_meeples(state: State, colour: str) -> int:
    """Meeples of colour ``colour`` (an id) set aside beside the board."""
    return get_extra(state.extras, ASIDE_MEEPLE + colour)


def aside_cards(state: State) -> dict[str, int]:
    """Cards set aside beside the board: how many copies of each card id."""
    return {k[len(ASIDE_CARD) :]: v for k, v in state.extras if k.startswith(ASIDE_CARD) and v}


def set_aside(state: State, key: str, delta: int) -> State:
    """Add ``delta`` to the set-aside counter ``key`` (``aside.meeple.red``…); a counter
    back at zero is dropped, so states that set nothing aside stay equal."""
    value = get_extra(state.extras, key) + delta
    extras = tuple((k, v) for k, v in state.extras if k != key)
    if value:
        extras = tuple(sorted((*extras, (key, value))))
    return evolve(state, extras=extras)


def turn_owner(state: State) -> int:
    """The player whose turn is in progress (``NOBODY`` outside turns); not always the
    one deciding (an opponent giving something up to a thief decides in it)."""
    if state.turn is None:
        return NOBODY
    return state.markers[state.turn.marker]


def count_effect(state: State, source: str) -> State:
    """Record that ``source`` (a card id) changed the game once more; ``naqala simulate``
    reports these counts."""
    key = EFFECTS + source
    return evolve(state, extras=set_extra(state.extras, key, get_extra(state.extras, key) + 1))


def effect_counts(state: State) -> dict[str, int]:
    """How often each card's power changed the game so far, by card id."""
    return {k[len(EFFECTS) :]: v for k, v in state.extras if k.startswith(EFFECTS)}
