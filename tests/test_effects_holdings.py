"""Counts of a player's tiles, meeples and hands, and of the move in progress: what a
house rule (or a Sultan's Whim) measures. Each reads as the rule it counts; the last test
plays every one of them on both engines, state for state."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from effects_kit import rule, value, with_player
from native_kit import assert_same_games

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State, Turn
from naqala.testing.effect_programs import HOLDINGS


def tile_of(rules: Rules, kind: str) -> str:
    """A tile id of that kind."""
    return next(tile for tile, spec in rules.tile_specs.items() if spec.kind == kind)


def board(rules: Rules, state: State, kinds: dict[str, str], owned: dict[str, int]) -> State:
    """Every tile a village but those ``kinds`` names; the tiles ``owned`` names are held by
    those players, and no other tile is."""
    geo = state.geometry
    tiles = [tile_of(rules, "village")] * len(state.layout.tiles)
    for name, kind in kinds.items():
        tiles[geo.parse(name)] = tile_of(rules, kind)
    owners = [-1] * len(tiles)
    for name, player in owned.items():
        owners[geo.parse(name)] = player
    layout = attrs.evolve(state.layout, tiles=tuple(tiles))
    return attrs.evolve(state, layout=layout, board=attrs.evolve(state.board, owners=tuple(owners)))


@pytest.fixture(scope="module")
def base() -> Rules:
    return build_rules()


def test_held_all_counts_every_meeple_in_front_of_a_player(base: Rules) -> None:
    state = with_player(base.new_game(2, 1), 0, meeples=(1, 2, 0, 0, 3))
    assert value(base, state, "held_all()") == 6
    assert value(base, state, "held_all()", me=1) == 0


def test_most_held_counts_a_colour_only_when_no_one_else_holds_as_many(base: Rules) -> None:
    state = with_player(base.new_game(3, 1), 0, meeples=(3, 0, 0, 0, 0))
    state = with_player(state, 1, meeples=(2, 0, 0, 0, 0))
    assert value(base, state, 'most_held("yellow")') == 3
    tied = with_player(state, 2, meeples=(3, 0, 0, 0, 0))
    assert value(base, tied, 'most_held("yellow")') == 0
    assert value(base, state, 'most_held("white")') == 0


def test_tiles_are_counted_by_kind_by_value_and_by_their_kinds(base: Rules) -> None:
    state = board(
        base,
        base.new_game(2, 1),
        {"a1": "oasis", "b1": "oasis", "c1": "sacred-place", "d1": "large-market"},
        {"a1": 0, "b1": 0, "c1": 0, "d1": 0, "e1": 0, "f1": 1},
    )
    assert value(base, state, 'tiles_of("oasis")') == 2
    assert value(base, state, 'tiles_of("village")') == 1
    assert value(base, state, 'tiles_of("village")', me=1) == 1
    assert value(base, state, 'valued("red")') == 3  # two oases and a large market
    assert value(base, state, 'valued("blue")') == 2  # a sacred place and a village
    assert value(base, state, "tile_kinds()") == 4
    assert value(base, state, "tile_kinds()", me=1) == 1


def test_the_largest_group_joins_tiles_edge_to_edge_never_by_a_corner(base: Rules) -> None:
    state = board(base, base.new_game(2, 1), {}, {"a1": 0, "b1": 0, "c2": 0, "a3": 0, "a4": 0})
    # a1 b1 share an edge, a3 a4 share one; c2 touches b1 only by a corner
    assert value(base, state, "largest_group()") == 2
    joined = board(base, state, {}, {"a1": 0, "b1": 0, "b2": 0, "c2": 0, "a3": 0})
    assert value(base, joined, "largest_group()") == 4
    assert value(base, joined, "largest_group()", me=1) == 0


def test_near_takes_the_eight_tiles_around_and_beside_the_four_sharing_an_edge(
    base: Rules,
) -> None:
    state = board(
        base,
        base.new_game(2, 1),
        {"b2": "oasis", "e5": "oasis"},
        {"b1": 0, "c3": 0, "e4": 0, "a5": 0, "b2": 0},
    )
    # b1 and e4 share an edge with an oasis, c3 touches b2 by a corner; a5 is near nothing;
    # the oasis b2 itself is not next to an oasis
    assert value(base, state, 'beside("oasis")') == 2
    assert value(base, state, 'near("oasis")') == 3


def test_merchandise_is_counted_by_kind_and_by_the_most_copies_of_one(base: Rules) -> None:
    hand = ("fakir", "fish", "fish", "fish", "gold", "ivory", "ivory")
    state = with_player(base.new_game(2, 1), 0, hands=((hand), ()))
    assert value(base, state, "merchandise_kinds()") == 3  # a Fakir is no merchandise
    assert value(base, state, "most_merchandise()") == 3
    assert value(base, state, "most_merchandise()", me=1) == 0


def test_hand_counts_the_cards_of_one_deck(base: Rules) -> None:
    state = with_player(base.new_game(2, 1), 0, hands=(("fish", "gold"), ("jafaar",)))
    assert value(base, state, 'hand("djinns")') == 1
    assert value(base, state, 'hand("resources")') == 2


def test_path_and_collected_read_the_move_in_progress(base: Rules) -> None:
    state = base.new_game(2, 1)
    assert value(base, state, "path() + collected()") == 0  # no turn
    geo = state.geometry
    moved = Turn(marker=0, start=geo.parse("a1"), path=(geo.parse("a2"), geo.parse("a3")))
    assert value(base, attrs.evolve(state, turn=moved), "path()") == 2
    assert value(base, attrs.evolve(state, turn=moved), "collected()") == 0
    collected = attrs.evolve(moved, colour=base.colour_index["red"], taken=3)
    assert value(base, attrs.evolve(state, turn=collected), "collected()") == 3


def test_a_tile_kind_or_a_deck_the_rules_lack_is_refused(tmp_path: Path) -> None:
    for formula, what in (('tiles_of("city")', "tile 'city'"), ('hand("whims")', "deck 'whims'")):
        body = f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{{ coins = \'{formula}\' }}]\n'
        with pytest.raises(ContentError, match=f"no {what} in these rules"):
            rule(tmp_path, body)


#: every count of this file (``effect_programs.HOLDINGS``), each kept in a counter of its
#: own at the end of each turn and after each tribe action (the path and the collected
#: meeples are read during the move)
MEASURED = HOLDINGS


def measuring(tmp_path: Path, extra: tuple[str, ...] = ()) -> str:
    counts = (*MEASURED, *extra)
    counters = "".join(f'[[counter]]\nid = "c{i}"\nof = "player"\n\n' for i in range(len(counts)))
    sets = ", ".join(f"{{ set = \"c{i}\", to = '{f}' }}" for i, f in enumerate(counts))
    triggers = "".join(
        f'[[trigger]]\nid = "{moment}"\non = "{moment}"\neffects = [{sets}]\n\n'
        for moment in ("after-tribe-action", "turn-end")
    )
    return counters + triggers


def test_every_count_plays_the_same_on_both_engines(tmp_path: Path) -> None:
    rules = rule(tmp_path, measuring(tmp_path))
    assert_same_games(rules, ((2, 5), (3, 6), (4, 7)))


def test_the_counts_over_the_whims_box_play_the_same_on_both_engines(tmp_path: Path) -> None:
    lake = ('near("great-lake")', 'beside("great-lake")', 'hand("whims")', 'tiles_of("city")')
    rules = rule(tmp_path, measuring(tmp_path, lake), ("whims",))
    assert_same_games(rules, ((3, 2), (5, 4)))
