"""The naqala engine core: state, actions, hooks, content loading, board geometry.

No Five Tribes rule lives here; the rules come from plugins (see ``naqala.plugins``).
"""

from naqala.core.actions import Action, format_action, parse_action
from naqala.core.engine import Rules, build_rules
from naqala.core.state import Decision, State

__all__ = [
    "Action",
    "Decision",
    "Rules",
    "State",
    "build_rules",
    "format_action",
    "parse_action",
]
