"""Which rules the kernel can play: the reason a game stays on the Python engine, if any.

The kernel implements the base game's code (plugins/base) and the Artisans'
(plugins/artisans, today's version: a kept older edition such as artisans 0.1.0 stays on
the Python engine); every other plugin must be
content only (its one hook ``naqala_content_files``: a house rule such as
``big-viziers``), since its numbers reach the kernel as data while code would not. The
cards the kernel has not ported are named by the kernel itself (``unported_content``).
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.plugins import is_edition

#: the plugins whose code the kernel implements (at their installed version)
PORTED_PLUGINS = ("base", "artisans")
#: the hooks a content-only plugin may implement
CONTENT_HOOKS = frozenset({"naqala_content_files"})


def code_plugins(rules: Rules) -> list[str]:
    """One reason per plugin whose code the kernel does not implement, naming its hooks."""
    reasons = []
    for info in rules.plugins:
        if info.name in PORTED_PLUGINS:
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
    return reasons
