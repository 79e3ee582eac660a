"""The Whims box's part of a seat's observation (hook ``naqala_observation_parts``): which
whim lies on which city — the deck's row alone does not say where — and how many whims
each player has claimed. Its one action, ``claim <whim>``, is the whims deck's verb, so
the base game's card router declares it from the whims' powers (``Power.arguments``)."""

from __future__ import annotations

from naqala.core.encoding import ObservationPart, View, card_ids, player_counts, seats_from
from naqala.core.engine import Rules
from naqala.plugins.whims.cities import CITY, WHIMS
from naqala.plugins.whims.whims import CLAIMED


def observation_parts(rules: Rules) -> list[ObservationPart]:
    whims = card_ids(rules, WHIMS)
    slots = max(player_counts(rules))

    def places(view: View, seat: int) -> list[float]:
        """Each whim's city as its place in board order plus one (0: on no city)."""
        cities = [t["at"] for t in view["board"]["tiles"] if rules.tile(t["tile"]).kind == CITY]
        row = view["decks"][WHIMS]["row"]
        numbers = [0.0] * len(whims)
        for place, whim in enumerate(row[: len(cities)]):
            if whim:
                numbers[whims.index(whim)] = float(place + 1)
        return numbers

    def claimed(view: View, seat: int) -> list[float]:
        numbers = [0.0] * slots
        for slot, player in enumerate(seats_from(view, seat)):
            numbers[slot] = float(view["players"][player]["extras"].get(CLAIMED, 0))
        return numbers

    return [
        ObservationPart(
            "whims-on-cities", len(whims), places, tuple(f"city of {w}" for w in whims)
        ),
        ObservationPart(
            "whims-claimed",
            slots,
            claimed,
            tuple(f"whims claimed, seat +{k}" for k in range(slots)),
        ),
    ]
