"""Run independent shell commands on every core, their outputs whole and in order.

CI's harness is some seventy commands, each one process on one core (``bench/native.py
--verify``, ``bench/effects.py``); one after another they leave the other cores idle.
This runs them ``--jobs`` at a time (default: the CPU count), one command a line on
standard input (blank lines and ``#`` comments skipped), prints each one's command and
output once it and every command before it have finished (so the log reads as if they
had run in turn), and exits 1 if any failed, naming each failure at the end::

    python tools/run_jobs.py < jobs.txt
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor


def commands(lines: list[str]) -> list[str]:
    """The command lines: blank lines and comments left out."""
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def run(command: str) -> subprocess.CompletedProcess[str]:
    """One command through the shell, standard output and error together."""
    return subprocess.run(
        command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.jobs < 1:
        print(f"--jobs {args.jobs}: at least 1 command at a time", file=sys.stderr)
        return 2
    todo = commands(sys.stdin.read().splitlines())
    failed: list[str] = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        started: list[Future[subprocess.CompletedProcess[str]]] = [
            pool.submit(run, command) for command in todo
        ]
        for command, future in zip(todo, started, strict=True):
            done = future.result()
            print(f"$ {command}", flush=True)
            if done.stdout:
                print(done.stdout, end="" if done.stdout.endswith("\n") else "\n", flush=True)
            if done.returncode:
                failed.append(f"{command} (exit status {done.returncode})")
    for failure in failed:
        print(f"failed: {failure}", file=sys.stderr)
    print(f"{len(todo)} commands, {len(failed)} failed, {args.jobs} at a time", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
