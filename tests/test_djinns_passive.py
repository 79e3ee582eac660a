"""Scenario tests for the djinns without a cost: the triggered ones (Ba'al, Marid, Monkir,
Nekir, Kandicha, Boaz) and the end-game ones (Al-Amin, Haurvatat, Jafaar, Shamhat).

Content facts §2 and the table of decided interactions in docs/rules-notes.md ("Djinns").
Every position is built on an otherwise empty 2-player board (3 players where a test says
so); c3 is an oasis unless a test says otherwise, so the tile action after a move that ends
there needs no decision. Each test checks what the power changes, so it fails without it.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import pytest

from naqala.core.engine import Rules
from naqala.core.state import State, effect_counts
from naqala.plugins.base.merchandise import best_with_wilds, merchandise_types, suit_value
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    board,
    deck,
    kept,
    options,
    play,
    player,
    tokens,
    turn_of,
)

FAKIR = "fakir"
ROW = ("fish", "silk", "gold", "wheat", "spice", "ivory", "jewels", "papyrus", "pottery")
GOODS = ROW  # the 9 merchandise types


def position(
    meeples: Mapping[str, str],
    *,
    seat: int = 0,
    players: int = 2,
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
    djinns: Mapping[int, Sequence[str]] | None = None,
) -> tuple[Rules, State]:
    """A game where only the named tiles hold meeples and player ``seat`` is to move; c3 is
    an oasis unless ``tiles`` says otherwise. Every player has 50 coins and no cards; the
    resource row is ``ROW`` with empty draw and discard piles (tests set them as needed);
    ``djinns`` gives djinns to players by seat."""
    rules = base_rules()
    state = rules.new_game(players, 7)
    state = board(
        rules, state, meeples, clear=True, tiles={"c3": "oasis-1", **(tiles or {})}, owners=owners
    )
    state = deck(rules, state, "resources", row=ROW, draw=(), discard=())
    for index in range(players):
        state = player(rules, state, index, coins=50, cards=[], djinns=[], meeples="")
    for index, cards in (djinns or {}).items():
        state = player(rules, state, index, djinns=list(cards))
    return rules, turn_of(rules, state, seat)


def coins(state: State) -> list[int]:
    return [p.coins for p in state.players]


def bag_change(rules: Rules, before: State, after: State) -> str:
    """Meeples that went into the bag between two states, as letters (none taken out)."""
    delta = [b - a for a, b in zip(before.bag, after.bag, strict=True)]
    assert all(d >= 0 for d in delta), "meeples were taken out of the bag"
    return "".join(letter * n for letter, n in zip(rules.letters, delta, strict=True))


def effects(state: State, card: str) -> int:
    return effect_counts(state).get(card, 0)


def lay_area(rules: Rules, state: State, centre: str, blue: Iterable[str]) -> State:
    """Lay out the 3×3 block around ``centre`` so exactly the tiles named in ``blue`` are
    blue-valued (villages first, then sacred places) and the others red-valued (oases
    first, then markets); c3, outside the block, keeps its tile."""
    blue = set(blue)
    geo = state.geometry
    final = state.layout.tiles[geo.parse("c3")]  # c3 keeps its tile
    blue_ids = [t for t in rules.tile_specs if rules.tile(t).value == "blue" and t != final]
    red_ids = [t for t in rules.tile_specs if rules.tile(t).value == "red" and t != final]
    names = [centre] + [geo.name(t) for t in geo.area[geo.parse(centre)] if geo.name(t) != centre]
    chosen = {name: (blue_ids if name in blue else red_ids).pop(0) for name in names}
    return board(rules, state, tiles=chosen)


# -- Ba'al -------------------------------------------------------------------------------

SACRED = {"b3": "Y", "c3": "Y"}  # pick b3, drop c3 Y: a sacred place at c3 (set by the test)


def sacred_place(seat: int, djinns: Mapping[int, Sequence[str]]) -> tuple[Rules, State]:
    """Player ``seat`` moves onto a sacred place at c3 holding 2 elders; the djinn row is
    Enki, Ba'al (unless somebody holds it), Sloar."""
    rules, s = position(SACRED, seat=seat, tiles={"c3": "sacred-place-1"}, djinns=djinns)
    held = {d for cards in djinns.values() for d in cards}
    s = deck(rules, s, "djinns", row=[d for d in ("enki", "baal", "sloar") if d not in held])
    s = player(rules, s, seat, meeples="WW")
    return rules, play(rules, s, "pick b3", "drop c3 Y")


