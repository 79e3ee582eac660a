"""Scenario tests for the 12 djinns with a paid power (content facts §2; docs/rules-notes.md,
section "Djinns"): what each power does, when it is offered, how it is paid, what it may
target, and that every use is counted in ``effect_counts``.

Unless a test says otherwise the position is a 2-player game on an otherwise empty board,
player 1 (seat 0) to pick: b3 and c3 hold a vizier each (the move ``pick b3``,
``drop c3 Y`` ends on c3, an oasis), d4 and e4 a merchant each (so a later move stays
possible); f4 is an oasis and f5 a village.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import attrs
import pytest

from naqala.core.engine import Rules
from naqala.core.state import NOBODY, Decision, State, effect_counts
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    bid_order,
    board,
    deck,
    next_turn_is_also_mine,
    on_tile,
    options,
    play,
    player,
    tokens,
    turn_of,
)

FAKIR = "fakir"
MEEPLES = {"b3": "Y", "c3": "Y", "d4": "G", "e4": "G"}
TILES = {"c3": "oasis-1", "f4": "oasis-2", "f5": "village-1"}
MOVE = ("pick b3", "drop c3 Y")
#: djinns waiting in the pile (none of them Ba'al, whose payouts stay out of these tests)
PILE = ("jafaar", "marid", "nekir", "shamhat", "haurvatat", "al-amin")
COSTS = (18, 12, 8, 5, 3, 1, 0, 0, 0)

PAID = (
    "anun-nak",
    "bouraq",
    "echidna",
    "enki",
    "hagis",
    "iblis",
    "kumarbi",
    "lamia",
    "leta",
    "sibittis",
    "sloar",
    "utug",
)
#: the powers offered at the pick of the standard position
AT_PICK = ("anun-nak", "bouraq", "echidna", "enki", "iblis", "leta", "sibittis", "sloar", "utug")
#: one use of each power in its standard position (see ``ready``); ``{}`` is the payment
USE = {
    "anun-nak": "anun-nak f1 {}",
    "bouraq": "bouraq f5 {}",
    "echidna": "echidna {}",
    "enki": "enki f4 {}",
    "hagis": "hagis b2 {}",
    "iblis": "iblis {}",
    "kumarbi": "kumarbi 12 {}",
    "lamia": "lamia b2 {}",
    "leta": "leta f1 {}",
    "sibittis": "sibittis {}",
    "sloar": "sloar {}",
    "utug": "utug d4 {}",
}


# -- helpers -----------------------------------------------------------------------------


def position(
    meeples: Mapping[str, str] = MEEPLES,
    *,
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
    seat: int = 0,
) -> tuple[Rules, State]:
    """The standard position (see the module docstring), changed by ``meeples``, ``tiles``
    and ``owners``; ``seat`` is to pick. The djinn pile is ``PILE``, its discards empty."""
    rules = base_rules()
    laid = {**TILES, **(tiles or {})}
    assert len(set(laid.values())) == len(laid), "each tile can lie in one place only"
    state = rules.new_game(2, 7)
    state = board(rules, state, meeples, clear=True, tiles=laid, owners=owners)
    state = deck(rules, state, "djinns", draw=PILE, discard=())
    return rules, turn_of(rules, state, seat)


def holder(rules: Rules, state: State, djinns: Iterable[str], pay: str, seat: int = 0) -> State:
    """``seat`` holds the djinns, an elder in front for each ``W`` and a Fakir for each ``F``
    of ``pay``."""
    return player(
        rules,
        state,
        seat,
        djinns=list(djinns),
        meeples="W" * pay.count("W"),
        cards=[FAKIR] * pay.count("F"),
    )


def at(state: State, name: str) -> int:
    return state.geometry.parse(name)


def token_on(rules: Rules, state: State, name: str, kind: str) -> int:
    return state.board.tokens[at(state, name)][rules.token_index[kind]]


def elders(rules: Rules, state: State, seat: int) -> int:
    return state.players[seat].meeples[rules.letters.index("W")]


def in_bag(rules: Rules, state: State, letter: str) -> int:
    return state.bag[rules.letters.index(letter)]


def on_board(rules: Rules, state: State, letter: str) -> int:
    colour = rules.letters.index(letter)
    return sum(here[colour] for here in state.board.meeples)


def targets(rules: Rules, state: State, djinn: str) -> set[str]:
    """The tiles the djinn's options name."""
    return {text.split()[1] for text in options(rules, state, djinn)}


def all_tiles(state: State) -> set[str]:
    geo = state.geometry
    return {geo.name(t) for t in range(geo.size)}


def tiles_of_kind(rules: Rules, state: State, kind: str) -> set[str]:
    geo = state.geometry
    return {geo.name(t) for t in range(geo.size) if rules.tile(state.layout.tiles[t]).kind == kind}


def leads_on(rules: Rules, state: State) -> None:
    """The game goes on from here: it is over or somebody has a legal action."""
    assert state.is_over or options(rules, state)


def ready(djinn: str, pay: str, seat: int = 0) -> tuple[Rules, State]:
    """The position where ``djinn``'s power is used, ``seat`` holding it and ``pay``: the bid
    for Kumarbi; the village (c3) decision after the move for Hagis, the oasis (c3)
    decision for Lamia; the pick for the others."""
    if djinn == "kumarbi":
        rules, state = position()
        state = holder(rules, state, [djinn], pay, seat)
        first = [m for m, owner in enumerate(state.markers) if owner == seat]
        rest = [m for m in range(len(state.markers)) if m not in first]
        return rules, bid_order(rules, state, *first, *rest)
    rules, state = position(tiles={"c3": "village-2"} if djinn == "hagis" else None, seat=seat)
    state = holder(rules, state, [djinn], pay, seat)
    if djinn in ("hagis", "lamia"):
        state = play(rules, state, *MOVE)
    return rules, state


def use(rules: Rules, state: State, djinn: str, payment: str) -> State:
    """Use the power as written in ``USE``; for Sibittis, keep the first djinn drawn."""
    state = play(rules, state, USE[djinn].format(payment))
    if state.decision.stage == "keep-djinn":
        state = play(rules, state, options(rules, state)[0])
    return state


def finish_turn(rules: Rules, state: State, watch: str | None = None) -> State:
    """Play the rest of the turn without using any djinn (``place`` the tile's token,
    ``skip``, ``fakirs 0``, ``end``, else the first other option); if ``watch`` is given,
    check that djinn is offered at none of the decisions on the way."""
    assert state.turn is not None
    marker = state.turn.marker
    while not state.is_over and state.turn is not None and state.turn.marker == marker:
        legal = options(rules, state)
        if watch is not None:
            assert not [a for a in legal if a.split()[0] == watch], state.decision
        state = finish_step(rules, state)
    return state


def offered_in_turn(rules: Rules, state: State, djinn: str) -> bool:
    """Whether ``djinn`` is offered at some decision of the turn that starts at ``state``
    (the standard move, then the rest of the turn without djinns)."""
    seen = False
    for text in MOVE:
        seen = seen or bool(options(rules, state, djinn))
        state = play(rules, state, text)
    assert state.turn is not None
    marker = state.turn.marker
    while state.turn is not None and state.turn.marker == marker:
        seen = seen or bool(options(rules, state, djinn))
        state = finish_step(rules, state)
    return seen


