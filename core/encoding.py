"""What plugins declare so that a game can be encoded for learning programs: the shapes of
their actions (``ActionKind``, hook ``naqala_action_kinds``) and their parts of a seat's
observation (``ObservationPart``, hook ``naqala_observation_parts``).

The action codec and the observation encoder themselves live in ``naqala.envs``; this
module holds only the records plugins return and the few domains every plugin needs
(board squares, seats, sizes of card combinations), all read from the rules — never from
a game in progress — so the same rules always give the same encoding.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: the view of a seat as ``naqala.core.views.view_for`` gives it (a JSON-ready dict)
View = Mapping[str, Any]


@attrs.frozen
class ActionKind:
    """Every action of one kind and arity a plugin can ever offer: ``kind`` followed by one
    argument from each domain of ``args`` (``drop <square> <letter>`` is
    ``ActionKind("drop", (squares, letters))``). A domain may hold more than can occur
    together; it must hold everything that can."""

    kind: str
    args: tuple[tuple[str, ...], ...] = ()


@attrs.frozen(eq=False)
class ObservationPart:
    """``size`` numbers about a plugin's components, read from a seat's view by ``read``
    (``read(view, seat)`` returns exactly ``size`` numbers; seats are the view's own
    numbers, so ``seat`` lets a part put the seat first). ``labels`` names each number,
    for the documented layout (empty: ``name[i]``)."""

    name: str
    size: int
    read: Callable[[View, int], Sequence[float]]
    labels: tuple[str, ...] = ()


def player_counts(rules: Rules) -> tuple[int, ...]:
    """The player counts these rules allow, smallest first."""
    return tuple(sorted(pc.players for pc in rules.content.player_counts))


def seat_names(rules: Rules) -> tuple[str, ...]:
    """``p1``… for every seat of the largest game these rules allow (how actions name a
    player)."""
    return tuple(f"p{n}" for n in range(1, max(player_counts(rules)) + 1))


def board_squares(rules: Rules) -> tuple[str, ...]:
    """The names of every square of the boards these rules lay out (``a1``…), read from a
    new game at each allowed player count."""
    return _board_squares(rules)


@functools.lru_cache(maxsize=32)
def _board_squares(rules: Rules) -> tuple[str, ...]:
    names: dict[str, None] = {}
    for players in player_counts(rules):
        geometry = rules.new_game(players, 0).geometry
        names.update(dict.fromkeys(geometry.name(i) for i in range(geometry.size)))
    return tuple(names)


def seats_from(view: View, seat: int) -> list[int]:
    """The view's players, ``seat`` first and the others after it in seat order: how
    observations list players, so a learner always finds itself in the same place."""
    count = len(view["players"])
    return [(seat + k) % count for k in range(count)]


def card_ids(rules: Rules, deck: str) -> tuple[str, ...]:
    """The distinct card ids of ``deck``, in content order."""
    return tuple(dict.fromkeys(c.id for c in rules.content.deck(deck)))


def combinations(
    items: Iterable[str], sizes: Iterable[int], repeat: bool = False, sep: str = "+"
) -> tuple[str, ...]:
    """Every choice of ``size`` of ``items`` (sorted, joined by ``sep``: ``fish+gold``) for
    each size; with ``repeat`` an item may be chosen more than once."""
    pool = sorted(set(items))
    pick = itertools.combinations_with_replacement if repeat else itertools.combinations
    return tuple(sep.join(c) for size in sizes for c in pick(pool, size))


__all__ = [
    "ActionKind",
    "ObservationPart",
    "View",
    "board_squares",
    "card_ids",
    "combinations",
    "player_counts",
    "seat_names",
    "seats_from",
]
