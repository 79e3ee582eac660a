"""The common variants players play, as settings of the base game (``content/base.toml``).

Each is off by default and reads one setting (docs/house-rules.md, "Settings"):
``end.after_round`` caps the rounds, ``start.cards`` deals cards to every player at
setup, ``assassins.protect`` keeps meeple colours from the assassins and ``bidding =
"off"`` plays without bids (``verdict.tie_break`` is the core's: ``core/tie_break.py``).
The native kernel reads the same settings (``kernel/src/variants.rs``).
"""

from __future__ import annotations

from collections.abc import Mapping

from naqala.core.content import ContentError
from naqala.core.engine import Rules
from naqala.core.setting_values import Scalar
from naqala.core.state import NOBODY, State, evolve

ROUND_CAP = "end.after_round"
START_CARDS = "start.cards"
PROTECT = "assassins.protect"
BIDDING = "bidding"
#: the fields of one ``start.cards`` entry and the type of each
START_CARD_FIELDS: Mapping[str, type] = {"deck": str, "kind": str, "count": int}


def round_cap_reached(rules: Rules, state: State) -> bool:
    """Whether the round now ending is the last one ``end.after_round`` allows."""
    cap = rules.content.settings.get(ROUND_CAP, 0)
    return cap > 0 and state.round >= cap


def protected_colours(rules: Rules) -> set[str]:
    """The meeple colours no assassin may kill, in front of any player."""
    return set(rules.content.names_setting(PROTECT)) if PROTECT in _typed(rules) else set()


def bidding_off(rules: Rules) -> bool:
    """Whether the game is played without bids (``bidding = "off"``)."""
    return _typed(rules).get(BIDDING, "on") == "off"


def start_cards(rules: Rules) -> tuple[tuple[str, str, int], ...]:
    """The ``start.cards`` entries as ``(deck, kind, count)``."""
    if START_CARDS not in _typed(rules):
        return ()
    return tuple(
        (str(e["deck"]), str(e["kind"]), int(e["count"]))
        for e in rules.content.tables_setting(START_CARDS)
    )


def deal_start_cards(
    rules: Rules, deck: str, pile: tuple[str, ...], players: int
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The shuffled ``pile`` of ``deck`` without the starting cards, and each player's
    starting hand of it: entry by entry, seat by seat, each player takes the first
    ``count`` cards of the entry's kind from the top of the pile (the setup's SplitMix64
    shuffle decides which), before the row is dealt. A hand is sorted if its deck keeps
    hands sorted."""
    left = list(pile)
    hands: list[list[str]] = [[] for _ in range(players)]
    for name, kind, count in start_cards(rules):
        if name != deck:
            continue
        for hand in hands:
            for _ in range(count):
                at = next(i for i, card in enumerate(left) if rules.card_specs[card].kind == kind)
                hand.append(left.pop(at))
    keep_sorted = rules.content.deck_spec(deck).order == "sorted"
    return tuple(left), tuple(tuple(sorted(h)) if keep_sorted else tuple(h) for h in hands)


def seated_without_bids(state: State) -> State:
    """``bidding = "off"``: the markers take the turn-order track's first spots for
    free, in bid-track order (the order they played last round; the setup's shuffled
    order in round 1), turned by one after the first round so that the marker that
    played first plays last."""
    order = [m for m in state.bid_track if m != NOBODY]
    if state.round > 1:
        order = order[1:] + order[:1]
    free = len(state.turn_track) - len(order)
    return evolve(
        state,
        turn_track=(*order, *(NOBODY,) * free),
        bid_track=(NOBODY,) * len(state.bid_track),
    )


def _typed(rules: Rules) -> Mapping[str, object]:
    return rules.content.typed_settings


def variant_problems(rules: Rules) -> list[str]:
    """What the variants' settings mean that the rules cannot play: a negative round
    cap, a colour or a deck that is not in the game, a kind of card no deck holds, more
    starting cards than the deck has for the most players."""
    content = rules.content
    problems: list[str] = []
    if content.settings.get(ROUND_CAP, 0) < 0:
        problems.append(f"settings.{ROUND_CAP}: {content.settings[ROUND_CAP]} is less than 0")
    colours = {c.id for c in rules.colours}
    try:
        protect = content.names_setting(PROTECT) if PROTECT in content.typed_settings else ()
    except ContentError as exc:
        return [*problems, *(p.removeprefix("content: ") for p in exc.problems)]
    for i, colour in enumerate(protect):
        if colour not in colours:
            problems.append(
                f"settings.{PROTECT}[{i}]: {colour!r} is no meeple colour of these rules "
                f"({', '.join(sorted(colours))})"
            )
    problems.extend(_start_card_problems(rules))
    return problems


def _start_card_problems(rules: Rules) -> list[str]:
    content = rules.content
    if START_CARDS not in content.typed_settings:
        return []
    try:
        entries = content.tables_setting(START_CARDS)
    except ContentError as exc:
        return [p.removeprefix("content: ") for p in exc.problems]
    most_players = max((pc.players for pc in content.player_counts), default=1)
    problems: list[str] = []
    wanted: dict[tuple[str, str], int] = {}
    for i, entry in enumerate(entries):
        where = f"settings.{START_CARDS}[{i}]"
        shape = _entry_problem(entry)
        if shape:
            problems.append(f"{where}: {shape}")
            continue
        deck, kind, count = str(entry["deck"]), str(entry["kind"]), int(entry["count"])
        if deck not in rules.deck_names:
            problems.append(f"{where}.deck: {deck!r} is no deck of these rules")
            continue
        if not any(c.kind == kind for c in content.deck(deck)):
            problems.append(f"{where}.kind: the deck {deck!r} has no card of kind {kind!r}")
            continue
        if count < 1:
            problems.append(f"{where}.count: {count} is less than 1")
            continue
        wanted[(deck, kind)] = wanted.get((deck, kind), 0) + count * most_players
    for (deck, kind), need in wanted.items():
        have = sum(c.count for c in content.deck(deck) if c.kind == kind)
        if need > have:
            problems.append(
                f"settings.{START_CARDS}: {most_players} players need {need} cards of kind "
                f"{kind!r} from the deck {deck!r}, which has {have}"
            )
    return problems


def _entry_problem(entry: Mapping[str, Scalar]) -> str:
    """Why a ``start.cards`` entry is not ``{deck, kind, count}``, or ``""``."""
    if set(entry) != set(START_CARD_FIELDS):
        return "an entry is {deck = ..., kind = ..., count = ...}"
    for field, kind in START_CARD_FIELDS.items():
        value = entry[field]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"{field} must be {'a string' if kind is str else 'an integer'}"
    return ""