def test_baal_pays_one_coin_when_its_owner_takes_a_djinn() -> None:
    """Ba'al: whenever any player acquires a djinn, you gain 1 coin if it was you."""
    rules, asked = sacred_place(0, {0: ["baal"]})
    after = play(rules, asked, "djinn enki EE")
    assert after.players[0].djinns == ("baal", "enki")
    assert coins(after) == [51, 50]
    assert effects(after, "baal") == 1


def test_baal_pays_two_coins_when_an_opponent_takes_a_djinn() -> None:
    """… and 2 coins if it was an opponent; the opponent gains nothing."""
    rules, asked = sacred_place(1, {0: ["baal"]})
    after = play(rules, asked, "djinn sloar EE")
    assert after.players[1].djinns == ("sloar",)
    assert coins(after) == [52, 50]
    assert effects(after, "baal") == 1


def test_baal_does_not_pay_for_taking_baal_itself() -> None:
    """Taking Ba'al itself pays nothing (decided: GameTheory does not pay for it); a djinn
    taken after it, even in the same turn (here through Sibittis), does pay."""
    rules, asked = sacred_place(0, {0: ["sibittis"]})
    asked = player(rules, asked, 0, meeples="WWWW")
    asked = deck(rules, asked, "djinns", draw=("enki", "sloar", "hagis"), discard=())
    after = play(rules, asked, "djinn baal EE")
    assert after.players[0].djinns == ("sibittis", "baal")
    assert after.decks[DJINN_DECK].row == ("enki", "sloar")
    assert coins(after) == [50, 50]
    assert effects(after, "baal") == 0
    after = play(rules, after, "sibittis EE", "keep hagis")
    assert after.players[0].djinns == ("sibittis", "baal", "hagis")
    assert coins(after) == [51, 50]
    assert effects(after, "baal") == 1


def test_baal_pays_when_a_djinn_is_taken_through_sibittis() -> None:
    """Decided: Ba'al pays for every djinn taken, also the one kept with Sibittis: 2 coins
    when an opponent keeps one, 1 when the owner does."""
    for seat, paid in ((1, [52, 50]), (0, [51, 50])):
        djinns = {0: ["baal"], seat: ["baal", "sibittis"] if seat == 0 else ["sibittis"]}
        rules, s = position({"b3": "Y", "c3": "Y"}, seat=seat, djinns=djinns)
        s = deck(rules, s, "djinns", draw=("enki", "sloar", "hagis"), discard=())
        s = player(rules, s, seat, meeples="WW")
        drawn = play(rules, s, "sibittis EE")
        assert drawn.decision.stage == "keep-djinn"
        assert coins(drawn) == [50, 50]
        after = play(rules, drawn, "keep sloar")
        assert "sloar" in after.players[seat].djinns
        assert coins(after) == paid
        assert effects(after, "baal") == 1


# -- Marid -------------------------------------------------------------------------------

LINE = {"b3": "YYY", "e3": "Y"}  # pick b3, drop c3 Y, d3 Y, e3 Y


def test_marid_pays_one_coin_per_meeple_dropped_on_its_owners_tiles_in_their_move() -> None:
    """Marid: whenever a meeple is dropped on one of your tiles during a move, gain 1 coin
    if the move is yours, per meeple dropped; dropping on an opponent's tile pays
    nothing."""
    rules, s = position(LINE, owners={"c3": 0, "d3": 0, "e3": 1}, djinns={0: ["marid"]})
    s = board(rules, s, tiles={"e3": "oasis-2"})
    after = play(rules, s, "pick b3", "drop c3 Y", "drop d3 Y")
    assert coins(after) == [52, 50]
    after = play(rules, after, "drop e3 Y")
    assert after.decision.stage == "sell"
    assert coins(after) == [52, 50]
    assert effects(after, "marid") == 2


