"""A seat's observation as a fixed-size list of numbers, and as text, read from the seat's
view (``naqala.core.views.view_for``), so nothing the seat may not see can leak into it.

The layout depends only on the rules (``ObservationEncoder.layout`` lists every part with
its first index, size and labels; docs/ai.md describes it). Players are listed from the
seat's own point of view: slot 0 is the seat, slot 1 the next seat, and so on, with as
many slots as the largest game the rules allow (absent seats are zeros). The encoder's own
parts come first, then the plugins' (hook ``naqala_observation_parts``):

- ``board``: per square (``board_squares`` order): tile kind one-hot, VP, impassable,
  meeples per colour, owner one-hot by slot (and one more for a non-player opponent where
  the rules have one: Sultan Yazid's tiles), tokens per kind;
- ``players``: per slot: present, coins (0 when hidden), coins known, camels, kept meeples
  per colour, per deck the cards in hand by id (hidden decks of others: zeros) and the
  hidden count;
- ``bag``, ``bank``: meeples per colour, tokens per kind;
- ``decks``: per deck: cards in the draw pile, the face-up row and discards by card id;
- ``tracks``: the bid and turn-order spots, each one-hot by slot of the marker's owner;
- ``decision``: the stage one-hot, the deciding slot one-hot, the round.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import attrs

from naqala.core.encoding import ObservationPart, View, board_squares, player_counts, seats_from
from naqala.core.engine import Rules
from naqala.core.plugins import PluginError
from naqala.core.state import GAME_OVER, NON_PLAYER, State
from naqala.core.views import view_for


def _counts(items: Sequence[str], index: Mapping[str, int], size: int) -> list[float]:
    numbers = [0.0] * size
    for item in items:
        if item in index:
            numbers[index[item]] += 1.0
    return numbers


def _one_hot(position: int | None, size: int) -> list[float]:
    numbers = [0.0] * size
    if position is not None and 0 <= position < size:
        numbers[position] = 1.0
    return numbers


class ObservationEncoder:
    """The observation of one ruleset: ``size`` numbers per seat (``encode``) and text."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.parts: list[ObservationPart] = self._own_parts(rules)
        # pluggy answers the last registered plugin first: reversed, registration order
        for group in reversed(rules.hook.naqala_observation_parts(rules=rules)):
            self.parts.extend(group)
        seen: set[str] = set()
        for part in self.parts:
            if part.name in seen:
                raise PluginError(f"two observation parts are named {part.name!r}")
            seen.add(part.name)
        self.size = sum(part.size for part in self.parts)

    def layout(self) -> list[tuple[str, int, int, tuple[str, ...]]]:
        """(name, first index, size, labels) of every part, in order."""
        found, start = [], 0
        for part in self.parts:
            labels = part.labels or tuple(f"{part.name}[{i}]" for i in range(part.size))
            found.append((part.name, start, part.size, labels))
            start += part.size
        return found

    def encode(self, view: View) -> list[float]:
        """The numbers of ``view`` (a view of the rules' games for its ``seat``)."""
        seat = int(view["seat"])
        numbers: list[float] = []
        for part in self.parts:
            values = list(part.read(view, seat))
            if len(values) != part.size:
                raise ValueError(
                    f"observation part {part.name!r} gave {len(values)} numbers, not {part.size}"
                )
            numbers.extend(values)
        return numbers

    def observe(self, state: State, seat: int) -> list[float]:
        """The numbers ``seat`` observes of ``state``."""
        return self.encode(view_for(self.rules, state, seat))

    def text(self, state: State, seat: int) -> str:
        """What ``seat`` observes of ``state`` as text: its view as canonical JSON (keys
        sorted), equal for two states exactly when the seat cannot tell them apart."""
        return view_text(view_for(self.rules, state, seat))

    # -- the encoder's own parts -------------------------------------------------------

    def _own_parts(self, rules: Rules) -> list[ObservationPart]:
        """The encoder's own parts, as the module docstring lists them: each a reader and
        its labels, built from the fixed facts of the rules' games (``_Shape``)."""
        shape = _Shape.of(rules)
        slots = shape.slots
        squares = [f"{s} {label}" for s in shape.squares for label in _square_labels(shape)]
        assert len(squares) == len(shape.squares) * shape.per_square
        seats = [f"seat +{k} {label}" for k in range(slots) for label in _player_labels(shape)]
        letters, tokens = shape.letters, shape.tokens
        return [
            _labelled(
                "board", len(shape.squares) * shape.per_square, partial(_board, shape), squares
            ),
            _labelled("players", slots * shape.player_size, partial(_players, shape), seats),
            _labelled("bag", len(letters), partial(_bag, shape), [f"bag {c}" for c in letters]),
            _labelled("bank", len(tokens), partial(_bank, shape), [f"bank {t}" for t in tokens]),
            _labelled("decks", None, partial(_decks, shape), _deck_labels(shape)),
            _labelled("tracks", None, partial(_tracks, shape), _track_labels(shape)),
            _labelled(
                "decision",
                len(shape.stages) + slots + 1,
                partial(_decision, shape),
                [
                    *(f"stage {s}" for s in shape.stages),
                    *(f"deciding seat +{k}" for k in range(slots)),
                    "round",
                ],
            ),
        ]


