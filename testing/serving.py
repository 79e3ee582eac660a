"""Starting ``naqala serve`` for a test or a tool: a free port of 127.0.0.1, and waiting
until the server answers — or failing with what it printed, if it died first."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable

__all__ = ["free_port", "wait_until_answering"]


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_answering(
    process: subprocess.Popen[str], answers: Callable[[], bool], tries: int = 200
) -> None:
    """Ask ``answers`` every 0.1 s until it says yes; a refused connection (``OSError``)
    counts as no. ``AssertionError`` with the server's error output if ``process`` ended,
    or when it never answered."""
    for _ in range(tries):
        try:
            if answers():
                return
        except OSError:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read() if process.stderr else "") from None
        time.sleep(0.1)
    raise AssertionError("naqala serve did not answer")
