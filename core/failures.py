"""Which plugin's code raised: the one line a command says instead of a traceback.

When a plugin's hook, stage or power raises, the traceback is walked to the last place
where naqala's core handed control to plugin code: that plugin and that entry (a hook, or
a stage's or power's method) are named. A game played in another process (a study's
worker) cannot send its traceback back, so it sends this line instead, inside a
``PluginFailed`` (picklable), which the command then says as it is.
"""

from __future__ import annotations

import copyreg
import sys
import traceback
from types import FrameType, TracebackType
from typing import Any

from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.stage import Flow, Stage


class PluginFailed(Exception):
    """Code of a game raised ``blame``'s line, already worked out where it happened (in a
    worker process whose traceback does not travel)."""


class CalledBackFailed(PluginFailed, RuntimeError):
    """A hook the native engine called back failed: the kernel raises this once its call
    returns, with ``blame``'s line for the hook's error (worked out when it was caught),
    so the line names the plugin as on the Python engine."""


def _frames(tb: TracebackType | None) -> list[FrameType]:
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def _is_plugin(value: Any) -> bool:
    return isinstance(getattr(value, "NAME", None), str) and any(
        name.startswith("naqala_") and callable(getattr(value, name, None)) for name in dir(value)
    )


def _provider(frames: list[FrameType]) -> dict[str, str]:
    """Which plugin provides each stage and power, from the rules found in the frames.
    Rules that raised while being built may not have that table yet (a plugin's content
    hook fails before the stages are registered): they give none."""
    for frame in frames:
        for value in (frame.f_locals.get("self"), frame.f_locals.get("rules")):
            if isinstance(value, Rules):
                providers = getattr(value, "providers", None)
                return providers if isinstance(providers, dict) else {}
    return {}


def plugin_of(frame: FrameType, providers: dict[str, str]) -> str | None:
    """The NAME of the plugin whose code ``frame`` runs, if any: the provider of the stage
    or power whose method it is, a plugin object whose method it is, or the nearest
    enclosing module or package that is a plugin."""
    owner = frame.f_locals.get("self")
    if isinstance(owner, Stage) and owner.name in providers:
        return providers[owner.name]
    if isinstance(owner, Power):
        for key in (f"djinn:{owner.kind}", f"card:{owner.kind}"):
            if key in providers:
                return providers[key]
    if owner is not None and _is_plugin(owner):
        return str(owner.NAME)
    module_name = str(frame.f_globals.get("__name__", ""))
    while module_name:
        module = sys.modules.get(module_name)
        if module is not None and _is_plugin(module):
            return str(module.NAME)
        module_name = module_name.rpartition(".")[0]
    return None


def _entry(frame: FrameType) -> str:
    """What of a plugin the core called in ``frame``, in words."""
    name = frame.f_code.co_name
    if name.startswith("naqala_"):
        return f"hook {name}"
    owner = frame.f_locals.get("self")
    if isinstance(owner, Stage):
        return f"stage {owner.name!r} ({name})"
    if isinstance(owner, Power):
        return f"power {owner.kind!r} ({name})"
    if isinstance(owner, Flow):
        return f"the flow ({name})"
    return name


def is_engine_panic(exc: BaseException) -> bool:
    """Whether ``exc`` is a panic of the native kernel. pyo3 raises a Rust panic as
    ``pyo3_runtime.PanicException``, which derives from ``BaseException`` (so ``except
    Exception`` misses it) and cannot be imported: it is known by its name."""
    return any(
        kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime"
        for kind in type(exc).__mro__
    )


class EnginePanicText(Exception):
    """A panic of the native kernel as it travels from a worker process: its message.
    pyo3's ``PanicException`` cannot be imported where it would be unpickled, and a Dask
    worker pickles an exception's cause too (tblib), so the panic behind a
    ``PluginFailed`` travels as this."""


def _as_text(exc: BaseException) -> tuple[type[EnginePanicText], tuple[str]]:
    return EnginePanicText, (str(exc),)


def let_panics_pickle(exc: BaseException) -> None:
    """Let ``exc``, a panic of the native kernel, pickle as ``EnginePanicText`` (its
    class is registered with ``copyreg``, which wins over a reducer tblib registered)."""
    for kind in type(exc).__mro__:
        if kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime":
            copyreg.pickle(kind, _as_text)


def is_game_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure of a game's code, to report in one line: any
    ``Exception``, or a panic of the native kernel (not Ctrl-C or an exit)."""
    return isinstance(exc, Exception) or is_engine_panic(exc)


def blame(exc: BaseException) -> str:
    """``plugin 'x' failed in hook naqala_y: Error: reason`` for the plugin code that
    raised ``exc`` last, ``internal error: Error: reason`` if no plugin's code did,
    ``engine bug: …`` for a panic of the native kernel; a ``PluginFailed`` (or one it
    caused) is said as it is."""
    if isinstance(exc, PluginFailed):
        return str(exc)
    if is_engine_panic(exc):  # never a plugin's doing: the kernel broke its own invariant
        return f"engine bug: the native kernel panicked: {str(exc).strip() or 'no message'}"
    frames = _frames(exc.__traceback__)
    providers = _provider(frames)
    owners = [plugin_of(frame, providers) for frame in frames]
    entry = None
    for i, owner in enumerate(owners):
        if owner is not None and (i == 0 or owners[i - 1] is None):
            entry = i  # the last time the core handed over to a plugin's code
    reason = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]
    if entry is None:
        return f"internal error: {reason}"
    return f"plugin {owners[entry]!r} failed in {_entry(frames[entry])}: {reason}"