@attrs.frozen
class _Shape:
    """What the encoder's parts need to know of the rules' games, computed once: the
    squares, the largest number of seats, the colours, tile kinds, tokens, the cards of
    each deck, the stages and the longest tracks."""

    squares: tuple[str, ...]
    at: Mapping[str, int]  # square → its position in ``squares``
    slots: int
    #: whether a non-player opponent may own tiles (``settings.non_player_camels``): then
    #: each square has one owner number more, after the seats'
    non_player: bool
    letters: Mapping[str, int]  # colour letter → its index
    kinds: tuple[str, ...]
    tokens: Mapping[str, int]  # token id → its index
    decks: tuple[str, ...]
    cards: Mapping[str, Mapping[str, int]]  # per deck: card id → its index
    stages: tuple[str, ...]
    stage_index: Mapping[str, int]
    bid_spots: int
    turn_spots: int
    #: what a square shows of its tile never changes: kind one-hot and VP, per tile id
    prefix: Mapping[str, list[float]]

    @classmethod
    def of(cls, rules: Rules) -> _Shape:
        squares = tuple(board_squares(rules))
        kinds = tuple(sorted({t.kind for t in rules.tile_specs.values()}))
        kind_index = {k: i for i, k in enumerate(kinds)}
        stages = tuple(sorted({*rules.stages, GAME_OVER}))
        bid_spots, turn_spots = _track_lengths(rules)
        return cls(
            squares=squares,
            at={s: i for i, s in enumerate(squares)},
            slots=max(player_counts(rules)),
            non_player=rules.content.settings.get("non_player_camels", 0) > 0,
            letters={c: i for i, c in enumerate(rules.letters)},
            kinds=kinds,
            tokens={t.id: i for i, t in enumerate(rules.tokens)},
            decks=tuple(rules.deck_names),
            cards={d: _card_index(rules, d) for d in rules.deck_names},
            stages=stages,
            stage_index={s: i for i, s in enumerate(stages)},
            bid_spots=bid_spots,
            turn_spots=turn_spots,
            prefix={
                tile_id: [*_one_hot(kind_index[spec.kind], len(kinds)), float(spec.vp)]
                for tile_id, spec in rules.tile_specs.items()
            },
        )

    @property
    def colours(self) -> int:
        return len(self.letters)

    @property
    def owners(self) -> int:
        """The owner numbers of a square: one per seat, and one for a non-player."""
        return self.slots + int(self.non_player)

    @property
    def per_square(self) -> int:
        return len(self.kinds) + 2 + self.colours + self.owners + len(self.tokens)

    @property
    def player_size(self) -> int:
        return 4 + self.colours + sum(len(self.cards[d]) + 1 for d in self.decks)


def _labelled(
    name: str, size: int | None, read: Callable[[View, int], list[float]], labels: list[str]
) -> ObservationPart:
    """A part of ``size`` numbers (the labels' count when None), one label each."""
    assert size is None or len(labels) == size, (name, len(labels), size)
    return ObservationPart(name, len(labels), read, tuple(labels))


def _relative(view: View, seat: int) -> dict[int, int]:
    """Each player's slot as ``seat`` sees the table: itself 0, the next seat 1, …"""
    return {player: slot for slot, player in enumerate(seats_from(view, seat))}


def _board(shape: _Shape, view: View, seat: int) -> list[float]:
    per_square, kinds, colours = shape.per_square, len(shape.kinds), shape.colours
    numbers = [0.0] * (len(shape.squares) * per_square)
    blocked = set(view["board"]["blocked"])
    slot_of = _relative(view, seat)
    for tile in view["board"]["tiles"]:
        square = shape.at.get(tile["at"])
        if square is None:
            continue
        start = square * per_square
        numbers[start : start + kinds + 1] = shape.prefix[tile["tile"]]
        if tile["at"] in blocked:
            numbers[start + kinds + 1] = 1.0
        meeples = start + kinds + 2
        for letter in tile["meeples"]:
            numbers[meeples + shape.letters[letter]] += 1.0
        owner = tile["owner"]
        if owner is not None:
            slot = shape.slots if owner == NON_PLAYER else slot_of[owner]
            numbers[meeples + colours + slot] = 1.0
        first_token = meeples + colours + shape.owners
        for token, count in tile["tokens"].items():
            numbers[first_token + shape.tokens[token]] = float(count)
    return numbers


