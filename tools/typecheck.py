"""Run mypy over the source folders as the package ``naqala`` they install as.

The top-level folders (core/, plugins/, cli/, content/) map to ``naqala.*`` through
setuptools ``package-dir``, which mypy cannot follow; so this script lays out symlinks
``naqala/<part> -> <folder>`` in a temporary directory and checks ``-p naqala`` there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package_dirs() -> dict[str, str]:
    """Package part → source folder, read from pyproject.toml's setuptools package-dir
    (``"naqala.core" = "core"`` gives ``core → core``), so the mapping lives in one place."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return {package.removeprefix("naqala."): folder for package, folder in mapping.items()}


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="naqala-mypy-") as tmp:
        package = Path(tmp) / "naqala"
        package.mkdir()
        for part, folder in package_dirs().items():
            (package / part).symlink_to(ROOT / folder, target_is_directory=True)
        env = {**os.environ, "MYPYPATH": tmp}
        command = [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--namespace-packages",
            "--explicit-package-bases",
            "-p",
            "naqala",
        ]
        return subprocess.call(command, cwd=tmp, env=env)


if __name__ == "__main__":
    sys.exit(main())
