"""Cost codes reach the kernel as data: the content document carries what each code a card
may name allows (``Rules.cost_codes``), and the kernel offers those payments, knowing no
code of its own; a payment it cannot make is refused in one line."""

from __future__ import annotations

import json

import pytest
from native_kit import require_native
from test_effects_verbs import out_of_the_pile

from naqala.core.serialize import state_to_json
from naqala.native.content import content_data
from naqala.testing.scenario import base_rules, board, player, turn_of


def test_the_content_document_carries_every_cost_code_with_its_payments() -> None:
    rules = base_rules()
    costs = content_data(rules)["costs"]
    assert costs == {code: list(cost.payments) for code, cost in rules.cost_codes.items()}
    assert costs["E+(E/F)"] == ["EE", "EF"]


def bouraq_offers(costs: dict[str, list[str]]) -> list[str]:
    """What the kernel offers a Bouraq holder with 2 elders and no Fakir, under ``costs``."""
    native = require_native()
    rules = base_rules()
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["bouraq"])
    state = player(rules, state, 0, meeples="WW")
    state = out_of_the_pile(rules, state, "djinns", "bouraq")
    document = content_data(rules) | {"costs": costs}
    kernel = native.Kernel(json.dumps(document))
    found = kernel.state(state_to_json(rules, state)).legal_actions()
    return sorted({a.split(" ")[-1] for a in found if a.startswith("bouraq")})


def test_the_kernel_offers_the_payments_the_table_gives() -> None:
    rules = base_rules()
    usual = {code: list(cost.payments) for code, cost in rules.cost_codes.items()}
    assert bouraq_offers(usual) == ["E"]  # Bouraq costs E/F: no Fakir held
    assert bouraq_offers(usual | {"E/F": ["E", "EE"]}) == ["E", "EE"]


def test_a_payment_the_kernel_cannot_make_is_refused_in_one_line() -> None:
    native = require_native()
    document = content_data(base_rules())
    document["costs"]["E/F"] = ["E", "FF"]
    with pytest.raises(ValueError, match='cost code "E/F" offers the payment "FF"'):
        native.Kernel(json.dumps(document))