def _players(shape: _Shape, view: View, seat: int) -> list[float]:
    numbers: list[float] = []
    order = seats_from(view, seat)
    for slot in range(shape.slots):
        if slot >= len(order):
            numbers += [0.0] * shape.player_size
            continue
        data = view["players"][order[slot]]
        coins = data["coins"]
        numbers += [1.0, float(coins or 0), 0.0 if coins is None else 1.0]
        numbers += [float(data["camels"])]
        numbers += _counts(data["meeples"], shape.letters, shape.colours)
        hidden = data.get("hidden", {})
        for deck in shape.decks:
            held = data["hands"].get(deck, [])
            numbers += _counts(held, shape.cards[deck], len(shape.cards[deck]))
            numbers += [float(hidden.get(deck, 0))]
    return numbers


def _bag(shape: _Shape, view: View, seat: int) -> list[float]:
    return _counts(view["bag"], shape.letters, shape.colours)


def _bank(shape: _Shape, view: View, seat: int) -> list[float]:
    return [float(view["pool"].get(t, 0)) for t in shape.tokens]


def _decks(shape: _Shape, view: View, seat: int) -> list[float]:
    numbers: list[float] = []
    for deck in shape.decks:
        data = view["decks"].get(deck, {"draw": 0, "row": [], "discard": []})
        index = shape.cards[deck]
        numbers += [float(data["draw"])]
        numbers += _counts(data["row"], index, len(index))
        numbers += _counts(data["discard"], index, len(index))
    return numbers


def _tracks(shape: _Shape, view: View, seat: int) -> list[float]:
    slot_of = _relative(view, seat)
    numbers: list[float] = []
    tracks = ((shape.bid_spots, view["bid_track"]), (shape.turn_spots, view["turn_track"]))
    for spots, track in tracks:
        for spot in range(spots):
            marker = track[spot] if spot < len(track) else None
            owner = None if marker is None else slot_of[view["markers"][marker]]
            numbers += _one_hot(owner, shape.slots)
    return numbers


def _decision(shape: _Shape, view: View, seat: int) -> list[float]:
    data = view["decision"]
    player = data["player"]
    slot = _relative(view, seat).get(player) if player is not None else None
    return [
        *_one_hot(shape.stage_index.get(data["stage"]), len(shape.stages)),
        *_one_hot(slot, shape.slots),
        float(view["round"]),
    ]


def _square_labels(shape: _Shape) -> list[str]:
    return [
        *(f"kind {k}" for k in shape.kinds),
        "vp",
        "impassable",
        *(f"meeples {c}" for c in shape.letters),
        *(f"owner seat +{k}" for k in range(shape.slots)),
        *(["owner non-player"] if shape.non_player else []),
        *(f"token {t}" for t in shape.tokens),
    ]


def _player_labels(shape: _Shape) -> list[str]:
    hands = [
        label
        for d in shape.decks
        for label in (*(f"{d} {c}" for c in shape.cards[d]), f"{d} hidden count")
    ]
    kept = [f"kept {c}" for c in shape.letters]
    return ["present", "coins", "coins known", "camels", *kept, *hands]


def _deck_labels(shape: _Shape) -> list[str]:
    return [
        label
        for d in shape.decks
        for label in (
            f"{d} draw pile",
            *(f"{d} row {c}" for c in shape.cards[d]),
            *(f"{d} discard {c}" for c in shape.cards[d]),
        )
    ]


def _track_labels(shape: _Shape) -> list[str]:
    return [
        f"{name} spot {spot} owner seat +{k}"
        for name, spots in (("bid", shape.bid_spots), ("turn", shape.turn_spots))
        for spot in range(spots)
        for k in range(shape.slots)
    ]


def _card_index(rules: Rules, deck: str) -> dict[str, int]:
    ids = dict.fromkeys(c.id for c in rules.content.cards if c.deck == deck)
    return {card: i for i, card in enumerate(ids)}


def _track_lengths(rules: Rules) -> tuple[int, int]:
    """The longest bid and turn-order tracks of any allowed player count."""
    bids, turns = 0, 0
    for players in player_counts(rules):
        state = rules.new_game(players, 0)
        bids = max(bids, len(state.bid_track))
        turns = max(turns, len(state.turn_track))
    return bids, turns


def view_text(view: Mapping[str, Any]) -> str:
    """A view as canonical JSON: sorted keys, no spaces."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def encoder_for(rules: Rules) -> ObservationEncoder:
    """The encoder of ``rules``, built once per rules object (it sets up a game per
    player count to size the tracks)."""
    found = _ENCODERS.get(rules)
    if found is None:
        found = _ENCODERS[rules] = ObservationEncoder(rules)
    return found


_ENCODERS: weakref.WeakKeyDictionary[Rules, ObservationEncoder] = weakref.WeakKeyDictionary()
