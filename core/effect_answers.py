"""What a plugin's code may answer as effects, checked in one place for both engines.

Content's effects are checked once, when the rules are built
(``plugins/base/effects_checks.py``). A hook's answer (``naqala_tile_effects``) is made
during the game, so it is checked when it is given: by the Python engine before it runs
the answer, and by the kernel's callback before it hands the answer over. A wrong answer
is refused in the same line on both, never run as something else or skipped.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING

from naqala.core.content import RESOURCES
from naqala.core.effects import (
    COUNTS,
    FIELD,
    EffectSpec,
    ExpressionError,
    Source,
    Tree,
    compile_expression,
    nested,
)
from naqala.core.failures import PluginFailed

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: what each counting function's argument must name (``core.effects.COUNTS``)
COUNTED_IDS = {name: what for name, what in COUNTS.items() if what}
#: the verbs a tile action's hook may answer: a score line is given at scoring, a token is
#: placed on a used power's target and a choice by a whole tile action, none of which a
#: ``before`` or ``after`` answer is
ANSWERABLE = ("coins", "draw", "kills", "discard_fakirs")


class EffectAnswerError(PluginFailed, ValueError):
    """A hook answered effects that cannot be run where it answered them; its line names
    the plugins that answer, so it is said as it is (``core.failures.blame``)."""


def trees(source: Source) -> Iterator[Tree]:
    """Every node of a formula's tree (none when it does not compile: its loader says so)."""
    try:
        stack = [compile_expression(source)]
    except ExpressionError:
        return
    while stack:
        node = stack.pop()
        yield node
        stack.extend(value for value in node.values() if isinstance(value, dict))


def plugin_counters(rules: Rules) -> dict[str, str]:
    """The counters the plugins keep by one exact name (hooks ``naqala_player_counters``
    and ``naqala_state_counters``; a ``prefix*`` is no one counter), each with its holder
    (``player`` or ``game``): ``counter("whims.claimed")`` reads them, ``set`` writes
    only those their plugin lets it (``writable_counters``). Worked out once per rules."""
    found: dict[str, str] | None = rules.memo.get("effects.plugin_counters")
    if found is None:
        found = {}
        for hook, holder in (
            ("naqala_state_counters", "game"),
            ("naqala_player_counters", "player"),
        ):
            for names in getattr(rules.hook, hook)():
                found.update((name, holder) for name in names if not name.endswith("*"))
        rules.memo["effects.plugin_counters"] = found
    return found


def _declared(rules: Rules, hook: str) -> frozenset[str]:
    """The names the plugins answer to a declaring hook, worked out once per rules."""
    found: frozenset[str] | None = rules.memo.get(f"effects.{hook}")
    if found is None:
        found = frozenset(n for names in getattr(rules.hook, hook)() for n in names)
        rules.memo[f"effects.{hook}"] = found
    return found


def writable_counters(rules: Rules) -> frozenset[str]:
    """The plugins' own counters that ``set`` may write (hook ``naqala_writable_counters``)."""
    return _declared(rules, "naqala_writable_counters")


def plugin_events(rules: Rules) -> frozenset[str]:
    """The events the plugins fire, which ``fire`` may fire (hook ``naqala_events``)."""
    return _declared(rules, "naqala_events")


def unknown_ids(rules: Rules, where: str, source: Source) -> list[str]:
    """The tokens, colours and cards a formula counts that the rules in play lack."""
    known: dict[str, Collection[str]] = {
        "token": rules.token_index.keys(),
        "colour": rules.colour_index.keys(),
        "card": rules.card_specs.keys(),
        "kind": {card.kind for card in rules.card_specs.values() if card.deck != RESOURCES},
        "counter": {counter.id for counter in rules.content.counters}
        | plugin_counters(rules).keys(),
        "value": {tile.value for tile in rules.content.tiles if tile.value},
        "tile": {tile.kind for tile in rules.content.tiles},
        "deck": rules.deck_index.keys(),
        "row on tiles": {deck.id for deck in rules.deck_specs if deck.lies_on},
    }
    found = []
    for node in trees(source):
        what = COUNTED_IDS.get(node.get("count", ""))
        if what and node["of"] not in known[what]:
            found.append(f"{where}: {source!r}: no {what} {node['of']!r} in these rules")
    return found


def answer_problems(rules: Rules, where: str, effects: Sequence[object]) -> list[str]:
    """Why ``effects``, answered by a tile action's hook, cannot be run (empty: they can)."""
    found: list[str] = []
    specs = [e for e in effects if isinstance(e, EffectSpec)]
    if len(specs) < len(effects):
        wrong = next(e for e in effects if not isinstance(e, EffectSpec))
        return [f"{where}: an effect is an EffectSpec (core/effects.py), not {wrong!r}"]
    for path, effect in nested(specs):
        verb, amount = effect.verb()
        if verb not in ANSWERABLE:
            found.append(
                f"{where}: {path}: a tile action's hook may answer {', '.join(ANSWERABLE)}, "
                f"not {verb}"
            )
            continue
        sources: list[Source] = [amount]
        sources += [] if effect.when is None else [effect.when]
        sources += FIELD.findall(effect.detail)
        for source in sources:
            found += unknown_ids(rules, f"{where}: {path}", source)
    return found


def require_tile_answer(rules: Rules, kind: str, at: str, effects: Sequence[object]) -> None:
    """Refuse in one line ``effects`` that ``naqala_tile_effects`` may not answer ``at`` a
    tile of ``kind``'s action; the line names the plugins implementing the hook."""
    plugins = [impl.plugin_name for impl in rules.hook.naqala_tile_effects.get_hookimpls()]
    who = ", ".join(repr(name) for name in plugins) or "none"
    where = f"naqala_tile_effects of plugin {who}, {at} a {kind}'s action"
    problems = answer_problems(rules, where, effects)
    if problems:
        raise EffectAnswerError("; ".join(problems))
