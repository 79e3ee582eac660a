"""Whether a game's plugins may run on the native engine, asked without knowing any rule.

The core cannot know which rules the kernel implements, and must not: each plugin says so
itself through the hook ``naqala_native_support``. A plugin whose only hook is
``naqala_content_files`` is content alone, and content reaches the kernel as data, so it
needs no answer. Every other plugin with code hooks keeps the game on the Python engine,
and the reason names it and those hooks, so a user knows what to leave out. What the
installed kernel itself can play (its extension, the card kinds it has ported) is asked
by ``naqala.kernel.support``, above the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from naqala.core.engine import Rules

#: the hooks a plugin may answer and still leave the rules to content alone: its files,
#: its answer to the question itself, and AI players (a player changes no rule; a seat
#: the kernel has no player for keeps that game in Python by itself)
CONTENT_HOOKS = frozenset(
    {"naqala_content_files", "naqala_native_support", "naqala_agents", "naqala_metrics"}
)


def declared_native(rules: Rules) -> frozenset[str]:
    """The plugins that answer ``naqala_native_support`` with ``True``."""
    return frozenset(
        impl.plugin_name
        for impl in rules.hook.naqala_native_support.get_hookimpls()
        if impl.function() is True
    )


def code_hooks(rules: Rules, plugin: str) -> list[str]:
    """The hooks ``plugin`` answers besides content, sorted."""
    module = rules.pm.get_plugin(plugin)
    callers = (rules.pm.get_hookcallers(module) or []) if module is not None else []
    return sorted(caller.name for caller in callers if caller.name not in CONTENT_HOOKS)


def native_obstacle(rules: Rules) -> str | None:
    """Why ``rules`` cannot run native as far as its plugins tell (one clause per plugin
    with code hooks that does not declare native support, naming the hooks), or None."""
    declared = declared_native(rules)
    reasons = []
    for info in rules.plugins:
        if info.name in declared:
            continue
        hooks = code_hooks(rules, info.name)
        if hooks:
            reasons.append(
                f"plugin {info.name!r} has code hooks ({', '.join(hooks)}) that the native "
                "engine does not implement"
            )
    return "; ".join(reasons) or None