def plain_options(rules: Rules, state: State) -> list[str]:
    """The legal actions that are not djinn powers."""
    return [a for a in options(rules, state) if a.split()[0] not in PAID]


def finish_step(rules: Rules, state: State) -> State:
    """One decision of ``finish_turn``."""
    plain = plain_options(rules, state)
    choice = next(
        (a for a in plain if a.split()[0] in ("place", "skip", "end") or a == "fakirs 0"),
        plain[0],
    )
    return play(rules, state, choice)


# -- Anun-Nak ----------------------------------------------------------------------------


def test_anun_nak_puts_three_meeples_from_the_bag_on_an_empty_tile() -> None:
    """Anun-Nak (E/F): pick an empty tile and put 3 meeples drawn at random from the bag on
    it. Paid with a Fakir, which goes to the resource discard pile; the pick continues."""
    rules, s = position()
    s = holder(rules, s, ["anun-nak"], "F")
    s = deck(rules, s, "resources", discard=("silk",))
    after = play(rules, s, "anun-nak f1 F")
    placed = after.board.meeples[at(after, "f1")]
    assert sum(placed) == 3
    assert tuple(b - a for a, b in zip(after.bag, s.bag, strict=True)) == placed
    assert after.players[0].cards == ()
    assert after.decks[RESOURCE_DECK].discard == ("silk", FAKIR)
    assert after.decision == Decision("pick", 0)


def test_anun_nak_paid_with_an_elder_sends_it_to_the_bag() -> None:
    """Paid with an elder instead: the elder goes back to the bag (before the draw), so the
    bag and the new tile together hold that elder more than the bag held before."""
    rules, s = position()
    s = holder(rules, s, ["anun-nak"], "WW")
    after = play(rules, s, "anun-nak f1 E")
    assert elders(rules, after, 0) == 1
    placed = after.board.meeples[at(after, "f1")]
    assert sum(placed) == 3
    refilled = tuple(b + p for b, p in zip(after.bag, placed, strict=True))
    assert Counter(dict(enumerate(refilled))) - Counter(dict(enumerate(s.bag))) == Counter(
        {rules.letters.index("W"): 1}
    )


def test_anun_nak_places_all_that_are_left_when_fewer_than_three() -> None:
    """With fewer than 3 meeples in the bag, all of them are placed (decided, after
    GameTheory). The bag is set by hand here: meeples are not conserved."""
    rules, s = position()
    s = holder(rules, s, ["anun-nak"], "F")
    s = attrs.evolve(s, bag=tuple(1 if letter in "WB" else 0 for letter in rules.letters))
    after = play(rules, s, "anun-nak f1 F")
    assert on_tile(rules, after, "f1") == "WB"
    assert sum(after.bag) == 0


def test_anun_nak_not_offered_with_an_empty_bag() -> None:
    """With an empty bag the power would do nothing, so it is not offered."""
    rules, s = position()
    s = holder(rules, s, ["anun-nak"], "WF")
    assert options(rules, s, "anun-nak")
    empty = attrs.evolve(s, bag=(0,) * len(s.bag))
    assert options(rules, empty, "anun-nak") == []


def test_anun_nak_targets_only_empty_tiles() -> None:
    """Only empty tiles: no camel, meeple, palm tree or palace on them."""
    rules, s = position({**MEEPLES, "a5": "R"}, owners={"e1": 1, "b1": 0})
    s = tokens(rules, s, {"a1": {"palm-tree": 1}, "f2": {"palace": 1}})
    s = holder(rules, s, ["anun-nak"], "F")
    occupied = {"b3", "c3", "d4", "e4", "a5", "e1", "b1", "a1", "f2"}
    assert targets(rules, s, "anun-nak") == all_tiles(s) - occupied
    assert all(text.endswith(" F") for text in options(rules, s, "anun-nak"))


# -- Bouraq and Enki ---------------------------------------------------------------------


def test_bouraq_places_a_palace_from_the_bank_on_any_village() -> None:
    """Bouraq (E/F): place 1 palace on any village, whoever owns it and whatever is on it;
    the palace comes from the bank and the elder paid goes to the bag."""
    rules, s = position({**MEEPLES, "a1": "G"}, tiles={"a1": "village-2"}, owners={"a1": 1})
    s = tokens(rules, s, {"a1": {"palace": 1}})
    s = holder(rules, s, ["bouraq"], "W")
    palace = rules.token_index["palace"]
    assert targets(rules, s, "bouraq") == tiles_of_kind(rules, s, "village")
    assert len(targets(rules, s, "bouraq")) == 5
    after = play(rules, s, "bouraq a1 E")
    assert token_on(rules, after, "a1", "palace") == 2
    assert after.pool[palace] == s.pool[palace] - 1
    assert elders(rules, after, 0) == 0
    assert in_bag(rules, after, "W") == in_bag(rules, s, "W") + 1
    assert after.decision == Decision("pick", 0)


def test_bouraq_not_offered_when_the_bank_has_no_palace() -> None:
    """No palace left in the bank: nothing to place, no option."""
    rules, s = position()
    s = holder(rules, s, ["bouraq"], "WF")
    assert options(rules, s, "bouraq")
    assert options(rules, tokens(rules, s, pool={"palace": 0}), "bouraq") == []


def test_enki_places_a_palm_tree_from_the_bank_on_any_oasis() -> None:
    """Enki (E/F): place 1 palm tree on any oasis (and only oases); the Fakir paid goes to
    the discard pile."""
    rules, s = position({**MEEPLES, "f4": "RR"}, owners={"f4": 1})
    s = holder(rules, s, ["enki"], "F")
    palm = rules.token_index["palm-tree"]
    assert targets(rules, s, "enki") == tiles_of_kind(rules, s, "oasis")
    assert len(targets(rules, s, "enki")) == 6
    after = play(rules, s, "enki f4 F")
    assert token_on(rules, after, "f4", "palm-tree") == 1
    assert after.pool[palm] == s.pool[palm] - 1
    assert after.decks[RESOURCE_DECK].discard[-1] == FAKIR
    assert after.players[0].cards == ()
    assert after.decision == Decision("pick", 0)


def test_enki_not_offered_when_the_bank_has_no_palm_tree() -> None:
    """No palm tree left in the bank: no option."""
    rules, s = position()
    s = holder(rules, s, ["enki"], "WF")
    assert options(rules, s, "enki")
    assert options(rules, tokens(rules, s, pool={"palm-tree": 0}), "enki") == []


# -- Hagis and Lamia ---------------------------------------------------------------------


def test_hagis_moves_the_village_palace_to_a_diagonal_neighbour() -> None:
    """Hagis (E/F): when the village action places a palace, it may go on a neighbouring
    tile instead; the card shows 8 arrows, so b2 (diagonal to c3) is allowed. Only that
    one palace is placed, and the turn moves on to the sale."""
    rules, s = position(tiles={"c3": "village-2"})
    s = holder(rules, s, ["hagis"], "F")
    asked = play(rules, s, *MOVE)
    assert asked.decision == Decision("tile:village", 0)
    assert options(rules, asked, "place") == ["place c3"]
    after = play(rules, asked, "hagis b2 F")
    assert token_on(rules, after, "b2", "palace") == 1
    assert token_on(rules, after, "c3", "palace") == 0
    palace = rules.token_index["palace"]
    assert after.pool[palace] == s.pool[palace] - 1
    assert after.decks[RESOURCE_DECK].discard[-1] == FAKIR
    assert after.decision == Decision("sell", 0)


