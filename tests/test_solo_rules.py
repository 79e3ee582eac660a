"""Scenario tests for the solo mode against Sultan Yazid (content facts Y1–Y29; the
numbers in content/solo.toml, the UNCONFIRMED choices in docs/rules-notes.md).

Every position is a one-seat game at the start of a round, Yazid's dice fixed by the test
(``rolled``), on a board holding only the meeples the test names."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest

from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import PluginError
from naqala.core.state import (
    ASIDE_CARD,
    ASIDE_MEEPLE,
    NON_PLAYER,
    Deck,
    State,
    aside_meeples,
    evolve,
    get_extra,
    set_aside,
    set_extra,
)
from naqala.plugins.base.setup import SetupError
from naqala.plugins.solo import dice, rounds, sultan
from naqala.plugins.solo.outcome import verdict
from naqala.testing.invariants import assert_invariants
from naqala.testing.scenario import act, board, counts, on_tile, options, play

ROW = ("fish", "silk", "gold", "wheat", "spice", "ivory", "jewels", "papyrus", "pottery")


@functools.cache
def solo_rules() -> Rules:
    return build_rules(["solo"])


def rolled(state: State, white: int, black: int, *targets: str) -> State:
    """Yazid's dice this round show ``white`` and ``black``; his targets are the tiles
    they name, or ``targets`` (after a black 6)."""
    tiles = [state.geometry.parse(t) for t in targets] or [dice.tile_of(state, white, black)]
    extras = set_extra(state.extras, dice.WHITE, white)
    extras = set_extra(extras, dice.BLACK, black)
    extras = set_extra(extras, dice.ROLLED, state.round)
    for key, tile in zip(dice.TARGETS, [*tiles, -1][:2], strict=True):
        extras = set_extra(extras, key, tile + 1)
    return evolve(state, extras=extras)


def position(
    meeples: Mapping[str, str],
    white: int = 3,
    black: int = 3,
    *targets: str,
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> tuple[Rules, State]:
    """Round 1, the player deciding whether to outbid Yazid (dice ``white``/``black``)."""
    rules = solo_rules()
    state = rules.new_game(1, 7)
    assert state.decision.stage == "bid"
    state = board(rules, state, meeples, clear=True, tiles=tiles, owners=owners)
    return rules, rolled(state, white, black, *targets)


def at(state: State, name: str) -> int:
    return state.geometry.parse(name)


def with_row(rules: Rules, state: State, row: tuple[str, ...]) -> State:
    """The resource row holds ``row`` (cards swapped in from the draw pile)."""
    index = rules.deck_index["resources"]
    deck = state.decks[index]
    pile = list(deck.draw + deck.row)
    for card in row:
        pile.remove(card)
    decks = list(state.decks)
    decks[index] = Deck(draw=tuple(pile), row=row, discard=deck.discard)
    return evolve(state, decks=tuple(decks))


def give_yazid(rules: Rules, state: State, meeples: str = "", djinns: int = 0) -> State:
    """Yazid's area holds ``meeples`` (from the bag) and ``djinns`` from the djinn pile."""
    bag = list(state.bag)
    for colour, n in zip(rules.colours, counts(rules, meeples), strict=True):
        if n:
            state = set_aside(state, ASIDE_MEEPLE + colour.id, n)
            bag[rules.colour_index[colour.id]] -= n
    state = evolve(state, bag=tuple(bag))
    index = rules.deck_index["djinns"]
    deck = state.decks[index]
    for card in deck.draw[:djinns]:
        state = set_aside(state, ASIDE_CARD + card, 1)
    decks = list(state.decks)
    decks[index] = evolve(deck, draw=deck.draw[djinns:])
    return evolve(state, decks=tuple(decks))


def coins(state: State) -> int:
    return state.players[0].coins


# -- setup (Y1–Y7) ----------------------------------------------------------------------------


def test_you_take_11_camels_and_25_coins_yazid_11_camels_beside_the_board() -> None:
    rules = solo_rules()
    state = rules.new_game(1, 3)
    assert state.players[0].camels == 11
    assert state.players[0].coins == 25
    assert sultan.camels_left(state) == 11
    assert NON_PLAYER not in state.board.owners
    assert_invariants(rules, state)


def test_the_solo_mode_is_for_one_seat_only() -> None:
    with pytest.raises(SetupError, match=r"2 players is not supported .*allowed: 1"):
        solo_rules().new_game(2, 1)


