"""House rule: the Artisans majority bonus goes to every player tied for the most.

The sources disagree on a tie for the most artisans (docs/rules-notes.md): naqala's
Artisans plugin follows "strictly the most" (a tie gives nobody the bonus); this rule
plays the other reading, "no other player has more", where every player tied at the top
scores the majority value per artisan. It adds the difference as a line in the
``artisans`` category for the tied leaders, so the Artisans' own scoring is untouched.
"""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State
from naqala.plugins.artisans.scoring import artisans_of

NAME = "shared-artisan-majority"
VERSION = "1.0"
DESCRIPTION = "Players tied for the most artisans all score the majority value (scoring)"
REQUIRES = ("base", "artisans")


@hookimpl
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> Iterable[ScoreLine]:
    mine = artisans_of(rules, state, player)
    others = [artisans_of(rules, state, p) for p in range(len(state.players)) if p != player]
    tied_at_top = mine > 0 and all(mine >= n for n in others) and mine in others
    if not tied_at_top:
        return []
    setting = rules.content.setting
    more = setting("artisan_majority_vp") - setting("artisan_vp")
    return [ScoreLine("artisans", mine * more, NAME, f"{mine} artisans tied for the most × {more}")]