def test_hagis_offers_the_eight_neighbours_of_any_kind_but_no_impassable_tile() -> None:
    """Any of the 8 tiles around the village, whatever its kind or owner (b2 is player 2's
    and holds a palm tree), but not an impassable tile (d4 here)."""
    rules, s = position({"b3": "Y", "c3": "Y"}, tiles={"c3": "village-2"}, owners={"b2": 1})
    s = tokens(rules, s, {"b2": {"palm-tree": 1}})
    s = attrs.evolve(s, layout=attrs.evolve(s.layout, blocked=frozenset({at(s, "d4")})))
    s = holder(rules, s, ["hagis"], "W")
    asked = play(rules, s, *MOVE)
    assert targets(rules, asked, "hagis") == {"b2", "c2", "d2", "b3", "d3", "b4", "c4"}
    after = play(rules, asked, "hagis b2 E")
    assert token_on(rules, after, "b2", "palace") == 1
    assert elders(rules, after, 0) == 0


def test_hagis_at_the_board_edge_offers_only_the_tiles_that_exist() -> None:
    """A village in the corner a1 has 3 neighbours: a2, b1 and b2."""
    rules, s = position({"a2": "Y", "a1": "Y"}, tiles={"a1": "village-2"})
    s = holder(rules, s, ["hagis"], "F")
    asked = play(rules, s, "pick a2", "drop a1 Y")
    assert targets(rules, asked, "hagis") == {"a2", "b1", "b2"}


def test_hagis_declined_keeps_the_palace_and_the_payment() -> None:
    """``place c3`` puts the palace on the village itself: nothing is paid or counted."""
    rules, s = position(tiles={"c3": "village-2"})
    s = holder(rules, s, ["hagis"], "F")
    after = play(rules, s, *MOVE, "place c3")
    assert token_on(rules, after, "c3", "palace") == 1
    assert after.players[0].cards == (FAKIR,)
    assert "hagis" not in effect_counts(after)


def test_hagis_without_payment_the_village_action_stays_automatic() -> None:
    """A Hagis owner who cannot pay gets no decision: the palace goes on the village."""
    rules, s = position(tiles={"c3": "village-2"})
    s = holder(rules, s, ["hagis"], "")
    after = play(rules, s, *MOVE)
    assert after.decision == Decision("sell", 0)
    assert token_on(rules, after, "c3", "palace") == 1


def test_hagis_moves_a_palace_placed_by_bouraq_too() -> None:
    """Hagis: "when placing a palace, you may drop it on any neighbouring tile instead",
    whatever places it. Bouraq puts a palace on the village f5; its owner, holding Hagis,
    decides where it goes: ``place f5``, or Hagis to a neighbour (e4, diagonal) for one
    more payment. Then the pick is back, as it was."""
    rules, s = position()
    s = holder(rules, s, ["hagis", "bouraq"], "WF")
    asked = play(rules, s, "bouraq f5 E")
    assert asked.decision == Decision("placing:palace", 0)
    assert options(rules, asked, "place") == ["place f5"]
    assert targets(rules, asked, "hagis") == {"e4", "e5", "f4"}  # f5 is a corner
    after = play(rules, asked, "hagis e4 F")
    assert token_on(rules, after, "e4", "palace") == 1
    assert token_on(rules, after, "f5", "palace") == 0
    palace = rules.token_index["palace"]
    assert after.pool[palace] == s.pool[palace] - 1
    assert after.decision == Decision("pick", 0)
    assert after.players[0].cards == ()  # both powers paid: an elder and the Fakir
    assert after.turn is not None and after.turn.callers == ()


def test_a_palace_placed_by_bouraq_may_stay_where_bouraq_put_it() -> None:
    """``place f5`` keeps Bouraq's palace on its village; Hagis stays unused."""
    rules, s = position()
    s = holder(rules, s, ["hagis", "bouraq"], "WF")
    after = play(rules, s, "bouraq f5 E", "place f5")
    assert token_on(rules, after, "f5", "palace") == 1
    assert after.decision == Decision("pick", 0)
    assert after.players[0].cards == (FAKIR,)
    assert options(rules, after, "hagis") == []  # Hagis waits for a palace being placed


def test_bouraq_without_a_way_to_pay_hagis_places_at_once() -> None:
    """With nothing left to pay Hagis, Bouraq's palace is placed at once: no decision."""
    rules, s = position()
    s = holder(rules, s, ["hagis", "bouraq"], "F")
    after = play(rules, s, "bouraq f5 F")
    assert token_on(rules, after, "f5", "palace") == 1
    assert after.decision == Decision("pick", 0)


def test_hagis_once_per_turn_bouraq_after_the_village_palace_was_moved() -> None:
    """Hagis is a paid power, once per turn: after it moved the village's palace, a palace
    Bouraq places later in the turn is placed where Bouraq puts it."""
    rules, s = position(tiles={"c3": "village-2"})
    s = holder(rules, s, ["hagis", "bouraq"], "WWF")
    after = play(rules, s, *MOVE, "hagis b2 F", "bouraq f5 E")
    assert token_on(rules, after, "b2", "palace") == 1
    assert token_on(rules, after, "f5", "palace") == 1
    assert after.decision == Decision("sell", 0)


def test_hagis_not_offered_when_the_bank_has_no_palace() -> None:
    """No palace in the bank: the village action does nothing and Hagis is not offered."""
    rules, s = position(tiles={"c3": "village-2"})
    s = tokens(rules, holder(rules, s, ["hagis"], "WF"), pool={"palace": 0})
    after = play(rules, s, *MOVE)
    assert after.decision == Decision("sell", 0)
    assert options(rules, after, "hagis") == []


def test_lamia_moves_the_oasis_palm_tree_to_a_diagonal_neighbour() -> None:
    """Lamia (E/F): when the oasis action places a palm tree it may go on any of the 8
    tiles around instead (d4, diagonal, holds a merchant: still allowed), not on an
    impassable tile (b4 here). The elder paid goes to the bag."""
    rules, s = position()
    s = attrs.evolve(s, layout=attrs.evolve(s.layout, blocked=frozenset({at(s, "b4")})))
    s = holder(rules, s, ["lamia"], "W")
    asked = play(rules, s, *MOVE)
    assert asked.decision == Decision("tile:oasis", 0)
    assert options(rules, asked, "place") == ["place c3"]
    assert targets(rules, asked, "lamia") == {"b2", "c2", "d2", "b3", "d3", "c4", "d4"}
    after = play(rules, asked, "lamia d4 E")
    assert token_on(rules, after, "d4", "palm-tree") == 1
    assert token_on(rules, after, "c3", "palm-tree") == 0
    palm = rules.token_index["palm-tree"]
    assert after.pool[palm] == s.pool[palm] - 1
    assert in_bag(rules, after, "W") == in_bag(rules, asked, "W") + 1
    assert after.decision == Decision("sell", 0)


