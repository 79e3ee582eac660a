"""House rule: with Jafaar, each vizier is worth 4 VP instead of 3.

Content only: generous_jafaar.toml overrides the base djinn's ``params.vizier_vp`` with an
``[[override]]`` entry; no code changes the game.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "generous-jafaar"
VERSION = "1.0"
DESCRIPTION = "Jafaar's viziers are worth 4 VP each instead of 3 (content override)"


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("generous_jafaar.toml")]
