"""The build's configuration (setup.py, pyproject.toml's extras) and the wheel check's
verdicts (tools/wheel_check.py); the wheel itself is built and installed by .ci/run."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
import tomli

from naqala.lab import LabExtraMissing, require

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomli.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def load(path: Path, name: str) -> ModuleType:
    """A script of the checkout as a module (setup.py runs setup() only as __main__)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


setup_py = load(ROOT / "setup.py", "naqala_setup_py")
wheel_check = load(ROOT / "tools" / "wheel_check.py", "naqala_wheel_check")


def test_a_build_without_cargo_says_what_it_costs_and_how_to_get_it() -> None:
    notice = setup_py.no_toolchain_notice(lambda tool: None)
    assert notice is not None and "\n" not in notice
    assert "cargo not found" in notice and "Python engine, 12-70x slower" in notice
    assert "https://rustup.rs" in notice and "--force-reinstall" in notice
    only_cargo = {"cargo": "/bin/cargo"}
    assert "rustc not found" in setup_py.no_toolchain_notice(only_cargo.get)
    assert setup_py.no_toolchain_notice(lambda tool: f"/bin/{tool}") is None


def test_the_notice_reaches_the_terminal_when_pip_captures_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = tmp_path / "tty"
    setup_py.say("the line", str(terminal))
    assert capsys.readouterr().err == "the line\n"
    assert terminal.read_text(encoding="utf-8") == "the line\n"
    setup_py.say("again", str(tmp_path / "no" / "tty"))  # no terminal: stderr alone
    assert capsys.readouterr().err == "again\n"


def test_the_build_rust_command_prints_the_notice_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    build_rust = pytest.importorskip("setuptools_rust").build_rust
    monkeypatch.setattr(build_rust, "run", lambda self: None)
    monkeypatch.setattr(setup_py.shutil, "which", lambda tool: None)
    monkeypatch.setattr(setup_py, "say", lambda line: print(line, file=sys.stderr))
    command = setup_py.command_classes()["build_rust"]
    for _ in range(2):  # a wheel build runs build_rust twice
        command.run(object.__new__(command))
    assert capsys.readouterr().err.count("no Rust toolchain") == 1


def test_only_a_wheel_build_is_tagged_abi3(monkeypatch: pytest.MonkeyPatch) -> None:
    assert setup_py.building_a_wheel(["setup.py", "bdist_wheel", "--dist-dir", "x"])
    assert not setup_py.building_a_wheel(["setup.py", "editable_wheel"])
    monkeypatch.setattr(setup_py.sys, "argv", ["setup.py", "bdist_wheel"])
    assert setup_py.wheel_options() == {"bdist_wheel": {"py_limited_api": "cp311"}}
    monkeypatch.setattr(setup_py.sys, "argv", ["setup.py", "editable_wheel"])
    assert setup_py.wheel_options() == {}


def test_the_limited_api_tag_matches_the_crates_abi3_feature() -> None:
    cargo = (ROOT / "kernel" / "Cargo.toml").read_text(encoding="utf-8")
    assert f'"abi3-py{setup_py.LIMITED_API[2:]}"' in cargo


def test_the_core_install_leaves_out_pydantic() -> None:
    """typer 0.29 requires pydantic: the core install stays below it."""
    typer = next(d for d in CONFIG["project"]["dependencies"] if d.startswith("typer"))
    assert "<0.29" in typer


def test_tune_and_dask_are_extras_of_their_own_and_lab_brings_them() -> None:
    extras = CONFIG["project"]["optional-dependencies"]
    assert any(d.startswith("optuna") for d in extras["tune"])
    assert any(d.startswith("scipy") for d in extras["tune"])  # the tuner's early stop
    assert any(d.startswith("dask[distributed]") for d in extras["dask"])
    assert {"naqala[tune]", "naqala[dask]"} <= set(extras["lab"])
    assert not any(d.startswith(("optuna", "dask")) for d in extras["lab"])


