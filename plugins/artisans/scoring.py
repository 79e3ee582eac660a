"""Artisans scoring: the artisans' majority and the tied reading. The expansion's djinns
(Geb, Ptah, and the revised Boaz and Kandicha) are content: content/artisans.toml."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.state import State

ARTISAN = "purple"
SOURCE = "artisans"


def artisans_of(rules: Rules, state: State, player: int) -> int:
    return state.players[player].meeples[rules.colour_index[ARTISAN]]


#: the setting naming the reading of a tie for the most artisans (docs/rules-notes.md
#: D1): ``"most"``, the bonus goes to the one player with strictly the most (a tie gives
#: it to nobody); ``"shared"``, to every player no other player has more than
MAJORITY_TIES = "artisan_majority_ties"
MOST = "most"
SHARED = "shared"
#: the source of a tied player's share of the majority: the name the reading had as a
#: house rule, so that the score lines of records made with that rule replay as they were
SHARED_SOURCE = "shared-artisan-majority"


def shares_ties(rules: Rules) -> bool:
    """Whether players tied for the most artisans all score the majority value."""
    return rules.content.typed_settings.get(MAJORITY_TIES, MOST) == SHARED


def artisan_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """2 VP per artisan; 3 per artisan for the one player with strictly the most (a
    player tied for the most gets the difference from ``tied_share_lines``)."""
    mine = artisans_of(rules, state, player)
    others = [artisans_of(rules, state, p) for p in range(len(state.players)) if p != player]
    leads = mine > 0 and all(mine > n for n in others)
    setting = rules.content.setting
    each = setting("artisan_majority_vp") if leads else setting("artisan_vp")
    detail = f"{mine} artisans × {each}" + (" (the most)" if leads else "")
    return [ScoreLine("artisans", mine * each, SOURCE, detail)]


def tied_share_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """With ``artisan_majority_ties = "shared"``, a player tied for the most artisans
    scores the majority value too: the difference, after every other line (an
    adjustment, where the house rule of that reading put it)."""
    if not shares_ties(rules):
        return []
    mine = artisans_of(rules, state, player)
    others = [artisans_of(rules, state, p) for p in range(len(state.players)) if p != player]
    if not (mine > 0 and mine in others and all(mine >= n for n in others)):
        return []
    setting = rules.content.setting
    more = setting("artisan_majority_vp") - setting("artisan_vp")
    tied = f"{mine} artisans tied for the most × {more}"
    return [ScoreLine("artisans", mine * more, SHARED_SOURCE, tied)]
