"""The scripts of tools/ loaded as modules for their tests (tools/ is no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as the module ``naqala_<name>``."""
    spec = importlib.util.spec_from_file_location(f"naqala_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
