"""Decisions and cards in plain words, for every picture and page: the title of the
pending decision, each option with what it costs or gains, and a djinn's power.

The words come from the stages (``Stage.title``, ``Stage.option_note``) and the powers
(``Power.describe``), so a plugin's own decisions and djinns read as well as the base
game's; what a card's cost code means is the plugins' to say (``Display.costs``, hook
``naqala_display``), as nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from naqala.core.actions import Action
from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.state import State

__all__ = [
    "CardWords",
    "card_words",
    "decision_title",
    "djinn_brief",
    "djinn_offer",
    "option_label",
]


def decision_title(rules: Rules, state: State) -> str:
    """The pending decision's title, or its stage's name when the stage gives none."""
    stage = rules.stages.get(state.decision.stage)
    title = stage.title(rules, state) if stage is not None else None
    return title or state.decision.stage


def option_label(rules: Rules, state: State, action: Action) -> str:
    """``buy papyrus (3 coins)``: the notation, then the stage's note on it if any."""
    stage = rules.stages.get(state.decision.stage)
    note = stage.option_note(rules, state, action) if stage is not None else None
    return f"{action} ({note})" if note else str(action)


@attrs.frozen
class CardWords:
    """A card's spec, what its power does and when it may be used, in words."""

    spec: CardSpec
    effect: str
    when: str


def card_words(rules: Rules, card: str) -> CardWords | None:
    """The words of ``card``'s power (its content text when no power is registered);
    None for a card id the content does not know."""
    spec = rules.card_specs.get(card)
    if spec is None:
        return None
    power = rules.power_of(spec)
    effect = power.describe(rules, spec) if power else spec.text
    when = power.when if power else "never (no power registered)"
    return CardWords(spec, effect, when)


def djinn_brief(rules: Rules, djinn: str) -> str:
    """``Jafaar: …`` — a djinn's name and what it does."""
    words = card_words(rules, djinn)
    return djinn if words is None else f"{words.spec.name}: {words.effect}"


def djinn_offer(rules: Rules, djinn: str, costs: Mapping[str, str]) -> str:
    """``Boaz 6 VP · free · always: Assassins cannot kill…`` — a face-up djinn for the
    board screen, which shortens it to one line: name and VP, cost (in the words of
    ``costs``, by cost code) and timing first, as the effect is often read from them."""
    words = card_words(rules, djinn)
    if words is None:
        return djinn
    spec = words.spec
    cost = costs.get(spec.cost, spec.cost)
    return f"{spec.name} {spec.vp} VP · {cost} · {words.when}: {words.effect}"
