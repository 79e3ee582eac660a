"""The build's two choices that pyproject.toml cannot say (its metadata lives there).

- Wheels are tagged ``cp311-abi3``: the kernel is built against Python's limited API
  (``pyo3/abi3-py311``), so one wheel serves every CPython from 3.11 on.
- Every wheel is built in a fresh build folder of its own, so a ``build/`` left in the
  source tree by an earlier build never ships a stale second extension.
- Both apply to wheels only (``bdist_wheel``: ``pip install .``, ``pip wheel``, ``python -m
  build``): an editable install keeps its in-place ``_native.cpython-3XX-*.so``, which a
  new ``_native.abi3.so`` beside it could not shadow (Python prefers the first).
- Without a Rust toolchain the native engine is skipped (the extension is optional), and
  the build says so in one line: what it costs and how to get it (docs/install.md).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable

#: the oldest CPython the wheel's limited API serves (the crate's ``abi3-py311``)
LIMITED_API = "cp311"

#: what a build without a Rust toolchain prints, once (figures: docs/architecture.md)
NO_TOOLCHAIN_NOTICE = (
    "naqala: no Rust toolchain ({missing} not found), so the native engine is not built; "
    "naqala will play on the Python engine, 12-70x slower; to get it, install Rust "
    "(https://rustup.rs) and reinstall: pip install --no-cache-dir --force-reinstall naqala "
    "(docs/install.md)"
)


def missing_toolchain(which: Callable[[str], str | None] | None = None) -> str | None:
    """The first of ``cargo`` and ``rustc`` that is not on PATH, or None when both are
    (setuptools-rust needs both; it skips the optional extension without either)."""
    for tool in ("cargo", "rustc"):
        if (which or shutil.which)(tool) is None:
            return tool
    return None


def no_toolchain_notice(which: Callable[[str], str | None] | None = None) -> str | None:
    """The one line a build prints when it cannot build the native engine, or None."""
    missing = missing_toolchain(which)
    return None if missing is None else NO_TOOLCHAIN_NOTICE.format(missing=missing)


def say(line: str, terminal: str = "/dev/tty") -> None:
    """Print ``line`` on stderr and, when stderr is captured (pip shows a build's output
    only with ``-v``), on the terminal the install was started from, if there is one."""
    print(line, file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        return
    try:
        with open(terminal, "w", encoding="utf-8") as tty:
            print(line, file=tty)
    except OSError:  # no controlling terminal (CI, a service) or no /dev/tty (Windows)
        pass


def command_classes() -> dict[str, type]:
    """``build_rust`` that speaks when the toolchain is missing, and ``bdist_wheel`` that
    builds in a fresh folder (setuptools-rust wraps whichever ``bdist_wheel`` it finds)."""
    from setuptools.command.bdist_wheel import bdist_wheel
    from setuptools_rust import build_rust

    said: list[str] = []  # build_rust runs twice in a wheel build: say it once

    class BuildRustThatSpeaks(build_rust):
        def run(self) -> None:
            notice = no_toolchain_notice()
            if notice is not None and not said:
                say(notice)
                said.append(notice)
            super().run()

    class WheelInCleanFolder(bdist_wheel):  # type: ignore[misc]
        def finalize_options(self) -> None:
            build = self.distribution.get_command_obj("build")
            self._clean_base = tempfile.mkdtemp(prefix="naqala-build-")
            build.build_base = self._clean_base
            super().finalize_options()

        def run(self) -> None:
            try:
                super().run()
            finally:
                shutil.rmtree(self._clean_base, ignore_errors=True)

    if not building_a_wheel():  # editable installs finalize bdist_wheel too, for its tag
        return {"build_rust": BuildRustThatSpeaks}

    return {"build_rust": BuildRustThatSpeaks, "bdist_wheel": WheelInCleanFolder}


def building_a_wheel(argv: list[str] | None = None) -> bool:
    """Whether this run builds a wheel (build backends run ``setup.py bdist_wheel``)."""
    return "bdist_wheel" in (sys.argv if argv is None else argv)[1:]


def wheel_options() -> dict[str, dict[str, str]]:
    """The limited-API tag for a wheel build; nothing for any other command."""
    return {"bdist_wheel": {"py_limited_api": LIMITED_API}} if building_a_wheel() else {}


if __name__ == "__main__":
    from setuptools import setup

    setup(cmdclass=command_classes(), options=wheel_options())
