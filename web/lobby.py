"""What the lobby says about what it offers, in a player's words: the boxes by their
names ("The Artisans of Naqala", "Djinns of Naqala: Whims of the Sultan") apart from the
installed house rules, each with what it adds, and a line on each AI player."""

from __future__ import annotations

import attrs

from naqala.core.plugins import LOAD_FAILURES, describe, installed_entry_points

__all__ = ["AI_LEVELS", "AI_LINES", "Offer", "ai_line", "offers", "with_levels"]

#: the package the shipped house rules are installed from: its plugins are house rules,
#: every other installed plugin a box
HOUSE_PACKAGE = "naqala.plugins.house"

#: a line on each shipped AI player, weakest first (docs/ai.md has the details)
AI_LINES = {
    "random": "beginner: plays any legal option at random",
    "greedy-nobid": "easy: the best move now, and never pays for turn order",
    "greedy": "steady: the move that scores the most right now, bids a quarter of its worth",
    "greedy-full": "steady, slower: the same judgement over every move",
    "mcts": "strong: plays greedy's best moves out in search of the best (about a tenth "
    "of a second a decision)",
    "ismcts": "stronger with thought: searches a tree of its own later moves on the native "
    "engine (on the Python engine it plays as mcts)",
    "ismcts:strong": "the strongest: four times the search, each line played out with more care",
    "ismcts:deep": "sixteen times the search: slower, a little stronger than strong",
    "ismcts:2s": "as much thought as 2 CPU seconds allow (any number of seconds up to 60)",
}

#: the levels of a player offered under its name (each has a line in ``AI_LINES``)
AI_LEVELS = {"ismcts": ("ismcts:strong", "ismcts:deep", "ismcts:2s")}


def with_levels(names: list[str]) -> list[str]:
    """``names`` of AI players, each followed by its levels."""
    return [level for name in names for level in (name, *AI_LEVELS.get(name, ()))]


def ai_line(name: str) -> str:
    """The lobby's line on the AI player ``name`` (a house rule's own is said so)."""
    return AI_LINES.get(name, "an AI player a house rule adds")


@attrs.frozen
class Offer:
    """One installed plugin as the lobby offers it: ``name`` (what a game asks for),
    ``title`` (its box's or rule's name), ``adds`` (what it adds) and ``house``."""

    name: str
    title: str
    adds: str
    house: bool


def _title(description: str, name: str) -> tuple[str, str]:
    """A plugin's name and what it adds, from its description (``Name (Box): adds``)."""
    head, _, rest = description.partition(": ")
    if not rest:
        return name, description
    if head.endswith(")") and " (" in head:
        box, _, sub = head[:-1].partition(" (")
        head = f"{box}: {sub}"
    return head, rest


def offers(names: list[str]) -> list[Offer]:
    """The lobby's offer of each plugin of ``names`` (installed entry points), boxes
    first; a plugin that cannot load is offered by its name alone."""
    points = installed_entry_points()
    found = []
    for name in names:
        point = points.get(name)
        house = point is not None and point.value.startswith(HOUSE_PACKAGE)
        try:
            description = describe(point.load()).description if point is not None else ""
        except LOAD_FAILURES:
            description = ""
        if house:
            found.append(Offer(name, name, description, True))
        else:
            title, adds = _title(description, name)
            found.append(Offer(name, title, adds, False))
    return sorted(found, key=lambda offer: (offer.house, offer.name))
