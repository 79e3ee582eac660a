"""What the page's sticky bar says besides the status and the score, so that a phone keeps
it in sight: the seat's own holdings in one line, and at the end who won, with every
player's points, said at the top of the page rather than under the board."""

from __future__ import annotations

from collections import Counter
from typing import Any

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.display.svg import seat_label

__all__ = ["final_line", "holding_line"]


def _named(rules: Rules, card: str) -> str:
    spec = rules.card_specs.get(card)
    return spec.name if spec is not None else card


def holding_line(rules: Rules, state: State, seat: int) -> str:
    """``seat``'s coins, camels, kept meeples and cards, in words (all its own to see)."""
    player = state.players[seat]
    parts = [f"{player.coins} coins", f"{player.camels} camels"]
    kept = [
        f"{count} {rules.colours[index].name}{'s' if count != 1 else ''}"
        for index, count in enumerate(player.meeples)
        if count
    ]
    if kept:
        parts.append("kept " + ", ".join(kept))
    for deck, hand in zip(rules.deck_names, player.hands, strict=False):
        counted = Counter(_named(rules, card) for card in hand if card)
        if counted:
            cards = ", ".join(
                name if n == 1 else f"{n}× {name}" for name, n in sorted(counted.items())
            )
            parts.append(f"{deck}: {cards}")
    return " · ".join(parts)


def final_line(rules: Rules, state: State) -> dict[str, Any]:
    """Who won and every player's points, best first: ``words`` for the announcement,
    ``winners`` and ``totals`` (label and points) for the page to mark."""
    scores = rules.scores(state)
    verdict = rules.verdict(state, scores)
    labels = [seat_label(seat) for seat in verdict.winners]
    if not labels:
        words = "Nobody won" + (f": {verdict.reason}" if verdict.reason else "")
    else:
        best = scores[verdict.winners[0]]
        who = " and ".join(labels)
        words = f"{who} {'win' if len(labels) > 1 else 'wins'} with {best} points"
        if verdict.reason:
            words += f" ({verdict.reason})"
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    return {
        "words": words,
        "winners": labels,
        "totals": [[seat_label(seat), scores[seat]] for seat in order],
    }
