"""The base game's part of the encoding for learning programs: every action its stages
and the card router can offer (hook ``naqala_action_kinds``) and the turn in progress as
numbers (hook ``naqala_observation_parts``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from naqala.core.content import DJINNS
from naqala.core.effects import CHOOSE
from naqala.core.encoding import (
    ActionKind,
    ObservationPart,
    View,
    board_squares,
    card_ids,
    combinations,
    player_counts,
    seat_names,
)
from naqala.core.engine import Rules
from naqala.plugins.base.bidding import turn_order_costs
from naqala.plugins.base.cards import policy
from naqala.plugins.base.common import FAKIR
from naqala.plugins.base.effects import ChoiceStage
from naqala.plugins.base.flow import LAST_CAMEL, NO_MOVES
from naqala.plugins.base.merchandise import merchandise_types
from naqala.plugins.base.tiles import Market


def _numbers(values: Sequence[int]) -> tuple[str, ...]:
    return tuple(str(v) for v in sorted(set(values)))


def fakir_count(rules: Rules) -> int:
    """How many Fakirs the resource deck holds (the most a player can discard)."""
    return sum(c.count for c in rules.content.deck("resources") if c.id == FAKIR)


def action_kinds(rules: Rules) -> Iterator[ActionKind]:
    """The base stages' actions, and every card's through its power and deck's verb."""
    squares = board_squares(rules)
    letters = tuple(rules.letters)
    djinns = card_ids(rules, DJINNS)
    costs = [c for n in player_counts(rules) for c in turn_order_costs(rules, n)]
    yield ActionKind("bid", (_numbers(costs),))
    yield ActionKind("pick", (squares,))
    yield ActionKind("drop", (squares, letters))
    yield ActionKind("place", (squares,))
    yield ActionKind("kill", ((*squares, *seat_names(rules)), letters))
    yield ActionKind("fakirs", (_numbers(range(fakir_count(rules) + 1)),))
    merchandise = merchandise_types(rules)
    yield ActionKind("sell", (combinations(merchandise, range(1, len(merchandise) + 1)),))
    resources = card_ids(rules, "resources")
    for stage in rules.stages.values():
        if isinstance(stage, Market):
            _, _, take = stage.numbers(rules)
            yield ActionKind("buy", (combinations(resources, range(1, take + 1), repeat=True),))
    yield ActionKind("djinn", (djinns, ("EE", "EF")))
    yield ActionKind("keep", (djinns,))
    yield ActionKind("skip")
    yield ActionKind("end")
    choices = [s for s in rules.stages.values() if isinstance(s, ChoiceStage)]
    if choices:  # only rules that offer one: every other codec stays as it was
        most = max(len(stage.options) for stage in choices)
        yield ActionKind(CHOOSE, (_numbers(range(1, most + 1)),))
    for card in rules.content.cards:
        power = rules.power_of(card)
        if power is None:
            continue
        verb = policy(rules, card).verb
        for domains in power.arguments(rules, card):
            if verb:
                yield ActionKind(verb, ((card.id,), *domains))
            else:
                yield ActionKind(card.id, domains)


def observation_parts(rules: Rules) -> list[ObservationPart]:
    """The move in progress (where the meeples are, what they collected, the assassins'
    reach and kills) and the end triggers, from the seat's view."""
    squares = board_squares(rules)
    at = {name: i for i, name in enumerate(squares)}
    letters = rules.letters
    flags = (LAST_CAMEL, NO_MOVES)

    def turn(view: View, seat: int) -> list[float]:
        data = view["turn"]
        numbers = [0.0] * (1 + 2 * len(squares) + 2 * len(letters) + 5)
        if data is None:
            return numbers
        numbers[0] = 1.0
        path = data["path"]
        here = path[-1] if path else data["start"]
        if here in at:
            numbers[1 + at[here]] = 1.0
        base = 1 + len(squares)
        for square in (data["start"], *path):
            if square in at:
                numbers[base + at[square]] += 1.0
        base += len(squares)
        for letter in data["hand"] or "":
            numbers[base + letters.index(letter)] += 1.0
        base += len(letters)
        if data["colour"]:
            numbers[base + letters.index(data["colour"])] = 1.0
        base += len(letters)
        revealed = data["revealed"]
        numbers[base : base + 5] = [
            float(data["taken"]),
            float(data["reach"]),
            float(data["kills"]),
            float(len(data["used"])),
            float(revealed if isinstance(revealed, int) else len(revealed)),
        ]
        return numbers

    labels = (
        "in turn",
        *(f"here {s}" for s in squares),
        *(f"visited {s}" for s in squares),
        *(f"in hand {c}" for c in letters),
        *(f"collected {c}" for c in letters),
        "taken",
        "assassins reach",
        "kills",
        "used this turn",
        "revealed cards",
    )

    def ending(view: View, seat: int) -> list[float]:
        return [1.0 if flag in view["flags"] else 0.0 for flag in flags]

    return [
        ObservationPart("turn", len(labels), turn, labels),
        ObservationPart("end-triggers", len(flags), ending, flags),
    ]
