"""What a picture of a position may show of the players' secrets, read from the engine's
view for the seat looking (``naqala.core.views.view_for``): the one definition of what a
seat may see, shared by the SVG picture and the terminal picture (``naqala.display.text``).

A seat sees its own coins and cards; of the others, what the rules hold face down
(``naqala_hidden_decks``: resources, items, whims in hand…) only as counts, their coins
not at all; of every draw pile only its size. A spectator (``seat=None``) sees no
player's secrets; ``reveal`` shows every player's, as at the end of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from naqala.core.content import DJINNS
from naqala.core.engine import Rules
from naqala.core.serialize import state_to_data
from naqala.core.state import NOBODY, State
from naqala.core.views import view_for

__all__ = ["Holding", "Seen"]


@attrs.frozen
class Holding:
    """One player's coins and cards as a picture may show them."""

    #: None: hidden from the seat looking
    coins: int | None
    #: the cards shown by name, by deck in the rules' deck order (empty hands left out)
    hands: Mapping[str, tuple[str, ...]]
    #: how many cards are held face down, by deck (a deck not listed is shown)
    hidden: Mapping[str, int]

    @classmethod
    def of(cls, player: Mapping[str, Any]) -> Holding:
        """From a player of a view (or of a full state document, when revealing)."""
        return cls(
            coins=player["coins"],
            hands={deck: tuple(cards) for deck, cards in player["hands"].items()},
            hidden=dict(player.get("hidden", {})),
        )

    @property
    def djinns(self) -> tuple[str, ...]:
        return self.hands.get(DJINNS, ())

    @property
    def djinns_hidden(self) -> bool:
        return DJINNS in self.hidden

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card shown besides the djinns, deck by deck."""
        return tuple(c for deck, hand in self.hands.items() if deck != DJINNS for c in hand)

    @property
    def cards_hidden(self) -> bool:
        """Whether some deck besides the djinns is held face down."""
        return any(deck != DJINNS for deck in self.hidden)

    @property
    def card_count(self) -> int:
        """How many cards besides the djinns the player holds, shown or not."""
        face_down = sum(n for deck, n in self.hidden.items() if deck != DJINNS)
        return len(self.cards) + face_down


@attrs.frozen
class Seen:
    """What one picture may show: each player's holdings and each draw pile's size."""

    players: tuple[Holding, ...]
    #: cards in each draw pile, by deck name
    piles: Mapping[str, int]
    #: the cards drawn this turn to choose from (``turn.revealed``): their ids, or how
    #: many when the seat looking may not see them
    revealed: tuple[str, ...] | int = ()

    @classmethod
    def of(cls, rules: Rules, state: State, seat: int | None, reveal: bool = False) -> Seen:
        """``seat``'s view of ``state`` (a spectator's when ``seat`` is None); with
        ``reveal``, every player's holdings (the draw piles stay counts)."""
        view = view_for(rules, state, NOBODY if seat is None else seat)
        full = state_to_data(rules, state) if reveal else view
        turn = full["turn"]
        revealed = turn["revealed"] if turn is not None else []
        return cls(
            players=tuple(Holding.of(p) for p in full["players"]),
            piles={name: deck["draw"] for name, deck in view["decks"].items()},
            revealed=revealed if isinstance(revealed, int) else tuple(revealed),
        )
