"""Scenario tests for the djinn interactions decided in docs/rules-notes.md ("Djinns",
table "Interactions decided"): one or more tests per row, each docstring stating the
decision it proves. The last test plays whole random games in which every player holds
many djinns and checks the game's invariants after every action.

Unless a test says otherwise, positions are built on an otherwise empty board with player 1
(seat 0) to move; moves end on c3, an oasis, so the tile action needs no decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import attrs
import pytest

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import NOBODY, Layout, State
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    bid_order,
    board,
    counts,
    deck,
    kept,
    on_tile,
    options,
    play,
    play_turn,
    player,
    turn_of,
)

FAKIR = "fakir"
LAST_CAMEL = "last-camel"
NO_MOVES = "no-moves"


# -- helpers -----------------------------------------------------------------------------


def position(
    meeples: Mapping[str, str],
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
    *,
    players: int = 2,
    rules: Rules | None = None,
    stage: str = "pick",
) -> tuple[Rules, State]:
    """A game where only the named tiles hold meeples, player 1 (seat 0) to decide at
    ``stage``; c3 is an oasis unless ``tiles`` says otherwise."""
    rules = rules or base_rules()
    state = rules.new_game(players, 7)
    state = board(
        rules, state, meeples, clear=True, tiles={"c3": "oasis-1", **(tiles or {})}, owners=owners
    )
    return rules, turn_of(rules, state, 0, stage)


def tile(state: State, name: str) -> int:
    return state.geometry.parse(name)


def token_on(rules: Rules, state: State, name: str, token: str) -> int:
    return state.board.tokens[tile(state, name)][rules.token_index[token]]


def coins(state: State, seat: int) -> int:
    return state.players[seat].coins


def line(rules: Rules, state: State, seat: int, category: str) -> int:
    """The points of one score category (every line of it, djinn lines included)."""
    return sum(x.points for x in rules.score_lines(state, seat) if x.category == category)


def djinn_options(rules: Rules, state: State, card: str) -> list[str]:
    return options(rules, state, card)


def targets(rules: Rules, state: State, card: str) -> set[str]:
    """The tiles a djinn's options name (its first argument)."""
    return {text.split()[1] for text in djinn_options(rules, state, card)}


def lay_area(rules: Rules, state: State, centre: str, blue: Iterable[str]) -> State:
    """Lay out the 3×3 block around ``centre`` so exactly the tiles named in ``blue`` are
    blue-valued (villages, then sacred places) and the others markets (red-valued)."""
    blue = set(blue)
    blue_ids = [t for t in rules.tile_specs if rules.tile(t).value == "blue"]
    red_ids = [t for t in rules.tile_specs if rules.tile(t).kind.endswith("market")]
    geo = state.geometry
    names = [geo.name(t) for t in geo.area[geo.parse(centre)]]
    chosen = {name: (blue_ids if name in blue else red_ids).pop(0) for name in names}
    return board(rules, state, tiles=chosen)


def plays_next(state: State, seat: int) -> State:
    """After the turn in progress, ``seat`` plays the last turn of the round (its marker
    waits on the turn track instead of the bid track)."""
    marker = state.markers.index(seat)
    turn_track = (marker,) + (NOBODY,) * (len(state.turn_track) - 1)
    bid_track = tuple(m for m in state.bid_track if m != marker) + (NOBODY,)
    return attrs.evolve(state, turn_track=turn_track, bid_track=bid_track)


def set_bag(rules: Rules, state: State, letters: str) -> State:
    """Put exactly these meeples in the bag (meeples are not conserved: the test says
    exactly what the bag holds)."""
    return attrs.evolve(state, bag=counts(rules, letters))


# -- Iblis with Nekir --------------------------------------------------------------------

# b3 → c3 collects three assassins (range 3); d3 holds a merchant and a builder
DOUBLE_KILL = {"b3": "R", "c3": "RR", "d3": "GB"}


def test_nekir_pays_its_owner_once_per_meeple_of_their_own_double_kill() -> None:
    """Iblis with Nekir: Nekir pays for each meeple killed, so a double kill by the Nekir
    owner's own assassins pays 1 coin twice (a single kill pays 1)."""
    rules, s = position(DOUBLE_KILL)
    s = player(rules, s, 0, djinns=["iblis", "nekir"], meeples="W")
    single = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert coins(single, 0) == coins(s, 0) + 1
    first = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill d3 G")
    assert first.decision.stage == "kill"
    assert coins(first, 0) == coins(s, 0) + 1
    after = play(rules, first, "kill d3 B")
    assert on_tile(rules, after, "d3") == ""
    assert coins(after, 0) == coins(s, 0) + 2
    assert after.decision.stage == "sell"


def test_nekir_pays_an_opponent_twice_per_meeple_of_a_double_kill() -> None:
    """Iblis with Nekir: when an opponent holds Nekir, each meeple of the double kill pays
    them 2 coins, 4 in all; the killer gets nothing from Nekir."""
    rules, s = position(DOUBLE_KILL)
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, 1, djinns=["nekir"])
    first = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill d3 B")
    assert coins(first, 1) == coins(s, 1) + 2
    after = play(rules, first, "kill d3 G")
    assert coins(after, 1) == coins(s, 1) + 4
    assert coins(after, 0) == coins(s, 0)


