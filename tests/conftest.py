"""Test configuration. The ``naqala_*`` fixtures come from the kit's pytest plugin, which an
installed naqala registers through its ``pytest11`` entry point; it is not listed in
``pytest_plugins`` here, as that would register it a second time."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from naqala import native as kernel


def pytest_configure(config: pytest.Config) -> None:
    """Load the kit's plugin only if pytest did not (plugin autoloading disabled with
    PYTEST_DISABLE_PLUGIN_AUTOLOAD); ``-p no:naqala`` is respected."""
    import naqala.testing.pytest_plugin as kit

    manager = config.pluginmanager
    if not manager.is_registered(kit) and not manager.is_blocked("naqala"):
        manager.register(kit, "naqala")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Without the native engine's extension (a machine with no Rust toolchain), every
    command on the default ``--engine auto`` says on stderr that it plays on the Python
    engine. The tests of other behaviours read stderr for their own messages, so there
    the suite asks for the Python engine as such a user would (``NAQALA_ENGINE=python``);
    tests/test_engine_choice.py tests the fallback line itself."""
    from naqala import native as kernel

    if not kernel.available():
        os.environ.setdefault("NAQALA_ENGINE", "python")


@pytest.fixture
def without_extension(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The extension's import fails, as on a machine without a Rust toolchain."""
    kernel._load.cache_clear()
    monkeypatch.setitem(sys.modules, kernel.EXTENSION, None)  # makes `import` raise
    monkeypatch.delattr(kernel, "_native", raising=False)
    yield
    kernel._load.cache_clear()
