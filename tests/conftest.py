"""Test configuration. The ``naqala_*`` fixtures come from the kit's pytest plugin, which an
installed naqala registers through its ``pytest11`` entry point; it is not listed in
``pytest_plugins`` here, as that would register it a second time."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Load the kit's plugin only if pytest did not (plugin autoloading disabled with
    PYTEST_DISABLE_PLUGIN_AUTOLOAD); ``-p no:naqala`` is respected."""
    import naqala.testing.pytest_plugin as kit

    manager = config.pluginmanager
    if not manager.is_registered(kit) and not manager.is_blocked("naqala"):
        manager.register(kit, "naqala")
