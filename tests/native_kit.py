"""What the native-engine tests share: the extension, or a skip saying why it is missing.

Where CI has built the kernel (``.ci/run`` sets ``NAQALA_REQUIRE_KERNEL=1``) a missing
extension fails instead of skipping, so a broken build cannot pass as "skipped"."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from naqala import kernel


def require_native() -> ModuleType:
    """The extension module; skips the test (fails under ``NAQALA_REQUIRE_KERNEL``) if absent."""
    if not kernel.available():
        reason = kernel.unavailable_reason() or "the native engine is not available"
        if os.environ.get("NAQALA_REQUIRE_KERNEL"):
            pytest.fail(f"NAQALA_REQUIRE_KERNEL is set but {reason}")
        pytest.skip(reason)
    return kernel.native()
