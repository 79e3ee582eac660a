"""House rule: a player who keeps strictly the most viziers and strictly the most elders
wins outright, whatever the scores; otherwise the highest score wins as usual.

A code hook the native engine calls back (docs/hooks.md, "Hooks called back"): when a
finished game is judged, the kernel asks ``naqala_verdict`` with a read-only view of the
state, which reads the players' meeples as a ``State`` does, so the same file plays on
both engines and the games stay native. Answering ``None`` leaves the verdict to the
scores, computed natively.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import Verdict
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "sultans-favour"
VERSION = "1.0"
DESCRIPTION = "Most viziers and most elders wins outright (verdict, code)"
VIZIER, ELDER = "yellow", "white"


def strictly_most(rules: Rules, state: State, colour: str) -> int | None:
    """The seat keeping strictly more meeples of ``colour`` than anyone else, if any."""
    index = rules.colour_index[colour]
    counts = [player.meeples[index] for player in state.players]
    best = max(counts)
    return counts.index(best) if best and counts.count(best) == 1 else None


@hookimpl
def naqala_verdict(rules: Rules, state: State) -> Verdict | None:
    viziers = strictly_most(rules, state, VIZIER)
    if viziers is not None and viziers == strictly_most(rules, state, ELDER):
        return Verdict((viziers,), f"P{viziers + 1} has the Sultan's favour", "favour")
    return None
