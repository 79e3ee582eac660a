"""Leaving cards out of a game (``--without djinn:jafaar``): the one generic way to play
without one card, shared by every command (``play``, ``state new``, ``simulate``,
``compare``), by state documents and by game records, which name what was left out so
the same rules are rebuilt when they are read.

A card left out is taken out of the rules' content, so no game dealt from those rules
ever sees it, and everything that counts the content's cards (the checks of a state's
components, determinization) counts without it. Its spec stays known (``card_specs``),
so a text naming it still reads.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from naqala.core.content import DJINNS, RESOURCES
from naqala.core.engine import Rules

#: the kinds of card ``--without KIND:ID`` can leave out
CARD_KINDS = ("djinn", "card")


class WithoutError(ValueError):
    """A ``--without`` that names no card of the rules; the message says which and why."""


def leave_out(rules: Rules, refs: Sequence[str]) -> Rules:
    """Take the cards ``refs`` (``djinn:ID``, or ``card:ID`` for an expansion deck's card)
    out of ``rules``' content, and note them in ``rules.without`` (sorted, each once).
    Returns ``rules``. ``WithoutError`` for a malformed reference or an unknown card."""
    content = rules.content
    known = {
        "djinn": sorted(c.id for c in content.deck(DJINNS)),
        "card": sorted(c.id for c in content.cards if c.deck not in (DJINNS, RESOURCES)),
    }
    left_out: set[str] = set()
    for ref in refs:
        kind, _, card = ref.partition(":")
        if kind not in CARD_KINDS or not card:
            raise WithoutError(f"--without {ref!r}: write djinn:ID or card:ID (e.g. djinn:jafaar)")
        if card not in known[kind]:
            raise WithoutError(
                f"--without {ref!r}: no {kind} {card!r} in these rules; known: "
                + (", ".join(known[kind]) or "none")
            )
        left_out.add(card)
    rules.content = attrs.evolve(
        content, cards=tuple(c for c in content.cards if c.id not in left_out)
    )
    rules.without = tuple(sorted({*rules.without, *refs}))
    return rules


def without_text(without: Sequence[str]) -> str:
    """``without djinn:jafaar, djinn:enki`` for a header line, or ``""`` if nothing is
    left out."""
    return f"without {', '.join(without)}" if without else ""


__all__ = ["CARD_KINDS", "WithoutError", "leave_out", "without_text"]