def test_marid_pays_two_coins_per_meeple_in_an_opponents_move() -> None:
    """An opponent's move dropping on your tiles pays you 2 coins per meeple; the mover
    gains nothing from it."""
    rules, s = position(LINE, seat=1, owners={"c3": 0, "d3": 0}, djinns={0: ["marid"]})
    s = board(rules, s, tiles={"e3": "oasis-2"})
    after = play(rules, s, "pick b3", "drop c3 Y", "drop d3 Y", "drop e3 Y")
    assert coins(after) == [54, 50]
    assert effects(after, "marid") == 2


def test_marid_ignores_tiles_owned_by_others_or_nobody() -> None:
    """Only the owner's tiles count: drops on unowned tiles and on the tiles of another
    player pay the Marid owner nothing."""
    rules, s = position(LINE, owners={"c3": 1}, djinns={0: ["marid"]})
    s = board(rules, s, tiles={"e3": "oasis-2"})
    after = play(rules, s, "pick b3", "drop c3 Y", "drop d3 Y", "drop e3 Y")
    assert coins(after) == [50, 50]
    assert effects(after, "marid") == 0
    rules, s = position(LINE, seat=1, owners={"c3": 1, "e3": 1}, djinns={0: ["marid"]})
    s = board(rules, s, tiles={"e3": "oasis-2"})
    after = play(rules, s, "pick b3", "drop c3 Y", "drop d3 Y", "drop e3 Y")
    assert coins(after) == [50, 50]
    assert effects(after, "marid") == 0


def test_marid_pays_twice_for_a_loop_dropping_twice_on_the_same_tile() -> None:
    """Decided: a loop that drops twice on the same owned tile pays for each meeple
    dropped, so twice (c2 → c3, d3, d4, c4, c3 with c3 the owner's)."""
    rules, s = position({"c2": "YYYYY", "c3": "Y"}, owners={"c3": 0}, djinns={0: ["marid"]})
    after = play(rules, s, "pick c2", "drop c3 Y", "drop d3 Y", "drop d4 Y", "drop c4 Y")
    assert coins(after) == [51, 50]
    after = play(rules, after, "drop c3 Y")
    assert after.decision.stage == "sell"
    assert coins(after) == [52, 50]
    assert effects(after, "marid") == 2
    # the same loop by the opponent pays 2 per meeple
    rules, s = position({"c2": "YYYYY", "c3": "Y"}, seat=1, owners={"c3": 0}, djinns={0: ["marid"]})
    after = play(rules, s, "pick c2", "drop c3 Y", "drop d3 Y", "drop d4 Y", "drop c4 Y")
    after = play(rules, after, "drop c3 Y")
    assert coins(after) == [54, 50]


# -- Monkir ------------------------------------------------------------------------------

VILLAGE = {"b3": "Y", "c3": "Y"}  # pick b3, drop c3 Y onto a village at c3


def palaces(rules: Rules, state: State, name: str) -> int:
    return state.board.tokens[state.geometry.parse(name)][rules.token_index["palace"]]


def test_monkir_pays_for_palaces_placed_by_village_actions() -> None:
    """Monkir: whenever a palace is placed, gain 1 coin if you placed it, 2 if an opponent
    did."""
    for seat, paid in ((0, [51, 50]), (1, [52, 50])):
        rules, s = position(VILLAGE, seat=seat, tiles={"c3": "village-1"}, djinns={0: ["monkir"]})
        after = play(rules, s, "pick b3", "drop c3 Y")
        assert palaces(rules, after, "c3") == 1
        assert coins(after) == paid
        assert effects(after, "monkir") == 1


