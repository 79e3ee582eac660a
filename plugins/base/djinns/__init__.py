"""The powers of the 22 base djinns, and how the base game consults the djinns players own.

Each djinn in content names a ``kind``; ``djinn_powers`` maps every base kind to its
``Power``. The functions below are what the base plugin's hook implementations call: they
ask the power of every djinn a player holds, so a djinn added by an expansion (through
``naqala_djinn_powers``) takes part exactly like a base one.
"""

from __future__ import annotations

from collections.abc import Iterator

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.powers import Power, options_of
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.plugins.base.djinns.activated import (
    AnunNak,
    Echidna,
    Iblis,
    KeepDjinn,
    Kumarbi,
    PlaceNearby,
    PlaceOnKind,
    Sibittis,
    Sloar,
    TakeTile,
)
from naqala.plugins.base.djinns.endgame import AlAmin, BetterCount
from naqala.plugins.base.djinns.triggered import Baal, Boaz, Kandicha, Marid, Monkir, Nekir


def djinn_powers() -> dict[str, Power]:
    return {
        "al-amin": AlAmin(),
        "anun-nak": AnunNak(),
        "baal": Baal(),
        "boaz": Boaz(),
        "bouraq": PlaceOnKind("palace", "village", "Place a palace from the bank on any village."),
        "echidna": Echidna(),
        "enki": PlaceOnKind("palm-tree", "oasis", "Place a palm tree from the bank on any oasis."),
        "hagis": PlaceNearby("palace", "village"),
        "haurvatat": BetterCount("palm-trees", "palm_tree_vp", "token:palm-tree", "palm trees"),
        "iblis": Iblis(),
        "jafaar": BetterCount("viziers", "vizier_vp", "vizier_vp", "viziers"),
        "kandicha": Kandicha(),
        "kumarbi": Kumarbi(),
        "lamia": PlaceNearby("palm-tree", "oasis"),
        "leta": TakeTile(False, "Take an empty tile (no camel, meeple, palm tree or palace)."),
        "marid": Marid(),
        "monkir": Monkir(),
        "nekir": Nekir(),
        "shamhat": BetterCount("elders", "elder_vp", "elder_vp", "elders"),
        "sibittis": Sibittis(),
        "sloar": Sloar(),
        "utug": TakeTile(
            True, "Take a tile holding only meeples (no camel, palm tree or palace); they stay."
        ),
    }


def djinn_stages() -> dict[str, Stage]:
    return {"keep-djinn": KeepDjinn()}


def held_by(rules: Rules, state: State, owner: int) -> Iterator[tuple[str, Power]]:
    """(card, power) for every djinn ``owner`` holds whose kind has a power."""
    for card in state.players[owner].djinns:
        power = rules.powers.get(rules.djinn_specs[card].kind)
        if power is not None:
            yield card, power


def held(rules: Rules, state: State) -> Iterator[tuple[int, str, Power]]:
    """(owner, card, power) for every djinn held by a player whose kind has a power."""
    for owner in range(len(state.players)):
        for card, power in held_by(rules, state, owner):
            yield owner, card, power


def extra_options(rules: Rules, state: State) -> list[Action]:
    player = state.decision.player
    if player < 0 or not state.players[player].djinns:
        return []
    return options_of(rules, state, player, held_by(rules, state, player))


def apply_extra(rules: Rules, state: State, action: Action) -> State | None:
    player = state.decision.player
    if action.kind not in state.players[player].djinns:
        return None
    power = rules.powers[rules.djinn_specs[action.kind].kind]
    return power.apply(rules, state, player, action.kind, action)


def on_event(rules: Rules, state: State, event: Event) -> State | None:
    changed = False
    for owner, card, power in list(held(rules, state)):
        result = power.on_event(rules, state, owner, card, event)
        if result is not None:
            state, changed = result, True
    return state if changed else None


def score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    found: list[ScoreLine] = []
    for card, power in held_by(rules, state, player):
        found.extend(power.score_lines(rules, state, player, card, lines))
    return found


def protected(rules: Rules, state: State, player: int) -> set[str]:
    found: set[str] = set()
    for card, power in held_by(rules, state, player):
        found.update(power.protects(rules, state, player, card))
    return found
