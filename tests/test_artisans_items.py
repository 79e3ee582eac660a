"""Scenario and property tests for the artisans' tribe action, the 18 items (11 precious,
the 7 magic items of the token art; every effect UNCONFIRMED, docs/rules-notes.md), Geb and Ptah,
the revised Boaz and Kandicha (content facts §3.4, §3.6, §3.7; ``content/artisans.toml``;
``plugins/artisans/items.py`` and ``scoring.py``).

Unless a test says otherwise the position is a 2-player Artisans game on an otherwise empty
6×6 board, player 1 (seat 0) to pick: b3 holds an artisan and c3 (a small market) an
artisan and a merchant, so the move ``pick b3``, ``drop c3 P`` collects 2 artisans on c3
and leaves the merchant there (nobody takes control of c3); d4 and e4 hold a merchant each.
The chasm lies on f6 and the workshops (with their mountains) on a6, b6 and c6, away from
the play. Every helper keeps every card, meeple and camel where it can be counted, so most
tests end by checking conservation with the invariant checker of ``test_properties``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_kit import same_on_the_kernel
from test_properties import check_conservation, check_state, expected, play_checked

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.events import ScoreLine
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import Decision, Deck, State, effect_counts, replace_at
from naqala.plugins.artisans.layout import chasms, mountains
from naqala.testing.chance import stack_deck
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    bid_order,
    board,
    next_turn_is_also_mine,
    on_tile,
    options,
    out_of_deck,
    play,
    player,
    tokens,
    turn_of,
)

SEED = 7
ITEMS = "items"
FAKIR = "fakir"
MEEPLES: dict[str, str] = {"b3": "P", "c3": "PG", "d4": "G", "e4": "G"}
TILES: dict[str, str] = {
    "c3": "small-market-1",
    "d3": "small-market-2",
    "f4": "oasis-2",
    "f5": "village-1",
    "f6": "chasm-1",
    "a6": "workshop-1",
    "b6": "workshop-2",
    "c6": "workshop-3",
}
MOVE = ("pick b3", "drop c3 P")
#: the assassins' position: ``pick b3``, ``drop c3 R`` collects 2 assassins on c3 (a
#: vizier stays there), in reach of the 3 meeples on d3 and of the opponents' meeples;
#: a merchant on a1 keeps a move on the board after the kills
ASSASSINS: dict[str, str] = {"b3": "R", "c3": "RY", "d3": "PGB", "a1": "G"}
KILL_MOVE = ("pick b3", "drop c3 R")
MAGIC = (
    "burning-scimitar",
    "enchanting-flute",
    "fabulous-lamp",
    "flying-carpet",
    "horn-of-plenty",
    "rebirth-ring",
    "tempest-talisman",
)
PRECIOUS = {"jewelry": 5, "treasure": 7, "crown": 9}


# -- helpers -------------------------------------------------------------------------------


@functools.cache
def artisans_rules() -> Rules:
    """The rules of the base game with the Artisans of Naqala (built once, shared)."""
    return build_rules(["artisans"])


def position(
    meeples: Mapping[str, str] = MEEPLES,
    *,
    owners: Mapping[str, int] | None = None,
    seat: int = 0,
    players: int = 2,
) -> tuple[Rules, State]:
    """The standard position (module docstring) with ``meeples`` and ``owners`` (a camel
    of the owner's on each owned tile); ``seat`` is to pick. The chasm and the mountains
    follow the tiles they belong to."""
    rules = artisans_rules()
    state = rules.new_game(players, SEED)
    state = board(rules, state, meeples, clear=True, tiles=TILES, owners=owners)
    for seat_owning, tiles in Counter((owners or {}).values()).items():
        camels = state.players[seat_owning].camels - tiles  # each owned tile holds a camel
        state = player(rules, state, seat_owning, camels=camels)
    layout = state.layout
    layout = attrs.evolve(layout, blocked=chasms(layout), walls=mountains(layout))
    return rules, turn_of(rules, attrs.evolve(state, layout=layout), seat)


def item_deck(rules: Rules, state: State) -> Deck:
    return state.decks[rules.deck_index[ITEMS]]


def holding(
    rules: Rules,
    state: State,
    seat: int,
    *,
    items: Sequence[str] = (),
    djinns: Sequence[str] = (),
    meeples: str | None = None,
    cards: Sequence[str] | None = None,
) -> State:
    """``seat`` also holds ``items`` and ``djinns`` (taken out of their decks), and exactly
    the meeples ``meeples`` (from the bag) and the resource cards ``cards`` (out of the
    resource deck), when given."""
    state = out_of_deck(rules, state, ITEMS, items)
    state = out_of_deck(rules, state, "djinns", djinns)
    p = state.players[seat]
    fields: dict[str, object] = {
        "hands": {ITEMS: (*p.hand(rules.deck_index[ITEMS]), *items)},
        "djinns": (*p.djinns, *djinns),
    }
    if cards is not None:
        state = out_of_deck(rules, state, "resources", cards)
        fields["cards"] = tuple(cards)
    return player(rules, state, seat, meeples=meeples, **fields)


def lay(
    rules: Rules,
    state: State,
    name: str,
    *,
    row: Sequence[str] = (),
    top: Sequence[str] = (),
    rest: str = "draw",
) -> State:
    """The deck ``name`` shows exactly ``row`` face up, its draw pile starts with ``top``
    and every other card of the deck goes under them (``rest="draw"``) or to its discard
    pile (``rest="discard"``). Cards held by players stay held: nothing is created."""
    index = rules.deck_index[name]
    deck = state.decks[index]
    left = [*deck.draw, *deck.row, *deck.discard]
    for card in (*row, *top):
        left.remove(card)
    if rest == "draw":
        new = Deck(draw=(*top, *left), row=tuple(row), discard=())
    else:
        new = Deck(draw=tuple(top), row=tuple(row), discard=tuple(left))
    return attrs.evolve(state, decks=replace_at(state.decks, index, new))


def conserved(rules: Rules, state: State) -> None:
    """Every meeple, card, djinn, item, camel and token is still there."""
    check_conservation(rules, state, expected(rules, len(state.players)))


def at(state: State, name: str) -> int:
    return state.geometry.parse(name)


def letter(rules: Rules, state: State, seat: int, colour: str) -> int:
    """How many meeples of colour ``colour`` (a letter) lie in front of ``seat``."""
    return state.players[seat].meeples[rules.letters.index(colour)]


def in_bag(rules: Rules, state: State, colour: str) -> int:
    return state.bag[rules.letters.index(colour)]


def item_options(rules: Rules, state: State) -> list[str]:
    """The options that play a magic item."""
    return [a for a in options(rules, state) if a.split()[0] in MAGIC]


def kinds_offered(rules: Rules, state: State) -> set[str]:
    return {a.split()[0] for a in options(rules, state)}


def plain_step(rules: Rules, state: State) -> State:
    """One decision taken without playing an item: ``keep`` the first item, ``place``,
    ``skip``, ``fakirs 0``, ``end`` when offered, else the first other option."""
    plain = [a for a in options(rules, state) if a.split()[0] not in MAGIC]
    choice = next(
        (a for a in plain if a.split()[0] in ("keep", "place", "skip", "end") or a == "fakirs 0"),
        plain[0],
    )
    return play(rules, state, choice)


def decisions_of_turn(rules: Rules, state: State, moves: Sequence[str]) -> list[State]:
    """Each decision of the turn that starts at ``state``: ``moves``, then ``plain_step``
    up to the end of the turn."""
    assert state.turn is not None
    marker = state.turn.marker
    seen = [state]
    for text in moves:
        state = play(rules, state, text)
        seen.append(state)
    while state.turn is not None and state.turn.marker == marker:
        state = plain_step(rules, state)
        seen.append(state)
    return seen[:-1]


def lines_from(rules: Rules, state: State, seat: int, source: str) -> list[ScoreLine]:
    return [line for line in rules.score_lines(state, seat) if line.source == source]


# -- the artisans' tribe action ----------------------------------------------------------


def test_artisans_are_kept_and_as_many_items_revealed_as_artisans_collected() -> None:
    """The 2 artisans collected go in front of the player (not to the bag, not back on the
    board); the top 2 items of the pile are revealed and the player keeps one of them."""
    rules, s = position()
    s = stack_deck(rules, s, ITEMS, ["crown", "horn-of-plenty", "jewelry"])
    asked = play(rules, s, *MOVE)
    assert letter(rules, asked, 0, "P") == 2
    assert in_bag(rules, asked, "P") == in_bag(rules, s, "P")
    assert on_tile(rules, asked, "c3") == "G"
    assert asked.decision == Decision("keep-item", 0)
    assert asked.turn is not None and asked.turn.revealed == ("crown", "horn-of-plenty")
    assert options(rules, asked) == ["keep crown", "keep horn-of-plenty"]
    assert item_deck(rules, asked).draw == item_deck(rules, s).draw[2:]
    conserved(rules, asked)


def test_the_kept_item_is_held_the_others_go_face_up_to_the_discards() -> None:
    """3 artisans collected (c3 holds 2 more), 3 items revealed. Keeping one puts it with
    the player; the others go to the item discard pile, and the tile action of c3 (a small
    market: pay 3, take a card) follows."""
    rules, s = position({**MEEPLES, "c3": "PPG"})
    s = stack_deck(rules, s, ITEMS, ["treasure", "fabulous-lamp", "jewelry"])
    asked = play(rules, s, *MOVE)
    assert asked.turn is not None and asked.turn.revealed == (
        "treasure",
        "fabulous-lamp",
        "jewelry",
    )
    after = play(rules, asked, "keep fabulous-lamp")
    assert after.players[0].hand(rules.deck_index[ITEMS]) == ("fabulous-lamp",)
    assert after.decks[rules.deck_index[ITEMS]].discard == ("treasure", "jewelry")
    assert after.turn is not None and after.turn.revealed == ()
    assert after.decision == Decision("tile:small-market", 0)
    assert "skip" in options(rules, after)
    conserved(rules, after)


def test_keep_lists_each_distinct_item_once() -> None:
    """Two jewelries and a crown revealed: ``keep jewelry`` is offered once; keeping it
    discards the other jewelry and the crown."""
    rules, s = position({**MEEPLES, "c3": "PPG"})
    s = stack_deck(rules, s, ITEMS, ["jewelry", "crown", "jewelry"])
    asked = play(rules, s, *MOVE)
    assert options(rules, asked) == ["keep crown", "keep jewelry"]
    after = play(rules, asked, "keep jewelry")
    assert after.players[0].hand(rules.deck_index[ITEMS]) == ("jewelry",)
    assert Counter(item_deck(rules, after).discard) == Counter({"jewelry": 1, "crown": 1})
    conserved(rules, after)


def test_reveal_reshuffles_the_item_discards_when_the_pile_runs_out() -> None:
    """With 1 item left in the pile, the discards are reshuffled into a new pile for the
    second reveal."""
    rules, s = position()
    s = lay(rules, s, ITEMS, top=["crown"], rest="discard")
    discards = Counter(item_deck(rules, s).discard)
    asked = play(rules, s, *MOVE)
    assert asked.turn is not None
    first, second = asked.turn.revealed
    assert first == "crown" and second in discards
    pile = item_deck(rules, asked)
    assert pile.discard == ()
    assert Counter(pile.draw) == discards - Counter([second])
    conserved(rules, asked)


def test_reveal_shows_fewer_items_when_fewer_are_left() -> None:
    """Only 1 item left anywhere (the others are held by player 2): 2 artisans reveal just
    that one, which is kept."""
    rules, s = position()
    everything = list(item_deck(rules, s).draw)
    everything.remove("treasure")
    s = holding(rules, s, 1, items=everything)
    asked = play(rules, s, *MOVE)
    assert asked.turn is not None and asked.turn.revealed == ("treasure",)
    assert options(rules, asked) == ["keep treasure"]
    after = play(rules, asked, "keep treasure")
    assert item_deck(rules, after) == Deck()
    assert after.players[0].hand(rules.deck_index[ITEMS]) == ("treasure",)
    conserved(rules, after)


def test_no_item_left_no_decision_the_artisans_are_still_kept() -> None:
    """With every item held, nothing is revealed: no ``keep-item`` decision; the artisans
    are kept and the tile action follows at once."""
    rules, s = position()
    s = holding(rules, s, 1, items=item_deck(rules, s).draw)
    after = play(rules, s, *MOVE)
    assert after.decision == Decision("tile:small-market", 0)
    assert letter(rules, after, 0, "P") == 2
    assert after.players[0].hand(rules.deck_index[ITEMS]) == ()
    conserved(rules, after)


# -- precious items, Geb and Ptah --------------------------------------------------------


def test_precious_items_score_their_vp_with_the_item_as_source() -> None:
    """Jewelry 5, Treasure 7, Crown 9 VP, each its own score line (category ``items``,
    source the item); a magic item still held scores nothing."""
    rules, s = position()
    s = holding(rules, s, 0, items=["jewelry", "jewelry", "treasure", "crown", "fabulous-lamp"])
    for item, vp in PRECIOUS.items():
        lines = lines_from(rules, s, 0, item)
        assert lines, item
        assert all(line.points == vp and line.category == "items" for line in lines)
    assert len(lines_from(rules, s, 0, "jewelry")) == 2
    assert lines_from(rules, s, 0, "fabulous-lamp") == []
    assert sum(line.points for line in rules.score_lines(s, 0) if line.category == "items") == 26
    assert not [line for line in rules.score_lines(s, 1) if line.category == "items"]
    assert rules.scores(s)[0] - rules.scores(s)[1] == 26
    assert not kinds_offered(rules, s) & set(PRECIOUS)  # never played, only scored
    conserved(rules, s)


def test_geb_adds_three_per_precious_item_held() -> None:
    """Geb: 3 VP more per precious item held (a line with source ``geb``, category
    ``items``); magic items do not count, and with no precious item the line is 0."""
    rules, s = position()
    s = holding(
        rules, s, 0, items=["jewelry", "jewelry", "crown", "horn-of-plenty"], djinns=["geb"]
    )
    (line,) = lines_from(rules, s, 0, "geb")
    assert (line.category, line.points) == ("items", 3 * 3)
    s = holding(rules, s, 1, items=["tempest-talisman"], djinns=["ptah"])
    assert lines_from(rules, s, 1, "geb") == []  # Geb is player 1's only
    rules, s = position()
    s = holding(rules, s, 1, items=["horn-of-plenty"], djinns=["geb"])
    assert [line.points for line in lines_from(rules, s, 1, "geb")] == [0]
    conserved(rules, s)


def test_geb_and_a_treasure_add_to_the_total_score() -> None:
    """A player with Geb and a treasure scores 7 + 3 more than without them, plus Geb's
    own VP."""
    rules, s = position()
    before = rules.scores(s)[0]
    s = holding(rules, s, 0, items=["treasure"], djinns=["geb"])
    assert rules.scores(s)[0] - before == 7 + 3 + rules.card_specs["geb"].vp
    conserved(rules, s)


def test_ptah_adds_two_per_artisan() -> None:
    """Ptah: 2 VP more per artisan in front of the owner (a line with source ``ptah``), on
    top of the artisans' own scoring, which it leaves as it is."""
    rules, s = position()
    for artisans in ("", "P", "PPP"):
        plain = holding(rules, s, 0, meeples=artisans)
        with_ptah = holding(rules, plain, 0, djinns=["ptah"])
        (line,) = lines_from(rules, with_ptah, 0, "ptah")
        assert line.points == 2 * len(artisans)
        gain = rules.scores(with_ptah)[0] - rules.scores(plain)[0]
        assert gain == rules.card_specs["ptah"].vp + 2 * len(artisans)
        assert lines_from(rules, with_ptah, 0, "artisans") == lines_from(
            rules, plain, 0, "artisans"
        )
        conserved(rules, with_ptah)


# -- magic items: when they are offered --------------------------------------------------


def test_a_magic_item_is_offered_at_every_decision_of_its_owners_turn() -> None:
    """Horn of Plenty held: offered at the pick, the drop, the tile decision (c3, a small
    market) and the sale — but not while the revealed items are being chosen."""
    rules, s = position()
    s = holding(rules, s, 0, items=["horn-of-plenty"])
    s = stack_deck(rules, s, ITEMS, ["jewelry", "crown"])
    seen = decisions_of_turn(rules, s, MOVE)
    stages = [state.decision.stage for state in seen]
    assert stages == ["pick", "drop", "keep-item", "tile:small-market", "sell"]
    for state in seen:
        offered = item_options(rules, state)
        if state.decision.stage == "keep-item":
            assert offered == []
        else:
            assert offered == ["horn-of-plenty"], state.decision


def test_a_magic_item_is_usable_in_the_turn_it_was_gained() -> None:
    """The Fabulous Lamp kept at the artisans' action is offered at the tile decision and
    the sale of that same turn."""
    rules, s = position()
    s = stack_deck(rules, s, ITEMS, ["fabulous-lamp", "crown"])
    s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
    tile = play(rules, s, *MOVE, "keep fabulous-lamp")
    assert tile.decision == Decision("tile:small-market", 0)
    lamp = ["fabulous-lamp jafaar", "fabulous-lamp marid", "fabulous-lamp nekir"]
    assert item_options(rules, tile) == lamp
    sale = play(rules, tile, "skip")
    assert sale.decision == Decision("sell", 0)
    assert item_options(rules, sale) == lamp
    after = play(rules, sale, "fabulous-lamp marid")
    assert after.players[0].djinns == ("marid",)
    conserved(rules, after)


def test_only_one_item_per_turn_and_again_the_next_turn() -> None:
    """After playing one item no item is offered for the rest of the turn, even another
    kind; the next turn of the same player the others are offered again."""
    rules, s = position(owners={"a1": 0})
    s = holding(rules, s, 0, items=["horn-of-plenty", "fabulous-lamp", "tempest-talisman"])
    s = next_turn_is_also_mine(s)
    assert set(item_options(rules, s)) >= {"horn-of-plenty", "tempest-talisman a1 f1"}
    used = play(rules, s, "horn-of-plenty")
    assert used.players[0].hand(rules.deck_index[ITEMS]) == ("fabulous-lamp", "tempest-talisman")
    seen = decisions_of_turn(rules, used, MOVE)
    assert all(item_options(rules, state) == [] for state in seen)
    state = seen[-1]
    while state.decision.stage != "pick" or state.turn is None or state.turn.used:
        state = plain_step(rules, state)
    assert state.decision.player == 0
    assert any(a.startswith("fabulous-lamp ") for a in item_options(rules, state))
    assert any(a.startswith("tempest-talisman ") for a in item_options(rules, state))


def test_items_are_never_offered_in_an_opponents_turn() -> None:
    """Player 2's items are never among the options of player 1's turn, and player 2 has
    no decision there to use them at."""
    rules, s = position()
    s = holding(rules, s, 1, items=list(MAGIC))
    for state in decisions_of_turn(rules, s, MOVE):
        assert state.decision.player == 0
        assert item_options(rules, state) == []


def test_items_are_not_offered_while_bidding() -> None:
    """Bidding for turn order is not a turn: no item is offered to the bidder."""
    rules, s = position()
    s = holding(rules, s, 0, items=list(MAGIC))
    first = [m for m, owner in enumerate(s.markers) if owner == 0]
    rest = [m for m in range(len(s.markers)) if m not in first]
    bidding = bid_order(rules, s, *first, *rest)
    assert bidding.decision == Decision("bid", 0)
    assert item_options(rules, bidding) == []
    assert item_options(rules, s)  # the same holdings, in the player's turn


def test_items_are_not_offered_while_sibittis_djinns_are_chosen() -> None:
    """While choosing among Sibittis's djinns only ``keep`` is offered; the item is offered
    again once the choice is made."""
    rules, s = position()
    s = holding(rules, s, 0, items=["horn-of-plenty"], djinns=["sibittis"], meeples="WW")
    drawn = play(rules, s, "sibittis EE")
    assert drawn.decision == Decision("keep-djinn", 0)
    assert kinds_offered(rules, drawn) == {"keep"}
    after = play(rules, drawn, options(rules, drawn)[0])
    assert after.decision == Decision("pick", 0)
    assert item_options(rules, after) == ["horn-of-plenty"]
    conserved(rules, after)


def test_no_djinn_power_or_item_while_the_revealed_items_are_chosen() -> None:
    """During ``keep-item`` neither an item nor a djinn power is offered."""
    rules, s = position()
    s = holding(
        rules,
        s,
        0,
        items=list(MAGIC),
        djinns=["sloar", "sibittis", "leta"],
        meeples="WWW",
        cards=[FAKIR, FAKIR],
    )
    s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
    at_pick = {"burning-scimitar", "enchanting-flute", "fabulous-lamp", "horn-of-plenty"}
    assert {"sloar", "sibittis", "leta", *at_pick} <= kinds_offered(rules, s)
    asked = play(rules, s, *MOVE)
    assert asked.decision == Decision("keep-item", 0)
    assert kinds_offered(rules, asked) == {"keep"}
    after = play(rules, asked, options(rules, asked)[0])
    assert after.decision == Decision("tile:small-market", 0)
    # the item not kept lies in the discards now: the Rebirth Ring has something to take
    assert {"sloar", "sibittis", "leta", *at_pick, "rebirth-ring"} <= kinds_offered(rules, after)


def test_a_played_item_goes_to_the_item_discard_pile_and_is_counted() -> None:
    """Each magic item, once played, leaves its owner for the item discard pile, and the
    use is counted in ``effect_counts`` under the item's id."""
    uses = {
        "burning-scimitar": "burning-scimitar e4 G",
        "fabulous-lamp": "fabulous-lamp jafaar",
        "horn-of-plenty": "horn-of-plenty",
        "rebirth-ring": "rebirth-ring crown",
        "tempest-talisman": "tempest-talisman a1 f1",
    }
    for item, text in uses.items():
        rules, s = position(owners={"a1": 0})
        s = holding(rules, s, 0, items=[item])
        s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
        s = to_item_discards(rules, s, ["crown"])
        after = play(rules, s, text)
        assert after.players[0].hand(rules.deck_index[ITEMS]) in ((), ("crown",)), item
        assert item_deck(rules, after).discard[-1] == item
        assert effect_counts(after).get(item) == 1, item
        assert after.decision == Decision("pick", 0)
        assert after.turn is not None and ITEMS in after.turn.used  # once a turn per deck
        conserved(rules, after)


def to_item_discards(rules: Rules, state: State, items: Sequence[str]) -> State:
    """``items`` (from the item pile) lie face up on the item discard pile."""
    deck = item_deck(rules, state)
    draw = list(deck.draw)
    for item in items:
        draw.remove(item)
    new = Deck(draw=tuple(draw), row=deck.row, discard=(*deck.discard, *items))
    index = rules.deck_index[ITEMS]
    return attrs.evolve(state, decks=replace_at(state.decks, index, new))


# -- magic items: what each one does -----------------------------------------------------


def test_fabulous_lamp_takes_a_chosen_face_up_djinn_for_free() -> None:
    """The lamp names any face-up djinn; the player takes it without paying elders or
    Fakirs; the row shows one djinn fewer (it is refilled at the end of the round)."""
    rules, s = position()
    s = holding(rules, s, 0, items=["fabulous-lamp"], meeples="WW", cards=[FAKIR])
    s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
    assert item_options(rules, s) == [
        "fabulous-lamp jafaar",
        "fabulous-lamp marid",
        "fabulous-lamp nekir",
    ]
    after = play(rules, s, "fabulous-lamp marid")
    assert after.players[0].djinns == ("marid",)
    assert after.decks[DJINN_DECK].row == ("jafaar", "nekir")
    assert after.decks[DJINN_DECK].draw == s.decks[DJINN_DECK].draw
    assert letter(rules, after, 0, "W") == 2
    assert after.players[0].cards == (FAKIR,)
    assert after.players[0].coins == s.players[0].coins
    conserved(rules, after)
    same_on_the_kernel(rules, s, after)  # content (target_card), read alike by both engines


def test_fabulous_lamp_pays_baal_as_any_djinn_taken() -> None:
    """An opponent's Ba'al pays them 2 coins when the lamp takes a djinn; the lamp's owner
    holding Ba'al gains 1."""
    rules, s = position()
    s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
    theirs = holding(rules, s, 0, items=["fabulous-lamp"])
    theirs = holding(rules, theirs, 1, djinns=["baal"])
    after = play(rules, theirs, "fabulous-lamp jafaar")
    assert after.players[1].coins == theirs.players[1].coins + 2
    assert effect_counts(after).get("baal") == 1
    mine = holding(rules, s, 0, items=["fabulous-lamp"], djinns=["baal"])
    after = play(rules, mine, "fabulous-lamp jafaar")
    assert after.players[0].coins == mine.players[0].coins + 1
    assert after.players[0].djinns == ("baal", "jafaar")
    same_on_the_kernel(rules, theirs, mine, after)


def test_fabulous_lamp_can_take_baal_itself_and_is_not_offered_with_an_empty_row() -> None:
    """Ba'al itself can be taken (it pays nobody for itself); with no face-up djinn the
    lamp has nothing to take and is not offered."""
    rules, s = position()
    s = holding(rules, s, 0, items=["fabulous-lamp"])
    s = lay(rules, s, "djinns", row=["baal"])
    after = play(rules, s, "fabulous-lamp baal")
    assert after.players[0].djinns == ("baal",)
    assert after.players[0].coins == s.players[0].coins
    assert "baal" not in effect_counts(after)
    empty = lay(rules, s, "djinns", row=[])
    assert item_options(rules, empty) == []


def test_fabulous_lamp_at_a_sacred_place_decision_leaves_the_rest_to_choose() -> None:
    """Used at the sacred-place decision, the lamp's djinn is free and the paid choice
    stays open among the djinns still face up."""
    rules, s = position({"b3": "W", "c3": "WG"})
    s = board(rules, s, tiles={"c3": "sacred-place-1"})
    s = holding(rules, s, 0, items=["fabulous-lamp"], meeples="WW")
    s = lay(rules, s, "djinns", row=["jafaar", "marid", "nekir"])
    asked = play(rules, s, "pick b3", "drop c3 W")
    assert asked.decision == Decision("tile:sacred-place", 0)
    after = play(rules, asked, "fabulous-lamp nekir")
    assert after.decision == Decision("tile:sacred-place", 0)
    assert sorted(options(rules, after)) == ["djinn jafaar EE", "djinn marid EE", "skip"]
    both = play(rules, after, "djinn jafaar EE")
    assert both.players[0].djinns == ("nekir", "jafaar")
    conserved(rules, both)


def test_burning_scimitar_kills_two_meeples_on_any_tile() -> None:
    """Burning Scimitar (icon: two meeples of any colour, a blood mark): kill 2 meeples of
    any colours on one tile, anywhere on the board (no assassins needed, no range); they go
    to the bag."""
    rules, s = position(ASSASSINS)
    s = holding(rules, s, 0, items=["burning-scimitar"])
    on_d3 = {a for a in item_options(rules, s) if " d3 " in a}
    assert on_d3 == {"burning-scimitar d3 GB", "burning-scimitar d3 GP", "burning-scimitar d3 BP"}
    assert "burning-scimitar a1 G" in item_options(rules, s)  # a lone meeple: just that one
    after = play(rules, s, "burning-scimitar d3 GB")
    assert on_tile(rules, after, "d3") == "P"
    assert in_bag(rules, after, "G") == in_bag(rules, s, "G") + 1
    assert in_bag(rules, after, "B") == in_bag(rules, s, "B") + 1
    assert after.decision == Decision("pick", 0)
    conserved(rules, after)


def test_burning_scimitar_takes_the_tile_it_empties_and_is_no_assassination() -> None:
    """A tile emptied by the scimitar, unowned, becomes the player's (a camel). The
    meeples were not killed by assassins: Nekir (player 2's) pays nothing."""
    rules, s = position({**ASSASSINS, "d3": "GB"})
    s = holding(rules, s, 0, items=["burning-scimitar"])
    s = holding(rules, s, 1, djinns=["nekir"])
    after = play(rules, s, "burning-scimitar d3 GB")
    assert on_tile(rules, after, "d3") == ""
    assert after.board.owners[at(after, "d3")] == 0
    assert after.players[0].camels == s.players[0].camels - 1
    assert after.players[1].coins == s.players[1].coins
    conserved(rules, after)


def test_burning_scimitar_never_leaves_the_player_without_a_move() -> None:
    """At the pick, only kills that leave a legal move are offered: b3 → c3 is the only
    move, so neither vizier may be killed, while e4's two merchants may. It is not offered
    during the move (the drop), where the options were worked out for the board as it is."""
    rules, s = position({"b3": "Y", "c3": "Y", "e4": "GG"})
    s = holding(rules, s, 0, items=["burning-scimitar"])
    assert item_options(rules, s) == ["burning-scimitar e4 GG"]
    dropping = play(rules, s, "pick b3")
    assert item_options(rules, dropping) == []
    after = play(rules, dropping, "drop c3 Y")
    assert after.decision.stage == "tile:small-market"  # after the move: offered again
    assert item_options(rules, after) == ["burning-scimitar e4 GG"]


def test_burning_scimitar_not_offered_at_the_assassins_kill() -> None:
    """While the assassins choose their victim the scimitar waits (it could take the
    victim away); after the kill it is offered again."""
    rules, s = position(ASSASSINS)
    s = holding(rules, s, 0, items=["burning-scimitar"])
    kill = play(rules, s, *KILL_MOVE)
    assert kill.decision.stage == "kill"
    assert item_options(rules, kill) == []
    after = play(rules, kill, "kill d3 P")
    assert after.decision.stage != "kill"
    assert item_options(rules, after)


#: c3's edge neighbours c2, b3, d3 and c4 hold 6 meeples; d4 → e4 keeps a move open
FLUTE = {"c3": "G", "c2": "Y", "b3": "P", "d3": "BR", "c4": "WW", "d4": "G", "e4": "G"}


def test_enchanting_flute_gathers_up_to_five_meeples_onto_a_tile() -> None:
    """Enchanting Flute (icon: a meeple marked 1-5, four arrows into a tile): choose a
    tile, then move meeples onto it one at a time from the 4 tiles sharing an edge with
    it; after the fifth, play returns to the decision the flute was played at."""
    rules, s = position(FLUTE)
    s = holding(rules, s, 0, items=["enchanting-flute"])
    asked = play(rules, s, "enchanting-flute c3")
    assert asked.decision == Decision("gather", 0)
    assert options(rules, asked) == [
        "done",
        "gather b3 P",
        "gather c2 Y",
        "gather c4 W",
        "gather d3 B",
        "gather d3 R",
    ]
    assert kinds_offered(rules, asked) == {"done", "gather"}  # no other power meanwhile
    after = play(rules, asked, "gather b3 P", "gather c2 Y", "gather d3 B", "gather d3 R")
    assert after.decision == Decision("gather", 0)
    after = play(rules, after, "gather c4 W")
    assert after.decision == Decision("pick", 0)
    assert on_tile(rules, after, "c3") == "YWGBRP"
    assert on_tile(rules, after, "c4") == "W"
    assert after.turn is not None and after.turn.resume == ""
    assert not [key for key, _ in after.extras if key.startswith("flute.")]
    conserved(rules, after)


def test_enchanting_flute_may_stop_after_one_meeple() -> None:
    """``done`` ends the gathering early (1 to 5 meeples)."""
    rules, s = position(FLUTE)
    s = holding(rules, s, 0, items=["enchanting-flute"])
    after = play(rules, s, "enchanting-flute c3", "gather d3 R", "done")
    assert after.decision == Decision("pick", 0)
    assert on_tile(rules, after, "c3") == "GR"
    assert on_tile(rules, after, "d3") == "B"


def test_enchanting_flute_never_leaves_the_player_without_a_move() -> None:
    """At the pick, a meeple whose move would leave no legal move is not offered: with
    b3 → c3 the only move, gathering b3's vizier onto b2 is not offered, only ``done``."""
    rules, s = position({"b3": "Y", "c3": "Y"})
    s = holding(rules, s, 0, items=["enchanting-flute"])
    asked = play(rules, s, "enchanting-flute b2")
    assert options(rules, asked) == ["done"]
    assert play(rules, asked, "done").decision == Decision("pick", 0)


def test_flying_carpet_drops_the_next_meeple_two_tiles_away() -> None:
    """Flying Carpet (icon: a meeple flying over the middle of three tiles): during the
    move, the next meeple lands 2 tiles away in a straight line, over the tile between;
    the move goes on from there. From b3 with a vizier and a merchant in hand: the vizier
    flies to d3 and the merchant ends the move on d4, taking both merchants there."""
    rules, s = position({"b3": "YG", "d3": "G", "d4": "G"})
    s = holding(rules, s, 0, items=["flying-carpet"])
    assert item_options(rules, s) == []  # only during the move
    dropping = play(rules, s, "pick b3")
    assert item_options(rules, dropping) == ["flying-carpet d3 Y"]  # G there: Y could not end
    flown = play(rules, dropping, "flying-carpet d3 Y")
    assert flown.decision == Decision("drop", 0)
    assert flown.turn is not None and flown.turn.path == (at(flown, "d3"),)
    assert options(rules, flown, "drop") == ["drop d4 G"]
    after = play(rules, flown, "drop d4 G")
    assert on_tile(rules, after, "d3") == "YG"
    assert letter(rules, after, 0, "G") == 0 and after.players[0].cards  # merchants: cards
    conserved(rules, after)


def test_flying_carpet_flies_over_a_mountain_and_lands_the_last_meeple_on_its_colour() -> None:
    """The carpet ignores what lies between (a5, and the mountain on a6's north edge,
    which a step could not cross); a last meeple must still land on a tile holding its
    colour (a6: yes; a2 and c4: no)."""
    rules, s = position({"a4": "G", "a3": "G", "a6": "G", "e4": "G", "d4": "G"})
    s = holding(rules, s, 0, items=["flying-carpet"])
    dropping = play(rules, s, "pick a4")
    assert item_options(rules, dropping) == ["flying-carpet a6 G"]
    after = play(rules, dropping, "flying-carpet a6 G")
    assert on_tile(rules, after, "a6") == ""
    assert after.board.owners[at(after, "a6")] == 0


def test_horn_of_plenty_deals_a_new_resource_row() -> None:
    """Horn of Plenty (icon: an arrow from the pile onto the face-up row): the face-up
    resource cards are discarded and 9 new ones dealt from the pile."""
    rules, s = position()
    s = holding(rules, s, 0, items=["horn-of-plenty"])
    old_row = s.decks[RESOURCE_DECK].row
    after = play(rules, s, "horn-of-plenty")
    assert after.decks[RESOURCE_DECK].row == s.decks[RESOURCE_DECK].draw[:9]
    assert after.decks[RESOURCE_DECK].discard == (*s.decks[RESOURCE_DECK].discard, *old_row)
    assert after.players[0].cards == s.players[0].cards
    conserved(rules, after)
    same_on_the_kernel(rules, s, after)  # content (deal_row), read alike by both engines


def test_horn_of_plenty_not_offered_when_no_resource_card_is_left_anywhere() -> None:
    """With both the resource pile and its discards empty the horn would do nothing, so it
    is not offered (the rule for powers without effect: Sloar, Sibittis, Anun-Nak); with
    fewer than 9 cards left the new row is shorter."""
    rules, s = position()
    s = holding(rules, s, 0, items=["horn-of-plenty"])
    row = s.decks[RESOURCE_DECK].row
    everything = [*s.decks[RESOURCE_DECK].draw, *s.decks[RESOURCE_DECK].discard]
    dry = holding(rules, s, 1, cards=everything)
    assert dry.decks[RESOURCE_DECK] == Deck(row=row)
    assert item_options(rules, dry) == []
    one = holding(rules, s, 1, cards=everything[1:])
    assert item_options(rules, one) == ["horn-of-plenty"]
    after = play(rules, one, "horn-of-plenty")
    dealt = after.decks[RESOURCE_DECK]
    assert len(dealt.row) == 9 and len(dealt.draw) == 1  # the old row was reshuffled in
    assert Counter([*dealt.row, *dealt.draw]) == Counter([everything[0], *row])
    conserved(rules, after)
    same_on_the_kernel(rules, dry, one, after)


def test_rebirth_ring_takes_back_an_item_from_the_discards() -> None:
    """Rebirth Ring (icon: three grey item markers, an arrow to one coloured marker): take
    back one item of your choice from the face-up item discard pile; the ring is then
    discarded itself."""
    rules, s = position()
    s = holding(rules, s, 0, items=["rebirth-ring"])
    assert item_options(rules, s) == []  # nothing discarded yet
    s = to_item_discards(rules, s, ["crown", "fabulous-lamp", "jewelry"])
    assert item_options(rules, s) == [
        "rebirth-ring crown",
        "rebirth-ring fabulous-lamp",
        "rebirth-ring jewelry",
    ]
    after = play(rules, s, "rebirth-ring crown")
    assert after.players[0].hand(rules.deck_index[ITEMS]) == ("crown",)
    assert item_deck(rules, after).discard == ("fabulous-lamp", "jewelry", "rebirth-ring")
    conserved(rules, after)
    same_on_the_kernel(rules, s, after)  # content (target_card), read alike by both engines


def test_tempest_talisman_moves_one_of_your_camels_to_an_empty_tile() -> None:
    """Tempest Talisman (icon: a camel carried from a tile to an empty one): one of your
    camels moves to an empty tile (no camel, meeple, palm tree or palace; not the chasm).
    The tile it leaves is nobody's, its palace stays; no camel comes from the supply."""
    rules, s = position(owners={"e1": 1, "b1": 0})
    s = tokens(rules, s, {"a1": {"palm-tree": 1}, "b1": {"palace": 1}, "f2": {"palace": 1}})
    s = holding(rules, s, 0, items=["tempest-talisman"])
    geo = s.geometry
    occupied = {*MEEPLES, "e1", "b1", "a1", "f2", "f6"}
    assert {a.split()[1] for a in item_options(rules, s)} == {"b1"}  # player 2's e1: no
    targets = {a.split()[2] for a in item_options(rules, s)}
    assert targets == {geo.name(t) for t in range(geo.size)} - occupied
    after = play(rules, s, "tempest-talisman b1 d1")
    assert after.board.owners[at(after, "d1")] == 0
    assert after.board.owners[at(after, "b1")] == -1
    assert after.players[0].camels == s.players[0].camels
    conserved(rules, after)
    same_on_the_kernel(rules, s, after)  # content (target_to, move), read alike by both


def test_tempest_talisman_needs_a_camel_on_the_board_and_leaves_the_tent() -> None:
    """No camel of yours on the board: nothing to move. A tent is not a camel."""
    rules, s = position(owners={"b1": 0})
    s = holding(rules, s, 0, items=["tempest-talisman", "horn-of-plenty"])
    assert any(a.startswith("tempest-talisman b1 ") for a in item_options(rules, s))
    tented = tokens(rules, s, {"b1": {"tent": 1}})
    assert item_options(rules, tented) == ["horn-of-plenty"]
    mine = position()[1]
    none = holding(rules, mine, 0, items=["tempest-talisman", "horn-of-plenty"])
    assert item_options(rules, none) == ["horn-of-plenty"]
    same_on_the_kernel(rules, none)
    same_on_the_kernel(rules, s)


# -- the revised Boaz and Kandicha -------------------------------------------------------


def test_revised_boaz_protects_artisans_too() -> None:
    """Player 2 holds Boaz: their artisans (and viziers) in front of them are no targets.
    Without Boaz, ``kill p2 P`` is offered."""
    rules, s = position(ASSASSINS)
    s = holding(rules, s, 1, meeples="PY")
    asked = play(rules, s, *KILL_MOVE)
    assert {"kill p2 P", "kill p2 Y"} <= set(options(rules, asked))
    guarded = holding(rules, s, 1, djinns=["boaz"])
    asked = play(rules, guarded, *KILL_MOVE)
    assert not [a for a in options(rules, asked) if a.startswith("kill p2")]
    assert "kill d3 P" in options(rules, asked)  # on a tile an artisan is not protected
    assert effect_counts(asked).get("boaz") == 1
    after = play(rules, asked, "kill d3 P")
    assert guarded.players[1].meeples == after.players[1].meeples
    conserved(rules, after)


def test_revised_kandicha_puts_a_killed_artisan_in_front_of_the_owner() -> None:
    """Kandicha's owner kills an artisan on a tile: it goes in front of them, not into the
    bag. So does one killed in front of an opponent."""
    rules, s = position(ASSASSINS)
    s = holding(rules, s, 0, djinns=["kandicha"])
    s = holding(rules, s, 1, meeples="P")
    after = play(rules, s, *KILL_MOVE, "kill d3 P")
    assert letter(rules, after, 0, "P") == 1
    assert in_bag(rules, after, "P") == in_bag(rules, s, "P")
    assert on_tile(rules, after, "d3") == "GB"
    assert effect_counts(after).get("kandicha") == 1
    conserved(rules, after)
    theirs = play(rules, s, *KILL_MOVE, "kill p2 P")
    assert letter(rules, theirs, 0, "P") == 1
    assert letter(rules, theirs, 1, "P") == 0
    assert in_bag(rules, theirs, "P") == in_bag(rules, s, "P")
    conserved(rules, theirs)


def test_revised_kandicha_only_for_the_owners_assassins() -> None:
    """An opponent's Kandicha does nothing when somebody else's assassins kill an artisan."""
    rules, s = position(ASSASSINS)
    s = holding(rules, s, 1, djinns=["kandicha"])
    after = play(rules, s, *KILL_MOVE, "kill d3 P")
    assert letter(rules, after, 0, "P") == 0
    assert letter(rules, after, 1, "P") == 0
    assert in_bag(rules, after, "P") == in_bag(rules, s, "P") + 1
    assert "kandicha" not in effect_counts(after)


# -- random games ------------------------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)


def test_expected_totals_of_an_artisans_game() -> None:
    """What the conservation checks count against: 105 meeples (15 artisans), 24 djinns
    with Geb and Ptah, 18 items; every player has a tent to place."""
    rules = artisans_rules()
    for players in (2, 3, 4):
        want = expected(rules, players)
        assert sum(want.meeples) == 105
        assert want.meeples[rules.letters.index("P")] == 15
        assert sum(want.djinns.values()) == 24 and {"geb", "ptah"} <= set(want.djinns)
        assert sum(n for c, n in want.held.items() if c in rules.card_specs) == 18
        assert want.pieces == 1
        state = rules.new_game(players, players)
        check_state(rules, state, want)
        assert sum(item_deck(rules, state).draw.count(i) for i in PRECIOUS) == 11


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_random_artisans_games_keep_every_invariant(players: int) -> None:
    """Whole random games with the Artisans keep every invariant after every action, reach
    the end, and use the items along the way."""
    rules = artisans_rules()
    used: Counter[str] = Counter()
    for seed in (11, 12, 13):
        state = play_checked(rules, players, seed * players, seed, steps=10_000)
        assert state.is_over, "a random game did not end within 10 000 actions"
        assert rules.game_ends(state)
        assert rules.winners(state)
        used.update(effect_counts(state))
    assert any(used[item] for item in MAGIC), used


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=PLAYERS,
    seed=SEEDS,
    agent_seed=SEEDS,
    steps=st.integers(min_value=0, max_value=400),
)
def test_random_artisans_prefixes_keep_every_invariant(
    players: int, seed: int, agent_seed: int, steps: int
) -> None:
    """Random play of random length keeps every invariant after every action."""
    play_checked(artisans_rules(), players, seed, agent_seed, steps)