def test_lamia_moves_a_palm_tree_placed_by_enki_too() -> None:
    """Lamia: "when placing a palm tree, you may drop it on any neighbouring tile
    instead", Enki's as well: Enki's palm tree for the oasis f4 goes to e3 (diagonal)."""
    rules, s = position()
    s = holder(rules, s, ["lamia", "enki"], "WF")
    asked = play(rules, s, "enki f4 F")
    assert asked.decision == Decision("placing:palm-tree", 0)
    assert options(rules, asked, "place") == ["place f4"]
    after = play(rules, asked, "lamia e3 E")
    assert token_on(rules, after, "e3", "palm-tree") == 1
    assert token_on(rules, after, "f4", "palm-tree") == 0
    assert after.decision == Decision("pick", 0)


def test_enki_used_at_the_oasis_decision_returns_to_it() -> None:
    """Enki used while the oasis action waits: Lamia moves Enki's palm tree; back at the
    oasis decision its own palm tree goes on c3 (Lamia is spent for this turn)."""
    rules, s = position()
    s = holder(rules, s, ["lamia", "enki"], "WF")
    asked = play(rules, s, *MOVE)
    assert asked.decision == Decision("tile:oasis", 0)
    back = play(rules, asked, "enki f4 F", "lamia f3 E")
    assert back.decision == Decision("tile:oasis", 0)
    assert options(rules, back, "lamia") == []
    after = play(rules, back, "place c3")
    assert token_on(rules, after, "f3", "palm-tree") == 1
    assert token_on(rules, after, "c3", "palm-tree") == 1
    assert after.decision == Decision("sell", 0)


def test_lamia_declined_and_lamia_without_payment() -> None:
    """``place c3`` keeps the palm tree on the oasis at no cost; without a way to pay the
    oasis action is automatic."""
    rules, s = position()
    kept = play(rules, holder(rules, s, ["lamia"], "F"), *MOVE, "place c3")
    assert token_on(rules, kept, "c3", "palm-tree") == 1
    assert kept.players[0].cards == (FAKIR,)
    broke = play(rules, holder(rules, s, ["lamia"], ""), *MOVE)
    assert broke.decision == Decision("sell", 0)
    assert token_on(rules, broke, "c3", "palm-tree") == 1


# -- Echidna -----------------------------------------------------------------------------

#: c3 (an oasis) with exactly 4 blue tiles around it: the rulebook's builder example
BLUE_AROUND_C3 = {
    "c3": "oasis-1",
    "b2": "village-2",
    "c2": "village-3",
    "d2": "village-4",
    "b4": "sacred-place-1",
    "d3": "oasis-3",
    "b3": "small-market-1",
    "c4": "small-market-2",
    "d4": "large-market-1",
}


def test_echidna_doubles_the_builders_payout_fakir_bonus_included() -> None:
    """Echidna (E+(E/F)): your builders earn double this turn, the Fakir bonus included.
    The rulebook example (3 builders, 2 Fakirs, 4 blue tiles: 20 coins) earns 40. Both
    elders paid go back to the bag."""
    rules, s = position({"b3": "B", "c3": "BB"}, tiles=BLUE_AROUND_C3)
    s = holder(rules, s, ["echidna"], "WWFF")
    paid = play(rules, s, "echidna EE")
    assert paid.decision == Decision("pick", 0)
    assert elders(rules, paid, 0) == 0
    assert in_bag(rules, paid, "W") == in_bag(rules, s, "W") + 2
    after = play(rules, paid, "pick b3", "drop c3 B", "fakirs 2")
    assert after.players[0].coins == 50 + 2 * 20
    without = play(rules, s, "pick b3", "drop c3 B", "fakirs 2")
    assert without.players[0].coins == 50 + 20


def test_echidna_at_the_builders_fakir_decision() -> None:
    """It can still be used at the builders' Fakir decision (paid here with an elder and a
    Fakir, which goes to the discard): (3 builders + 2 Fakirs) × 4 blue × 2 = 40."""
    rules, s = position({"b3": "B", "c3": "BB"}, tiles=BLUE_AROUND_C3)
    s = holder(rules, s, ["echidna"], "WFFF")
    s = deck(rules, s, "resources", discard=())
    asked = play(rules, s, "pick b3", "drop c3 B")
    assert asked.decision == Decision("tribe:blue", 0)
    paid = play(rules, asked, "echidna EF")
    assert paid.decision == Decision("tribe:blue", 0)
    assert options(rules, paid, "fakirs") == ["fakirs 0", "fakirs 1", "fakirs 2"]
    after = play(rules, paid, "fakirs 2")
    assert after.players[0].coins == 50 + 40
    assert after.decks[RESOURCE_DECK].discard == (FAKIR,) * 3


def test_echidna_only_before_the_builders_are_paid() -> None:
    """Offered at the pick, the drops and the builders' Fakir decision, not once the
    builders are paid (the tile decision and the sale), where it would do nothing."""
    rules, s = position({"a3": "BB", "c3": "B"}, tiles={**BLUE_AROUND_C3, "b3": "village-5"})
    s = holder(rules, s, ["echidna", "sloar"], "WWFF")
    assert options(rules, s, "echidna") == ["echidna EE", "echidna EF"]
    dropping = play(rules, s, "pick a3")
    assert dropping.decision.stage == "drop"
    assert options(rules, dropping, "echidna") == ["echidna EE", "echidna EF"]
    asked = play(rules, dropping, "drop b3 B", "drop c3 B")
    assert asked.decision.stage == "tribe:blue"
    assert options(rules, asked, "echidna") == ["echidna EE", "echidna EF"]
    paid = play(rules, asked, "fakirs 0")
    assert paid.decision.stage == "tile:oasis"  # a decision because Sloar could be used
    assert options(rules, paid, "echidna") == []
    assert options(rules, play(rules, paid, "place c3"), "echidna") == []


# -- Iblis -------------------------------------------------------------------------------

ASSASSINS = {"b3": "R", "c3": "R", "d3": "GB", "c4": "W"}


def test_iblis_assassins_kill_two_meeples_on_the_same_tile() -> None:
    """Iblis (E/F): this turn your assassins kill 2 meeples, any colours on the same tile.
    After the first kill on d3 only d3 is offered; the second empties it, so the killer
    takes it. The Fakir paid goes to the discard pile."""
    rules, s = position(ASSASSINS)
    s = holder(rules, s, ["iblis"], "F")
    s = player(rules, s, 1, meeples="YW")
    paid = play(rules, s, "iblis F")
    assert paid.decision == Decision("pick", 0)
    assert paid.decks[RESOURCE_DECK].discard[-1] == FAKIR
    first = play(rules, paid, "pick b3", "drop c3 R", "kill d3 G")
    assert first.decision == Decision("kill", 0)
    assert options(rules, first) == ["kill d3 B"]
    second = play(rules, first, "kill d3 B")
    assert on_tile(rules, second, "d3") == ""
    assert second.board.owners[at(second, "d3")] == 0
    assert on_tile(rules, second, "c4") == "W"
    assert second.decision.stage != "kill"
    without = play(rules, s, "pick b3", "drop c3 R", "fakirs 0", "kill d3 G")
    assert without.decision.stage != "kill"
    assert on_tile(rules, without, "d3") == "B"