@pytest.mark.parametrize(
    ("module", "extra", "named"),
    [
        ("optuna", None, "naqala[tune]"),
        ("distributed", None, "naqala[dask]"),
        ("scipy.stats", None, "naqala[lab]"),
        ("scipy.stats", "tune", "naqala[tune]"),
    ],
)
def test_a_missing_library_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, extra: str | None, named: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # importing it fails
    with pytest.raises(LabExtraMissing) as missing:
        require(module, "the feature", extra)
    library = module.split(".")[0]
    assert str(missing.value) == (
        f"the feature needs {library}, from the {named[7:-1]} extra: pip install '{named}'"
    )


def wheel(tmp_path: Path, name: str, members: list[str]) -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member in members:
            archive.writestr(member, b"")
    return path


def test_the_wheel_check_wants_the_abi3_tag(tmp_path: Path) -> None:
    good = tmp_path / "naqala-0.1.0-cp311-abi3-linux_x86_64.whl"
    assert "cp311-abi3" in wheel_check.check_tag(good)
    with pytest.raises(wheel_check.CheckFailed, match="not tagged cp311-abi3"):
        wheel_check.check_tag(tmp_path / "naqala-0.1.0-cp311-cp311-linux_x86_64.whl")


def test_the_wheel_check_wants_exactly_one_extension(tmp_path: Path) -> None:
    one = wheel(tmp_path, "one.whl", ["naqala/native/_native.abi3.so", "naqala/core/x.py"])
    assert "_native.abi3.so" in wheel_check.check_one_extension(one)
    stale = ["naqala/native/_native.abi3.so", "naqala/native/_native.cpython-311-x86_64.so"]
    with pytest.raises(wheel_check.CheckFailed, match="found 2"):
        wheel_check.check_one_extension(wheel(tmp_path, "two.whl", stale))
    with pytest.raises(wheel_check.CheckFailed, match="found 0"):
        wheel_check.check_one_extension(wheel(tmp_path, "none.whl", ["naqala/core/x.py"]))
    versioned = wheel(tmp_path, "v.whl", ["naqala/native/_native.cpython-311-x86_64.so"])
    with pytest.raises(wheel_check.CheckFailed, match=r"not naqala/native/_native\.abi3\.so"):
        wheel_check.check_one_extension(versioned)


def test_the_wheel_check_takes_rust_off_path(tmp_path: Path) -> None:
    rust, other = tmp_path / "cargo-bin", tmp_path / "bin"
    for folder in (rust, other):
        folder.mkdir()
    (rust / "cargo").write_bytes(b"")
    kept = wheel_check.without_rust(f"{rust}:{other}")
    assert kept == str(other)


def test_the_wheel_check_reads_auditwheels_tag(monkeypatch: pytest.MonkeyPatch) -> None:
    report = 'naqala.whl is consistent with the following platform tag:\n"manylinux_2_34_x86_64".'
    monkeypatch.setattr(wheel_check.shutil, "which", lambda tool: "/bin/auditwheel")
    monkeypatch.setattr(wheel_check, "run", lambda command: report)
    line = wheel_check.platform_tag(Path("naqala.whl"))
    assert "manylinux_2_34_x86_64" in line and "glibc 2.34 or newer" in line


def test_a_wheel_builds_in_a_fresh_folder_never_the_checkouts_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``build/`` left in the checkout once shipped a stale second extension."""
    pytest.importorskip("setuptools_rust")
    from setuptools.dist import Distribution

    monkeypatch.setattr(setup_py.sys, "argv", ["setup.py", "bdist_wheel"])
    command = setup_py.command_classes()["bdist_wheel"](Distribution({"name": "x"}))
    command.finalize_options()
    base = Path(command.distribution.get_command_obj("build").build_base)
    try:
        assert base.name.startswith("naqala-build-") and base.is_dir()
        assert not any(base.iterdir())
        assert Path(command.bdist_dir).is_relative_to(base)
    finally:
        shutil.rmtree(base)
    monkeypatch.setattr(setup_py.sys, "argv", ["setup.py", "editable_wheel"])
    assert "bdist_wheel" not in setup_py.command_classes()
