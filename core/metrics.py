"""A metric of a finished game's path, which ``naqala extremes`` pushes as far as the rules
allow: the core's declaration of it, so a plugin can offer one (hook ``naqala_metrics``)
without importing the lab."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from naqala.core.engine import Rules
    from naqala.core.state import State

#: what a metric measures: per player, its largest gain over one turn; or per game, its
#: value at the end
PER = ("turn", "game")


@attrs.frozen
class Metric:
    """A quantity per player (``per="turn"``: its largest gain over one turn, a run of
    that player's consecutive decisions) or per game (``per="game"``: its value at the
    end, read with player -1), and what it means in one line."""

    name: str
    description: str
    quantity: Callable[[Rules, State, int], int]
    per: str = attrs.field()

    @per.validator
    def _check_per(self, attribute: object, value: object) -> None:
        """Any other ``per`` would be searched as a turn's gain without a word; a plugin's
        metric is refused in one line naming it."""
        if value not in PER:
            raise ValueError(f"metric {self.name!r}: per must be 'turn' or 'game', not {value!r}")
