"""Powers: the behaviour behind a card's content ``kind`` (djinns, and later items).

A content record names a ``kind``; a plugin registers a ``Power`` for that kind (hook
``naqala_djinn_powers``). The plugin that owns the cards asks each card's power what it
offers and how it reacts, so a new card is a new ``Power`` and a content entry — never
a special case in the engine. Every method gets the card's owner and the card id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from naqala.core.actions import Action
from naqala.core.events import Event, ScoreLine
from naqala.core.state import State

if TYPE_CHECKING:
    from naqala.core.engine import Rules


def options_of(
    rules: Rules, state: State, player: int, cards: Iterable[tuple[str, Power]]
) -> list[Action]:
    """What the powers of ``player``'s cards offer now, each distinct card asked once."""
    found: list[Action] = []
    for card, power in dict(cards).items():
        found.extend(power.options(rules, state, player, card))
    return found


def deck_cards_held(rules: Rules, state: State, player: int, deck: str) -> list[tuple[str, Power]]:
    """The cards of the plugin deck ``deck`` (items, whims…) in ``player``'s hand, each
    with the power of its content ``kind``."""
    specs = rules.card_specs
    return [
        (card, rules.card_powers[specs[card].kind])
        for card in state.players[player].held
        if card in specs and specs[card].deck == deck
    ]


def deck_options(rules: Rules, state: State, deck: str) -> list[Action]:
    """What the cards of ``deck`` in the deciding player's hand offer now."""
    player = state.decision.player
    if player < 0 or not state.players[player].held:
        return []
    return options_of(rules, state, player, deck_cards_held(rules, state, player, deck))


class Power:
    """Base class: a power that does nothing. Override what the card does.

    ``when`` and ``effect`` are plain-words summaries for the generated card reference.
    """

    kind: str = ""
    when: str = ""
    effect: str = ""

    def describe(self, rules: Rules, card: str) -> str:
        """What the power does, in plain words, with this card's numbers (its content
        ``params``) filled in for the ``{name}`` fields of ``effect``."""
        spec = rules.djinn_specs.get(card)
        return self.effect.format(**(spec.params if spec else {}))

    def options(self, rules: Rules, state: State, owner: int, card: str) -> Iterable[Action]:
        """Options the owner may take at the pending decision (activated powers)."""
        return ()

    def apply(self, rules: Rules, state: State, owner: int, card: str, action: Action) -> State:
        """Carry out one of this power's own options."""
        raise NotImplementedError(f"{self.kind} offers no options")

    def on_event(
        self, rules: Rules, state: State, owner: int, card: str, event: Event
    ) -> State | None:
        """React to an event (triggered powers); None leaves the state as it is."""
        return None

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: str, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        """Extra score lines for the owner at the end (end-game powers)."""
        return ()

    def protects(self, rules: Rules, state: State, owner: int, card: str) -> Iterable[str]:
        """Colour ids of the meeples in front of the owner that assassins cannot kill."""
        return ()