# -- Iblis with Kandicha -----------------------------------------------------------------


def test_kandicha_rewards_each_meeple_of_a_double_kill_on_a_tile() -> None:
    """Iblis with Kandicha: Kandicha rewards each meeple killed. A merchant and a builder
    killed on e3 give the top resource card and 1 coin per blue tile around e3 (2 here)."""
    rules, s = position({"b3": "R", "c3": "RR", "e3": "GB"})
    s = lay_area(rules, s, "e3", blue={"d2", "f4"})
    s = board(rules, s, tiles={"c3": "oasis-1"})
    s = player(rules, s, 0, djinns=["iblis", "kandicha"], meeples="W")
    s = deck(rules, s, "resources", draw=("gold", "silk"))
    after = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill e3 G", "kill e3 B")
    assert after.players[0].cards == ("gold",)
    assert after.decks[RESOURCE_DECK].draw == ("silk",)
    assert coins(after, 0) == coins(s, 0) + 2
    assert on_tile(rules, after, "e3") == ""


def test_kandicha_keeps_both_viziers_and_elders_of_a_double_kill_in_front_of_an_opponent() -> None:
    """Iblis with Kandicha, in front of an opponent: the vizier and the elder killed both
    go in front of the killer instead of the bag."""
    rules, s = position({"b3": "R", "c3": "RR"})
    s = player(rules, s, 0, djinns=["iblis", "kandicha"], cards=[FAKIR])
    s = player(rules, s, 1, meeples="YW")
    s = play(rules, s, "iblis F", "pick b3", "drop c3 R", "kill p2 Y")
    assert options(rules, s) == ["kill p2 W"]
    after = play(rules, s, "kill p2 W")
    assert kept(rules, after, 0) == "YW"
    assert kept(rules, after, 1) == ""
    assert after.bag == s.bag


# -- Iblis against a player with Boaz ----------------------------------------------------


def test_iblis_never_targets_the_viziers_and_elders_of_a_boaz_player() -> None:
    """Iblis against Boaz: the Boaz owner's viziers and elders are never targets, neither
    for the first kill nor for the second."""
    rules, s = position({"b3": "R", "c3": "RR", "d3": "GG"})
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, 1, djinns=["boaz"], meeples="YYWW")
    s = play(rules, s, "iblis E", "pick b3", "drop c3 R")
    assert options(rules, s) == ["kill d3 G"]
    s = play(rules, s, "kill d3 G")
    assert options(rules, s) == ["kill d3 G"]
    after = play(rules, s, "kill d3 G")
    assert kept(rules, after, 1) == "YYWW"


def test_iblis_second_kill_must_be_on_the_tile_of_the_first() -> None:
    """Iblis: after a first kill on a tile the second must be on the same tile; when the
    first kill emptied it, the turn goes on with no second kill (e3 is spared)."""
    rules, s = position({"b3": "R", "c3": "RR", "d3": "G", "e3": "GB"})
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, 1, djinns=["boaz"], meeples="Y")
    s = play(rules, s, "iblis E", "pick b3", "drop c3 R")
    assert options(rules, s) == ["kill d3 G", "kill e3 B", "kill e3 G"]
    two_there = play(rules, s, "kill e3 G")
    assert options(rules, two_there) == ["kill e3 B"]
    after = play(rules, s, "kill d3 G")
    assert after.decision.stage == "sell"
    assert after.board.owners[tile(after, "d3")] == 0
    assert on_tile(rules, after, "e3") == "GB"
    assert kept(rules, after, 1) == "Y"


def test_iblis_second_kill_must_come_from_the_opponent_of_the_first() -> None:
    """Iblis with a Boaz player at the table: after a first kill in front of an
    unprotected opponent the second must come from that opponent; with nothing left there
    the turn goes on with no second kill (not on a tile, not from the Boaz player)."""
    rules, s = position({"b3": "R", "c3": "RR", "d3": "G"}, players=3)
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, 1, djinns=["boaz"], meeples="YW")
    s = player(rules, s, 2, meeples="YW")
    s = play(rules, s, "iblis E", "pick b3", "drop c3 R")
    assert options(rules, s) == ["kill d3 G", "kill p3 W", "kill p3 Y"]
    s = play(rules, s, "kill p3 Y")
    assert options(rules, s) == ["kill p3 W"]
    after = play(rules, s, "kill p3 W")
    assert kept(rules, after, 2) == ""
    assert kept(rules, after, 1) == "YW"
    assert after.decision.stage == "sell"


def test_iblis_after_emptying_an_opponent_the_turn_goes_on_without_a_second_kill() -> None:
    """Iblis: a first kill that takes an opponent's last vizier leaves no second target
    (the Boaz player's meeples and the tiles are excluded), so the turn goes on."""
    rules, s = position({"b3": "R", "c3": "RR", "d3": "G"}, players=3)
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, 1, djinns=["boaz"], meeples="YW")
    s = player(rules, s, 2, meeples="Y")
    after = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill p3 Y")
    assert after.decision.stage == "sell"
    assert on_tile(rules, after, "d3") == "G"
    assert kept(rules, after, 1) == "YW"


# -- Hagis and Lamia on a diagonal neighbour ---------------------------------------------

