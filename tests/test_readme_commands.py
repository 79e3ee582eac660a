"""The README's command list works when followed in order: in a fresh folder holding
only the repository's files the lines read (docs/examples/, tests/perft/),
every line runs and exits 0, each reading what an earlier line wrote (``game.json`` is a
record, ``state.json`` and ``next.json`` are states). ``serve`` and a ``play`` with a human
seat wait for a person and are left out; the lab's numbers are made small, so the list
runs in seconds, not hours."""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: the options whose values are made small, and their small values
SMALL = {"--games": "2", "--trials": "2", "--budget": "3g", "--jobs": "1"}
#: commands that play 100 or more games when not told how many
PLAYS_GAMES = {"simulate", "compare", "skill", "balance", "interactions", "tune"}


def commands() -> list[str]:
    """The lines of the README's command list (under "What you can do"), continuation
    lines joined."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## What you can do") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    joined = block.group(1).replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip()]


def waits_for_a_person(tokens: list[str]) -> bool:
    if tokens[1] == "serve":
        return True
    seats = tokens[tokens.index("--seats") + 1] if "--seats" in tokens else ""
    return tokens[1] == "play" and "human" in seats.split(",")


def small(tokens: list[str]) -> list[str]:
    """``tokens`` with the lab's numbers made small (and a balance card's skill matrix)."""
    out = list(tokens)
    for i, token in enumerate(out[:-1]):
        if token in SMALL:
            out[i + 1] = SMALL[token]
    if out[1] in PLAYS_GAMES and "--games" not in out:
        out += ["--games", SMALL["--games"]]
    if out[1] == "balance":
        out += ["--skill-games", "1"]
    return out


def read_paths(tokens: list[str]) -> set[str]:
    """The repository files a line names (``rule:FILE`` inside ``--components`` too)."""
    found = set()
    for token in tokens:
        for part in re.split(r"[,:]", token):
            if "/" in part and (ROOT / part).is_file():
                found.add(part)
    return found


def test_the_list_names_no_file_that_is_not_shipped_or_written_before() -> None:
    """Every file a line reads is the repository's or written by an earlier line."""
    written: set[str] = set()
    for line in commands():
        tokens = shlex.split(line, comments=True)
        if ">" in tokens:
            written.add(tokens[tokens.index(">") + 1])
        for option in ("--save", "--html", "--report", "--out"):
            if option in tokens:
                written.add(tokens[tokens.index(option) + 1])
        for token in tokens[2:]:
            if token.endswith((".json", ".toml", ".py")) and not token.startswith("-"):
                name = token.split(":")[-1]
                assert name in written or (ROOT / name).is_file(), f"{line}: {name}"


def naqala(tokens: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from naqala.cli.entry import main; main(sys.argv[1:])"
    args, out = tokens[1:], None
    if ">" in args:
        at = args.index(">")
        args, out = args[:at], folder / args[at + 1]
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if out is not None:
        out.write_text(result.stdout, encoding="utf-8")
    return result


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("scipy", "matplotlib", "optuna")),
    reason="the lab's extra (pip install 'naqala[lab]') runs compare, tune and the reports",
)
def test_the_readme_command_list_runs_in_order_in_a_fresh_folder(tmp_path: Path) -> None:
    lines = [shlex.split(line, comments=True) for line in commands()]
    assert len(lines) >= 25 and all(tokens[0] == "naqala" for tokens in lines)
    for tokens in lines:
        for path in read_paths(tokens):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / path, tmp_path / path)
    ran = []
    for tokens in lines:
        if waits_for_a_person(tokens):
            continue
        result = naqala(small(tokens), tmp_path)
        assert result.returncode == 0, (shlex.join(tokens), result.stderr[-2000:])
        ran.append(tokens[1])
    for written in ("game.json", "game.html", "state.json", "board.svg", "next.json"):
        assert (tmp_path / written).stat().st_size > 0, written
    assert (tmp_path / "board.svg").read_text().startswith("<?xml")
    assert '"naqala-record"' in (tmp_path / "game.json").read_text()
    assert '"naqala-state"' in (tmp_path / "next.json").read_text()
    assert (tmp_path / "best.toml").is_file() and (tmp_path / "card.html").is_file()
    assert len(ran) == len(lines) - 3  # all but serve and the two games with a person
