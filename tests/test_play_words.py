"""``naqala play`` in a real terminal (tmux): the options are listed in the web page's
words with their notation in brackets, the notation can still be typed, and ``hint``
during a move says where the hand can end, as the page's move preview does."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
#: how long the terminal may take to show something
PATIENCE = 60


@pytest.fixture
def terminal() -> Iterator[str]:
    """A tmux session running ``naqala play`` against one greedy AI: its name."""
    assert TMUX is not None
    name = f"naqala-words-{os.getpid()}"
    command = (
        f"{sys.executable} -c 'from naqala.cli.app import main; main()' "
        "play --seats human,ai --seed 3"
    )
    subprocess.run(
        [TMUX, "new-session", "-d", "-s", name, "-x", "150", "-y", "60", command], check=True
    )
    try:
        yield name
    finally:
        subprocess.run([TMUX, "kill-session", "-t", name], check=False)


def screen(name: str) -> str:
    assert TMUX is not None
    shown = subprocess.run(
        [TMUX, "capture-pane", "-p", "-J", "-S", "-200", "-t", name],
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout


def until_shown(name: str, pattern: str, since: str = "P1, decide: ") -> re.Match[str]:
    """``pattern`` found in what the terminal shows after the last ``since``."""
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        shown = screen(name)
        found = re.search(pattern, shown[shown.rfind(since) :])
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"never shown: {pattern!r}\n{screen(name)}")


def typed(name: str, line: str) -> None:
    """Type ``line`` and Enter, once the prompt waits."""
    assert TMUX is not None
    until_shown(name, r"P1>\s*$")
    subprocess.run([TMUX, "send-keys", "-t", name, line, "Enter"], check=True)
    time.sleep(0.3)


def test_the_terminal_lists_options_in_words_and_hints_where_a_hand_can_end(
    terminal: str,
) -> None:
    bid = until_shown(terminal, r"bid (\d+): pay [^\[]* turn-order space \[bid \1\]")
    typed(terminal, f"bid {bid.group(1)}")  # the notation is still typed
    for _ in range(4):  # a second bid of the same player (two markers at two players)
        decision = until_shown(terminal, r"P1, decide: (Bid|Move)")
        if decision.group(1) == "Move":
            break
        typed(terminal, "1")
    until_shown(terminal, r"P1, decide: Move: pick up every meeple")
    typed(terminal, "1")
    until_shown(terminal, r"drop an? [A-Z][a-z]+ on [a-f]\d \[drop [a-f]\d [A-Z]\]")
    typed(terminal, "hint")
    until_shown(terminal, r"where this hand can end:\s+[a-f]\d \([A-Za-z ]+\): \d ", "hint")
