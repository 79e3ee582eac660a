"""Powers: the behaviour behind a card's content ``kind``, for the cards of every deck.

A card in content (``CardSpec``: a djinn, an item, a whim…) names its ``deck`` and
``kind``; a plugin registers a ``Power`` for ``<deck>:<kind>`` (hook
``naqala_card_powers``). One router (the base plugin's ``cards`` module) asks the power
of every card a player holds what it offers and how it reacts, following the small
policy of the card's deck (``[[deck]]`` content), so a new card is a content entry and,
for a new kind, a ``Power`` — never a special case in the engine. Every method gets the
card's owner and the card itself, and reads the card's numbers from it (``card.param``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from naqala.core.actions import Action
from naqala.core.content import CardSpec
from naqala.core.events import Event, ScoreLine
from naqala.core.state import State

if TYPE_CHECKING:
    from naqala.core.engine import Rules


class Power:
    """Base class: a power that does nothing. Override what the card does.

    ``when`` and ``effect`` are plain-words summaries for the generated card reference;
    ``{name}`` fields of ``effect`` are filled from the card's ``params``. ``deck`` and
    ``kind`` are set when the rules are built.
    """

    deck: str = ""
    kind: str = ""
    when: str = ""
    effect: str = ""

    def describe(self, rules: Rules, card: CardSpec) -> str:
        """What the power does, in plain words, with this card's numbers filled in."""
        return self.effect.format(**card.params)

    def broken_promise(self, rules: Rules, card: CardSpec) -> str | None:
        """What the numbers of these rules break of what ``card``'s printed text promises
        (a setting or an override can turn a bonus into a penalty), in words, or None:
        ``naqala content check`` warns of it."""
        return None

    def options(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[Action]:
        """Options the owner may take at the pending decision (activated powers)."""
        return ()

    def arguments(self, rules: Rules, card: CardSpec) -> Iterable[tuple[tuple[str, ...], ...]]:
        """Every argument list ``options`` can ever give, as a domain per argument, one
        entry per arity (for the action codec, hook ``naqala_action_kinds``); none by
        default, as a power without options has none."""
        return ()

    def apply(
        self, rules: Rules, state: State, owner: int, card: CardSpec, action: Action
    ) -> State:
        """Carry out one of this power's own options."""
        raise NotImplementedError(f"{self.kind} offers no options")

    def explain(self, rules: Rules, state: State, owner: int, card: CardSpec) -> str | None:
        """Why the owner cannot use the card now, when the router cannot say it better."""
        return None

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        """React to an event (triggered powers); None leaves the state as it is."""
        return None

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        """Extra score lines for the owner at the end (end-game powers). ``lines`` are the
        lines of every plugin for decks scored ``after`` them, empty otherwise."""
        return ()

    def protects(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[str]:
        """Colour ids of the meeples in front of the owner that assassins cannot kill."""
        return ()


def broken_promises(rules: Rules) -> list[str]:
    """Every card of ``rules`` whose numbers break what its text promises, in words (its
    power's ``broken_promise``), in content order."""
    found = []
    for card in rules.content.cards:
        power = rules.card_powers.get(card.id)
        if power is not None and (broken := power.broken_promise(rules, card)):
            found.append(broken)
    return found
