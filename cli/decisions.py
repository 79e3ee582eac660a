"""Decisions in plain words for people at the table: the title of the pending decision,
each option with what it costs or gains, and what the djinns in play do.

The words come from the stages (``Stage.title``, ``Stage.option_note``) and the powers
(``Power.describe``), so a plugin's own decisions and djinns read as well as the base
game's.
"""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.engine import DJINNS, Rules
from naqala.core.state import State
from naqala.plugins.base.api import cost_words


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


def djinn_power(rules: Rules, djinn: str, brief: bool = False) -> str:
    """``Jafaar (6 VP; free; at final scoring): …`` — a djinn's power in one line;
    ``brief``: only the name and what it does."""
    spec = rules.card_specs.get(djinn)
    if spec is None:
        return djinn
    power = rules.power_of(spec)
    effect = power.describe(rules, spec) if power else spec.text
    when = power.when if power else "never (no power registered)"
    if brief:
        return f"{spec.name}: {effect}"
    cost = cost_words(rules, spec.cost)
    return f"{spec.name} ({spec.vp} VP; {cost}; {when}): {effect}"


def djinn_offer(rules: Rules, djinn: str) -> str:
    """``Boaz 6 VP · free · always: Assassins cannot kill…`` — a face-up djinn for the
    board screen, which shortens it to one line: name and VP, cost and timing first, as
    the effect is often read from them (``djinns`` gives the whole text)."""
    spec = rules.card_specs.get(djinn)
    if spec is None:
        return djinn
    power = rules.power_of(spec)
    effect = power.describe(rules, spec) if power else spec.text
    when = power.when if power else "never (no power registered)"
    cost = cost_words(rules, spec.cost)
    return f"{spec.name} {spec.vp} VP · {cost} · {when}: {effect}"


def djinns_in_play(rules: Rules, state: State) -> list[str]:
    """Every djinn a player holds (with the seat) and every face-up one, with its power."""
    lines = []
    for seat, player in enumerate(state.players):
        for djinn in player.djinns:
            lines.append(f"P{seat + 1}: {djinn_power(rules, djinn)}")
    for djinn in state.decks[DJINNS].row:
        lines.append(f"face up: {djinn_power(rules, djinn)}")
    return lines or ["No djinn is held or face up."]


__all__ = ["decision_title", "djinn_offer", "djinn_power", "djinns_in_play", "option_label"]
