"""Who provides each rule of a game: what the native engine is told to decide whether it
plays the game.

The core cannot know which rules the kernel implements, and must not: it lists, for every
rule, the plugin that provides it (``provided_rules``), and the kernel compares the
plugins' modules with the ones it implements (``naqala.native.plan``). A rule is each
entry of a registry (every stage with the tribe and tile actions, every card power, cost
code and turn field), each provider hook's answer and wrapper (board layout, flow, new
game), and every answer to a hook that changes play (events, extra options, scoring…).
A stage replaced under its own name (``REPLACES``) is listed with its new provider, so a
replaced rule is never played natively as the old one.

Hooks that only read a state (``READ_ONLY_HOOKS``: pictures, encodings, words, checks)
run in Python on the states they are shown, native or not; they are listed apart
(``kind == "reads"``) so that the environments, whose observation the kernel computes,
can still see who adds to it. Content reaches the kernel as data, and AI players and
metrics change no rule: they are not listed at all. ``naqala_native_support`` is a
plugin's claim that its hooks are ported: it can keep a game in Python, never send one
to the kernel (``declared_native``).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: hooks that change no rule the kernel plays: content files (data the kernel reads), the
#: claim of native support itself, and AI players and metrics (a player changes no rule;
#: a seat the kernel has no player for keeps its games in Python by itself)
BESIDE_THE_RULES = frozenset(
    {"naqala_content_files", "naqala_native_support", "naqala_agents", "naqala_metrics"}
)
#: hooks that only read a state or the rules: they run in Python on the states they are
#: shown, whichever engine played them
READ_ONLY_HOOKS = frozenset(
    {
        "naqala_public_notes",
        "naqala_display",
        "naqala_explain",
        "naqala_check_rules",
        "naqala_check_state",
        "naqala_action_kinds",
        "naqala_observation_parts",
        "naqala_cli",
    }
)
#: hooks whose every answer changes play: each answer is a rule of its own, listed by
#: hook and plugin (a hook in none of these sets is taken for one of them, so a new hook
#: keeps a game in Python until it is classed here)
PLAY_HOOKS = frozenset(
    {
        "naqala_event",
        "naqala_extra_options",
        "naqala_apply_extra",
        "naqala_protected_meeples",
        "naqala_game_ends",
        "naqala_score_lines",
        "naqala_adjust_score_lines",
        "naqala_verdict",
        "naqala_adjust_new_game",
        "naqala_tile_effects",
        "naqala_impassable_tiles",
        "naqala_blocked_edges",
        "naqala_hidden_decks",
        "naqala_flags",
        "naqala_player_counters",
        "naqala_state_counters",
        "naqala_writable_counters",
        "naqala_events",
    }
)
#: the registries, by the word ``Rules._registry`` files their entries under, with the
#: kind of entry the providers' table calls them (AI players and metrics are not rules)
REGISTRIES = {
    "stage": "stage",
    "card kind": "power",
    "cost code": "cost",
    "turn field": "turn",
}
#: the hooks that fill the registries, whose answers are listed entry by entry
REGISTRY_HOOKS = frozenset(
    {
        "naqala_stages",
        "naqala_tribe_actions",
        "naqala_tile_actions",
        "naqala_card_powers",
        "naqala_cost_codes",
        "naqala_turn_fields",
    }
)
#: how a kind of entry reads in a message
WORDS = {
    "stage": "stage {!r}",
    "power": "card power {!r}",
    "cost": "cost code {!r}",
    "turn": "turn field {!r}",
    "hook": "hook {}",
    "wrapper": "a wrapper of {}",
    "reads": "hook {}",
    "plugin": "the name {!r}",
}


@attrs.frozen
class Provided:
    """One rule and the plugin that provides it. ``entry`` is ``<kind>:<name>``:
    ``stage:tile:village``, ``power:djinns:haurvatat``, ``cost:x``, ``turn:reach``,
    ``hook:naqala_event``, ``wrapper:naqala_flow``, ``reads:naqala_explain`` (a read-only
    hook), ``plugin:<id>`` (the plugin's own name, which the kernel keys rules on);
    ``hook`` the hook that provides it; ``replaced`` the plugins whose offer of the same
    entry this one replaces."""

    entry: str
    plugin: str
    hook: str
    replaced: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.entry.partition(":")[0]

    @property
    def words(self) -> str:
        """The entry as a message says it: ``stage 'tile:village'``."""
        kind, _, name = self.entry.partition(":")
        return WORDS.get(kind, "{}").format(name)


def provided_rules(rules: Rules) -> tuple[Provided, ...]:
    """Every rule of ``rules`` with its provider, in a stable order (by entry, then
    plugin); one ``plugin:<id>`` entry per plugin."""
    rules.cost_codes  # noqa: B018 - fills the cost codes' providers, read on first use
    found = [Provided(f"plugin:{info.id}", info.name, "") for info in rules.plugins]
    for (what, name), plugin in rules.entry_providers.items():
        kind = REGISTRIES.get(what)
        if kind is not None:
            own = name.removeprefix(f"{kind}:")  # cost codes and turn fields are prefixed
            hook = rules.entry_hooks[what, name]
            found.append(Provided(f"{kind}:{own}", plugin, hook, _replaced(rules, what, name)))
    for hook, (answering, wrappers) in rules.hook_providers.items():
        found += [Provided(f"hook:{hook}", impl.plugin_name, hook) for impl in answering]
        found += [Provided(f"wrapper:{hook}", impl.plugin_name, hook) for impl in wrappers]
    named = REGISTRY_HOOKS | BESIDE_THE_RULES | set(rules.hook_providers)
    for info in rules.plugins:
        for caller in rules.pm.get_hookcallers(info.module) or ():
            if caller.name not in named:
                kind = "reads" if caller.name in READ_ONLY_HOOKS else "hook"
                found.append(Provided(f"{kind}:{caller.name}", info.name, caller.name))
    return tuple(sorted(set(found), key=lambda p: (p.entry, p.plugin)))


def _replaced(rules: Rules, what: str, name: str) -> tuple[str, ...]:
    return rules.replaced.get((what, name), ())


def declared_native(rules: Rules) -> frozenset[str]:
    """The plugins that answer ``naqala_native_support`` with ``True``: their claim that
    the kernel implements their hooks."""
    return frozenset(
        impl.plugin_name
        for impl in rules.hook.naqala_native_support.get_hookimpls()
        if impl.function() is True
    )


def module_of(plugin: Any) -> str:
    """The module a plugin is, as the kernel matches it against the ones it implements:
    a module's name (``naqala.plugins.base``) only when it is the module imported under
    that name; a plugin object's class by module and name; anything else marked so."""
    if isinstance(plugin, ModuleType):
        name = plugin.__name__
        return name if sys.modules.get(name) is plugin else f"{name} (not the imported module)"
    kind = plugin if isinstance(plugin, type) else type(plugin)
    return f"{kind.__module__}.{kind.__qualname__}"
