"""The native engine is optional: without its extension naqala installs, says why, and
plays on the Python engine; with it, ``naqala --version`` names the kernel."""

from __future__ import annotations

import pytest
from native_kit import require_native
from typer.testing import CliRunner

from naqala import native as kernel
from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.simulate import play_game


def test_a_missing_extension_is_reported_with_its_reason(without_extension: None) -> None:
    assert not kernel.available()
    reason = kernel.unavailable_reason()
    assert reason is not None and kernel.EXTENSION in reason
    assert kernel.version() is None
    with pytest.raises(kernel.KernelUnavailable, match="not installed"):
        kernel.native()


def test_version_says_why_the_native_engine_is_missing(without_extension: None) -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    engine = result.stdout.splitlines()[1]
    assert engine.startswith("native engine: not available, playing on the Python engine:")
    assert kernel.EXTENSION in engine


def test_games_play_on_the_python_engine_without_the_extension(without_extension: None) -> None:
    rules = build_rules()
    final, _ = play_game(rules, 2, seed=3)
    assert final.is_over
    assert not kernel.available()


def test_version_names_the_kernel_when_it_is_built() -> None:
    module = require_native()
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == f"native engine: available (kernel {module.VERSION})"
