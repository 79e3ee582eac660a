"""A one-game study pays for the rules and one game, not for the lab's statistics
(issue 28: scipy.stats alone costs 1.2–1.7 s of CPU; its CPU time is measured by
bench/startup.py, never by a timed test)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naqala.lab.stats import num, pval, seat_balance

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


PROBE_STATS = """
import json, sys
from naqala.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps('scipy.stats' in sys.modules), file=sys.stderr)
"""


def test_simulate_tests_its_seats_without_importing_scipy_stats() -> None:
    """The seat test of a many-game run needs scipy.special, not scipy.stats (a third of
    the import's CPU; bench/simulate_engines.py measures the command)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE_STATS, "simulate", "--games", "3", "--json", "-j", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["seat_test"]["test"] == "chi-square, equal win rates"
    assert json.loads(done.stderr.strip().splitlines()[-1]) is False


@settings(deadline=None)  # the first example imports scipy.stats
@given(
    st.lists(st.integers(0, 3000), min_size=2, max_size=6),
    st.sampled_from([1, 2, 3, 4, 6]),
)
def test_the_seat_test_is_scipy_stats_chisquare_to_the_bit(wins: list[int], split: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    shares = [w / split for w in wins]
    got = seat_balance(shares, max(2, sum(wins)))
    if got is None:
        assert sum(wins) == 0
        return
    expected = [sum(shares) / len(shares)] * len(shares)
    reference = stats.chisquare(shares, expected)
    assert got["chi2"] == num(float(reference.statistic))
    assert got["p_value"] == pval(float(reference.pvalue))
