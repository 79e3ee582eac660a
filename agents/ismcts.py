"""The seat ``ismcts``: the kernel's tree search over a seat's own decisions
(``kernel/src/search.rs``), whose strength grows with its budget.

It exists on the native engine only. A game the Python engine plays seats today's
``mcts`` at the same level instead, and says so once on standard error. The budget is
read here with the kernel's grammar, so a bad one is refused before any game starts.
"""

from __future__ import annotations

import re
import sys

from naqala.agents.mcts import MAX_SECONDS, MctsAgent
from naqala.agents.mcts import parse_budget as parse_mcts_budget
from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import State

#: iterations a decision at the default level, and the levels' factors (search.rs)
DEFAULT_ITERATIONS = 48
NAMED_LEVELS = {"strong": 4, "deep": 16}
#: the most iterations a seat may ask for a decision (search.rs ``MAX_ITERATIONS``)
MAX_ITERATIONS = 100_000

#: one line on each level, for ``naqala play`` and the lobby
LEVELS = {
    "ismcts": "tree search over its own later moves (the quick level, milliseconds a decision)",
    "ismcts:strong": "four times the iterations, each played out with a closer look",
    "ismcts:deep": "sixteen times the iterations, strong's closer look: slower, a little stronger",
    "ismcts:2s": "as much thought as 2 CPU seconds allow (not reproducible)",
}

#: said once when a Python game seats ``ismcts``
STAND_IN_NOTICE = (
    "ismcts runs on the native engine only: on the Python engine this seat plays mcts "
    "at the same level"
)
_noticed: list[bool] = []


def check_budget(text: str) -> str:
    """``text`` (the setting after ``ismcts:``) normalised, or ``ValueError`` in one line:
    ``""``, ``strong``, ``deep``, iterations from 1 to ``MAX_ITERATIONS``, or CPU
    seconds (``1.5s``, more than 0 and at most ``MAX_SECONDS``)."""
    text = text.strip().lower()
    if not text or text in NAMED_LEVELS:
        return text
    if re.fullmatch(r"\d{1,7}", text):
        if 1 <= int(text) <= MAX_ITERATIONS:
            return text
        raise ValueError(f"budget {text!r}: from 1 to {MAX_ITERATIONS} iterations a decision")
    match = re.fullmatch(r"(\d{1,3}(?:\.\d{0,6})?|\.\d{1,6})s", text)
    if match:
        if 0 < float(match.group(1)) <= MAX_SECONDS:
            return text
        raise ValueError(f"budget {text!r}: more than 0 and at most {MAX_SECONDS:g} CPU seconds")
    shown = text if len(text) <= 20 else text[:17] + "..."
    raise ValueError(
        f"budget {shown!r} is neither iterations (ismcts:300), CPU seconds (ismcts:1.5s), "
        "strong nor deep"
    )


def stand_in_budget(text: str) -> str:
    """The ``mcts`` budget that stands in for ``ismcts:<text>`` on the Python engine: the
    same named level or CPU seconds, the default for a count of iterations."""
    text = check_budget(text)
    return "" if text.isdigit() else text


class PythonStandIn:
    """``ismcts`` on the Python engine: today's ``MctsAgent`` at the same level, saying
    so once on its first decision (a seat the kernel plays never decides here)."""

    def __init__(self, seed: int, setting: str) -> None:
        self._agent = MctsAgent(seed, parse_mcts_budget(stand_in_budget(setting)))

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        if not _noticed:
            _noticed.append(True)
            print(STAND_IN_NOTICE, file=sys.stderr)
        return self._agent.choose(rules, state, options)
