"""How a tie for the most points is broken: the setting ``verdict.tie_break``.

The base game declares it (``content/base.toml``): ``"shared"`` (the default reading:
every tied player wins, docs/rules-notes.md "Scoring") or ``"coins"`` (of the tied
players, those with the most coins left win; a tie in coins too is shared). The kernel
reads it the same way (``kernel/src/variants.rs``).
"""

from __future__ import annotations

from collections.abc import Sequence

from naqala.core.content import Content
from naqala.core.events import Verdict
from naqala.core.state import State

TIE_BREAK = "verdict.tie_break"


def highest_score(content: Content, state: State, scores: Sequence[int]) -> Verdict:
    """The players with the highest score, a tie broken as ``verdict.tie_break`` says."""
    best = max(scores)
    tied = tuple(p for p, s in enumerate(scores) if s == best)
    if len(tied) > 1 and content.typed_settings.get(TIE_BREAK, "shared") == "coins":
        most = max(state.players[p].coins for p in tied)
        return Verdict(
            tuple(p for p in tied if state.players[p].coins == most),
            "the highest score, then the most coins left",
        )
    return Verdict(tied, "the highest score")