def test_monkir_pays_for_palaces_placed_with_bouraq() -> None:
    """Decided: every palace placed counts, Bouraq's too; a Bouraq palace and the village
    action in the same turn pay twice (1 + 1 for the owner, 2 + 2 for an opponent)."""
    for seat, after_bouraq, after_village in ((0, 51, 52), (1, 52, 54)):
        djinns = {0: ["monkir"], seat: ["monkir", "bouraq"] if seat == 0 else ["bouraq"]}
        rules, s = position(VILLAGE, seat=seat, tiles={"c3": "village-1"}, djinns=djinns)
        s = board(rules, s, tiles={"f5": "village-2"})
        s = player(rules, s, seat, meeples="W")
        used = play(rules, s, "bouraq f5 E")
        assert palaces(rules, used, "f5") == 1
        assert coins(used) == [after_bouraq, 50]
        after = play(rules, used, "pick b3", "drop c3 Y")
        assert palaces(rules, after, "c3") == 1
        assert coins(after) == [after_village, 50]
        assert effects(after, "monkir") == 2


def test_monkir_pays_once_for_a_palace_moved_with_hagis() -> None:
    """Decided: a palace that Hagis moves to a neighbouring tile is still placed once, and
    pays once (2 coins, the opponent placed it)."""
    djinns = {0: ["monkir"], 1: ["hagis"]}
    rules, s = position(VILLAGE, seat=1, tiles={"c3": "village-1"}, djinns=djinns)
    s = player(rules, s, 1, meeples="W")
    asked = play(rules, s, "pick b3", "drop c3 Y")
    assert asked.decision.stage == "tile:village"
    after = play(rules, asked, "hagis d4 E")
    assert (palaces(rules, after, "c3"), palaces(rules, after, "d4")) == (0, 1)
    assert coins(after) == [52, 50]
    assert effects(after, "monkir") == 1


def test_monkir_pays_nothing_when_no_palace_is_left() -> None:
    """A village action with an empty bank places no palace, so Monkir pays nothing."""
    rules, s = position(VILLAGE, seat=1, tiles={"c3": "village-1"}, djinns={0: ["monkir"]})
    s = tokens(rules, s, pool={"palace": 0})
    after = play(rules, s, "pick b3", "drop c3 Y")
    assert palaces(rules, after, "c3") == 0
    assert coins(after) == [50, 50]
    assert effects(after, "monkir") == 0


# -- Nekir -------------------------------------------------------------------------------

KILL = {"b3": "R", "c3": "R", "d3": "GG"}  # pick b3, drop c3 R: 2 assassins, reach 2


def test_nekir_pays_one_coin_when_its_owners_assassins_kill() -> None:
    """Nekir: whenever assassins kill, gain 1 coin if they were yours."""
    rules, s = position(KILL, djinns={0: ["nekir"]})
    after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert coins(after) == [51, 50]
    assert effects(after, "nekir") == 1


def test_nekir_pays_two_coins_when_an_opponents_assassins_kill() -> None:
    """… and 2 coins if they were an opponent's, whether the victim stood on a tile or in
    front of a player (here the Nekir owner's own vizier)."""
    rules, s = position(KILL, seat=1, djinns={0: ["nekir"]})
    s = player(rules, s, 0, meeples="Y")
    on_tile = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert coins(on_tile) == [52, 50]
    in_front = play(rules, s, "pick b3", "drop c3 R", "kill p1 Y")
    assert kept(rules, in_front, 0) == ""
    assert coins(in_front) == [52, 50]
    assert effects(in_front, "nekir") == 1


def test_nekir_pays_for_each_meeple_of_an_iblis_double_kill() -> None:
    """Decided: with Iblis each meeple killed is a kill, so an opponent's double kill pays
    the Nekir owner 2 × 2 coins."""
    rules, s = position(KILL, seat=1, djinns={0: ["nekir"], 1: ["iblis"]})
    s = player(rules, s, 1, meeples="W")
    after = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill d3 G")
    assert coins(after) == [52, 50]
    after = play(rules, after, "kill d3 G")
    assert coins(after) == [54, 50]
    assert effects(after, "nekir") == 2


# -- Kandicha ----------------------------------------------------------------------------


def test_kandicha_merchant_killed_takes_the_top_resource_card() -> None:
    """Kandicha: when your assassins kill a merchant, take the top card of the resource
    draw pile (not from the face-up row)."""
    rules, s = position(KILL, djinns={0: ["kandicha"]})
    s = deck(rules, s, "resources", draw=("gold", "fish"))
    after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert after.players[0].cards == ("gold",)
    assert after.decks[RESOURCE_DECK].draw == ("fish",)
    assert after.decks[RESOURCE_DECK].row == ROW
    assert effects(after, "kandicha") == 1


