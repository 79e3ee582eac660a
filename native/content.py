"""The merged content of a ``Rules``, as the data the kernel reads (``kernel/src/content.rs``).

The kernel hard-codes no number of the game: every setting, table, tile, token, deck and
card parameter comes from here, after the plugins' files and ``[[override]]`` entries were
merged, so a content-only house rule runs native unchanged. Records are written with every
field of their class; the kernel refuses a field it does not know, so a field added in
Python is noticed there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import attrs

from naqala.core.content import Content
from naqala.core.effect_answers import plugin_counters, writable_counters
from naqala.core.effects import Source, Tree, compile_expression, compiled
from naqala.core.engine import Rules
from naqala.core.native import declared_native, module_of
from naqala.core.plugins import is_edition
from naqala.core.views import hidden_decks


def content_data(rules: Rules) -> dict[str, Any]:
    """The rules' content as plain JSON data for ``Kernel(json)``."""
    content = rules.content
    return {
        "ruleset": list(rules.ruleset),
        "without": list(rules.without),
        "colours": [attrs.asdict(c) for c in rules.colours],
        "tokens": [attrs.asdict(t) for t in rules.tokens],
        # the tile table by tile id (``oasis-3``), in the order the rules number them
        "tiles": [
            {"id": tile_id, **attrs.asdict(spec)} for tile_id, spec in rules.tile_specs.items()
        ],
        "cards": [attrs.asdict(card) for card in rules.card_specs.values()],
        "decks": [attrs.asdict(spec) for spec in rules.deck_specs],
        "player_counts": [attrs.asdict(p) for p in content.player_counts],
        "settings": dict(content.settings),
        # booleans, texts and arrays (``verdict.tie_break``, ``start.cards``) by dotted name
        "typed_settings": {key: _plain(value) for key, value in content.typed_settings.items()},
        "tables": {key: list(values) for key, values in content.tables.items()},
        "stages": sorted(rules.stages),
        # the cards in play: ``rules.card_specs`` keeps those left out (``--without``)
        "in_play": [card.id for card in content.cards],
        # plugins at a kept older version (artisans 0.1.0): the kernel refuses to play them
        "editions": [f"{info.name} {info.version}" for info in rules.plugins if is_edition(info)],
        # the turn fields the plugins declare (hook ``naqala_turn_fields``): the state JSON
        # the kernel writes holds these and no other
        "turn_fields": sorted(rules.turn_fields),
        # who provides each rule (``kernel/src/providers.rs``): the kernel sets up no
        # game with a rule whose provider it does not implement
        "providers": providers_table(rules),
        # the effects language's entries, each expression compiled once in Python
        # (``core/effects.py``) and interpreted by ``kernel/src/effects.rs``
        "effects": effects_data(content, plugin_counters(rules), writable_counters(rules)),
        # the decks whose cards in hand only their holder sees (hook
        # ``naqala_hidden_decks``), by name in deck order: every view the kernel writes
        "hidden_decks": [rules.deck_names[deck] for deck in sorted(hidden_decks(rules))],
        # what each cost code a card may name allows (``Rules.cost_codes``), in the order
        # offered: the kernel knows no code of its own
        "costs": {code: list(cost.payments) for code, cost in rules.cost_codes.items()},
    }


def effects_data(
    content: Content, plugins: Mapping[str, str], writable: Collection[str] = ()
) -> dict[str, Any]:
    """The triggers, tile actions and powers of ``content`` as the kernel reads them, and
    the counters they may read: the content's, and ``plugins`` (the plugins' own counters
    by name, with their holder: ``effect_answers.plugin_counters``), of which ``set`` may
    write those ``writable`` names."""

    def test(source: Source | None) -> Tree | None:
        return None if source is None else compile_expression(source)

    return {
        "triggers": [
            {
                "id": t.id,
                "on": t.on,
                "if": test(t.when),
                "effects": [compiled(e) for e in t.effects],
                "params": dict(t.params),
            }
            for t in content.triggers
        ],
        "tile_actions": [
            {
                "id": a.id,
                "tile": a.tile,
                "at": a.at,
                "if": test(a.when),
                "effects": [compiled(e) for e in a.effects],
                "params": dict(a.params),
            }
            for a in content.tile_actions
        ],
        "powers": [
            {
                "deck": p.deck,
                "kind": p.kind,
                "on": p.on,
                "if": test(p.when),
                "effects": [compiled(e) for e in p.effects],
                "protects": list(p.protects),
                "target_kind": p.target_kind,
                "target": test(p.target),
                "target_to": test(p.target_to),
                "target_meeples": test(p.target_meeples),
                "stages": list(p.stages),
                "redirects": p.redirects,
                "target_card": p.target_card,
            }
            for p in content.powers
        ],
        "counters": [{"id": c.id, "of": c.of} for c in content.counters]
        + [
            {"id": name, "of": of, "plugin": True, "writable": name in writable}
            for name, of in plugins.items()
        ],
    }


def _plain(value: object) -> object:
    """A setting's value as JSON data: arrays as lists, tables as dicts."""
    if isinstance(value, tuple):
        return [dict(entry) if isinstance(entry, Mapping) else entry for entry in value]
    return value


def providers_table(rules: Rules) -> list[dict[str, Any]]:
    """Every rule of ``rules`` (``Rules.provided``) with the module of the plugin that
    provides it and whether that plugin says its hooks are ported, as the kernel reads
    the table (``naqala.native._native.foreign_providers``)."""
    modules = {info.name: module_of(info.module) for info in rules.plugins}
    ported = declared_native(rules)
    return [
        {
            "entry": provided.entry,
            "plugin": provided.plugin,
            "module": modules[provided.plugin],
            "ported": provided.plugin in ported,
        }
        for provided in rules.provided
    ]