AROUND_C3 = {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}


def test_hagis_may_put_the_palace_on_any_of_the_8_tiles_around_a_diagonal_one_included() -> None:
    """Hagis: the village action's palace may go on any of the 8 tiles around the village,
    whatever their kind or owner; on a diagonal neighbour owned by an opponent it scores
    for that opponent, not for the mover."""
    rules, s = position({"b3": "W", "c3": "W"}, tiles={"c3": "village-1"}, owners={"d4": 1})
    s = player(rules, s, 0, djinns=["hagis"], cards=[FAKIR])
    s = play(rules, s, "pick b3", "drop c3 W")
    assert s.decision.stage == "tile:village"
    assert "place c3" in options(rules, s)
    assert targets(rules, s, "hagis") == AROUND_C3
    assert {"hagis d4 E", "hagis d4 F"} <= set(options(rules, s))
    after = play(rules, s, "hagis d4 F")
    assert after.decision.stage == "sell"
    assert token_on(rules, after, "d4", "palace") == 1
    assert token_on(rules, after, "c3", "palace") == 0
    assert line(rules, after, 1, "palaces") == line(rules, s, 1, "palaces") + 5
    assert line(rules, after, 0, "palaces") == line(rules, s, 0, "palaces")


def test_lamia_may_put_the_palm_tree_on_a_diagonal_neighbour_which_scores_for_its_owner() -> None:
    """Lamia: the oasis action's palm tree may go on a diagonal neighbour; it scores for
    the owner of the tile it lands on (an opponent here), not for the mover who took the
    oasis."""
    rules, s = position({"b3": "W", "c3": "W"}, owners={"b2": 1})
    s = player(rules, s, 0, djinns=["lamia"], cards=[FAKIR])
    s = play(rules, s, "pick b3", "drop c3 W")
    assert s.decision.stage == "tile:oasis"
    assert s.board.owners[tile(s, "c3")] == 0
    assert targets(rules, s, "lamia") == AROUND_C3
    after = play(rules, s, "lamia b2 E")
    assert token_on(rules, after, "b2", "palm-tree") == 1
    assert token_on(rules, after, "c3", "palm-tree") == 0
    assert line(rules, after, 1, "palm-trees") == 3
    assert line(rules, after, 0, "palm-trees") == 0
    unowned = play(rules, s, "lamia d4 E")
    assert token_on(rules, unowned, "d4", "palm-tree") == 1
    assert line(rules, unowned, 0, "palm-trees") == line(rules, unowned, 1, "palm-trees") == 0


class Lake:
    """A plugin making b2 (index 7) impassable."""

    NAME = "lake-b2"

    @hookimpl
    def naqala_impassable_tiles(self, rules: Rules, layout: Layout) -> list[int]:
        return [7]


@pytest.mark.parametrize(("card", "kind"), [("hagis", "village"), ("lamia", "oasis")])
def test_hagis_and_lamia_cannot_move_the_token_onto_an_impassable_tile(
    card: str, kind: str
) -> None:
    """Hagis / Lamia: not onto an impassable tile — with b2 impassable (a plugin), the 7
    other tiles around c3 are offered, diagonals included."""
    rules = build_rules(extra_plugins=[Lake()])
    rules, s = position({"b3": "W", "c3": "W"}, {"c3": f"{kind}-1"}, rules=rules)
    assert s.layout.blocked == frozenset({tile(s, "b2")})
    s = player(rules, s, 0, djinns=[card], cards=[FAKIR])
    s = play(rules, s, "pick b3", "drop c3 W")
    assert targets(rules, s, card) == AROUND_C3 - {"b2"}


def test_hagis_at_a_corner_offers_only_the_tiles_that_exist() -> None:
    """Hagis at the corner a1: the 3 tiles around it, the diagonal b2 included."""
    rules, s = position({"b1": "W", "a1": "W"}, {"a1": "village-1"})
    s = player(rules, s, 0, djinns=["hagis"], cards=[FAKIR])
    s = play(rules, s, "pick b1", "drop a1 W")
    assert targets(rules, s, "hagis") == {"a2", "b1", "b2"}


def test_hagis_and_lamia_apply_to_bouraq_and_enki_placements() -> None:
    """Hagis / Lamia act "when placing" a palace / palm tree, whatever places it: Enki's
    palm tree may be moved by Lamia (here it stays: ``place a5``), and Bouraq's palace,
    placed while the village action waits, may be moved by Hagis; Hagis is then spent for
    the turn, so the village's own palace goes on c3."""
    rules, s = position(
        {"b3": "W", "c3": "W"}, {"c3": "village-1", "e5": "village-2", "a5": "oasis-2"}
    )
    s = player(rules, s, 0, djinns=["hagis", "lamia", "bouraq", "enki"], cards=[FAKIR] * 4)
    s = play(rules, s, "enki a5 F")
    assert s.decision.stage == "placing:palm-tree"
    assert djinn_options(rules, s, "lamia")
    assert not djinn_options(rules, s, "hagis")
    s = play(rules, s, "place a5")
    assert token_on(rules, s, "a5", "palm-tree") == 1
    assert not djinn_options(rules, s, "lamia")  # nothing is being placed
    s = play(rules, s, "pick b3", "drop c3 W")
    assert s.decision.stage == "tile:village"
    s = play(rules, s, "bouraq e5 F")
    assert s.decision.stage == "placing:palace"
    assert targets(rules, s, "hagis") == {"d4", "e4", "f4", "d5", "f5"}
    s = play(rules, s, "hagis d4 F")
    assert s.decision.stage == "tile:village"
    assert not djinn_options(rules, s, "hagis")
    after = play(rules, s, "place c3")
    assert token_on(rules, after, "d4", "palace") == 1
    assert token_on(rules, after, "e5", "palace") == 0
    assert token_on(rules, after, "c3", "palace") == 1
    assert after.decision.stage == "sell"


