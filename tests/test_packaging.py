"""The distribution ships every package and data file of the source tree."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import tomli

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomli.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: source folder → the package it installs as (setuptools package-dir)
MAPPED = {
    folder: package for package, folder in CONFIG["tool"]["setuptools"]["package-dir"].items()
}


def test_every_top_level_package_folder_is_mapped() -> None:
    """Each top-level source folder holding an __init__.py installs under naqala."""
    folders = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert folders - {"tests"} <= set(MAPPED)


def test_every_source_package_is_listed_in_pyproject() -> None:
    """A folder with an __init__.py that pyproject.toml does not list would be missing from
    a non-editable install (pip install .), though editable installs would hide it."""
    config = CONFIG
    listed = set(config["tool"]["setuptools"]["packages"])
    found = set()
    for folder, package in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([package, *relative.parts]))
    assert found - listed == set()


def test_toml_files_of_packages_are_package_data() -> None:
    """Every package holding TOML files declares them as package data."""
    config = CONFIG
    data = config["tool"]["setuptools"]["package-data"]
    for folder, package in MAPPED.items():
        for toml in (ROOT / folder).rglob("*.toml"):
            relative = toml.parent.relative_to(ROOT / folder)
            owner = ".".join([package, *relative.parts])
            assert "*.toml" in data.get(owner, []), f"{toml} is not package data of {owner}"


def test_the_web_servers_static_files_are_package_data() -> None:
    """The pages' scripts are files the server serves (its content policy runs no inline
    script): a wheel without them would serve pages that do nothing."""
    patterns = CONFIG["tool"]["setuptools"]["package-data"].get("naqala.web", [])
    files = sorted((ROOT / "web" / "static").iterdir())
    assert files
    for path in files:
        name = f"static/{path.name}"
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name
