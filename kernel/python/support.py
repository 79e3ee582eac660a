"""Which rules the kernel can play: the reason a game stays on the Python engine, if any.

The kernel implements the code of the base game (plugins/base), the Thieves
(plugins/thieves) and solo mode (plugins/solo); every other plugin must be
content only (its one hook ``naqala_content_files``: a house rule such as
``big-viziers``), since its numbers reach the kernel as data while code would not. The
cards the kernel has not ported are named by the kernel itself (``unported_content``).
"""

from __future__ import annotations

from naqala.core.engine import Rules

#: the plugins whose code the kernel implements
PORTED_PLUGINS = ("base", "thieves", "solo")
#: the hooks a content-only plugin may implement
CONTENT_HOOKS = frozenset({"naqala_content_files"})
#: ported plugins whose rules meet in ways the kernel has not been proven on yet: each
#: ported separately, played together only once the harness covers them together
UNPROVEN_TOGETHER = {
    "thieves": {
        "artisans": "the purple thief and the Artisans' items",
        "djinns": "the Whims' boards and five players",
    },
}


def code_plugins(rules: Rules) -> list[str]:
    """One reason per plugin whose code the kernel does not implement, naming its hooks."""
    reasons = []
    for info in rules.plugins:
        if info.name in PORTED_PLUGINS:
            continue
        hooks = sorted(caller.name for caller in rules.pm.get_hookcallers(info.module) or ())
        code = [hook for hook in hooks if hook not in CONTENT_HOOKS]
        if code:
            reasons.append(f"plugin {info.name!r} has code hooks ({', '.join(code)})")
    names = {info.name for info in rules.plugins}
    for plugin, others in UNPROVEN_TOGETHER.items():
        for other, what in others.items():
            if plugin in names and other in names:
                reasons.append(
                    f"plugins {plugin!r} and {other!r} are not proven together on the kernel "
                    f"yet ({what})"
                )
    return reasons
