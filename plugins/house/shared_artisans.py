"""House rule: the Artisans majority bonus goes to every player tied for the most.

The sources disagree on a tie for the most artisans (docs/rules-notes.md, D1): the
Artisans box reads it as "strictly the most" (a tie gives nobody the bonus); this rule
plays the other reading, "no other player has more". Content only:
shared_artisans.toml sets ``artisan_majority_ties = "shared"``, which both engines
implement (plugins/artisans/scoring.py, kernel/src/rules/artisans.rs).
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "shared-artisan-majority"
VERSION = "1.0"
DESCRIPTION = "Players tied for the most artisans all score the majority value (scoring)"
REQUIRES = ("base", "artisans")


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("shared_artisans.toml")]
