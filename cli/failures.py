"""Saying in one line which plugin failed, instead of showing a traceback.

When a plugin's hook, stage or power raises during a command, the line names that plugin
and that entry (``naqala.core.failures.blame``). ``naqala --debug`` or the environment
variable ``NAQALA_DEBUG=1`` shows the whole traceback instead.
"""

from __future__ import annotations

import os

from naqala.core.failures import blame

#: the environment variable that asks for tracebacks
DEBUG_VARIABLE = "NAQALA_DEBUG"


def debug_wanted(args: list[str]) -> tuple[bool, list[str]]:
    """Whether tracebacks are wanted (leading ``--debug`` or ``NAQALA_DEBUG`` set to
    anything but ``0``), and the arguments without the leading ``--debug``."""
    debug = os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
    while args and args[0] == "--debug":
        debug, args = True, args[1:]
    return debug, args


def failure_line(exc: BaseException) -> str:
    """One line naming the plugin and entry that raised ``exc`` (or an internal error)."""
    hint = f"(run naqala --debug … or set {DEBUG_VARIABLE}=1 for the traceback)"
    return f"{blame(exc)} {hint}"
