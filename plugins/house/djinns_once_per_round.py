"""House rule: at two players a paid djinn power is used once per round, not once per
turn of each marker.

The other reading of an open ruling (docs/rules-notes.md): the two-player rules call the
round in which each player plays twice a "turn", and the GameTheory engine resets the
limit once a round. Content only: djinns_once_per_round.toml sets the base game's
``djinn_limit_round_2p`` to 1; the base game's card router does the rest.
"""

from __future__ import annotations

from pathlib import Path

from naqala.core.hookspecs import hookimpl

NAME = "djinns-once-per-round"
VERSION = "1.0"
DESCRIPTION = "At 2 players a paid djinn power is used once per round (content setting)"


@hookimpl
def naqala_content_files() -> list[Path]:
    return [Path(__file__).with_name("djinns_once_per_round.toml")]
