"""Build naqala's wheel as a release would and check what a user would get from it.

    python tools/wheel_check.py                    # build from this checkout, then check
    python tools/wheel_check.py --wheel dist/x.whl # check a wheel already built
    python tools/wheel_check.py --python python3.13  # install it on another CPython too

The checks, each one line, the first failure ending the run with code 1:

- the wheel is tagged ``cp311-abi3`` (one wheel for every CPython from 3.11 on);
- it holds exactly one compiled extension (no stale ``.so`` of an earlier build);
- ``auditwheel show`` (when installed) names its platform tag: printed, not enforced, as a
  wheel built on this machine's glibc is not manylinux (docs/install.md: releases are built
  by cibuildwheel in manylinux containers);
- it installs into a fresh virtual environment with no ``cargo`` or ``rustc`` on PATH, and
  ``naqala --version`` there says the native engine is available.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the wheel's interpreter and ABI tags
ABI_TAG = "cp311-abi3"
#: file suffixes of compiled extensions, on every platform
EXTENSION_SUFFIXES = (".so", ".pyd", ".dylib")
#: what ``naqala --version`` says when the native engine loaded (native/__init__.py)
NATIVE_LINE = "native engine: available"
#: the Rust tools a clean user machine lacks
RUST_TOOLS = ("cargo", "rustc")


class CheckFailed(Exception):
    """A check the wheel did not pass, in one line."""


def run(command: Sequence[str], env: dict[str, str] | None = None) -> str:
    """Run ``command``; its output, or CheckFailed with its last lines when it fails."""
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise CheckFailed(f"{' '.join(command)} failed ({done.returncode}):\n{tail}")
    return done.stdout + done.stderr


def build_wheel(out: Path) -> Path:
    """Build the wheel of this checkout into ``out`` as pip would for a user (isolated)."""
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)])
    wheels = sorted(out.glob("naqala-*.whl"))
    if len(wheels) != 1:
        raise CheckFailed(f"expected one naqala wheel in {out}, found {len(wheels)}")
    return wheels[0]


def check_tag(wheel: Path) -> str:
    """The wheel's file name carries the limited-API tag."""
    if f"-{ABI_TAG}-" not in wheel.name:
        raise CheckFailed(f"{wheel.name} is not tagged {ABI_TAG}")
    return f"tagged {ABI_TAG}: {wheel.name}"


def extensions_in(wheel: Path) -> list[str]:
    """The compiled extensions the wheel holds."""
    with zipfile.ZipFile(wheel) as archive:
        return [name for name in archive.namelist() if name.endswith(EXTENSION_SUFFIXES)]


def check_one_extension(wheel: Path) -> str:
    """Exactly one compiled extension, the native engine, built for the limited API."""
    found = extensions_in(wheel)
    if len(found) != 1:
        raise CheckFailed(f"expected one compiled extension, found {len(found)}: {found}")
    if not re.fullmatch(r"naqala/native/_native\.(abi3\.so|pyd)", found[0]):
        raise CheckFailed(f"the extension is {found[0]}, not naqala/native/_native.abi3.so")
    return f"one extension: {found[0]}"


def platform_tag(wheel: Path) -> str:
    """What ``auditwheel show`` says of the wheel's platform, in one line."""
    auditwheel = shutil.which("auditwheel")
    if auditwheel is None:
        return "auditwheel: not installed here (pip install auditwheel), platform not checked"
    report = " ".join(run([auditwheel, "show", str(wheel)]).split())
    tag = re.search(r'consistent with the following platform tag: "([^"]+)"', report)
    if tag is None:
        return f"auditwheel: no platform tag found in its report: {report[:200]}"
    glibc = re.match(r"manylinux_(\d+)_(\d+)_", tag.group(1))
    reach = f"glibc {glibc.group(1)}.{glibc.group(2)} or newer" if glibc else "not manylinux"
    return (
        f"auditwheel: platform tag {tag.group(1)} ({reach}; `auditwheel repair` retags the "
        "linux wheel; releases build in manylinux containers: docs/install.md)"
    )


def without_rust(path: str) -> str:
    """``path`` without the folders that hold cargo or rustc."""
    kept = [
        folder
        for folder in path.split(os.pathsep)
        if folder and not any((Path(folder) / tool).exists() for tool in RUST_TOOLS)
    ]
    return os.pathsep.join(kept)


def check_install(wheel: Path, python: str, where: Path) -> str:
    """The wheel installs with ``python`` into a fresh venv without Rust on PATH, and
    ``naqala --version`` there says the native engine is available."""
    env = dict(os.environ, PATH=without_rust(os.environ.get("PATH", "")))
    env.pop("VIRTUAL_ENV", None)
    for tool in RUST_TOOLS:
        if shutil.which(tool, path=env["PATH"]) is not None:
            raise CheckFailed(f"{tool} is still on PATH after removing its folders")
    venv = where / "venv"
    run([python, "-m", "venv", str(venv)], env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    env["PATH"] = os.pathsep.join([str(bin_dir), env["PATH"]])
    run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], env)
    said = run([str(bin_dir / "naqala"), "--version"], env)
    line = next((ln for ln in said.splitlines() if ln.startswith("native engine")), said)
    if NATIVE_LINE not in line:
        raise CheckFailed(f"installed with {python}, naqala --version says: {line.strip()}")
    version = run([str(bin_dir / "python"), "-c", "import sys; print(sys.version.split()[0])"])
    return f"installed on Python {version.strip()} without cargo: {line.strip()}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="check this wheel instead of building one")
    parser.add_argument(
        "--python",
        action="append",
        default=[],
        help="also install with this interpreter (repeatable; this one always)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="naqala-wheel-check-") as scratch:
        work = Path(scratch)
        try:
            wheel = args.wheel or build_wheel(work / "dist")
            print(f"wheel: {wheel.name}", flush=True)
            for line in (check_tag(wheel), check_one_extension(wheel), platform_tag(wheel)):
                print(line, flush=True)
            for i, python in enumerate([sys.executable, *args.python]):
                print(check_install(wheel, python, work / f"install-{i}"), flush=True)
        except CheckFailed as failed:
            print(f"wheel check failed: {failed}", file=sys.stderr)
            return 1
    print("wheel check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