# -- Kumarbi and the zero spots ----------------------------------------------------------


def bidding(seat_with_kumarbi: int, order: tuple[int, ...], fakirs: int = 3) -> tuple[Rules, State]:
    """A 4-player game at the start of bidding, markers bidding in ``order`` (marker n is
    seat n's); one seat holds Kumarbi and some Fakirs."""
    rules = base_rules()
    s = rules.new_game(4, 7)
    assert s.markers == (0, 1, 2, 3)
    s = bid_order(rules, s, *order)
    s = player(rules, s, seat_with_kumarbi, djinns=["kumarbi"], cards=[FAKIR] * fakirs)
    return rules, s


def test_kumarbi_is_never_offered_for_a_zero_bid() -> None:
    """Kumarbi lowers the price of free non-zero spots only: no option names a zero spot,
    and lowering stops at the first price of 0 (one Fakir is enough for the spot at 1)."""
    rules, s = bidding(0, (0, 1, 2, 3))
    found = djinn_options(rules, s, "kumarbi")
    assert found
    assert all(text.split()[1] != "0" for text in found)
    assert "kumarbi 1 F" in found
    assert "kumarbi 1 FF" not in found
    assert {"kumarbi 18 F", "kumarbi 18 FF", "kumarbi 18 FFF", "kumarbi 3 FF"} <= set(found)
    assert "kumarbi 3 FFF" not in found  # 3 → 1 → 0: the second Fakir already makes it free


def test_kumarbi_lowered_to_zero_keeps_its_rank_ahead_of_the_zero_bids() -> None:
    """Kumarbi: the spot at 1 lowered to 0 by a Fakir costs nothing, and the marker keeps
    that non-zero spot's rank: it plays before the three markers that bid 0 after it."""
    rules, s = bidding(0, (0, 1, 2, 3))
    before = coins(s, 0)
    s = play(rules, s, "kumarbi 1 F")
    assert coins(s, 0) == before
    assert s.players[0].cards == (FAKIR,) * 2
    assert s.decks[RESOURCE_DECK].discard[-1] == FAKIR
    assert s.turn_track[5] == 0  # the spot costing 1
    s = play(rules, s, "bid 0", "bid 0", "bid 0")
    assert s.turn_track[5:] == (NOBODY, 3, 2, 1)  # marker 0 already took its turn...
    assert s.turn is not None and s.decision.player == 0  # ...it plays first


def test_kumarbi_with_the_zero_spots_full_can_make_a_non_zero_spot_cost_nothing() -> None:
    """Kumarbi with all three zero spots taken: no zero spot is offered, with or without
    Kumarbi, but Kumarbi can still make a non-zero spot cost 0 — here for a player with
    no coin at all, who then keeps the rank of the spot chosen."""
    rules, s = bidding(0, (1, 2, 3, 0))
    s = play(rules, s, "bid 0", "bid 0", "bid 0")
    assert s.decision.player == 0
    s = player(rules, s, 0, coins=0)
    assert "bid 0" not in options(rules, s)
    found = djinn_options(rules, s, "kumarbi")
    assert set(found) == {"kumarbi 1 F", "kumarbi 3 FF", "kumarbi 5 FFF"}
    after = play(rules, s, "kumarbi 3 FF")
    assert after.players[0].cards == (FAKIR,)
    assert coins(after, 0) == 0
    assert after.turn is not None and after.decision.player == 0  # spot 3 plays first


# -- Sibittis when the djinn pile runs out -----------------------------------------------

ROW = ("boaz", "marid", "monkir")


def sibittis_position(draw: tuple[str, ...], discard: tuple[str, ...]) -> tuple[Rules, State]:
    rules, s = position({"b3": "W", "c3": "W"})
    s = player(rules, s, 0, djinns=["sibittis"], meeples="WW")
    return rules, deck(rules, s, "djinns", row=ROW, draw=draw, discard=discard)


def test_sibittis_reshuffles_the_discards_to_finish_the_draw() -> None:
    """Sibittis: when the pile runs out mid-draw, the discard pile is reshuffled to finish
    the draw of 3; the face-up row is untouched; the 2 not kept are discarded."""
    discards = ("shamhat", "haurvatat", "al-amin")
    rules, s = sibittis_position(draw=("jafaar",), discard=discards)
    s = play(rules, s, "sibittis EE")
    assert s.decision.stage == "keep-djinn"
    assert s.turn is not None
    drawn = s.turn.revealed
    assert len(drawn) == 3 and drawn[0] == "jafaar"
    assert set(drawn[1:]) < set(discards)
    djinns = s.decks[DJINN_DECK]
    assert djinns.row == ROW
    assert djinns.discard == ()
    assert set(djinns.draw) == set(discards) - set(drawn)
    assert options(rules, s) == sorted(f"keep {d}" for d in drawn)
    after = play(rules, s, f"keep {drawn[1]}")
    assert after.players[0].djinns == ("sibittis", drawn[1])
    assert sorted(after.decks[DJINN_DECK].discard) == sorted((drawn[0], drawn[2]))
    assert after.decks[DJINN_DECK].row == ROW
    assert after.decision.stage == "pick"


