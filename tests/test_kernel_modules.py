"""The kernel's module dependencies (tools/kernel_modules.py): the modules issue #38 named
stay out of every cycle, and the tool itself finds a cycle, reads `#[path]` children
and skips comments."""

from __future__ import annotations

from pathlib import Path

import pytest
from tools_kit import load_tool

kernel_modules = load_tool("kernel_modules")


def test_the_kernel_has_no_module_cycle() -> None:
    """Every module can be read, tested and moved without those that read it (issue #38
    named content/geometry/names/state and greedy/mcts/seats; none is left)."""
    graph = kernel_modules.edges()
    assert {"content", "state", "rules", "names", "geometry", "mcts", "seats"} <= set(graph)
    assert kernel_modules.cycles(graph) == []


def test_the_content_reads_no_state_and_no_rules() -> None:
    """The content is the layer below: what it reads from its document (checks, effect
    programs, variant settings, the boxes' names) lives in its own folder."""
    graph = kernel_modules.edges()
    below = {"content"}
    frontier = ["content"]
    while frontier:
        for other in graph[frontier.pop()]:
            if other not in below:
                below.add(other)
                frontier.append(other)
    assert not below & {"state", "rules", "effects", "variants", "statecheck"}, sorted(below)


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def test_a_cycle_through_a_child_and_a_path_module_is_found(tmp_path: Path) -> None:
    src = write(
        tmp_path,
        {
            "lib.rs": "pub mod a;\npub mod b;\npub mod d;\n",
            "a.rs": '#[path = "c.rs"]\npub mod c;\nmod inner;\n',
            "a/inner.rs": "use crate::b::Thing;\n",
            "b.rs": (
                "// crate::d in a comment is no edge\n"
                "/* nor crate::d here */\n"
                "fn f() { crate::a::c::g() }\n"
            ),
            "c.rs": "pub fn g() {}\n",
            "d.rs": "use crate::a::x;\n",
        },
    )
    graph = kernel_modules.edges(src)
    # c.rs is pulled into a by #[path]: part of a, not a module of its own
    assert "c" not in graph
    assert graph == {"a": {"b"}, "b": {"a"}, "d": {"a"}}
    assert kernel_modules.cycles(graph) == [["a", "b"]]


def test_no_cycle_is_none_and_the_tool_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert kernel_modules.cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    assert kernel_modules.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}) == [
        ["a", "b", "c"]
    ]
    status = kernel_modules.main([])
    out = capsys.readouterr().out
    assert status == (1 if "cycle:" in out else 0)