def test_iblis_assassins_kill_two_viziers_or_elders_of_the_same_opponent() -> None:
    """Or 2 viziers and/or elders in front of the same opponent: after killing player 2's
    vizier, only their elder is offered, and both go back to the bag."""
    rules, s = position(ASSASSINS)
    s = holder(rules, s, ["iblis"], "W")
    s = player(rules, s, 1, meeples="YW")
    first = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill p2 Y")
    assert options(rules, first) == ["kill p2 W"]
    second = play(rules, first, "kill p2 W")
    assert second.players[1].meeples == (0,) * len(rules.letters)
    assert in_bag(rules, second, "Y") == in_bag(rules, s, "Y") + 1
    assert on_tile(rules, second, "d3") == "GB"


def test_iblis_at_the_kill_decision_and_not_after_the_kill() -> None:
    """Offered up to the kill decision itself (and usable there), not later in the turn."""
    rules, s = position(ASSASSINS)
    s = holder(rules, s, ["iblis", "sloar"], "WF")
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert asked.decision.stage == "tribe:red"  # the Fakir could extend the reach
    asked = play(rules, asked, "fakirs 0")
    assert asked.decision == Decision("kill", 0)
    assert options(rules, asked, "iblis") == ["iblis E", "iblis F"]
    paid = play(rules, asked, "iblis E")
    assert paid.decision == Decision("kill", 0)
    twice = play(rules, paid, "kill d3 G", "kill d3 B")
    assert on_tile(rules, twice, "d3") == ""
    once = play(rules, asked, "kill d3 G")
    assert once.decision.stage == "tile:oasis"  # a decision because Sloar could be used
    assert options(rules, once, "iblis") == []
    assert options(rules, play(rules, once, "place c3"), "iblis") == []


def test_iblis_not_offered_after_a_turn_without_assassins_reaches_its_tile_action() -> None:
    """In a turn whose move collects viziers, Iblis is offered at the pick and the drop but
    not at the tile decision or the sale: there it could no longer do anything."""
    rules, s = position()
    s = holder(rules, s, ["iblis", "sloar"], "WF")
    assert options(rules, s, "iblis") == ["iblis E", "iblis F"]
    dropping = play(rules, s, "pick b3")
    assert options(rules, dropping, "iblis") == ["iblis E", "iblis F"]
    tile = play(rules, dropping, "drop c3 Y")
    assert tile.decision == Decision("tile:oasis", 0)  # a decision because Sloar could be used
    assert options(rules, tile, "iblis") == []
    sale = play(rules, tile, "place c3")
    assert sale.decision == Decision("sell", 0)
    assert options(rules, sale, "iblis") == []


def test_iblis_against_boaz_doubles_only_on_a_tile() -> None:
    """Decided: Boaz's viziers and elders are never targets, for either kill, so Iblis can
    double only on a tile here."""
    rules, s = position(ASSASSINS)
    s = holder(rules, s, ["iblis"], "F")
    s = player(rules, s, 1, meeples="YW", djinns=["boaz"])
    asked = play(rules, s, "iblis F", "pick b3", "drop c3 R")
    assert not [a for a in options(rules, asked) if a.startswith("kill p2")]
    after = play(rules, asked, "kill d3 G", "kill d3 B")
    assert on_tile(rules, after, "d3") == ""
    assert after.players[1].meeples == s.players[1].meeples


# -- Kumarbi -----------------------------------------------------------------------------


def test_kumarbi_price_example_spot_12_with_three_fakirs_costs_3() -> None:
    """Kumarbi (1 or more Fakirs, when you bid): each Fakir discarded lets you pay the price
    of the next cheaper spot. Spot 12 with 3 Fakirs costs 3 (12 → 8 → 5 → 3); the marker
    takes the 12 spot and the Fakirs go to the discard pile; bidding goes on."""
    rules, s = ready("kumarbi", "FFF")
    s = deck(rules, s, "resources", discard=())
    assert s.decision == Decision("bid", 0)
    after = play(rules, s, "kumarbi 12 FFF")
    assert after.players[0].coins == 50 - 3
    assert after.turn_track[COSTS.index(12)] == 0
    assert after.players[0].cards == ()
    assert after.decks[RESOURCE_DECK].discard == (FAKIR,) * 3
    assert after.decision == Decision("bid", 0)  # player 1's second marker bids next
    assert "bid 12" not in options(rules, after)


def test_kumarbi_options_one_spot_cheaper_per_fakir_down_to_zero() -> None:
    """Every free non-zero spot, with 1 Fakir up to as many as bring the price to 0 (never
    more), and never a zero spot."""
    rules, s = ready("kumarbi", "FFFFF")
    expected = []
    for spot, cost in enumerate(COSTS):
        if cost == 0:
            continue
        for used in range(1, 6):
            expected.append(f"kumarbi {cost} {'F' * used}")
            if COSTS[min(spot + used, len(COSTS) - 1)] == 0:
                break
    assert sorted(options(rules, s, "kumarbi")) == sorted(expected)
    assert "kumarbi 1 F" in expected and "kumarbi 1 FF" not in expected
    assert not [a for a in options(rules, s, "kumarbi") if a.split()[1] == "0"]


def test_kumarbi_lowers_a_price_to_zero_but_the_marker_keeps_its_spot() -> None:
    """Spot 1 with 1 Fakir costs 0, yet the marker sits on the 1 spot (and its rank), not on
    a zero spot."""
    rules, s = ready("kumarbi", "F")
    after = play(rules, s, "kumarbi 1 F")
    assert after.players[0].coins == 50
    assert after.turn_track[COSTS.index(1)] == 0
    assert all(after.turn_track[i] == NOBODY for i, cost in enumerate(COSTS) if cost == 0)


def test_kumarbi_only_for_free_spots_and_affordable_prices() -> None:
    """A taken spot is not offered; the discounted price must be affordable: with 2 coins,
    spot 5 needs 2 Fakirs (price 1), not 1 (price 3)."""
    rules, s = ready("kumarbi", "FF")
    s = player(rules, s, 0, coins=2)
    found = options(rules, s, "kumarbi")
    assert "kumarbi 5 FF" in found and "kumarbi 5 F" not in found
    assert "kumarbi 3 F" in found and "kumarbi 12 FF" not in found
    rich = player(rules, s, 0, coins=50)
    taken = play(rules, rich, "bid 12")
    assert taken.decision == Decision("bid", 0)
    assert not [a for a in options(rules, taken, "kumarbi") if a.split()[1] == "12"]
    assert "kumarbi 8 F" in options(rules, taken, "kumarbi")


def test_kumarbi_only_while_its_owner_bids() -> None:
    """Kumarbi is used when its owner bids: not in their turn's decisions, not when an
    opponent bids."""
    rules, s = position()
    s = holder(rules, s, ["kumarbi"], "WWFF")
    assert options(rules, s, "kumarbi") == []
    assert not offered_in_turn(rules, s, "kumarbi")
    opponent_bids = bid_order(rules, s, 2, 3, 0, 1)
    assert opponent_bids.decision == Decision("bid", 1)
    assert options(rules, opponent_bids, "kumarbi") == []
    assert options(rules, bid_order(rules, s, 0, 1, 2, 3), "kumarbi")


