"""Everyone gets 7 bonus points (the house rule of a version-1 record fixture)."""

from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl

NAME = "lucky-seven"
VERSION = "1.0"


@hookimpl
def naqala_score_lines(rules, state, player):
    return [ScoreLine("bonus", 7, "lucky-seven", "everyone gets 7")]