@pytest.mark.parametrize(("box", "named"), [("artisans",) * 2, ("whims",) * 2, ("djinns", "whims")])
def test_the_solo_sheet_is_for_the_base_game_the_boxes_are_refused(box: str, named: str) -> None:
    """Refused by any name the box goes by, naming it by its name."""
    with pytest.raises(PluginError, match=rf"'solo' cannot be played with '{named}': .*5×6"):
        build_rules(["solo", box])


def test_there_is_no_bid_the_marker_moves_for_free_after_yazid_played() -> None:
    rules, state = position({"c3": "G", "a1": "W", "a2": "W"})
    state = play(rules, state, "bid 0")
    assert coins(state) == 25
    assert state.decision.stage == "pick"
    assert state.turn is not None


# -- the dice (Y13–Y16) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("white", "black", "tile"), [(1, 1, "a5"), (6, 5, "f1"), (3, 2, "c4"), (4, 4, "d2")]
)
def test_white_die_is_the_column_black_die_the_tile_counted_from_the_bottom(
    white: int, black: int, tile: str
) -> None:
    state = solo_rules().new_game(1, 1)
    assert state.geometry.name(dice.tile_of(state, white, black)) == tile


def test_each_round_starts_with_a_roll_of_both_dice_from_the_game_s_generator() -> None:
    rules = solo_rules()
    first, again = rules.new_game(1, 42), rules.new_game(1, 42)
    assert dice.rolled_this_round(first)
    assert first == again
    white, black = dice.dice(first)
    assert 1 <= white <= 6 and 1 <= black <= 6
    rolls = {dice.dice(rules.new_game(1, seed)) for seed in range(40)}
    assert len(rolls) > 10  # the seed decides the roll


def test_a_black_six_makes_yazid_target_two_different_tiles() -> None:
    rules = solo_rules()
    sixes = [s for s in (rules.new_game(1, seed) for seed in range(60)) if dice.dice(s)[1] == 6]
    assert sixes
    for state in sixes:
        first, second = dice.targets(state)
        assert first != second
    ones = [s for s in (rules.new_game(1, seed) for seed in range(20)) if dice.dice(s)[1] != 6]
    assert all(len(dice.targets(s)) == 1 for s in ones)


# -- outbidding Yazid (Y17, Y26) ----------------------------------------------------------


def test_to_outbid_yazid_you_pay_the_dice_sum_and_play_before_him() -> None:
    rules, state = position({"c3": "YR", "a1": "W", "a2": "W"}, 3, 3)
    assert options(rules, state, "bid") == ["bid 0", "bid 6"]
    state = play(rules, state, "bid 6")
    assert coins(state) == 25 - 6
    assert state.decision.stage == "pick"
    assert on_tile(rules, state, "c3") == "YR"  # Yazid has not played yet


def test_after_your_turn_yazid_still_clears_his_target() -> None:
    """The sheet: you "play before him" (``yazid_plays_after_outbid`` = 1)."""
    rules, state = position({"c3": "YR", "a1": "W", "a2": "W"}, 3, 3)
    state = play(rules, state, "bid 6", "pick a1", "drop a2 W")
    while state.decision.stage != "bid" and not state.is_over:
        state = play(rules, state, str(rules.legal_actions(state)[0]))
    assert state.board.owners[at(state, "c3")] == NON_PLAYER
    assert sultan.held(state, "yellow") == 1 and sultan.held(state, "red") == 1
    assert_invariants(rules, state)


def test_you_cannot_outbid_yazid_without_the_coins() -> None:
    rules, state = position({"c3": "Y"}, 6, 5)
    state = evolve(state, players=(evolve(state.players[0], coins=10),))
    assert options(rules, state, "bid") == ["bid 0"]
    assert "costs 11 coins" in rules.explain(state, act("bid 11"))


def test_you_cannot_outbid_yazid_two_rounds_in_a_row() -> None:
    rules, state = position({"c3": "Y"}, 2, 2)
    state = evolve(state, round=3, extras=set_extra(state.extras, rounds.OUTBID, 2))
    state = rolled(state, 2, 2)
    assert options(rules, state, "bid") == ["bid 0"]
    assert "last round" in rules.explain(state, act("bid 4"))
    state = evolve(state, extras=set_extra(state.extras, rounds.OUTBID, 1))
    assert options(rules, state, "bid") == ["bid 0", "bid 4"]


# -- what Yazid does with the target (Y20–Y25, Y29) ---------------------------------------


def test_yazid_takes_every_meeple_of_the_target_and_puts_his_camel_there() -> None:
    rules, state = position({"c3": "YWRG", "a1": "BB"}, 3, 3)
    state = play(rules, state, "bid 0")
    assert on_tile(rules, state, "c3") == ""
    assert state.board.owners[at(state, "c3")] == NON_PLAYER
    assert sultan.camels_left(state) == 10
    assert_invariants(rules, state)


