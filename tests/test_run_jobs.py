"""CI's job runner (tools/run_jobs.py): the harness's commands on every core, each output
whole and in the order given, and a failure of any one fails the run and is named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "run_jobs.py"


def jobs(text: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUNNER), *options], input=text, capture_output=True, text=True
    )


def test_outputs_come_whole_and_in_the_order_given_though_the_first_ends_last() -> None:
    # the first command sleeps while the second finishes: the log still reads in order
    done = jobs("sleep 0.5; echo first; echo first-again\necho second\n", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "$ sleep 0.5; echo first; echo first-again",
        "first",
        "first-again",
        "$ echo second",
        "second",
        "2 commands, 0 failed, 2 at a time",
    ]


def test_blank_lines_and_comments_are_not_commands() -> None:
    done = jobs("# a section\n\n   \necho only\n")
    assert done.returncode == 0
    assert [line for line in done.stdout.splitlines() if line.startswith("$ ")] == ["$ echo only"]


def test_one_failure_fails_the_run_and_is_named_after_every_output() -> None:
    done = jobs("echo before\nexit 3\necho after\n", "--jobs", "2")
    assert done.returncode == 1
    assert "$ echo after\nafter\n" in done.stdout  # the others still ran and printed
    assert done.stderr.strip() == "failed: exit 3 (exit status 3)"


def test_a_command_s_errors_are_in_its_own_block() -> None:
    done = jobs("echo out; echo err >&2\necho next\n", "--jobs", "2")
    assert done.stdout.splitlines()[:3] == ["$ echo out; echo err >&2", "out", "err"]


def test_jobs_below_one_is_refused_in_one_line() -> None:
    done = jobs("echo never\n", "--jobs", "0")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "--jobs 0: at least 1 command at a time"