# -- Leta and Utug -----------------------------------------------------------------------


def test_leta_takes_an_empty_tile_with_a_camel() -> None:
    """Leta (E+(E/F)): take control of 1 empty tile with one of your camels. The elder goes
    to the bag, the Fakir to the discard pile; the pick continues."""
    rules, s = position()
    s = holder(rules, s, ["leta"], "WF")
    after = play(rules, s, "leta f1 EF")
    assert after.board.owners[at(after, "f1")] == 0
    assert after.players[0].camels == s.players[0].camels - 1
    assert elders(rules, after, 0) == 0
    assert in_bag(rules, after, "W") == in_bag(rules, s, "W") + 1
    assert after.decks[RESOURCE_DECK].discard[-1] == FAKIR
    assert after.players[0].cards == ()
    assert after.decision == Decision("pick", 0)


def test_leta_targets_only_empty_tiles() -> None:
    """Only empty tiles: no camel, meeple, palm tree or palace."""
    rules, s = position({**MEEPLES, "a5": "R"}, owners={"e1": 1, "b1": 0})
    s = tokens(rules, s, {"a1": {"palm-tree": 1}, "f2": {"palace": 1}})
    s = holder(rules, s, ["leta"], "WW")
    occupied = {"b3", "c3", "d4", "e4", "a5", "e1", "b1", "a1", "f2"}
    assert targets(rules, s, "leta") == all_tiles(s) - occupied
    assert all(text.endswith(" EE") for text in options(rules, s, "leta"))


def test_utug_takes_a_tile_holding_only_meeples_and_they_stay() -> None:
    """Utug (E+(E/F)): take control with a camel of 1 tile holding only meeples; the
    meeples stay. Both elders go back to the bag."""
    rules, s = position({**MEEPLES, "d4": "GB"})
    s = holder(rules, s, ["utug"], "WW")
    after = play(rules, s, "utug d4 EE")
    assert after.board.owners[at(after, "d4")] == 0
    assert on_tile(rules, after, "d4") == "GB"
    assert after.players[0].camels == s.players[0].camels - 1
    assert in_bag(rules, after, "W") == in_bag(rules, s, "W") + 2
    assert after.decision == Decision("pick", 0)


def test_utug_targets_only_tiles_with_meeples_and_nothing_else() -> None:
    """At least one meeple and no camel, palm tree or palace: e5 (owned), a1 (palm tree)
    and f1 (palace) hold meeples but are not targets; empty tiles are not either."""
    rules, s = position({**MEEPLES, "e5": "G", "a1": "R", "f1": "W"}, owners={"e5": 1})
    s = tokens(rules, s, {"a1": {"palm-tree": 1}, "f1": {"palace": 1}})
    s = holder(rules, s, ["utug"], "WF")
    assert targets(rules, s, "utug") == {"b3", "c3", "d4", "e4"}


@pytest.mark.parametrize("djinn", ["leta", "utug"])
def test_leta_and_utug_need_a_camel_left(djinn: str) -> None:
    """The effect places a camel: without one left the power is not offered."""
    rules, s = position()
    s = holder(rules, s, [djinn], "WWF")
    assert options(rules, s, djinn)
    assert options(rules, player(rules, s, 0, camels=0), djinn) == []


def test_utug_not_offered_when_no_tile_holds_only_meeples() -> None:
    """No target, no option: every tile with meeples here is owned."""
    rules, s = position(owners={name: 1 for name in MEEPLES})
    s = holder(rules, s, ["utug"], "WWF")
    assert options(rules, s, "utug") == []


# -- Sibittis ----------------------------------------------------------------------------


def test_sibittis_draws_three_keeps_one_and_discards_the_others() -> None:
    """Sibittis (E+(E/F)): draw the top 3 djinns of the pile, keep 1, discard the others;
    then the pick goes on. The face-up row is not touched."""
    rules, s = position()
    s = holder(rules, s, ["sibittis"], "WF")
    s = deck(rules, s, "djinns", row=("monkir", "kandicha", "boaz"))
    drawn = play(rules, s, "sibittis EF")
    assert drawn.decision == Decision("keep-djinn", 0)
    assert options(rules, drawn) == ["keep jafaar", "keep marid", "keep nekir"]
    after = play(rules, drawn, "keep marid")
    assert after.players[0].djinns == ("sibittis", "marid")
    assert after.decks[DJINN_DECK].draw == PILE[3:]
    assert after.decks[DJINN_DECK].discard == ("jafaar", "nekir")
    assert after.decks[DJINN_DECK].row == ("monkir", "kandicha", "boaz")
    assert elders(rules, after, 0) == 0
    assert after.decks[RESOURCE_DECK].discard[-1] == FAKIR
    assert after.decision == Decision("pick", 0)
    assert options(rules, after, "pick") == options(rules, s, "pick")


def test_sibittis_resumes_the_interrupted_decision() -> None:
    """Used in the middle of the move (at a drop), the same drop decision comes back."""
    rules, s = position({"a3": "YG", "c3": "G"})
    s = holder(rules, s, ["sibittis"], "WW")
    dropping = play(rules, s, "pick a3")
    after = play(rules, dropping, "sibittis EE", "keep nekir")
    assert after.decision == dropping.decision
    assert after.turn is not None
    assert attrs.evolve(after.turn, used=()) == dropping.turn
    assert plain_options(rules, after) == plain_options(rules, dropping)
    assert "nekir" in after.players[0].djinns


def test_sibittis_choice_offers_no_other_power() -> None:
    """While choosing, only ``keep`` is offered, even with other powers payable."""
    rules, s = position()
    s = holder(rules, s, ["sibittis", "sloar", "anun-nak"], "WWWFF")
    drawn = play(rules, s, "sibittis EE")
    assert {a.split()[0] for a in options(rules, drawn)} == {"keep"}


def test_sibittis_reshuffles_the_discards_when_the_pile_runs_short() -> None:
    """With 1 djinn in the pile, the discard pile is reshuffled to draw the other 2; the
    djinns not kept go to the (now emptied) discard pile."""
    rules, s = position()
    s = holder(rules, s, ["sibittis"], "WW")
    s = deck(rules, s, "djinns", draw=("jafaar",), discard=("marid", "nekir", "shamhat", "boaz"))
    drawn = play(rules, s, "sibittis EE")
    shown = [a.split()[1] for a in options(rules, drawn)]
    assert len(shown) == 3 and "jafaar" in shown
    assert set(shown) <= {"jafaar", "marid", "nekir", "shamhat", "boaz"}
    after = play(rules, drawn, f"keep {shown[1]}")
    pile = after.decks[DJINN_DECK]
    assert len(pile.draw) == 2
    assert sorted(pile.discard) == sorted(shown[:1] + shown[2:])
    assert Counter((*pile.draw, *pile.discard, shown[1])) == Counter(
        ("jafaar", "marid", "nekir", "shamhat", "boaz")
    )