def test_sibittis_with_fewer_than_three_djinns_left_draws_them_all() -> None:
    """Sibittis: with fewer than 3 djinns in the pile and the discards together, all of them
    are drawn and one is kept; the face-up row is untouched."""
    rules, s = sibittis_position(draw=("jafaar",), discard=("shamhat",))
    s = play(rules, s, "sibittis EE")
    assert s.turn is not None and s.turn.revealed == ("jafaar", "shamhat")
    assert s.decks[DJINN_DECK] == attrs.evolve(s.decks[DJINN_DECK], draw=(), discard=(), row=ROW)
    after = play(rules, s, "keep shamhat")
    assert after.players[0].djinns == ("sibittis", "shamhat")
    assert after.decks[DJINN_DECK].discard == ("jafaar",)
    alone = play(rules, sibittis_position(draw=(), discard=("shamhat",))[1], "sibittis EE")
    assert options(rules, alone) == ["keep shamhat"]


def test_sibittis_is_not_offered_when_pile_and_discards_are_empty() -> None:
    """Sibittis: with no djinn in the pile nor the discards it is not offered, even with a
    full face-up row (which Sibittis never touches)."""
    rules, s = sibittis_position(draw=(), discard=())
    assert not djinn_options(rules, s, "sibittis")
    rules, s = sibittis_position(draw=("jafaar",), discard=())
    assert djinn_options(rules, s, "sibittis") == ["sibittis EE"]


# -- Al-Amin's pairs of Fakirs -----------------------------------------------------------


def test_al_amin_turns_each_pair_of_fakirs_into_a_wild_at_final_scoring() -> None:
    """Al-Amin: at final scoring each pair of Fakirs is one wild merchandise, placed where it
    scores most: fish + wheat (3) with two wilds become a suit of 4 (13). An odd Fakir does
    nothing (5 Fakirs score like 4)."""
    rules, s = position({"b3": "W", "c3": "W"})
    for n in (4, 5):
        held = player(rules, s, 0, djinns=["al-amin"], cards=[FAKIR] * n + ["fish", "wheat"])
        lines = [x for x in rules.score_lines(held, 0) if x.category == "merchandise"]
        assert [(x.source, x.points) for x in lines] == [("base", 3), ("al-amin", 10)]
    without = player(rules, s, 0, cards=[FAKIR] * 4 + ["fish", "wheat"])
    assert line(rules, without, 0, "merchandise") == 3


def test_al_amin_never_puts_two_of_one_type_in_a_suit() -> None:
    """Al-Amin: wilds join existing suits only as types the suit lacks; a suit of all 9
    types takes none, so 2 wilds make a suit of their own (3)."""
    rules, s = position({"b3": "W", "c3": "W"})
    goods = ["ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery"]
    s = player(rules, s, 0, djinns=["al-amin"], cards=[FAKIR] * 4 + goods)
    assert line(rules, s, 0, "merchandise") == 60 + 3


def test_al_amin_wilds_cannot_be_sold_during_the_game() -> None:
    """Al-Amin: the wilds exist only at final scoring; the sale never offers a Fakir."""
    rules, s = position({"b3": "W", "c3": "W"}, stage="sell")
    s = player(rules, s, 0, djinns=["al-amin"], cards=[FAKIR] * 4 + ["fish"])
    assert options(rules, s) == ["end", "sell fish"]
    only_fakirs = player(rules, s, 0, cards=[FAKIR] * 4)
    assert options(rules, only_fakirs) == ["end"]


# -- Leta / Utug without a spare camel ---------------------------------------------------


@pytest.mark.parametrize("card", ["leta", "utug"])
def test_leta_and_utug_are_not_offered_without_a_camel(card: str) -> None:
    """Leta / Utug place a camel: with none left they are not offered."""
    rules, s = position({"b3": "W", "c3": "W", "a1": "G"})
    s = player(rules, s, 0, djinns=[card], meeples="WW", cards=[FAKIR])
    assert djinn_options(rules, s, card)
    assert not djinn_options(rules, player(rules, s, 0, camels=0), card)


@pytest.mark.parametrize(("card", "target"), [("leta", "e5"), ("utug", "a1")])
def test_leta_and_utug_using_the_last_camel_end_the_game_after_the_round(
    card: str, target: str
) -> None:
    """Leta / Utug with exactly one camel left: using it takes the tile with the last
    camel, which triggers the last-camel end: the round is finished, then the game ends."""
    rules, s = position({"b3": "W", "c3": "W", "a1": "GY", "a2": "Y"}, players=3)
    s = plays_next(s, 1)
    s = player(rules, s, 0, djinns=[card], meeples="WW", camels=1)
    s = play(rules, s, f"{card} {target} EE")
    assert s.players[0].camels == 0
    assert s.board.owners[tile(s, target)] == 0
    s = play_turn(rules, s)
    assert s.has_flag(LAST_CAMEL)
    assert not s.is_over
    assert s.decision.player == 1 and s.turn is not None
    s = play_turn(rules, s)
    assert s.is_over


