"""The cards a seat's page can explain: every card of the rules with a power (its facts:
cost, timing, effect), the seat's own cards, and the cards in play it may see — each
player's open hands, the face-up rows, what a non-player opponent holds beside the
board. Read from the seat's view (``view_for``), never from the state, so a card hidden
from the seat never reaches its page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from naqala.core.engine import Rules
from naqala.core.state import State, aside_cards
from naqala.display.hints import collect
from naqala.display.svg import seat_label
from naqala.web.words import card_facts

__all__ = ["ASIDE", "card_catalogue", "cards_in_play", "own_cards"]

#: the catalogue's entry for the area beside the board (the solo mode's Sultan Yazid)
ASIDE = "aside"


def card_catalogue(rules: Rules, state: State) -> dict[str, dict[str, str]]:
    """Every card of the rules that has a power, by id, and the area set aside beside the
    board when a plugin draws one (its title and public lines: Yazid's camels, how near
    he is to winning, this round's dice). The cards are the rules' content, known to
    everybody; only where they are is hidden."""
    catalogue = {
        card.id: card_facts(rules, card)
        for card in rules.card_specs.values()
        if rules.power_of(card) is not None
    }
    display = collect(rules, state)
    if display.aside_title:
        lines = [*display.aside_lines, *(f"{label}: {text}" for label, text in display.rows)]
        catalogue[ASIDE] = {
            "id": ASIDE,
            "name": display.aside_title,
            "deck": "",
            "noun": "beside the board",
            "vp": "",
            "cost": "",
            "when": "",
            "effect": " · ".join(lines),
        }
    return catalogue


def own_cards(rules: Rules, view: Mapping[str, Any], seat: int) -> list[str]:
    """The ids of the cards with a power in ``seat``'s hands (``view`` is the seat's
    view), in hand order."""
    hands = view["players"][seat]["hands"]
    return [card for cards in hands.values() for card in cards if _powered(rules, card)]


def cards_in_play(
    rules: Rules, state: State, view: Mapping[str, Any], seat: int
) -> list[dict[str, str]]:
    """Each card with a power ``seat`` may see (``view`` is its view) outside its own
    hands, with where it is: another player's open hand (``P2``), a face-up row (``face
    up``), beside the board (public: the picture draws it)."""
    seen: list[dict[str, str]] = []
    for other, player in enumerate(view["players"]):
        if other == seat:
            continue
        for cards in player["hands"].values():
            seen += [{"where": seat_label(other), "card": c} for c in cards if _powered(rules, c)]
    for deck in view["decks"].values():
        seen += [{"where": "face up", "card": c} for c in deck["row"] if _powered(rules, c)]
    seen += [
        {"where": "beside the board", "card": c} for c in aside_cards(state) if _powered(rules, c)
    ]
    if collect(rules, state).aside_title:
        seen.append({"where": "beside the board", "card": ASIDE})
    return seen


def _powered(rules: Rules, card: str) -> bool:
    spec = rules.card_specs.get(card)
    return spec is not None and rules.power_of(spec) is not None