def test_sibittis_with_fewer_than_three_djinns_draws_them_all() -> None:
    """Fewer than 3 djinns in pile and discards together: all of them are drawn."""
    rules, s = position()
    s = holder(rules, s, ["sibittis"], "WW")
    s = deck(rules, s, "djinns", draw=("jafaar",), discard=("marid",))
    drawn = play(rules, s, "sibittis EE")
    assert sorted(options(rules, drawn)) == ["keep jafaar", "keep marid"]
    after = play(rules, drawn, "keep jafaar")
    assert after.decks[DJINN_DECK].draw == ()
    assert after.decks[DJINN_DECK].discard == ("marid",)
    assert after.players[0].djinns == ("sibittis", "jafaar")


def test_sibittis_not_offered_with_no_djinn_left() -> None:
    """No djinn in the pile or the discards (the face-up row does not count): no option."""
    rules, s = position()
    s = holder(rules, s, ["sibittis"], "WWF")
    s = deck(rules, s, "djinns", row=("monkir",), draw=(), discard=())
    assert options(rules, s, "sibittis") == []
    assert options(rules, deck(rules, s, "djinns", discard=("boaz",)), "sibittis")


# -- Sloar -------------------------------------------------------------------------------


def test_sloar_takes_the_top_card_of_the_resource_pile() -> None:
    """Sloar (1 Fakir): take the top card of the resource deck; the Fakir is discarded."""
    rules, s = position()
    s = holder(rules, s, ["sloar"], "F")
    s = deck(rules, s, "resources", draw=("gold", "fish"), discard=("silk",))
    after = play(rules, s, "sloar F")
    assert after.players[0].cards == ("gold",)
    assert after.decks[RESOURCE_DECK].draw == ("fish",)
    assert after.decks[RESOURCE_DECK].discard == ("silk", FAKIR)
    assert after.decision == Decision("pick", 0)


def test_sloar_is_paid_only_with_a_fakir() -> None:
    """No elder option: elders alone do not let you use Sloar."""
    rules, s = position()
    assert options(rules, holder(rules, s, ["sloar"], "WW"), "sloar") == []
    assert options(rules, holder(rules, s, ["sloar"], "WWF"), "sloar") == ["sloar F"]


def test_sloar_reshuffles_the_discards_when_the_pile_is_empty() -> None:
    """With an empty resource pile the discards (the Fakir just paid included) are
    reshuffled and the top card taken."""
    rules, s = position()
    s = holder(rules, s, ["sloar"], "F")
    s = deck(rules, s, "resources", draw=(), discard=("silk", "wheat"))
    after = play(rules, s, "sloar F")
    res = after.decks[RESOURCE_DECK]
    assert len(after.players[0].cards) == 1
    assert len(res.draw) == 2 and res.discard == ()
    assert Counter((*after.players[0].cards, *res.draw)) == Counter(("silk", "wheat", FAKIR))


def test_sloar_not_offered_when_no_resource_card_is_left_anywhere() -> None:
    """With both the resource pile and the discards empty, Sloar is not offered (the Fakir
    paid would only come straight back)."""
    rules, s = position()
    s = holder(rules, s, ["sloar"], "F")
    s = deck(rules, s, "resources", draw=(), discard=())
    assert options(rules, s, "sloar") == []


#: (name, meeples, tiles, holdings, actions before) of a decision of the turn
DECISIONS = [
    ("pick", MEEPLES, {}, "WWFF", ()),
    ("drop", {"a3": "YG", "c3": "G"}, {}, "WWFF", ("pick a3",)),
    ("tribe:blue", {"b3": "B", "c3": "B"}, {"b2": "village-2"}, "WWFF", MOVE[:1] + ("drop c3 B",)),
    ("tribe:red", {"b3": "R", "c3": "R", "f1": "G"}, {}, "WWFF", ("pick b3", "drop c3 R")),
    ("kill", {"b3": "R", "c3": "RG"}, {}, "WWFF", ("pick b3", "drop c3 R", "fakirs 0")),
    ("tile:village", MEEPLES, {"c3": "village-2"}, "WWFF", MOVE),
    ("tile:oasis", MEEPLES, {}, "WWFF", MOVE),
    ("tile:sacred-place", MEEPLES, {"c3": "sacred-place-1"}, "WWFF", MOVE),
    ("tile:small-market", MEEPLES, {"c3": "small-market-1"}, "WWFF", MOVE),
    ("sell", MEEPLES, {}, "WWFF", (*MOVE, "place c3")),
]


@pytest.mark.parametrize("djinn", ["sloar", "sibittis"])
@pytest.mark.parametrize(
    ("stage", "meeples", "tiles", "pay", "before"), DECISIONS, ids=[d[0] for d in DECISIONS]
)
def test_anytime_powers_at_every_decision_of_the_turn(
    djinn: str,
    stage: str,
    meeples: Mapping[str, str],
    tiles: Mapping[str, str],
    pay: str,
    before: tuple[str, ...],
) -> None:
    """A paid power is offered at every decision of its owner's own turn (pick, drops, the
    Fakir decisions of builders and assassins, the kill, tile decisions, the sale); used
    there, the same decision goes on (after Sibittis's choice)."""
    rules, s = position(meeples, tiles=tiles)
    s = holder(rules, s, [djinn], pay)
    asked = play(rules, s, *before)
    assert asked.decision == Decision(stage, 0)
    payment = options(rules, asked, djinn)[-1].split()[-1]
    after = use(rules, asked, djinn, payment)
    assert effect_counts(after)[djinn] == 1
    assert after.decision == asked.decision
    assert after.turn is not None and asked.turn is not None
    assert attrs.evolve(after.turn, used=()) == asked.turn
    assert plain_options(rules, after)


def test_powers_offered_at_the_sale_when_no_move_is_left() -> None:
    """Trigger B: a player who cannot move reaches the sale decision, where their paid
    powers are offered."""
    rules, s = position({"b3": "Y", "c3": "Y"})
    s = holder(rules, s, ["sloar"], "WF")
    s = next_turn_is_also_mine(s)
    s = finish_turn(rules, play(rules, s, *MOVE))
    assert s.turn is not None and s.turn.marker != 0
    assert s.decision == Decision("sell", 0)
    assert options(rules, s, "sloar") == ["sloar F"]


# -- every paid djinn: payment, timing, targets, counting --------------------------------

E_OR_F = [("", []), ("W", ["E"]), ("F", ["F"]), ("WF", ["E", "F"])]
E_PLUS = [
    ("", []),
    ("W", []),
    ("FF", []),
    ("WW", ["EE"]),
    ("WF", ["EF"]),
    ("WWF", ["EE", "EF"]),
]
ONLY_F = [("", []), ("WW", []), ("F", ["F"])]
COST_CASES = {
    "anun-nak": E_OR_F,
    "bouraq": E_OR_F,
    "echidna": E_PLUS,
    "enki": E_OR_F,
    "hagis": E_OR_F,
    "iblis": E_OR_F,
    "kumarbi": ONLY_F,
    "lamia": E_OR_F,
    "leta": E_PLUS,
    "sibittis": E_PLUS,
    "sloar": ONLY_F,
    "utug": E_PLUS,
}
PAYMENT_CASES = [(djinn, pay, ways) for djinn, cases in COST_CASES.items() for pay, ways in cases]