def test_viziers_elders_and_assassins_go_beside_the_board_into_yazid_s_area() -> None:
    rules, state = position({"c3": "YYWR", "a1": "BB"}, 3, 3)
    state = play(rules, state, "bid 0")
    assert sultan.held(state, "yellow") == 2
    assert sultan.held(state, "white") == 1
    assert sultan.held(state, "red") == 1
    assert_invariants(rules, state)


def test_merchants_go_back_to_the_bag_and_as_many_row_cards_are_discarded() -> None:
    rules, state = position({"c3": "GG", "a1": "BB"}, 3, 3)
    state = with_row(rules, state, ROW)
    green = rules.colour_index["green"]
    bag = state.bag[green]
    state = play(rules, state, "bid 0")
    assert state.bag[green] == bag + 2
    resources = state.decks[rules.deck_index["resources"]]
    assert resources.row == ROW[2:]
    assert resources.discard[-2:] == ("fish", "silk")


def test_a_fakir_in_the_merchants_way_goes_to_yazid() -> None:
    """Y23 "except Fakirs" (``merchant_fakirs_to_yazid`` = 1, UNCONFIRMED)."""
    rules, state = position({"c3": "G", "a1": "BB"}, 3, 3)
    state = with_row(rules, state, ("fakir", *ROW[1:]))
    state = play(rules, state, "bid 0")
    assert sultan.fakirs_held(state) == 1
    assert state.decks[rules.deck_index["resources"]].row == ROW[1:]
    assert_invariants(rules, state)


def test_for_yazid_s_builders_you_pay_him_builders_times_blue_tiles_around() -> None:
    rules, state = position({"b2": "BB", "f5": "Y"}, 2, 4, tiles={"b2": "village-1"})
    blue = sum(
        1
        for t in state.geometry.area[at(state, "b2")]
        if rules.tile(state.layout.tiles[t]).value == "blue"
    )
    assert blue >= 1
    state = play(rules, state, "bid 0")
    assert coins(state) == 25 - 2 * blue
    assert state.bag[rules.colour_index["blue"]] >= 2


def test_you_lose_at_once_if_you_cannot_pay_yazid() -> None:
    rules, state = position({"b2": "BB", "f5": "Y"}, 2, 4, tiles={"b2": "village-1"})
    state = evolve(state, players=(evolve(state.players[0], coins=1),))
    state = play(rules, state, "bid 0")
    assert state.is_over
    assert coins(state) == 0
    result = verdict(rules, state)
    assert result.winners == () and result.kind == "lost: debt"
    assert_invariants(rules, state)


def test_a_target_somebody_owns_is_left_alone() -> None:
    rules, state = position({"c3": "YY", "a1": "BB"}, 3, 3, owners={"c3": 0})
    state = play(rules, state, "bid 0")
    assert on_tile(rules, state, "c3") == "YY"
    assert sultan.camels_left(state) == 11


def test_an_empty_target_still_gets_yazid_s_camel() -> None:
    """``yazid_takes_empty_tile`` = 1 (UNCONFIRMED)."""
    rules, state = position({"a1": "BB"}, 3, 3)
    state = play(rules, state, "bid 0")
    assert state.board.owners[at(state, "c3")] == NON_PLAYER


def test_after_a_black_six_yazid_clears_both_targets() -> None:
    rules, state = position({"a1": "Y", "f5": "RR", "c3": "W"}, 4, 6, "a1", "f5")
    state = play(rules, state, "bid 0")
    assert state.board.owners[at(state, "a1")] == NON_PLAYER
    assert state.board.owners[at(state, "f5")] == NON_PLAYER
    assert (sultan.held(state, "yellow"), sultan.held(state, "red")) == (1, 2)


# -- Yazid's djinns (Y22) -----------------------------------------------------------------


def test_with_two_elders_yazid_buys_the_first_djinn_of_the_row() -> None:
    rules, state = position({"c3": "WW", "a1": "BB"}, 3, 3)
    first = state.decks[rules.deck_index["djinns"]].row[0]
    state = play(rules, state, "bid 0")
    assert sultan.djinns_held(rules, state) == [first]
    assert sultan.held(state, "white") == 0
    assert_invariants(rules, state)


