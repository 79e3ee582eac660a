"""Running a command as a test does, and reading the one line a refusal prints."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from naqala.cli.app import app

__all__ = ["one_line", "run"]


def run(*args: str) -> Result:
    """``naqala ARGS…`` in this process, its output captured."""
    return CliRunner().invoke(app, list(args))


def one_line(result: Result) -> str:
    """The one line a refused command printed on stderr (exit 2, nothing on stdout)."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]
