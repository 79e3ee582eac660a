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
from typing import TYPE_CHECKING

import attrs

from naqala.core.content import DJINNS, RESOURCES

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: the kinds of card ``--without KIND:ID`` can leave out
CARD_KINDS = ("djinn", "card")


class WithoutError(ValueError):
    """A ``--without`` that names no card of the rules; the message says which and why."""


def leave_out(rules: Rules, refs: Sequence[str], where: str = "") -> Rules:
    """Take the cards ``refs`` (``djinn:ID``, or ``card:ID`` for an expansion deck's card)
    out of ``rules``' content, and note them in ``rules.without`` (sorted, each once).
    Returns ``rules``. A card already left out (by a house rule's ``without``, then by the
    record that names it) is fine. ``WithoutError`` for a malformed reference or an
    unknown card, said of ``where`` (``--without`` unless given, then ``[i]`` appended)."""
    content = rules.content
    known = {
        "djinn": sorted(c.id for c in content.deck(DJINNS)),
        "card": sorted(c.id for c in content.cards if c.deck not in (DJINNS, RESOURCES)),
    }
    left_out: set[str] = set()
    for i, ref in enumerate(refs):
        if ref in rules.without:
            continue
        said = f"{where}[{i}]: {ref!r}" if where else f"--without {ref!r}"
        problem = _unknown(ref, known)
        if problem:
            raise WithoutError(f"{said}: {problem}")
        left_out.add(ref.partition(":")[2])
    rules.content = attrs.evolve(
        content, cards=tuple(c for c in content.cards if c.id not in left_out)
    )
    rules.without = tuple(sorted({*rules.without, *refs}))
    return rules


def _unknown(ref: str, known: dict[str, list[str]]) -> str:
    """Why ``ref`` names no card of ``known`` (kind → ids), or ``""`` if it names one."""
    kind, _, card = ref.partition(":")
    if kind not in CARD_KINDS or not card:
        return "write djinn:ID or card:ID (e.g. djinn:jafaar)"
    if card not in known[kind]:
        return f"no {kind} {card!r} in these rules; known: " + (", ".join(known[kind]) or "none")
    return ""


def declared_without(rules: Rules) -> Rules:
    """Leave out the cards the plugins of ``rules`` declare in ``WITHOUT`` (a ``.toml``
    house rule's ``[house-rule] without``), as ``--without`` would, so the record names
    them; ``WithoutError`` naming the plugin's ``WITHOUT_WHERE`` (file and path)."""
    for info in rules.plugins:
        refs = tuple(getattr(info.module, "WITHOUT", ()))
        if refs:
            where = str(getattr(info.module, "WITHOUT_WHERE", f"plugin {info.name!r}: WITHOUT"))
            leave_out(rules, refs, where)
    return rules


def without_text(without: Sequence[str]) -> str:
    """``without djinn:jafaar, djinn:enki`` for a header line, or ``""`` if nothing is
    left out."""
    return f"without {', '.join(without)}" if without else ""


__all__ = ["CARD_KINDS", "WithoutError", "declared_without", "leave_out", "without_text"]