def test_with_one_elder_and_a_fakir_yazid_buys_a_djinn_too() -> None:
    rules, state = position({"c3": "WY", "a1": "BB"}, 3, 3)
    state = with_row(rules, state, ROW)
    state = set_aside(state, ASIDE_CARD + "fakir", 1)
    index = rules.deck_index["resources"]
    deck = state.decks[index]
    draw = list(deck.draw)
    draw.remove("fakir")
    state = evolve(state, decks=(evolve(deck, draw=tuple(draw)), *state.decks[1:]))
    state = play(rules, state, "bid 0")
    assert len(sultan.djinns_held(rules, state)) == 1
    assert sultan.fakirs_held(state) == 0 and sultan.held(state, "white") == 0
    assert_invariants(rules, state)


def test_one_elder_alone_buys_nothing() -> None:
    rules, state = position({"c3": "W", "a1": "BB"}, 3, 3)
    state = play(rules, state, "bid 0")
    assert sultan.djinns_held(rules, state) == []
    assert sultan.held(state, "white") == 1


# -- losing at once (Y9–Y11) --------------------------------------------------------------


def test_seven_assassins_in_yazid_s_area_lose_at_once() -> None:
    rules, state = position({"c3": "RR", "a1": "BB"}, 3, 3)
    state = give_yazid(rules, state, "RRRRR")
    state = play(rules, state, "bid 0")
    assert state.is_over
    assert aside_meeples(state, "red") == 7
    assert verdict(rules, state).kind == "lost: assassins"
    assert_invariants(rules, state)


def test_six_assassins_do_not_lose() -> None:
    rules, state = position({"c3": "R", "a1": "BB"}, 3, 3)
    state = play(rules, give_yazid(rules, state, "RRRRR"), "bid 0")
    assert not state.is_over


def test_six_djinns_in_yazid_s_area_lose_at_once() -> None:
    rules, state = position({"c3": "WW", "a1": "BB"}, 3, 3)
    state = play(rules, give_yazid(rules, state, djinns=5), "bid 0")
    assert state.is_over
    assert len(sultan.djinns_held(rules, state)) == 6
    assert "6 djinns" in verdict(rules, state).reason
    assert_invariants(rules, state)


# -- the end (Y8, Y12) --------------------------------------------------------------------


def finished(rules: Rules, state: State, mine: int, his: int) -> State:
    """The game over, the player holding ``mine`` viziers and Yazid ``his``."""
    state = give_yazid(rules, state, "Y" * his)
    vizier = rules.colour_index["yellow"]
    player = state.players[0]
    kept = tuple(mine if c == vizier else n for c, n in enumerate(player.meeples))
    bag = tuple(n - mine if c == vizier else n for c, n in enumerate(state.bag))
    state = evolve(state, players=(evolve(player, meeples=kept),), bag=bag)
    return evolve(state, decision=evolve(state.decision, stage="over", player=-1))


def test_at_the_end_you_win_with_more_viziers_than_yazid() -> None:
    rules, state = position({"a1": "BB"})
    state = finished(rules, state, 3, 2)
    result = verdict(rules, state)
    assert result.winners == (0,) and result.kind == "won"
    assert rules.winners(state) == (0,)
    bonus = [line for line in rules.score_lines(state, 0) if line.source == "solo"]
    assert [(line.category, line.points) for line in bonus] == [("vizier-majority", 10)]


@pytest.mark.parametrize("his", [3, 4])
def test_at_the_end_as_many_viziers_as_yazid_or_fewer_lose(his: int) -> None:
    rules, state = position({"a1": "BB"})
    state = finished(rules, state, 3, his)
    assert rules.winners(state) == ()
    assert rules.verdict(state).kind == "lost: viziers"
    assert not [line for line in rules.score_lines(state, 0) if line.source == "solo"]


def test_victory_points_are_the_base_game_s() -> None:
    rules, state = position({"a1": "BB"})
    categories = {line.category for line in rules.score_lines(state, 0)}
    base = {line.category for line in build_rules().score_lines(build_rules().new_game(2, 7), 0)}
    assert categories == base


def test_the_game_ends_after_the_round_yazid_places_his_last_camel() -> None:
    rules, state = position({"c3": "Y", "a1": "BB"}, 3, 3)
    state = evolve(state, extras=set_extra(state.extras, sultan.CAMELS, 1))
    state = evolve(
        state,
        board=evolve(
            state.board,
            owners=tuple(
                NON_PLAYER if 1 <= i <= 10 else o for i, o in enumerate(state.board.owners)
            ),
        ),
    )
    assert not rules.game_ends(state)
    state = play(rules, state, "bid 0")
    assert sultan.camels_left(state) == 0
    assert rules.game_ends(state)
    assert get_extra(state.extras, sultan.LOST) == 0
    assert_invariants(rules, state)
