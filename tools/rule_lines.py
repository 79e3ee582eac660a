"""Count the lines of the rules in both engines, by what they are, at git revisions.

Issue #38 asks how much rule code each engine holds before and after the effects
language, as the lines of ``kernel/src/rules*`` and ``plugins/base/``. Those two globs
also hold the language's interpreters and the kernel's table of stages, which the same
issue asked for; so each part is counted on its own line, and the language's files that
live elsewhere (its records, its parser, its evaluator) are shown too::

    python tools/rule_lines.py                 # the working tree
    python tools/rule_lines.py ac1b32a HEAD    # revisions side by side, then the change

Two counts per part: every line (``wc -l``), and the lines of code, without blank lines,
comments, docstrings and the Rust unit tests (a ``#[cfg(test)] mod``).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent


@attrs.frozen
class Part:
    """Files of one engine that play one role, chosen by path."""

    engine: str
    name: str
    takes: Callable[[str], bool]


def _rules_glob(path: str) -> bool:
    return path.startswith("kernel/src/rules") and path.endswith(".rs")


#: the interpreter, and the used powers written in the language (Python's twin of both is
#: ``plugins/base/effects.py``)
_KERNEL_LANGUAGE = {"kernel/src/rules/programs.rs", "kernel/src/rules/used_powers.rs"}
_KERNEL_STAGES = {"kernel/src/rules/stages.rs"}
_KERNEL_ELSEWHERE = {"kernel/src/effects.rs", "kernel/src/content/programs.rs"}
_PYTHON_LANGUAGE = {
    "plugins/base/effects.py",
    "plugins/base/effects_checks.py",
    "plugins/base/effect_counts.py",
}
_PYTHON_ELSEWHERE = {"core/effects.py"}

PARTS = (
    Part(
        "kernel",
        "rules* hand-written",
        lambda p: _rules_glob(p) and p not in _KERNEL_LANGUAGE | _KERNEL_STAGES,
    ),
    Part("kernel", "rules* stage table", lambda p: p in _KERNEL_STAGES),
    Part("kernel", "rules* interpreter", lambda p: p in _KERNEL_LANGUAGE),
    Part("kernel", "language outside rules*", lambda p: p in _KERNEL_ELSEWHERE),
    Part(
        "python",
        "plugins/base/ hand-written",
        lambda p: p.startswith("plugins/base/") and p.endswith(".py") and p not in _PYTHON_LANGUAGE,
    ),
    Part("python", "plugins/base/ interpreter", lambda p: p in _PYTHON_LANGUAGE),
    Part("python", "language outside plugins/base/", lambda p: p in _PYTHON_ELSEWHERE),
)


def rust_code_lines(text: str) -> int:
    """Lines of Rust code: no blank line, no ``//`` comment line, nothing inside a
    ``#[cfg(test)]`` module (its braces are followed; block comments are not used here)."""
    count, depth, test_depth, test_next = 0, 0, None, False
    for line in text.splitlines():
        stripped = line.strip()
        opened = line.count("{") - line.count("}")
        if test_depth is not None:
            depth += opened
            if depth <= test_depth:
                test_depth = None
            continue
        if stripped == "#[cfg(test)]":
            test_next = True
            continue
        if test_next and stripped.startswith(("mod ", "pub mod ", "pub(crate) mod ")):
            test_next, test_depth = False, depth
            depth += opened
            if depth <= test_depth:  # `mod tests;` in its own file
                test_depth = None
            continue
        test_next = False
        depth += opened
        if stripped and not stripped.startswith("//"):
            count += 1
    return count


def python_code_lines(text: str) -> int:
    """Lines of Python code: no blank line, no comment line, no docstring line."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not body:
            continue
        first = body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            end = first.end_lineno or first.lineno
            docstrings.update(range(first.lineno, end + 1))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#") and number not in docstrings
    )


def code_lines(path: str, text: str) -> int:
    return rust_code_lines(text) if path.endswith(".rs") else python_code_lines(text)


class UnknownRevision(Exception):
    """A revision git cannot read."""


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def _resolved(revision: str) -> str:
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
    except subprocess.CalledProcessError:
        raise UnknownRevision(revision) from None


def files_at(revision: str | None) -> dict[str, str]:
    """Every file a part takes, path → text: at a git revision, or in the working tree."""
    if revision is None:
        paths: Iterable[str] = (
            str(p.relative_to(ROOT))
            for folder in ("kernel/src", "plugins/base", "core")
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
        )
        wanted = [p for p in paths if any(part.takes(p) for part in PARTS)]
        return {p: (ROOT / p).read_text(encoding="utf-8") for p in sorted(wanted)}
    revision = _resolved(revision)
    listed = _git("ls-tree", "-r", "--name-only", revision, "kernel/src", "plugins/base", "core")
    wanted = [p for p in listed.split() if any(part.takes(p) for part in PARTS)]
    return {p: _git("show", f"{revision}:{p}") for p in wanted}


def tally(files: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Part name → (lines, lines of code)."""
    counts = {}
    for part in PARTS:
        taken = {p: t for p, t in files.items() if part.takes(p)}
        counts[part.name] = (
            sum(len(t.splitlines()) for t in taken.values()),
            sum(code_lines(p, t) for p, t in taken.items()),
        )
    return counts


def _total(tallied: dict[str, tuple[int, int]], engine: str) -> tuple[int, int]:
    counted = [tallied[p.name] for p in PARTS if p.engine == engine]
    return sum(lines for lines, _ in counted), sum(code for _, code in counted)


def report(revisions: list[str | None]) -> str:
    """A table: one row per part, a (lines, code) pair per revision, then the change."""
    tallies = [tally(files_at(r)) for r in revisions]
    heads = [r or "working tree" for r in revisions]
    width = max(len(p.name) for p in PARTS) + 9
    header = "part".ljust(width) + "".join(f"{h[:15]:>18}" for h in heads)
    if len(revisions) == 2:
        header += f"{'change':>18}"
    rows = [header, " " * width + "     lines (code)" * (len(heads) + (len(heads) == 2))]
    for engine, name in [(p.engine, p.name) for p in PARTS] + [
        ("kernel", "all of the above"),
        ("python", "all of the above"),
    ]:
        cells = [
            tallied[name] if name in tallied else _total(tallied, engine) for tallied in tallies
        ]
        row = f"{engine:<8} {name}".ljust(width)
        row += "".join(f"{lines:>10} ({code:>5})" for lines, code in cells)
        if len(cells) == 2:
            (a, ac), (b, bc) = cells
            row += f"{b - a:>+10} ({bc - ac:>+5})"
        rows.append(row)
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revisions", nargs="*", help="git revisions (none: the working tree)")
    args = parser.parse_args(argv)
    revisions: list[str | None] = list(args.revisions) or [None]
    try:
        print(report(revisions))
    except UnknownRevision as error:
        print(f"rule_lines: {error} is no commit git knows here", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
