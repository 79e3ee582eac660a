"""The Thieves' part of the encoding for learning programs (hook ``naqala_action_kinds``):
taking the face-up thief, and what opponents give up and the owner keeps or places.
Every domain is read from the content (cards, their ``give``/``keep`` numbers, the
board), never from a game in progress."""

from __future__ import annotations

from collections.abc import Iterator

from naqala.core.encoding import ActionKind, board_squares, card_ids, combinations
from naqala.core.engine import Rules
from naqala.plugins.thieves.kinds import TOKENS
from naqala.plugins.thieves.row import TAKE, THIEVES

#: what a djinn costs at a sacred place, and so a thief: two elders, or an elder and a Fakir
PAYMENTS = ("EE", "EF")


def card_choices(rules: Rules) -> Iterator[str]:
    """Every ``a+b`` choice of cards a card thief can ask for or keep, for each deck a
    thief in the content names."""
    for card in rules.content.deck(THIEVES):
        if card.kind not in rules.deck_index:
            continue
        most = max(card.param("give"), card.param("keep"))
        yield from combinations(card_ids(rules, card.kind), range(1, most + 1), repeat=True)


def action_kinds(rules: Rules) -> Iterator[ActionKind]:
    squares = board_squares(rules)
    tokens = tuple(t for t in TOKENS if t in rules.token_index)
    choices = tuple(dict.fromkeys(card_choices(rules)))
    yield ActionKind(TAKE, (card_ids(rules, THIEVES), PAYMENTS))
    yield ActionKind("give")
    yield ActionKind("give", (tuple(dict.fromkeys((*squares, *choices))),))
    yield ActionKind("give", (tokens, squares))
    yield ActionKind("keep")
    yield ActionKind("keep", (choices,))
    yield ActionKind("take", (squares,))
    yield ActionKind("place", (tokens, squares))