@pytest.mark.parametrize(
    ("djinn", "pay", "ways"),
    PAYMENT_CASES,
    ids=[f"{d}-{p or 'nothing'}" for d, p, _ in PAYMENT_CASES],
)
def test_each_payment_offered_exactly_when_affordable(
    djinn: str, pay: str, ways: list[str]
) -> None:
    """E/F: an elder or a Fakir; E+(E/F): an elder plus an elder or a Fakir; Sloar and
    Kumarbi: Fakirs only. Each way of paying is offered exactly when the owner has it."""
    rules, s = ready(djinn, pay)
    assert sorted({a.split()[-1] for a in options(rules, s, djinn)}) == ways


def cheap_way(djinn: str) -> str:
    """A payment using one Fakir: ``F``, or ``EF`` for the E+(E/F) djinns."""
    return "EF" if COST_CASES[djinn] is E_PLUS else "F"


PAYMENTS = [
    (djinn, way)
    for djinn, cases in COST_CASES.items()
    if djinn != "kumarbi"
    for way in cases[-1][1]
]


@pytest.mark.parametrize(("djinn", "way"), PAYMENTS, ids=[f"{d}-{w}" for d, w in PAYMENTS])
def test_payment_elders_to_the_bag_fakirs_to_the_discard(djinn: str, way: str) -> None:
    """Spent elders go back to the bag (whatever the power then draws from it), spent
    Fakirs to the resource discard pile."""
    rules, s = ready(djinn, "WWFF")
    s = deck(rules, s, "resources", draw=("gold", "fish"), discard=("silk",))
    after = use(rules, s, djinn, way)
    spent_e, spent_f = way.count("E"), way.count("F")
    assert elders(rules, after, 0) == 2 - spent_e
    assert in_bag(rules, after, "W") + on_board(rules, after, "W") == (
        in_bag(rules, s, "W") + on_board(rules, s, "W") + spent_e
    )
    assert after.players[0].cards.count(FAKIR) == 2 - spent_f
    assert after.decks[RESOURCE_DECK].discard == ("silk",) + (FAKIR,) * spent_f


@pytest.mark.parametrize("djinn", AT_PICK)
def test_at_most_once_per_turn_and_again_next_turn(djinn: str) -> None:
    """Used once, the power is offered nowhere else in that turn even though its owner could
    pay again; in the owner's next turn it is offered again."""
    rules, s = ready(djinn, "WWWWFF")
    s = next_turn_is_also_mine(s)
    assert s.turn is not None
    first = s.turn.marker
    assert options(rules, s, djinn)
    after = use(rules, s, djinn, cheap_way(djinn))
    assert options(rules, after, djinn) == []
    after = play(rules, after, *MOVE)
    nxt = finish_turn(rules, after, watch=djinn)
    assert nxt.turn is not None and nxt.turn.marker != first
    assert nxt.decision == Decision("pick", 0)
    assert options(rules, nxt, djinn)


@pytest.mark.parametrize("djinn", [d for d in PAID if d != "kumarbi"])
def test_not_offered_while_bidding(djinn: str) -> None:
    """Nothing but Kumarbi is offered while bidding, even to an owner who could pay."""
    rules, s = position()
    s = bid_order(rules, holder(rules, s, [djinn], "WWFF"), 0, 1, 2, 3)
    assert s.decision == Decision("bid", 0)
    assert {a.split()[0] for a in options(rules, s)} == {"bid"}


@pytest.mark.parametrize("djinn", [d for d in PAID if d != "kumarbi"])
def test_only_in_the_owners_own_turn(djinn: str) -> None:
    """Player 2 holds the djinn and could pay: it is offered at no decision of player 1's
    turn, and offered in player 2's own turn."""
    rules, s = position(tiles={"c3": "village-2"} if djinn == "hagis" else None)
    s = holder(rules, s, [djinn], "WWF", seat=1)
    assert not offered_in_turn(rules, s, djinn)
    assert offered_in_turn(rules, turn_of(rules, s, 1), djinn)


#: how a djinn taken this turn is taken: at the sacred place on c3, or through Sibittis
TAKEN_AT_SACRED_PLACE = ["anun-nak", "bouraq", "enki", "leta", "utug", "sloar", "sibittis"]
TAKEN_THROUGH_SIBITTIS = ["echidna", "iblis", "hagis", "lamia"]


@pytest.mark.parametrize("djinn", TAKEN_AT_SACRED_PLACE)
def test_usable_in_the_turn_taken_at_a_sacred_place(djinn: str) -> None:
    """A djinn taken at a sacred place can be used at once, at the sale of the same turn."""
    rules, s = position(tiles={"c3": "sacred-place-1"})
    s = holder(rules, s, [], "WWWWF")
    s = deck(rules, s, "djinns", row=(djinn, "monkir", "boaz"))
    at_sacred = play(rules, s, *MOVE)
    assert at_sacred.decision == Decision("tile:sacred-place", 0)
    assert options(rules, at_sacred, djinn) == []
    took = play(rules, at_sacred, f"djinn {djinn} EE")
    assert took.decision == Decision("sell", 0)
    assert took.players[0].djinns == (djinn,)
    way = options(rules, took, djinn)[0].split()[-1]
    after = use(rules, took, djinn, way)
    assert effect_counts(after)[djinn] == 1


@pytest.mark.parametrize("djinn", TAKEN_THROUGH_SIBITTIS)
def test_usable_in_the_turn_taken_through_sibittis(djinn: str) -> None:
    """A djinn kept through Sibittis at the pick can be used later in the same turn."""
    rules, s = position(tiles={"c3": "village-2"} if djinn == "hagis" else None)
    s = holder(rules, s, ["sibittis"], "WWWWF")
    s = deck(rules, s, "djinns", draw=(djinn, *PILE))
    s = play(rules, s, "sibittis EE", f"keep {djinn}")
    assert s.players[0].djinns == ("sibittis", djinn)
    if djinn in ("hagis", "lamia"):
        s = play(rules, s, *MOVE)
    way = options(rules, s, djinn)[0].split()[-1]
    after = play(rules, s, USE[djinn].format(way))
    assert effect_counts(after)[djinn] == 1


@pytest.mark.parametrize("djinn", PAID)
def test_every_option_leads_on_and_the_decision_continues(djinn: str) -> None:
    """Every option of the power can be applied and the game goes on: the same decision
    (Sibittis: after its choice; Kumarbi: the next bid; Hagis and Lamia replace the tile
    decision, so the sale follows)."""
    rules, s = ready(djinn, "WWFFF")
    found = options(rules, s, djinn)
    assert found
    for text in found:
        after = play(rules, s, text)
        if djinn == "sibittis":
            assert after.decision == Decision("keep-djinn", 0)
            for keep in options(rules, after):
                kept = play(rules, after, keep)
                assert kept.decision == s.decision
                leads_on(rules, kept)
            continue
        if djinn in ("hagis", "lamia"):
            assert after.decision == Decision("sell", 0)
        elif djinn == "kumarbi":
            assert after.decision == Decision("bid", 0)
        else:
            assert after.decision == s.decision
        leads_on(rules, after)


@pytest.mark.parametrize("djinn", PAID)
def test_use_is_counted_in_effect_counts(djinn: str) -> None:
    """Each use of a paid power is counted once under the djinn's id."""
    rules, s = ready(djinn, "WWF")
    assert djinn not in effect_counts(s)
    after = use(rules, s, djinn, cheap_way(djinn))
    assert effect_counts(after)[djinn] == 1
