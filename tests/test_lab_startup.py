"""A one-game study pays for the rules and one game, not for the lab's statistics
(issue 28: scipy.stats alone costs 1.2–1.7 s of CPU; its CPU time is measured by
bench/startup.py, never by a timed test)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from naqala.lab.stats import seat_balance

PROBE = """
import json, sys
from naqala.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy')), file=sys.stderr)
"""


def test_one_game_simulate_imports_no_scipy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "simulate", "--games", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["games"] == 1
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []


def test_seat_balance_of_one_game_needs_no_scipy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # importing it now fails
    assert seat_balance([1.0, 0.0, 0.0, 0.0], 1) is None
