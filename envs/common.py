"""What every interface of ``naqala.envs`` shares: rules from plain parameters (built once
per set of parameters) and the rewards at the end of a game."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from naqala.core.engine import Rules, build_rules
from naqala.core.state import State

#: the reward kinds: ``win`` shares 1 among the winners (ties share it), ``margin`` is the
#: seat's score minus the best score of the others, in victory points
REWARDS = ("win", "margin")
#: why a one-seat game has no margin (the kernel's ``envs.rs`` says the same words)
MARGIN_ALONE = "the margin reward needs an opponent's score: a solo game's reward is 'win'"


def split_names(text: str | Iterable[str]) -> tuple[str, ...]:
    """``"artisans,djinns"`` (or a sequence of names) as a tuple of names."""
    items = text.split(",") if isinstance(text, str) else list(text)
    return tuple(item.strip() for item in items if item.strip())


def rules_from(expansions: Iterable[str] = (), house_rules: Iterable[str] = ()) -> Rules:
    """The rules of the base game with ``expansions`` and ``house_rules`` — each house rule
    an installed plugin's name (``no-loops``) or the path of a house-rule file — built once
    per combination."""
    return _rules(split_names(expansions), split_names(house_rules))


@functools.lru_cache(maxsize=16)
def _rules(expansions: tuple[str, ...], house_rules: tuple[str, ...]) -> Rules:
    files = [Path(h) for h in house_rules if h.endswith(".py") or "/" in h]
    names = [h for h in house_rules if not (h.endswith(".py") or "/" in h)]
    return build_rules([*expansions, *names], files)


def final_rewards(rules: Rules, state: State, kind: str = "win") -> list[float]:
    """Each seat's reward for the finished game ``state`` (see ``REWARDS``); for a game
    in progress, the reward if it ended with the scores as they stand."""
    if kind not in REWARDS:
        raise ValueError(f"unknown reward {kind!r}: choose one of {', '.join(REWARDS)}")
    if kind == "win":
        winners = rules.winners(state)
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(state.players))]
    scores = rules.scores(state)
    if len(scores) < 2:
        raise ValueError(MARGIN_ALONE)
    return [
        float(score - max(s for q, s in enumerate(scores) if q != p))
        for p, score in enumerate(scores)
    ]
