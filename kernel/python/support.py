"""Which rules the kernel can play: the reason a game stays on the Python engine, if any.

The kernel implements the code of the base game (plugins/base), the Artisans
(plugins/artisans, today's version: a kept older edition such as artisans 0.1.0 stays on
the Python engine), the Whims box (plugins/whims, the plugin ``djinns``), the Thieves
(plugins/thieves) and solo mode (plugins/solo); every other plugin must be content only
(its one hook ``naqala_content_files``: a house rule such as ``big-viziers``), since its
numbers reach the kernel as data while code would not. The cards the kernel has not
ported are named by the kernel itself (``unported_content``).
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.plugins import PluginInfo, is_edition

#: the plugins whose code the kernel implements, at their installed version (a plugin
#: may go by one of its aliases)
PORTED_PLUGINS = ("base", "artisans", "djinns", "thieves", "solo")
#: the hooks a content-only plugin may implement
CONTENT_HOOKS = frozenset({"naqala_content_files"})
#: ported plugins whose rules meet in ways the kernel has not been proven on yet: each
#: ported separately, played together only once the harness covers them together
UNPROVEN_TOGETHER = {
    ("thieves", "artisans"): "the purple thief and the Artisans' items",
    ("thieves", "djinns"): "the Whims' boards and five players",
    ("djinns", "artisans"): "the Artisans with the Whims box (the 6x7 board)",
}


def names_of(info: PluginInfo) -> frozenset[str]:
    """The names a plugin goes by: its own and its ``ALIASES``."""
    return frozenset({info.name, *getattr(info.module, "ALIASES", ())})


def code_plugins(rules: Rules) -> list[str]:
    """One reason per plugin whose code the kernel does not implement, naming its hooks,
    and one per combination of ported plugins it does not play together yet."""
    reasons = []
    loaded: set[str] = set()
    for info in rules.plugins:
        names = names_of(info)
        loaded.update(names)
        if names & set(PORTED_PLUGINS):
            if is_edition(info):
                reasons.append(
                    f"plugin {info.name!r} {info.version} is a kept older version the kernel "
                    "does not play"
                )
            continue
        hooks = sorted(caller.name for caller in rules.pm.get_hookcallers(info.module) or ())
        code = [hook for hook in hooks if hook not in CONTENT_HOOKS]
        if code:
            reasons.append(f"plugin {info.name!r} has code hooks ({', '.join(code)})")
    for together, what in UNPROVEN_TOGETHER.items():
        if set(together) <= loaded:
            first, second = together
            reasons.append(
                f"plugins {first!r} and {second!r} are not proven together on the kernel "
                f"yet ({what})"
            )
    return reasons
