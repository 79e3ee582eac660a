"""``naqala serve`` as a command: what it needs, where it listens, what it refuses. The
server itself is not started here (uvicorn's run is replaced); the browser tests start it
for real."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.cli.serve import is_loopback

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The configs uvicorn was asked to run (nothing listens)."""
    uvicorn = pytest.importorskip("uvicorn")
    configs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: configs.append(self.config))
    return configs


def test_without_the_web_extra_serve_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = runner.invoke(app, ["serve"])
    assert result.exit_code == 2
    assert "pip install 'naqala[web]'" in result.stderr
    assert result.stdout == ""


def test_serve_listens_on_this_machine_only_by_default(started: list[Any], tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--data-dir", str(tmp_path), "--port", "8123"])
    assert result.exit_code == 0, result.stderr
    (config,) = started
    assert (config.host, config.port) == ("127.0.0.1", 8123)
    assert "open http://127.0.0.1:8123/" in result.stdout
    assert "WARNING" not in result.stderr


def test_serve_warns_when_it_listens_beyond_this_machine(
    started: list[Any], tmp_path: Path
) -> None:
    result = runner.invoke(app, ["serve", "--data-dir", str(tmp_path), "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.stderr
    assert started[0].host == "0.0.0.0"
    assert "WARNING: listening on 0.0.0.0, not on 127.0.0.1" in result.stderr


def test_serve_refuses_a_house_rule_file_it_cannot_load(started: list[Any], tmp_path: Path) -> None:
    missing = tmp_path / "nope.py"
    serve = ["serve", "--data-dir", str(tmp_path), "--house-rules"]
    result = runner.invoke(app, [*serve, str(missing)])
    assert result.exit_code == 2
    assert f"--house-rules {missing}" in result.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("this is not python\n", encoding="utf-8")
    result = runner.invoke(app, [*serve, str(broken)])
    assert result.exit_code == 2 and "broken.py" in result.stderr
    assert started == []


def test_serve_refuses_a_data_directory_it_cannot_make(started: list[Any], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["serve", "--data-dir", str(blocker / "games")])
    assert result.exit_code == 2 and "--data-dir" in result.stderr
    assert started == []


@pytest.mark.parametrize(
    ("host", "local"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("127.0.0.2", True),
     ("0.0.0.0", False), ("192.168.1.5", False), ("example.org", False)],
)  # fmt: skip
def test_which_hosts_are_this_machine_only(host: str, local: bool) -> None:
    assert is_loopback(host) is local
