"""List the kernel's module dependencies and report the cycles among them.

A kernel module (a file ``kernel/src/<name>.rs``, with its children under
``kernel/src/<name>/`` and the files a ``#[path = "…"]`` attribute pulls into it) depends
on another when its code names ``crate::<other>``. A cycle means neither module can be
read, tested or moved without the other, which is why issue #38 asks them gone::

    python tools/kernel_modules.py            # the cycles, one a line; exit 1 if any
    python tools/kernel_modules.py --edges    # every edge, then the cycles

Comments are left out, so a doc line that only mentions ``crate::x`` is no edge. A
grouped ``use crate::{a, b}`` is not read: the kernel names one module per path, as
rustfmt leaves it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "kernel" / "src"

_CRATE_PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)")
_PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]+)"\]')
_LINE_COMMENT = re.compile(r"//.*$", re.MULTILINE)
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def _code(path: Path) -> str:
    """The file's text without its comments (string literals are kept: a `"//"` in one
    only shortens what is read of that line)."""
    text = path.read_text(encoding="utf-8")
    return _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", text))


def module_files(src: Path = SRC) -> dict[str, list[Path]]:
    """Each top-level module → the files that make it up: its own file, its folder's
    files, and the files its files pull in with ``#[path]`` (which then belong to no
    module of their own)."""
    modules: dict[str, list[Path]] = {}
    for file in sorted(src.glob("*.rs")):
        if file.stem in ("lib", "main"):
            continue
        folder = src / file.stem
        modules[file.stem] = [file, *sorted(folder.rglob("*.rs"))] if folder.is_dir() else [file]
    for name, files in list(modules.items()):
        for file in list(files):
            for target in _PATH_ATTR.findall(file.read_text(encoding="utf-8")):
                pulled = (file.parent / target).resolve()
                owner = pulled.stem
                if owner in modules and owner != name:
                    files.extend(modules.pop(owner))
    return modules


def edges(src: Path = SRC) -> dict[str, set[str]]:
    """Each module → the other modules its code names as ``crate::<module>``."""
    modules = module_files(src)
    found: dict[str, set[str]] = {name: set() for name in modules}
    for name, files in modules.items():
        for file in files:
            code = _code(file)
            names = set(_CRATE_PATH.findall(code))
            found[name].update(n for n in names if n in modules and n != name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted,
    the list sorted: every module in one can reach every other, so each is a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="print every edge first")
    args = parser.parse_args(argv)
    graph = edges()
    if args.edges:
        for name in sorted(graph):
            print(f"{name} -> {' '.join(sorted(graph[name])) or '-'}")
    found = cycles(graph)
    for component in found:
        print("cycle: " + " ".join(component))
    if not found:
        print("no cycle")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
