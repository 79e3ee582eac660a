"""The native engine (``kernel/``, Rust with PyO3 bindings), seen from Python.

The extension ``naqala.native._native`` is optional: a machine without a Rust toolchain
installs and plays on the Python engine, which stays the reference. ``available()`` says
whether the extension loaded and ``unavailable_reason()`` why not, in one line, so that
``naqala --version`` and the commands can say which engine runs.
"""

from __future__ import annotations

import functools
from types import ModuleType

#: the extension's module, imported once (``naqala.native._native``)
EXTENSION = "naqala.native._native"


@functools.cache
def _load() -> tuple[ModuleType | None, str | None]:
    """The extension module, or None and the reason it could not be imported."""
    try:
        from naqala.native import _native
    except ImportError as exc:  # not built (no Rust toolchain), or built for another Python
        return None, f"the extension {EXTENSION} is not installed ({exc})"
    return _native, None


def available() -> bool:
    """Whether the native engine's extension is installed and imports."""
    return _load()[0] is not None


def unavailable_reason() -> str | None:
    """Why the native engine cannot be used here, or None when it can."""
    return _load()[1]


def native() -> ModuleType:
    """The extension module; ``KernelUnavailable`` with the reason when it is missing."""
    module, reason = _load()
    if module is None:
        raise KernelUnavailable(reason or "the native engine is not available")
    return module


def version() -> str | None:
    """The kernel crate's version, or None when the extension is missing."""
    module = _load()[0]
    return None if module is None else str(module.VERSION)


class KernelUnavailable(RuntimeError):
    """The native engine was asked for on a machine where it is not installed."""


def engine_line() -> str:
    """One line for ``naqala --version``: whether the native engine is there, and if not,
    why (the games then run on the Python engine)."""
    reason = unavailable_reason()
    if reason is None:
        return f"native engine: available (kernel {version()})"
    return f"native engine: not available, playing on the Python engine: {reason}"
