"""The base game's declared API: ``naqala.plugins.base.api``.

The expansions, house rules, command line and testing kit used to import some forty names
from seven private modules of the base plugin. Now they import it through one module with
``__all__``, documented in docs/plugin-api.md; import-linter holds the boundary in CI and
this test holds it in the suite (import-linter is a dev tool, not a test dependency).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tomli

from naqala.plugins.base import api

ROOT = Path(__file__).resolve().parent.parent
#: the folders installed as naqala.* that are not the base plugin
OUTSIDE_BASE = ("plugins/artisans", "plugins/whims", "plugins/house", "cli", "testing", "core")


def base_imports(path: Path) -> list[str]:
    """Modules of the base plugin that ``path`` imports, as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "naqala.plugins.base":
                found += [f"naqala.plugins.base.{alias.name}" for alias in node.names]
            elif node.module.startswith("naqala.plugins.base."):
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("naqala.plugins.base")]
    return found


def test_outside_the_base_plugin_only_the_api_is_imported() -> None:
    wrong = {
        str(path.relative_to(ROOT)): sorted(set(base_imports(path)) - {"naqala.plugins.base.api"})
        for folder in OUTSIDE_BASE
        for path in (ROOT / folder).rglob("*.py")
    }
    assert {where: names for where, names in wrong.items() if names} == {}


def test_the_core_imports_no_plugin_cli_or_testing_kit() -> None:
    for path in (ROOT / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            for module in modules:
                assert not re.match(r"naqala\.(plugins|cli|testing)\b", module), path.name


def test_every_api_name_exists_and_is_documented() -> None:
    text = (ROOT / "docs" / "plugin-api.md").read_text(encoding="utf-8")
    for name in api.__all__:
        assert hasattr(api, name), name
        assert f"`{name}`" in text, f"{name} is not in docs/plugin-api.md"


def test_the_api_exports_what_the_expansions_and_tools_use() -> None:
    """Everything the expansions, house rules, CLI and kit import from it is declared."""
    used: set[str] = set()
    for folder in OUTSIDE_BASE:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module == "naqala.plugins.base.api":
                    used |= {alias.name for alias in node.names}
    assert used <= set(api.__all__)


def test_import_linter_contracts_are_declared_and_run_in_ci() -> None:
    config = tomli.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    assert {c["type"] for c in contracts} == {"forbidden", "protected", "independence", "layers"}
    assert any("import-linter" in dep for dep in config["project"]["optional-dependencies"]["dev"])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.index("ruff format --check") < ci.index("lint-imports")


def test_one_layers_contract_places_every_top_level_package_and_ignores_nothing() -> None:
    """Every package the project installs is in one layer, front ends on top and the
    core (and its content) at the bottom; only type-checking imports are left out, for
    every contract, and the layers ignore no import of their own."""
    config = tomli.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    linter = config["tool"]["importlinter"]
    assert linter["exclude_type_checking_imports"] is True
    (layers,) = [c for c in linter["contracts"] if c["type"] == "layers"]
    assert "ignore_imports" not in layers
    placed = [name.strip() for layer in layers["layers"] for name in layer.split("|")]
    installed = set(config["tool"]["setuptools"]["package-dir"])
    assert sorted(placed) == sorted(installed) == sorted(linter["root_packages"])
    assert placed[:2] == ["naqala.cli", "naqala.web"]
    assert placed[-3:] == ["naqala.display", "naqala.core", "naqala.content"]
