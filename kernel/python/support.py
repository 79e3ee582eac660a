"""Whether a game can run on the installed native engine, and if not, why not, in one line.

Four things keep a game on the Python engine, asked in this order: the extension is not
installed (``unavailable_reason``); a plugin has code the kernel does not implement (the
rules' own answer, ``Rules.native_obstacle``, from each plugin's ``naqala_native_support``),
or is a kept older edition of a plugin the kernel plays at today's version; two ported
plugins meet in ways the harness has not proven yet (``UNPROVEN_TOGETHER``); or the merged
content holds what the kernel cannot read or has not ported (card kinds it
names itself, ``Kernel.unported_content``). The kernel for a ``Rules`` is built once and
kept with it, as the rules keep what plugins derive from them.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.plugins import PluginInfo, is_edition
from naqala.kernel import unavailable_reason
from naqala.kernel.bridge import NativeRules

#: where a ``Rules`` keeps its kernel and the answer (``Rules.memo``), by the cards left
#: out, since ``--without`` changes the content after the rules are built
MEMO = "naqala.kernel.native_rules"
#: ported plugins whose rules meet in ways the kernel has not been proven on yet: each
#: ported separately, played together only once the harness covers them together
UNPROVEN_TOGETHER: dict[tuple[str, str], str] = {}


def names_of(info: PluginInfo) -> frozenset[str]:
    """The names a plugin goes by: its name, its id and its ``ALIASES``."""
    named = {info.name, *getattr(info.module, "ALIASES", ())}
    if getattr(info.module, "ID", None):
        named.add(info.module.ID)
    return frozenset(named)


def code_plugins(rules: Rules) -> list[str]:
    """One reason per plugin the kernel does not play (code it does not implement, or a
    kept older edition), and one per combination of ported plugins not proven together."""
    editions = [info for info in rules.plugins if is_edition(info)]
    reasons = [
        f"plugin {info.name!r} {info.version} is a kept older version the kernel does not play"
        for info in editions
    ]
    obstacle = rules.native_obstacle
    if obstacle is not None:
        kept = tuple(f"plugin {info.name!r} " for info in editions)
        reasons += [clause for clause in obstacle.split("; ") if not clause.startswith(kept)]
    loaded = frozenset().union(*(names_of(info) for info in rules.plugins))
    for together, what in UNPROVEN_TOGETHER.items():
        if set(together) <= loaded:
            first, second = together
            reasons.append(
                f"plugins {first!r} and {second!r} are not proven together on the kernel "
                f"yet ({what})"
            )
    return reasons


def _kept(rules: Rules) -> tuple[NativeRules | None, str | None]:
    """The kernel for ``rules``, or None and why these rules cannot have one."""
    key = f"{MEMO}:{','.join(rules.without)}"
    found: tuple[NativeRules | None, str | None] | None = rules.memo.get(key)
    if found is None:
        found = _build(rules)
        rules.memo[key] = found
    return found


def _build(rules: Rules) -> tuple[NativeRules | None, str | None]:
    missing = unavailable_reason()
    if missing is not None:
        return None, missing
    reasons = code_plugins(rules)
    if reasons:
        return None, "; ".join(reasons)
    try:
        bridge = NativeRules(rules)
    except ValueError as exc:  # a field or table the kernel does not know: noticed, not run
        return None, f"the native engine cannot read these rules' content: {exc}"
    unported = bridge.kernel.unported_content()
    if unported:
        return None, f"the native engine has not ported the cards {', '.join(unported)}"
    return bridge, None


def native_obstacle(rules: Rules) -> str | None:
    """Why a game of ``rules`` cannot run on the installed native engine, in one line
    naming the plugin and its hooks, the cards, or the missing extension; None when it
    can."""
    return _kept(rules)[1]


def native_rules(rules: Rules) -> NativeRules:
    """The kernel for ``rules`` (built once); ``NotImplementedError`` with the reason when
    the rules cannot run native."""
    bridge, reason = _kept(rules)
    if bridge is None:
        raise NotImplementedError(reason)
    return bridge