def random_states(rules: Rules, players: int, seed: int, agent_seed: int) -> list[State]:
    """Every state of one random game (unchecked)."""
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    seen = [state]
    while not state.is_over:
        legal = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, legal))
        seen.append(state)
    return seen


def test_artisans_games_are_deterministic() -> None:
    """The same seeds give the very same game, to the last state."""
    rules = artisans_rules()
    for players in (2, 4):
        first = random_states(rules, players, 31, 5)
        again = random_states(artisans_rules(), players, 31, 5)
        assert first == again
        assert first[-1].is_over
        assert random_states(rules, players, 32, 5)[-1] != first[-1]


def test_artisans_states_round_trip_through_json() -> None:
    """State JSON keeps everything of an artisans game: the layout with the chasm and
    mountains, held items, tents, effect counts — and the mid-decision ``keep-item``
    states with their revealed items."""
    rules = artisans_rules()
    checked = 0
    keep_item = 0
    for players in (2, 3, 4):
        states = random_states(rules, players, 41 + players, 9)
        for index, state in enumerate(states):
            is_keep = state.decision.stage == "keep-item"
            if not is_keep and index % 25 and index != len(states) - 1:
                continue
            text = state_to_json(rules, state)
            back_rules, back = state_from_json(text)
            assert back == state
            assert back_rules.ruleset == rules.ruleset
            assert state_to_json(back_rules, back) == text
            if is_keep:
                assert back.turn is not None and back.turn.revealed
                assert back_rules.legal_actions(back) == rules.legal_actions(state)
                keep_item += 1
            checked += 1
    assert keep_item, "no keep-item decision was reached"
    assert checked > keep_item


def test_a_scenario_keep_item_state_round_trips_and_plays_on() -> None:
    """The keep-item decision of the standard position, written and read back, offers the
    same options and keeping an item gives the same state."""
    rules, s = position()
    s = holding(rules, s, 0, items=["crown"], djinns=["geb"])
    s = stack_deck(rules, s, ITEMS, ["jewelry", "horn-of-plenty"])
    asked = play(rules, s, *MOVE)
    back_rules, back = state_from_json(state_to_json(rules, asked))
    assert back == asked
    assert options(back_rules, back) == options(rules, asked)
    assert play(back_rules, back, "keep jewelry") == play(rules, asked, "keep jewelry")
