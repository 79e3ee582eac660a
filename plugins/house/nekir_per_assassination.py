"""House rule: Nekir pays once per assassination, so an Iblis double kill pays once.

The other reading of an open ruling (docs/rules-notes.md): the card says "kill
Meeple(s)", and its icon shows one payment per kill event; the base game pays per meeple
killed, as GameTheory does. Content only: nekir_per_assassination.toml overrides Nekir's
``per_assassination`` param.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "nekir-per-assassination"
VERSION = "1.0"
DESCRIPTION = "Nekir pays once per assassination, not per meeple killed (content override)"


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("nekir_per_assassination.toml")]