# -- Anun-Nak with fewer than 3 meeples in the bag ---------------------------------------


def test_anun_nak_places_all_the_meeples_left_when_the_bag_holds_fewer_than_three() -> None:
    """Anun-Nak with 2 meeples in the bag: both are put on the chosen empty tile."""
    rules, s = position({"b3": "W", "c3": "W"})
    s = set_bag(rules, s, "GB")
    s = player(rules, s, 0, djinns=["anun-nak"], cards=[FAKIR])
    after = play(rules, s, "anun-nak e5 F")
    assert on_tile(rules, after, "e5") == "GB"
    assert sum(after.bag) == 0
    assert after.decision.stage == "pick"


def test_anun_nak_is_not_offered_with_an_empty_bag() -> None:
    """Anun-Nak with an empty bag is not offered, however the player could pay."""
    rules, s = position({"b3": "W", "c3": "W"})
    s = player(rules, s, 0, djinns=["anun-nak"], meeples="WW", cards=[FAKIR])
    assert djinn_options(rules, set_bag(rules, s, "Y"), "anun-nak")
    assert not djinn_options(rules, set_bag(rules, s, ""), "anun-nak")


# -- Marid on a loop ---------------------------------------------------------------------

# a2 → b2 → c2 → c3 → b3 → b2: the loop drops two elders on b2 (an oasis)
LOOP = ("pick a2", "drop b2 W", "drop c2 G", "drop c3 G", "drop b3 G", "drop b2 W")


@pytest.mark.parametrize(("marid_owner", "paid"), [(0, 2), (1, 4)])
def test_marid_pays_for_each_meeple_dropped_twice_on_the_same_owned_tile(
    marid_owner: int, paid: int
) -> None:
    """Marid on a loop dropping twice on the same owned tile pays for each meeple: twice
    1 coin when the move is the owner's own, twice 2 when it is an opponent's."""
    rules, s = position({"a2": "WWGGG"}, {"b2": "oasis-2", "c3": "small-market-1"})
    s = board(rules, s, owners={"b2": marid_owner})
    s = player(rules, s, marid_owner, djinns=["marid"])
    halfway = play(rules, s, *LOOP[:2])
    assert coins(halfway, marid_owner) == coins(s, marid_owner) + paid // 2
    after = play(rules, s, *LOOP)
    assert kept(rules, after, 0) == "WW"
    assert coins(after, marid_owner) == coins(s, marid_owner) + paid


# -- Ba'al ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("baal_owner", "paid"), [(0, 1), (1, 2)])
def test_baal_pays_for_a_djinn_taken_through_sibittis(baal_owner: int, paid: int) -> None:
    """Ba'al pays for every djinn taken, including one kept through Sibittis: 1 coin to an
    owner who took it, 2 to an owner whose opponent did."""
    rules, s = sibittis_position(draw=("jafaar", "shamhat", "haurvatat"), discard=())
    s = player(rules, s, baal_owner, djinns=[*s.players[baal_owner].djinns, "baal"])
    after = play(rules, s, "sibittis EE", "keep shamhat")
    assert "shamhat" in after.players[0].djinns
    assert coins(after, baal_owner) == coins(s, baal_owner) + paid


def test_baal_pays_for_a_djinn_taken_at_a_sacred_place() -> None:
    """Ba'al pays when its owner takes a djinn at a sacred place (1 coin)."""
    rules, s = position({"b3": "Y", "c3": "Y"}, {"c3": "sacred-place-1"})
    s = player(rules, s, 0, djinns=["baal"], meeples="WW")
    s = deck(rules, s, "djinns", row=ROW)
    s = play(rules, s, "pick b3", "drop c3 Y")
    assert s.decision.stage == "tile:sacred-place"
    after = play(rules, s, "djinn marid EE")
    assert after.players[0].djinns == ("baal", "marid")
    assert coins(after, 0) == coins(s, 0) + 1


def test_baal_does_not_pay_for_itself() -> None:
    """Ba'al does not pay for Ba'al itself: keeping Ba'al through Sibittis gives nothing;
    taking it from the row at a sacred place gives nothing either."""
    rules, s = sibittis_position(draw=("baal", "jafaar", "shamhat"), discard=())
    after = play(rules, s, "sibittis EE", "keep baal")
    assert after.players[0].djinns == ("sibittis", "baal")
    assert coins(after, 0) == coins(s, 0)
    rules, s = position({"b3": "Y", "c3": "Y"}, {"c3": "sacred-place-1"})
    s = player(rules, s, 0, meeples="WW")
    s = deck(rules, s, "djinns", row=("baal", "marid", "monkir"))
    s = play(rules, s, "pick b3", "drop c3 Y")
    taken = play(rules, s, "djinn baal EE")
    assert taken.players[0].djinns == ("baal",)
    assert coins(taken, 0) == coins(s, 0)


# -- Monkir --------------------------------------------------------------------------------


