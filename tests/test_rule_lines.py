"""The rule-line counts of issue #38 (tools/rule_lines.py): each file of the two globs is
counted in one part only, code lines leave out comments, docstrings and Rust unit tests,
and a revision git does not know is one line."""

from __future__ import annotations

import pytest
from tools_kit import load_tool

rule_lines = load_tool("rule_lines")

RUST = """\
//! The module's doc.

use crate::state::State;

/// A function's doc.
pub fn one() -> i64 {
    // a comment
    let x = { 1 };

    x
}

#[cfg(test)]
mod tests {
    #[test]
    fn nested() {
        if true {
            assert_eq!(super::one(), 1);
        }
    }
}

fn after() {}
"""

PYTHON = '''\
"""The module's docstring,
on two lines."""

from __future__ import annotations

# a comment


def one() -> int:
    """A function's docstring."""
    text = """not a docstring"""
    return len(text)  # a trailing comment is code


class Two:
    """A class's docstring."""

    x = 1
'''


def test_rust_code_lines_leave_out_comments_blank_lines_and_the_unit_tests() -> None:
    # use, fn one, let, x, }, fn after
    assert rule_lines.rust_code_lines(RUST) == 6


def test_a_rust_test_module_in_its_own_file_leaves_the_rest_counted() -> None:
    assert rule_lines.rust_code_lines("#[cfg(test)]\nmod tests;\n\nfn a() {}\n") == 1


def test_python_code_lines_leave_out_comments_blank_lines_and_docstrings() -> None:
    # from, def, text, return, class, x
    assert rule_lines.python_code_lines(PYTHON) == 6


def test_every_file_of_the_two_globs_is_counted_in_one_part() -> None:
    files = rule_lines.files_at(None)
    globbed = [
        p
        for p in files
        if (p.startswith("kernel/src/rules") and p.endswith(".rs"))
        or (p.startswith("plugins/base/") and p.endswith(".py"))
    ]
    assert "kernel/src/rules/programs.rs" in globbed and "plugins/base/effects.py" in globbed
    for path in globbed:
        assert sum(part.takes(path) for part in rule_lines.PARTS) == 1, path


def test_the_working_tree_is_reported_with_the_interpreters_on_lines_of_their_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    counts = rule_lines.tally(rule_lines.files_at(None))
    for name in ("rules* hand-written", "rules* interpreter", "plugins/base/ interpreter"):
        lines, code = counts[name]
        assert lines > code > 0, name
    assert rule_lines.main([]) == 0
    table = capsys.readouterr().out
    assert all(part.name in table for part in rule_lines.PARTS)


def test_a_revision_git_does_not_know_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert rule_lines.main(["no-such-revision"]) == 2
    said = capsys.readouterr()
    assert said.err == "rule_lines: no-such-revision is no commit git knows here\n"
    assert said.out == ""
