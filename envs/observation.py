"""A seat's observation as a fixed-size list of numbers, and as text, read from the seat's
view (``naqala.core.views.view_for``), so nothing the seat may not see can leak into it.

The layout depends only on the rules (``ObservationEncoder.layout`` lists every part with
its first index, size and labels; docs/ai.md describes it). Players are listed from the
seat's own point of view: slot 0 is the seat, slot 1 the next seat, and so on, with as
many slots as the largest game the rules allow (absent seats are zeros). The encoder's own
parts come first, then the plugins' (hook ``naqala_observation_parts``):

- ``board``: per square (``board_squares`` order): tile kind one-hot, VP, impassable,
  meeples per colour, owner one-hot by slot, tokens per kind;
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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from naqala.core.encoding import ObservationPart, View, board_squares, player_counts, seats_from
from naqala.core.engine import Rules
from naqala.core.plugins import PluginError
from naqala.core.state import GAME_OVER, State
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
        squares = board_squares(rules)
        at = {s: i for i, s in enumerate(squares)}
        slots = max(player_counts(rules))
        letters = {c: i for i, c in enumerate(rules.letters)}
        colours = len(letters)
        kinds = sorted({t.kind for t in rules.tile_specs.values()})
        kind_index = {k: i for i, k in enumerate(kinds)}
        tokens = {t.id: i for i, t in enumerate(rules.tokens)}
        decks = rules.deck_names
        cards = {d: _card_index(rules, d) for d in decks}
        stages = sorted({*rules.stages, GAME_OVER})
        stage_index = {s: i for i, s in enumerate(stages)}
        bid_spots, turn_spots = _track_lengths(rules)
        per_square = len(kinds) + 2 + colours + slots + len(tokens)
        player_size = 4 + colours + sum(len(cards[d]) + 1 for d in decks)

        def relative(view: View, seat: int) -> dict[int, int]:
            return {player: slot for slot, player in enumerate(seats_from(view, seat))}

        # what a square shows of its tile never changes: kind one-hot and VP, per tile id
        prefix = {
            tile_id: [*_one_hot(kind_index[spec.kind], len(kinds)), float(spec.vp)]
            for tile_id, spec in rules.tile_specs.items()
        }

        def board(view: View, seat: int) -> list[float]:
            numbers = [0.0] * (len(squares) * per_square)
            blocked = set(view["board"]["blocked"])
            slot_of = relative(view, seat)
            for tile in view["board"]["tiles"]:
                square = at.get(tile["at"])
                if square is None:
                    continue
                start = square * per_square
                numbers[start : start + len(kinds) + 1] = prefix[tile["tile"]]
                if tile["at"] in blocked:
                    numbers[start + len(kinds) + 1] = 1.0
                meeples = start + len(kinds) + 2
                for letter in tile["meeples"]:
                    numbers[meeples + letters[letter]] += 1.0
                if tile["owner"] is not None:
                    numbers[meeples + colours + slot_of[tile["owner"]]] = 1.0
                first_token = meeples + colours + slots
                for token, count in tile["tokens"].items():
                    numbers[first_token + tokens[token]] = float(count)
            return numbers

        def players(view: View, seat: int) -> list[float]:
            numbers: list[float] = []
            order = seats_from(view, seat)
            for slot in range(slots):
                if slot >= len(order):
                    numbers += [0.0] * player_size
                    continue
                data = view["players"][order[slot]]
                coins = data["coins"]
                numbers += [1.0, float(coins or 0), 0.0 if coins is None else 1.0]
                numbers += [float(data["camels"])]
                numbers += _counts(data["meeples"], letters, colours)
                hidden = data.get("hidden", {})
                for deck in decks:
                    held = data["hands"].get(deck, [])
                    numbers += _counts(held, cards[deck], len(cards[deck]))
                    numbers += [float(hidden.get(deck, 0))]
            return numbers

        def bag(view: View, seat: int) -> list[float]:
            return _counts(view["bag"], letters, colours)

        def bank(view: View, seat: int) -> list[float]:
            return [float(view["pool"].get(t, 0)) for t in tokens]

        def deck_part(view: View, seat: int) -> list[float]:
            numbers: list[float] = []
            for deck in decks:
                data = view["decks"].get(deck, {"draw": 0, "row": [], "discard": []})
                index = cards[deck]
                numbers += [float(data["draw"])]
                numbers += _counts(data["row"], index, len(index))
                numbers += _counts(data["discard"], index, len(index))
            return numbers

        def tracks(view: View, seat: int) -> list[float]:
            slot_of = relative(view, seat)
            numbers: list[float] = []
            for spots, track in ((bid_spots, view["bid_track"]), (turn_spots, view["turn_track"])):
                for spot in range(spots):
                    marker = track[spot] if spot < len(track) else None
                    owner = None if marker is None else slot_of[view["markers"][marker]]
                    numbers += _one_hot(owner, slots)
            return numbers

        def decision(view: View, seat: int) -> list[float]:
            data = view["decision"]
            player = data["player"]
            slot = relative(view, seat).get(player) if player is not None else None
            return [
                *_one_hot(stage_index.get(data["stage"]), len(stages)),
                *_one_hot(slot, slots),
                float(view["round"]),
            ]

        def labelled(
            name: str, size: int, read: Callable[[View, int], list[float]], labels: list[str]
        ) -> ObservationPart:
            assert len(labels) == size, (name, len(labels), size)
            return ObservationPart(name, size, read, tuple(labels))

        square_labels = [
            *(f"kind {k}" for k in kinds),
            "vp",
            "impassable",
            *(f"meeples {c}" for c in letters),
            *(f"owner seat +{k}" for k in range(slots)),
            *(f"token {t}" for t in tokens),
        ]
        hand_labels = [
            label for d in decks for label in (*(f"{d} {c}" for c in cards[d]), f"{d} hidden count")
        ]
        player_labels = [
            "present",
            "coins",
            "coins known",
            "camels",
            *(f"kept {c}" for c in letters),
            *hand_labels,
        ]
        deck_labels = [
            label
            for d in decks
            for label in (
                f"{d} draw pile",
                *(f"{d} row {c}" for c in cards[d]),
                *(f"{d} discard {c}" for c in cards[d]),
            )
        ]
        track_labels = [
            f"{name} spot {spot} owner seat +{k}"
            for name, spots in (("bid", bid_spots), ("turn", turn_spots))
            for spot in range(spots)
            for k in range(slots)
        ]
        return [
            labelled(
                "board",
                len(squares) * per_square,
                board,
                [f"{s} {label}" for s in squares for label in square_labels],
            ),
            labelled(
                "players",
                slots * player_size,
                players,
                [f"seat +{k} {label}" for k in range(slots) for label in player_labels],
            ),
            labelled("bag", colours, bag, [f"bag {c}" for c in letters]),
            labelled("bank", len(tokens), bank, [f"bank {t}" for t in tokens]),
            labelled("decks", len(deck_labels), deck_part, deck_labels),
            labelled("tracks", len(track_labels), tracks, track_labels),
            labelled(
                "decision",
                len(stages) + slots + 1,
                decision,
                [
                    *(f"stage {s}" for s in stages),
                    *(f"deciding seat +{k}" for k in range(slots)),
                    "round",
                ],
            ),
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
