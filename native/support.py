"""Whether a game can run on the installed native engine, and if not, why not, in one line.

Four things keep a game on the Python engine, asked in this order: the extension is not
installed (``unavailable_reason``); a rule is provided by a plugin module the kernel does
not implement (the kernel's answer, ``foreign_providers``, to the table of who provides
each rule, ``Rules.provided``: a stage replaced under its own name included, whatever the
plugin's ``naqala_native_support`` claims), unless the kernel calls that hook back
(``naqala.native.callbacks``: native is what the kernel finds it can play, checked by
provider), or by a kept older edition of a plugin the
kernel plays at today's version; two ported plugins meet in ways the harness has not
proven yet (``UNPROVEN_TOGETHER``); or the merged content holds what the kernel cannot
read or has not ported (card kinds it names itself, ``Kernel.unported_content``). Hooks
that only read a state keep no game in Python. The kernel for a ``Rules`` is built once and
kept with it, as the rules keep what plugins derive from them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from naqala.core.engine import Rules
from naqala.core.native import Provided, declared_native
from naqala.core.plugins import PluginInfo, is_edition
from naqala.native import native, unavailable_reason
from naqala.native.bridge import NativeRules
from naqala.native.callbacks import Function, callback_functions, called_back, is_called_back
from naqala.native.content import providers_table

#: where a ``Rules`` keeps its kernel and the answer (``Rules.memo``), by the cards left
#: out, since ``--without`` changes the content after the rules are built
MEMO = "naqala.native.native_rules"
#: where a ``Rules`` keeps the rules whose provider the kernel does not implement
FOREIGN = "naqala.native.foreign_rules"
#: the kind of entry of a hook that only reads a state (``naqala.core.native``)
READS = "reads"
#: the base game's plugin name
BASE = "base"
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
    """One reason per plugin the kernel does not play (a rule whose provider it does not
    implement, or a kept older edition), and one per combination of ported plugins not
    proven together."""
    editions = [info for info in rules.plugins if is_edition(info)]
    reasons = [
        f"plugin {info.name!r} {info.version} is a kept older version the kernel does not play"
        for info in editions
    ]
    kept = tuple(f"plugin {info.name!r} " for info in editions)
    foreign = [p for p in foreign_rules(rules) if p.kind != READS and not is_called_back(rules, p)]
    reasons += [c for c in provider_clauses(rules, foreign) if not c.startswith(kept)]
    loaded = frozenset().union(*(names_of(info) for info in rules.plugins))
    for together, what in UNPROVEN_TOGETHER.items():
        if set(together) <= loaded:
            first, second = together
            reasons.append(
                f"plugins {first!r} and {second!r} are not proven together on the kernel "
                f"yet ({what})"
            )
    return reasons


def foreign_rules(rules: Rules) -> list[Provided]:
    """The rules of ``rules`` (``Rules.provided``, read-only hooks included) whose
    provider the installed kernel does not implement: the kernel's own answer
    (``_native.foreign_providers``), asked once per rules."""
    found: list[Provided] | None = rules.memo.get(FOREIGN)
    if found is None:
        answer = native().foreign_providers(json.dumps(providers_table(rules)))
        foreign = {(entry, plugin) for entry, plugin in answer}
        found = [p for p in rules.provided if (p.entry, p.plugin) in foreign]
        rules.memo[FOREIGN] = found
    return found


def called_back_rules(rules: Rules) -> list[Provided]:
    """The rules of ``rules`` whose provider the kernel does not implement and that it
    calls back (``naqala.native.callbacks``): a game with them stays native."""
    return called_back(rules, foreign_rules(rules))


def hook_callbacks(rules: Rules) -> list[tuple[str, Function]]:
    """The ``(hook, function)`` pairs the kernel of ``rules`` calls back."""
    return callback_functions(rules, called_back_rules(rules))


def called_back_words(rules: Rules) -> str | None:
    """The hooks called back, by plugin, in one clause (``plugin 'cap'
    (naqala_game_ends)``), or None when there are none."""
    asked = called_back_rules(rules)
    plugins = dict.fromkeys(p.plugin for p in asked)
    if not plugins:
        return None
    return ", ".join(
        f"plugin {name!r} ({', '.join(sorted({p.hook for p in asked if p.plugin == name}))})"
        for name in plugins
    )


def provider_clauses(rules: Rules, foreign: Sequence[Provided]) -> list[str]:
    """One clause per plugin of ``foreign`` (rules whose provider the kernel does not
    implement), in the rules' plugin order: a plugin that takes a box's name is not the
    box; one that does not say its hooks are ported names those hooks; one that says so
    names what it provides, and whose rule the kernel would have played in its place."""
    declared = declared_native(rules)
    others = {p.plugin for p in foreign}
    clauses = []
    for info in rules.plugins:
        mine = [p for p in foreign if p.plugin == info.name]
        if not mine:
            continue
        if any(p.kind == "plugin" for p in mine):
            clauses.append(
                f"plugin {info.name!r} is not the shipped plugin of that name, whose rules "
                "the native engine implements"
            )
        elif info.name not in declared:
            hooks = ", ".join(sorted({p.hook for p in mine}))
            clauses.append(
                f"plugin {info.name!r} has code hooks ({hooks}) that the native engine "
                "does not implement"
            )
        else:
            clauses.append(_claimed(info.name, mine, others))
    return clauses


def _claimed(plugin: str, mine: Sequence[Provided], others: set[str]) -> str:
    """Why a plugin that says its hooks are ported does not play native: what it
    replaces of a plugin the kernel plays, else what it provides that the kernel lacks."""
    replacing = [p for p in mine if any(o not in others for o in p.replaced)]
    if replacing:
        owner = next(o for o in replacing[0].replaced if o not in others)
        whose = "the base game's" if owner == BASE else f"plugin {owner!r}'s rule"
        words = " and ".join(p.words for p in replacing)
        return f"plugin {plugin!r} provides {words}, which the native engine implements as {whose}"
    words = " and ".join(p.words for p in mine)
    return f"plugin {plugin!r} provides {words}, which the native engine does not implement"


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
        bridge = NativeRules(rules, hook_callbacks(rules))
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