@pytest.mark.parametrize(("monkir_owner", "paid"), [(0, 1), (1, 2)])
def test_monkir_pays_for_a_bouraq_palace(monkir_owner: int, paid: int) -> None:
    """Monkir pays for every palace placed, Bouraq's included: 1 coin if its owner placed
    it, 2 if an opponent did."""
    rules, s = position({"b3": "W", "c3": "W"}, {"e5": "village-2"})
    s = player(rules, s, 0, djinns=["bouraq"], cards=[FAKIR])
    s = player(rules, s, monkir_owner, djinns=[*s.players[monkir_owner].djinns, "monkir"])
    after = play(rules, s, "bouraq e5 F")
    assert token_on(rules, after, "e5", "palace") == 1
    assert coins(after, monkir_owner) == coins(s, monkir_owner) + paid


def test_monkir_pays_once_for_a_palace_moved_by_hagis() -> None:
    """Monkir pays for a palace Hagis moved (it is placed, once, on the neighbour): 2 coins
    to the opponent holding Monkir."""
    rules, s = position({"b3": "W", "c3": "W"}, {"c3": "village-1"})
    s = player(rules, s, 0, djinns=["hagis"], cards=[FAKIR])
    s = player(rules, s, 1, djinns=["monkir"])
    s = play(rules, s, "pick b3", "drop c3 W")
    after = play(rules, s, "hagis b2 F")
    assert token_on(rules, after, "b2", "palace") == 1
    assert coins(after, 1) == coins(s, 1) + 2


# -- Echidna -------------------------------------------------------------------------------


def echidna_position() -> tuple[Rules, State]:
    """The rulebook's builder example: 3 builders collected on c3 (a small market) with 4
    blue tiles around; the mover holds Echidna, 2 elders and 2 Fakirs."""
    rules, s = position({"b3": "B", "c3": "BB"})
    s = lay_area(rules, s, "c3", blue={"b2", "c2", "d2", "b4"})
    s = player(rules, s, 0, djinns=["echidna"], meeples="WW", cards=[FAKIR, FAKIR])
    return rules, s


def test_echidna_doubles_the_fakir_bonus_too() -> None:
    """Echidna doubles the whole builder payout, Fakir bonus included: (3 builders + 2
    Fakirs) × 4 blue tiles = 20, doubled to 40."""
    rules, s = echidna_position()
    plain = play(rules, s, "pick b3", "drop c3 B", "fakirs 2")
    assert coins(plain, 0) == coins(s, 0) + 20
    doubled = play(rules, s, "echidna EE", "pick b3", "drop c3 B", "fakirs 2")
    assert coins(doubled, 0) == coins(s, 0) + 40


def test_echidna_is_offered_until_the_builders_are_paid_and_not_after() -> None:
    """Echidna is offered at the pick, the drops and the builders' Fakir decision, and no
    longer once the builders were paid (the tile action, the sale)."""
    rules, s = echidna_position()
    assert djinn_options(rules, s, "echidna")
    s = play(rules, s, "pick b3")
    assert djinn_options(rules, s, "echidna")
    s = play(rules, s, "drop c3 B")
    assert s.decision.stage == "tribe:blue"
    assert djinn_options(rules, s, "echidna")
    s = play(rules, s, "fakirs 1")
    assert s.decision.stage == "tile:small-market"
    assert not djinn_options(rules, s, "echidna")
    s = play(rules, s, "skip")
    assert s.decision.stage == "sell"
    assert not djinn_options(rules, s, "echidna")


# -- Trigger B and djinns ------------------------------------------------------------------


def test_a_player_who_cannot_move_may_use_paid_djinns_at_the_sale() -> None:
    """Trigger B: the next player has no legal move, so they go straight to the sale
    decision, where their paid powers are offered: Sloar takes the top resource card, Enki
    places a palm tree; the game then ends after the round."""
    rules, s = position({"a1": "W"}, {"e5": "oasis-2"}, players=3, stage="sell")
    s = plays_next(s, 1)
    s = player(rules, s, 1, djinns=["sloar", "enki"], meeples="W", cards=[FAKIR])
    s = deck(rules, s, "resources", draw=("gold", "silk"))
    s = play(rules, s, "end")
    assert s.has_flag(NO_MOVES)
    assert s.decision.stage == "sell" and s.decision.player == 1
    assert {"sloar F", "enki e5 E", "enki e5 F", "end"} <= set(options(rules, s))
    s = play(rules, s, "sloar F")
    assert s.players[1].cards == ("gold",)
    s = play(rules, s, "enki e5 E")
    assert token_on(rules, s, "e5", "palm-tree") == 1
    assert kept(rules, s, 1) == ""
    assert s.decision.stage == "sell"
    assert play(rules, s, "end").is_over


# -- random games with many djinns ---------------------------------------------------------


@attrs.frozen
class Totals:
    meeples: tuple[int, ...]
    cards: Counter[str]
    djinns: Counter[str]
    tokens: tuple[int, ...]
    camels: int


def totals(rules: Rules, players: int) -> Totals:
    content = rules.content
    camels = {pc.players: pc.camels for pc in content.player_counts}[players]
    return Totals(
        meeples=tuple(c.count for c in content.colours),
        cards=Counter({c.id: c.count for c in content.deck("resources")}),
        djinns=Counter(d.id for d in content.deck("djinns")),
        tokens=tuple(t.count for t in content.tokens),
        camels=camels,
    )


