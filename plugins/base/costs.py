"""The base game's cost codes and what the letters of a payment are.

A payment is a string of letters, one per unit paid (``EF``: one elder and one Fakir);
``PAYMENT_UNITS`` says what each letter is, and ``pay_elders_fakirs`` (tiles.py) pays it.
``COST_CODES`` is the base game's part of the one table of cost codes
(``naqala.core.costs``, hook ``naqala_cost_codes``): a plugin adds a cost by answering the
hook with a code of its own, whose payments use these letters.
"""

from __future__ import annotations

from collections import Counter

from naqala.core.content import DJINNS
from naqala.core.costs import CostCode
from naqala.core.engine import Rules

#: what one letter of a payment is: (one, more than one)
PAYMENT_UNITS = {"E": ("elder", "elders"), "F": ("Fakir", "Fakirs")}

#: the cost codes of the base game's djinns (see content/base.toml)
COST_CODES = {
    "": CostCode(("",), "free"),
    "E/F": CostCode(("E", "F"), "1 elder or 1 Fakir"),
    "E+(E/F)": CostCode(("EE", "EF"), "1 elder, plus 1 elder or 1 Fakir"),
    "F": CostCode(("F",), "1 Fakir"),
    # Kumarbi: any number of Fakirs while bidding, taken by the power itself
    "F*": CostCode((), "1 or more Fakirs"),
}


def cost_payments(rules: Rules, code: str) -> tuple[str, ...]:
    """The payments ``code`` allows, in the order offered (the rules check every card's
    code when the rules are built, so an unknown one is not met in play)."""
    return rules.cost_codes[code].payments


def cost_words(rules: Rules, code: str) -> str:
    """``1 elder or 1 Fakir``: a cost code in words (an unknown code as it is written)."""
    known = rules.cost_codes.get(code)
    return known.words if known else code


def payment_words(payment: str, joiner: str = " + ") -> str | None:
    """``EF`` → ``1 elder + 1 Fakir`` (``joiner`` between the units, in ``PAYMENT_UNITS``
    order): one payment in words, or None when ``payment`` is not one (empty, or a letter
    that is no unit: an option's other argument)."""
    if not payment or any(letter not in PAYMENT_UNITS for letter in payment):
        return None
    counts = Counter(payment)
    return joiner.join(
        f"{counts[letter]} {one if counts[letter] == 1 else more}"
        for letter, (one, more) in PAYMENT_UNITS.items()
        if counts[letter]
    )


def cost_problems(rules: Rules) -> list[str]:
    """Every cost code whose payments use a letter the base game cannot pay, and every
    card of a deck the base game pays for (the djinns) naming an unknown code."""
    problems = []
    for code, entry in sorted(rules.cost_codes.items()):
        for payment in entry.payments:
            unknown = sorted(set(payment) - set(PAYMENT_UNITS))
            if unknown:
                problems.append(
                    f"cost code {code!r} (plugin {rules.providers['cost:' + code]!r}): payment "
                    f"{payment!r} uses {', '.join(map(repr, unknown))}, which is not "
                    f"{' or '.join(map(repr, PAYMENT_UNITS))}"
                )
    for spec in rules.content.deck(DJINNS):
        if spec.cost not in rules.cost_codes:
            known = ", ".join(repr(c) for c in sorted(rules.cost_codes))
            problems.append(f"djinn {spec.id!r}: unknown cost {spec.cost!r} (known: {known})")
    return problems
