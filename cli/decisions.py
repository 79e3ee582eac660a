"""The djinns in play in plain words for the terminal's ``djinns`` command: each with
its whole power, cost and timing (the shared words of decisions and cards are
:mod:`naqala.display.decisions`)."""

from __future__ import annotations

from naqala.core.content import DJINNS
from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display.decisions import card_words, djinn_brief
from naqala.plugins.base.api import cost_words


def djinn_power(rules: Rules, djinn: str, brief: bool = False) -> str:
    """``Jafaar (6 VP; free; at final scoring): …`` — a djinn's power in one line;
    ``brief``: only the name and what it does."""
    if brief:
        return djinn_brief(rules, djinn)
    words = card_words(rules, djinn)
    if words is None:
        return djinn
    spec = words.spec
    cost = cost_words(rules, spec.cost)
    return f"{spec.name} ({spec.vp} VP; {cost}; {words.when}): {words.effect}"


def djinns_in_play(rules: Rules, state: State) -> list[str]:
    """Every djinn a player holds (with the seat) and every face-up one, with its power."""
    lines = []
    for seat, player in enumerate(state.players):
        for djinn in player.djinns:
            lines.append(f"P{seat + 1}: {djinn_power(rules, djinn)}")
    for djinn in rules.deck_in(state, DJINNS).row:
        lines.append(f"face up: {djinn_power(rules, djinn)}")
    return lines or ["No djinn is held or face up."]


__all__ = ["djinn_power", "djinns_in_play"]
