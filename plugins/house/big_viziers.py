"""House rule: the vizier majority is worth 15 VP per opponent beaten, not 10.

Pure content: the number lives in big_viziers.toml, which overrides the base setting.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "big-viziers"
VERSION = "1.0"
DESCRIPTION = "Vizier majority bonus 15 instead of 10 (scoring)"


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("big_viziers.toml")]
