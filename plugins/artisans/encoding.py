"""The Artisans' part of the encoding for learning programs: the workshop, the
specialized market, items to keep and tents (hook ``naqala_action_kinds``), and the
tents each player has still to place (hook ``naqala_observation_parts``)."""

from __future__ import annotations

from collections.abc import Iterator

from naqala.core.encoding import (
    ActionKind,
    ObservationPart,
    View,
    board_squares,
    card_ids,
    player_counts,
    seats_from,
)
from naqala.core.engine import Rules
from naqala.plugins.artisans.items import ITEMS
from naqala.plugins.artisans.tents import PIECE, TENT


def action_kinds(rules: Rules) -> Iterator[ActionKind]:
    setting = rules.content.setting
    payments = ("P" * setting("workshop_artisans"), "F" * setting("workshop_fakirs"))
    yield ActionKind("workshop", (payments,))
    yield ActionKind("keep", (card_ids(rules, ITEMS),))
    yield ActionKind(TENT, (board_squares(rules),))
    yield ActionKind("gather", (board_squares(rules), tuple(rules.letters)))
    yield ActionKind("done")


def observation_parts(rules: Rules) -> list[ObservationPart]:
    slots = max(player_counts(rules))

    def tents(view: View, seat: int) -> list[float]:
        numbers = [0.0] * slots
        for slot, player in enumerate(seats_from(view, seat)):
            numbers[slot] = float(view["players"][player]["extras"].get(PIECE, 0))
        return numbers

    labels = tuple(f"tents to place, seat +{k}" for k in range(slots))
    return [ObservationPart("tents", slots, tents, labels)]
