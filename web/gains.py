"""What an action gave each player, as one seat may know it, for the page's log: the cards
that reached a hand without the option naming them (a djinn's draw, Sloar's pick, the whim
and elders a city gives when a move ends there) and the meeples kept.

A log line says what the option was (``drop an elder on g3 (drop g3 W)``); this module
says what followed from it (``you took Blue Domes (whim); you kept 3 elders``). It reads
two views of the seat (``view_for``), never the states, so a card hidden from the seat is
said only as a count ("P2 took 1 whim you do not see").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.display.svg import seat_label

__all__ = ["gains_words"]

View = Mapping[str, Any]


def gains_words(rules: Rules, before: View, after: View, action: Action, seat: int) -> str:
    """``you took Sloar (djinn); P2 kept 3 elders``: what each player gained from one
    action between two of ``seat``'s views, players in seat order; "" when nothing."""
    named = {action.kind, *action.args}
    parts: list[str] = []
    pairs = zip(before["players"], after["players"], strict=True)
    for player, (was, now) in enumerate(pairs):
        gained = [
            *_cards_gained(rules, was, now, named),
            *_hidden_gained(rules, was, now),
            *_meeples_kept(rules, was, now),
        ]
        if gained:
            who = "you" if player == seat else seat_label(player)
            parts.append(f"{who} {', '.join(gained)}")
    return "; ".join(parts)


def _cards_gained(rules: Rules, was: View, now: View, named: set[str]) -> list[str]:
    """Cards in sight that reached the player's hands, less those the option named."""
    words = []
    for deck, cards in now["hands"].items():
        new = Counter(cards) - Counter(was["hands"].get(deck, []))
        for card, count in sorted(new.items()):
            if card in named:
                continue
            spec = rules.card_specs.get(card)
            name = (spec.name or card) if spec is not None else card
            noun = _noun(rules, deck)
            copies = f"{count} × " if count > 1 else ""
            words.append(f"took {copies}{name} ({noun})")
    return words


def _hidden_gained(rules: Rules, was: View, now: View) -> list[str]:
    """Cards the seat may not see that reached the player's hidden hands, as counts."""
    words = []
    for deck, count in sorted(now.get("hidden", {}).items()):
        more = count - was.get("hidden", {}).get(deck, 0)
        if more > 0:
            noun = _noun(rules, deck)
            words.append(f"took {more} {noun}{'s' if more != 1 else ''} you do not see")
    return words


def _meeples_kept(rules: Rules, was: View, now: View) -> list[str]:
    """Meeples that joined the player's kept meeples (letters in the view)."""
    new: Counter[str] = Counter(now["meeples"]) - Counter(was["meeples"])
    words = []
    for letter in rules.letters:
        count = new.get(letter, 0)
        if count:
            name = rules.colours[rules.letters.index(letter)].name.lower()
            words.append(f"kept {count} {name}{'s' if count != 1 else ''}")
    return words


def _noun(rules: Rules, deck: str) -> str:
    spec = rules.content.decks.get(deck)
    return spec.noun if spec is not None else "card"
