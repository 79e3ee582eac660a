"""Cost codes: the one table of what a card's ``cost`` may say.

A card names its cost with a short code (``E+(E/F)``); what the code allows is one
``CostCode`` in the table the plugins give through the hook ``naqala_cost_codes``
(``Rules.cost_codes``), so a plugin adds a cost by adding a code, and the payments
offered, the rules check and the words of the reference and the screens read the same
entry. What the letters of a payment mean (the base game's ``E`` elder, ``F`` Fakir) is
the plugin's own business; the core only keeps the table.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class CostCode:
    """One cost code: the payments it allows, in the order a power offers them (``""``
    is paying nothing; none at all: the power takes its cost itself, as Kumarbi's any
    number of Fakirs while bidding), and the code in words for people."""

    payments: tuple[str, ...]
    words: str
