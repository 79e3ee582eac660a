"""A ``--dask`` address checked in one place, before connecting (issue 36): a malformed
one is refused in one line by every lab command, where it was an internal ``ValueError``
or a 30-second wait."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.lab.executors import DaskAddressError, make_executor, scheduler_address

GOOD_SPACE = '[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nvalues = [5, 10]\n'


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def one_line(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert "internal error" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def space(tmp_path: Path) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(GOOD_SPACE, encoding="utf-8")
    return path


# -- --dask --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("foo", "no port"),
        ("tcp://:8786", "no host"),
        ("tcp://host:99999", "port 99999 is not 1 to 65535"),
        ("tcp://host:0", "port 0 is not 1 to 65535"),
        ("http://host:8786", "unknown scheme 'http'"),
        ("tcp://[::1:8786", "not scheme://host:port"),
        ("tcp://host:87a6", "not scheme://host:port"),
        ("tcp://" + "h" * 300 + ":1", "a host name of 300 characters"),
    ],
)
def test_a_malformed_dask_address_is_one_line(address: str, reason: str) -> None:
    with pytest.raises(DaskAddressError, match=reason) as raised:
        scheduler_address(address)
    assert "scheme://host:port" in str(raised.value)
    with pytest.raises(DaskAddressError):
        make_executor(None, address, 4)


@pytest.mark.parametrize(
    ("given", "address"),
    [
        ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("scheduler.lan:8786", "tcp://scheduler.lan:8786"),
        ("TLS://Scheduler:1", "tls://Scheduler:1"),
        ("tcp://[::1]:65535", "tcp://[::1]:65535"),
        ("ws://host-1.example:80", "ws://host-1.example:80"),
    ],
)
def test_a_scheduler_address_is_read_with_its_scheme(given: str, address: str) -> None:
    assert scheduler_address(given) == address


COMMANDS = {
    "simulate": ["simulate", "-n", "2"],
    "compare": ["compare", "-n", "2", "-x", "whims"],
    "skill": ["skill", "-n", "2"],
    "balance": ["balance", "-n", "2"],
    "tune": ["tune", "SPACE", "--out", "OUT", "--trials", "1", "-n", "2"],
    "interactions": ["interactions", "--components", "djinn:jafaar,djinn:enki", "-n", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_lab_command_refuses_a_malformed_dask_address_before_connecting(
    command: str, space: Path, tmp_path: Path
) -> None:
    """It was ``internal error: ValueError``, or a 30-second wait for ``tcp://host:99999``."""
    args = [
        {"SPACE": str(space), "OUT": str(tmp_path / "best.toml")}.get(word, word)
        for word in COMMANDS[command]
    ]
    for address, reason in (("foo", "no port"), ("tcp://host:99999", "port 99999")):
        line = one_line(run(*args, "--dask", address))
        assert line.startswith(f"naqala: --dask {address!r}: {reason}"), line
        assert "scheme://host:port" in line
