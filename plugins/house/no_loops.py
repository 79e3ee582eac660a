"""House rule: no loops — a meeple move may not enter the same tile twice, nor come back
to the tile it started from.

Content only: no_loops.toml sets the reading ``movement.revisit`` off, which both engines
implement (plugins/base/movement.py, kernel/src/moves.rs); no code changes the game, so
the rule plays native.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "no-loops"
VERSION = "1.0"
DESCRIPTION = "A meeple move may not enter any tile twice (legal moves)"


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("no_loops.toml")]