def test_kandicha_merchant_with_an_empty_draw_pile_reshuffles_the_discards() -> None:
    """Decided: if the draw pile is empty the discards are reshuffled to draw from."""
    rules, s = position(KILL, djinns={0: ["kandicha"]})
    s = deck(rules, s, "resources", draw=(), discard=("silk",))
    after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert after.players[0].cards == ("silk",)
    assert after.decks[RESOURCE_DECK].discard == ()


def test_kandicha_builder_killed_earns_its_builder_payout() -> None:
    """A builder killed on a tile earns 1 coin per blue-valued tile in the 3×3 area around
    the tile it stood on (its own tile included); none in the area, nothing."""
    rules, s = position({"b3": "R", "c3": "R", "e3": "BG"}, djinns={0: ["kandicha"]})
    s = lay_area(rules, s, "e3", blue={"e3", "f2", "f4"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill e3 B")
    assert coins(after) == [53, 50]
    assert bag_change(rules, s, after) == "BRR"
    assert effects(after, "kandicha") == 1
    s = lay_area(rules, s, "e3", blue=())
    after = play(rules, s, "pick b3", "drop c3 R", "kill e3 B")
    assert coins(after) == [50, 50]
    assert effects(after, "kandicha") == 0


def test_kandicha_vizier_or_elder_killed_goes_in_front_of_the_killer() -> None:
    """A vizier or elder killed, on a tile or in front of an opponent, goes in front of the
    killer instead of into the bag."""
    rules, s = position({"b3": "R", "c3": "R", "d3": "YG"}, djinns={0: ["kandicha"]})
    s = player(rules, s, 1, meeples="YW")
    on_tile = play(rules, s, "pick b3", "drop c3 R", "kill d3 Y")
    assert kept(rules, on_tile, 0) == "Y"
    assert bag_change(rules, s, on_tile) == "RR"
    assert effects(on_tile, "kandicha") == 1
    for letter in "YW":
        in_front = play(rules, s, "pick b3", "drop c3 R", f"kill p2 {letter}")
        assert kept(rules, in_front, 0) == letter
        assert kept(rules, in_front, 1) == "YW".replace(letter, "")
        assert bag_change(rules, s, in_front) == "RR"


def test_kandicha_assassin_killed_gives_nothing() -> None:
    """An assassin killed gives the killer nothing: no coins, cards or meeples."""
    rules, s = position({"b3": "R", "c3": "R", "e3": "RGB"}, djinns={0: ["kandicha"]})
    s = deck(rules, s, "resources", draw=("gold",))
    s = lay_area(rules, s, "e3", blue={"e2", "e4"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill e3 R")
    assert coins(after) == [50, 50]
    assert after.players[0].cards == ()
    assert kept(rules, after, 0) == ""
    assert bag_change(rules, s, after) == "RRR"
    assert effects(after, "kandicha") == 0


def test_kandicha_rewards_only_its_owners_assassins() -> None:
    """Only the owner's assassins: an opponent killing a merchant or a vizier gains
    nothing from the Kandicha owner's card, and neither does the owner."""
    rules, s = position({"b3": "R", "c3": "R", "d3": "YG"}, seat=1, djinns={0: ["kandicha"]})
    s = deck(rules, s, "resources", draw=("gold",))
    for victim in "GY":
        after = play(rules, s, "pick b3", "drop c3 R", f"kill d3 {victim}")
        assert [p.cards for p in after.players] == [(), ()]
        assert kept(rules, after, 0) == kept(rules, after, 1) == ""
        assert bag_change(rules, s, after) == {"G": "GRR", "Y": "YRR"}[victim]
        assert effects(after, "kandicha") == 0


def test_kandicha_counts_each_meeple_of_an_iblis_double_kill() -> None:
    """Decided: with Iblis, Kandicha rewards each meeple killed: two viziers killed in
    front of the same opponent both go in front of the killer."""
    rules, s = position(KILL, djinns={0: ["kandicha", "iblis"]})
    s = player(rules, s, 0, cards=[FAKIR])
    s = player(rules, s, 1, meeples="YYW")
    after = play(rules, s, "iblis F", "pick b3", "drop c3 R", "kill p2 Y", "kill p2 Y")
    assert kept(rules, after, 0) == "YY"
    assert kept(rules, after, 1) == "W"
    assert effects(after, "kandicha") == 2


# -- Boaz --------------------------------------------------------------------------------


def test_boaz_hides_its_owners_viziers_and_elders_from_assassins() -> None:
    """Boaz: assassins cannot kill the viziers and elders in front of you; meeples on
    tiles, even tiles you own, can still be killed."""
    meeples = {"b3": "R", "c3": "R", "d3": "G", "c4": "Y"}
    rules, s = position(meeples, seat=1, owners={"c4": 0}, djinns={0: ["boaz"]})
    s = player(rules, s, 0, meeples="YW")
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert sorted(options(rules, asked)) == ["kill c4 Y", "kill d3 G"]
    assert effects(asked, "boaz") == 1
    without = player(rules, s, 0, djinns=[])
    asked = play(rules, without, "pick b3", "drop c3 R")
    assert sorted(options(rules, asked)) == ["kill c4 Y", "kill d3 G", "kill p1 W", "kill p1 Y"]
    assert effects(asked, "boaz") == 0


def test_boaz_protects_only_its_owner() -> None:
    """At 3 players, the opponent without Boaz can still lose viziers and elders; the Boaz
    owner's own assassins kill in front of opponents as usual."""
    rules, s = position({"b3": "R", "c3": "R"}, seat=1, players=3, djinns={0: ["boaz"]})
    s = player(rules, s, 0, meeples="YW")
    s = player(rules, s, 2, meeples="YW")
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert sorted(options(rules, asked)) == ["kill p3 W", "kill p3 Y"]
    rules, s = position({"b3": "R", "c3": "R"}, seat=0, djinns={0: ["boaz"]})
    s = player(rules, s, 0, meeples="YW")
    s = player(rules, s, 1, meeples="Y")
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert options(rules, asked) == ["kill p2 Y"]


def test_boaz_with_only_protected_targets_the_assassins_kill_nothing() -> None:
    """If the only victims in reach are the Boaz owner's viziers and elders, the assassins
    go back to the bag without killing and the turn moves on."""
    rules, s = position({"b3": "R", "c3": "R"}, seat=1, djinns={0: ["boaz"]})
    s = player(rules, s, 0, meeples="YWW")
    after = play(rules, s, "pick b3", "drop c3 R")
    assert after.decision.stage == "sell"
    assert kept(rules, after, 0) == "YWW"
    assert bag_change(rules, s, after) == "RR"
    assert effects(after, "boaz") == 1


def test_boaz_against_iblis_second_kill() -> None:
    """Decided: Boaz's viziers and elders are never targets of an Iblis double kill either;
    after a kill on a tile the second comes from that tile only."""
    meeples = {"b3": "R", "c3": "R", "d3": "GG"}
    rules, s = position(meeples, seat=1, djinns={0: ["boaz"], 1: ["iblis"]})
    s = player(rules, s, 0, meeples="YW")
    s = player(rules, s, 1, cards=[FAKIR])
    asked = play(rules, s, "iblis F", "pick b3", "drop c3 R")
    assert options(rules, asked) == ["kill d3 G"]
    second = play(rules, asked, "kill d3 G")
    assert options(rules, second) == ["kill d3 G"]
    after = play(rules, second, "kill d3 G")
    assert kept(rules, after, 0) == "YW"


# -- end game: Haurvatat, Jafaar, Shamhat ------------------------------------------------


def game(players: int = 2) -> tuple[Rules, State]:
    rules = base_rules()
    state = rules.new_game(players, 3)
    for index in range(players):
        state = player(rules, state, index, coins=0, cards=[], djinns=[], meeples="")
    return rules, state


def lines_of(rules: Rules, state: State, seat: int, category: str) -> dict[str, int]:
    """Points of one category by source (base, or a djinn id)."""
    found: dict[str, int] = {}
    for line in rules.score_lines(state, seat):
        if line.category == category:
            found[line.source] = found.get(line.source, 0) + line.points
    return found


def check_end_djinn(
    rules: Rules, state: State, seat: int, card: str, category: str, base: int, bonus: int
) -> None:
    """With ``card`` held by ``seat``: the base line of ``category`` is ``base`` and the
    djinn adds a line of ``bonus`` in that category; the total is the score without the
    djinn plus its VP and ``bonus``, and equals the sum of the lines."""
    held = player(rules, state, seat, djinns=[card])
    assert lines_of(rules, held, seat, category) == {"base": base, card: bonus}
    assert bonus != 0
    total = rules.scores(held)[seat]
    assert total == sum(line.points for line in rules.score_lines(held, seat))
    assert total == rules.scores(state)[seat] + rules.content.card(card).vp + bonus
    others = [p for p in range(len(state.players)) if p != seat]
    for other in others:
        assert card not in {line.source for line in rules.score_lines(held, other)}
        assert rules.scores(held)[other] == rules.scores(state)[other]


def test_haurvatat_palm_trees_on_own_tiles_are_worth_5() -> None:
    """Haurvatat: your palm trees are worth 5 VP each instead of 3; palm trees on other
    players' tiles or unowned tiles are not yours."""
    rules, s = game()
    s = board(rules, s, owners={"a1": 0, "b1": 0, "c1": 1})
    palm = "palm-tree"
    s = tokens(rules, s, {"a1": {palm: 2}, "b1": {palm: 1}, "c1": {palm: 1}, "d1": {palm: 2}})
    check_end_djinn(rules, s, 0, "haurvatat", "palm-trees", 9, 6)
    held = player(rules, s, 0, djinns=["haurvatat"])
    assert sum(lines_of(rules, held, 0, "palm-trees").values()) == 3 * 5


def test_jafaar_viziers_are_worth_3_and_the_majority_bonus_is_unchanged() -> None:
    """Jafaar: each of your viziers is worth 3 VP instead of 1; the 10 VP bonus for each
    opponent with fewer viziers stays 10."""
    rules, s = game()
    s = player(rules, s, 0, meeples="YYYY")
    s = player(rules, s, 1, meeples="YY")
    check_end_djinn(rules, s, 0, "jafaar", "viziers", 4, 8)
    held = player(rules, s, 0, djinns=["jafaar"])
    assert lines_of(rules, held, 0, "vizier-majority") == {"base": 10}
    assert lines_of(rules, held, 1, "vizier-majority") == {"base": 0}


def test_shamhat_elders_are_worth_4() -> None:
    """Shamhat: each of your elders is worth 4 VP instead of 2."""
    rules, s = game()
    s = player(rules, s, 0, meeples="WWWY")
    s = player(rules, s, 1, meeples="WW")
    check_end_djinn(rules, s, 0, "shamhat", "elders", 6, 6)


def test_end_game_djinns_without_their_pieces_add_nothing() -> None:
    """With no palm tree, vizier or elder the end-game djinns add 0 (their VP still
    count)."""
    rules, s = game()
    for card, category in (
        ("haurvatat", "palm-trees"),
        ("jafaar", "viziers"),
        ("shamhat", "elders"),
        ("al-amin", "merchandise"),
    ):
        held = player(rules, s, 0, djinns=[card])
        assert lines_of(rules, held, 0, category).get(card, 0) == 0
        assert rules.scores(held)[0] == rules.scores(s)[0] + rules.content.card(card).vp


# -- end game: Al-Amin -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "base", "total"),
    [
        # a pair of Fakirs completes fish+silk into a suit of 3: 7 instead of 3
        (["fish", "silk", FAKIR, FAKIR], 3, 7),
        # an odd Fakir does nothing
        (["fish", "silk", FAKIR, FAKIR, FAKIR], 3, 7),
        (["fish", FAKIR], 1, 1),
        # wilds alone form suits: 2 wilds are a suit of 2
        ([FAKIR] * 4, 0, 3),
        ([FAKIR] * 5, 0, 3),
        # the wild joins one of two fish suits: 3 + 1
        (["fish", "fish", FAKIR, FAKIR], 2, 4),
        # two wilds both go into the same suit: 13 + 3 beats 7 + 7
        (["fish", "fish", "silk", "silk", *[FAKIR] * 4], 6, 16),
        # a full suit of 9 takes no wild: the wild makes a suit of its own
        ([*GOODS, FAKIR, FAKIR], 60, 61),
        # 18 Fakirs: 9 wilds, a full suit of 9 on their own
        ([FAKIR] * 18, 0, 60),
    ],
)
def test_al_amin_pairs_of_fakirs_are_wild_merchandise(
    cards: list[str], base: int, total: int
) -> None:
    """Al-Amin: at final scoring each pair of Fakirs counts as one merchandise of any type,
    placed where it scores most (decided); an odd Fakir does nothing."""
    rules, s = game()
    s = player(rules, s, 0, cards=cards)
    held = player(rules, s, 0, djinns=["al-amin"])
    found = lines_of(rules, held, 0, "merchandise")
    assert found["base"] == base
    assert found["base"] + found.get("al-amin", 0) == total
    assert rules.scores(held)[0] == rules.scores(s)[0] + 5 + total - base
    if total != base:
        assert found["al-amin"] == total - base


def test_al_amin_fakirs_cannot_be_sold_as_merchandise() -> None:
    """Decided: the wilds exist only at final scoring; during the sale Fakirs are never
    offered as merchandise."""
    rules, s = position({"b3": "Y", "c3": "Y"}, djinns={0: ["al-amin"]})
    s = player(rules, s, 0, cards=["fish", FAKIR, FAKIR])
    asked = play(rules, s, "pick b3", "drop c3 Y")
    assert asked.decision.stage == "sell"
    assert options(rules, asked) == ["end", "sell fish"]


@functools.cache
def plain_best(values: tuple[int, ...], counts: tuple[int, ...]) -> int:
    """The best score of a hand with no wilds (``counts``: how many of each type held,
    sorted), by trying every way of splitting it into suits of all-different cards: the
    suit holding one card of the first type, with any set of other types, then the rest.
    Independent of ``best_suits``; ``values[n - 1]`` is the value of a suit of n."""
    if not counts:
        return 0
    first, rest = counts[0], counts[1:]
    result = 0
    for size in range(len(rest) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            left = [first - 1, *(n - (i in others) for i, n in enumerate(rest))]
            key = tuple(sorted((n for n in left if n), reverse=True))
            result = max(result, values[size] + plain_best(values, key))
    return result


def brute_force(rules: Rules, goods: Sequence[str], wilds: int) -> int:
    """Try every assignment of merchandise types to the wilds."""
    values = tuple(suit_value(rules, n) for n in range(1, 10))
    kinds = sorted(merchandise_types(rules))
    best = 0
    for extra in itertools.combinations_with_replacement(kinds, wilds):
        held = Counter([*goods, *extra])
        best = max(best, plain_best(values, tuple(sorted(held.values(), reverse=True))))
    return best


def test_al_amin_best_with_wilds_matches_a_brute_force() -> None:
    """``best_with_wilds`` finds the best placement of the wilds: compared with trying
    every type for every wild on small hands (up to 10 goods and 4 wilds)."""
    rules = base_rules()
    rng = random.Random(5)
    hands: list[tuple[list[str], int]] = [
        (["fish", "fish", "silk", "silk"], 2),
        (["fish", "fish", "fish"], 3),
        (list(GOODS), 1),
        ([*GOODS[:8], "fish"], 2),
        ([*GOODS[:5], *GOODS[:3]], 2),
        ([], 4),
    ]
    for _ in range(300):
        types = GOODS[: rng.randint(1, 9)]
        goods = [rng.choice(types) for _ in range(rng.randint(0, 10))]
        hands.append((goods, rng.randint(0, 4)))
    for goods, wilds in hands:
        assert best_with_wilds(rules, goods, wilds) == brute_force(rules, goods, wilds), (
            goods,
            wilds,
        )