def check_invariants(rules: Rules, state: State, want: Totals) -> None:
    where = f"round {state.round}, {state.decision}"
    colours = len(want.meeples)
    hand = state.turn.hand if state.turn is not None and state.turn.hand else (0,) * colours
    for c in range(colours):
        total = (
            sum(t[c] for t in state.board.meeples)
            + state.bag[c]
            + sum(p.meeples[c] for p in state.players)
            + hand[c]
        )
        assert total == want.meeples[c], f"{rules.letters[c]} meeples {total} ({where})"
    resources = state.decks[RESOURCE_DECK]
    cards = Counter(resources.draw + resources.row + resources.discard)
    djinn_deck = state.decks[DJINN_DECK]
    djinns = Counter(djinn_deck.draw + djinn_deck.row + djinn_deck.discard)
    if state.turn is not None:
        djinns.update(state.turn.revealed)
    for p in state.players:
        cards.update(p.cards)
        djinns.update(p.djinns)
    assert cards == want.cards, f"resource cards ({where})"
    assert djinns == want.djinns, f"djinns ({where})"
    for seat, p in enumerate(state.players):
        owned = sum(1 for owner in state.board.owners if owner == seat)
        assert p.camels + owned == want.camels, f"camels of {seat} ({where})"
        assert p.coins >= 0 and p.camels >= 0 and min(p.meeples) >= 0, f"seat {seat} ({where})"
    for k, count in enumerate(want.tokens):
        assert state.pool[k] + sum(t[k] for t in state.board.tokens) == count, where
    assert min(state.bag) >= 0 and min(state.pool) >= 0, where
    assert all(min(t) >= 0 for t in state.board.meeples), where
    if state.turn is not None:
        assert all(n >= 0 for n in state.turn.hand), where
    scores = rules.scores(state)
    for seat, score in enumerate(scores):
        assert sum(x.points for x in rules.score_lines(state, seat)) == score, where


def deal_djinns(rules: Rules, state: State, per_player: int, elders: int, fakirs: int) -> State:
    """Give every player ``per_player`` djinns from the top of the djinn pile, ``elders``
    elders taken off the board and ``fakirs`` Fakirs from the resource pile: everything
    stays conserved."""
    djinn_deck = state.decks[DJINN_DECK]
    draw = list(djinn_deck.draw)
    resources = state.decks[RESOURCE_DECK]
    pile = list(resources.draw)
    white = rules.colour_index["white"]
    grid = list(state.board.meeples)
    for seat, p in enumerate(state.players):
        mine, draw = draw[:per_player], draw[per_player:]
        for _ in range(fakirs):
            pile.remove(FAKIR)
        meeples = list(p.meeples)
        for _ in range(elders):
            t = next(i for i, here in enumerate(grid) if here[white])
            grid[t] = tuple(n - (c == white) for c, n in enumerate(grid[t]))
            meeples[white] += 1
        state = state.replace_player(
            seat,
            attrs.evolve(
                p.with_hand(DJINN_DECK, (*p.djinns, *mine)).with_hand(
                    RESOURCE_DECK, tuple(sorted(p.cards + (FAKIR,) * fakirs))
                ),
                meeples=tuple(meeples),
            ),
        )
    return attrs.evolve(
        state,
        board=attrs.evolve(state.board, meeples=tuple(grid)),
        decks=(
            attrs.evolve(resources, draw=tuple(pile)),
            attrs.evolve(djinn_deck, draw=tuple(draw)),
        ),
    )


@pytest.mark.parametrize(
    ("players", "seed", "per_player"),
    # seeds chosen so that together the games use all 12 paid powers and Sibittis's choice
    [(2, 20, 6), (2, 27, 6), (3, 21, 5), (3, 28, 5), (4, 22, 4), (4, 29, 4)],
)
def test_random_games_with_many_djinns_keep_every_invariant(
    players: int, seed: int, per_player: int
) -> None:
    """Every player starts with many djinns (from the pile), elders and Fakirs; a seeded
    random game then keeps every invariant after every action — meeples, resource cards,
    djinns (those revealed by Sibittis included) and camels conserved, nothing negative,
    score lines adding up — and every option offered leads to a state with options or to
    the end of the game."""
    rules = base_rules()
    want = totals(rules, players)
    state = deal_djinns(rules, rules.new_game(players, seed), per_player, elders=4, fakirs=3)
    agents = [RandomAgent(seed * 10 + seat) for seat in range(players)]
    used: set[str] = set()
    for _ in range(20_000):
        check_invariants(rules, state, want)
        legal = rules.legal_actions(state)
        if state.is_over:
            assert legal == []
            break
        assert legal, f"no option at {state.decision}"
        for option in legal:
            child = rules.apply(state, option)
            assert child.is_over or rules.legal_actions(child), f"{option} is a dead end"
        choice = agents[state.decision.player].choose(rules, state, legal)
        used.add(choice.kind)
        state = rules.apply(state, choice)
    assert state.is_over, "the game did not end"
    assert rules.winners(state)
    assert used & {c.id for c in rules.content.deck("djinns")}, "no djinn power was used"
