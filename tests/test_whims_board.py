"""Scenario tests for the board of Djinns of Naqala (the Whims of the Sultan box;
``content/whims.toml``, ``plugins/whims/``): the 6×6 board of all 36 tiles shuffled, the
6×7 board with the Artisans (their tiles in the inner 4×5), the Fabulous Cities, the
meeples dealt, the impassable Great Lake and its scoring, and the plugin's names.

Hand-built positions are 2-player games with the Great Lake moved to ``c3`` (so its eight
neighbours b2, c2, d2, b3, d3, b4, c4, d4 all lie on the board) and the impassable tiles
worked out again for that layout."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.plugins import PluginError
from naqala.core.state import State, evolve
from naqala.plugins.base.setup import finish_layout
from naqala.plugins.whims.lake import lakeside_tiles
from naqala.testing.scenario import base_rules, board, options, play, player, tokens, turn_of

LAKE = "great-lake-1"
CHASM = "chasm-1"
ARTISANS_KINDS = ("workshop", "specialized-market", "chasm")
#: the eight tiles around c3, and the four of them that share an edge with it
AROUND_C3 = ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")
BESIDE_C3 = ("c2", "b3", "d3", "c4")
SEED = 7
SEEDS = range(200)


@functools.cache
def djinns_rules() -> Rules:
    """The base game with Djinns of Naqala (built once, shared)."""
    return build_rules(["djinns"])


@functools.cache
def full_rules() -> Rules:
    """The base game with the Artisans and Djinns of Naqala (built once, shared)."""
    return build_rules(["artisans", "djinns"])


RULESETS = {"djinns": djinns_rules, "artisans+djinns": full_rules}


def kind(rules: Rules, tile_id: str) -> str:
    return rules.tile(tile_id).kind


def rim(state: State) -> frozenset[int]:
    """Positions on the outer ring of the board."""
    rows, cols = state.layout.rows, state.layout.cols
    return frozenset(
        i for i in range(rows * cols) if i // cols in (0, rows - 1) or i % cols in (0, cols - 1)
    )


def inner_names(rows: int, cols: int) -> frozenset[str]:
    """The board without its rim: rows 2 to ``rows - 1``, columns b to the last but one."""
    letters = "abcdefg"[:cols]
    return frozenset(f"{c}{r}" for r in range(2, rows) for c in letters[1:-1])


def lake_position(
    meeples: Mapping[str, str] | None = None,
    *,
    owners: Mapping[str, int] | None = None,
    lake: str = "c3",
    rules: Rules | None = None,
) -> tuple[Rules, State]:
    """A 2-player game with only ``meeples`` on the board, the Great Lake on ``lake`` and
    ``owners`` owning tiles; player 1 (seat 0) to pick."""
    rules = rules or djinns_rules()
    state = rules.new_game(2, SEED)
    state = board(rules, state, meeples or {}, clear=True, tiles={lake: LAKE}, owners=owners)
    state = evolve(state, layout=finish_layout(rules, state.layout))
    assert state.layout.blocked == {state.geometry.parse(lake)}
    return rules, turn_of(rules, state, 0)


def lake_lines(rules: Rules, state: State, seat: int) -> list[ScoreLine]:
    return [line for line in rules.score_lines(state, seat) if line.source == "great-lake"]


def category(rules: Rules, state: State, seat: int, name: str) -> int:
    return sum(line.points for line in rules.score_lines(state, seat) if line.category == name)


# -- the 6×6 board without the Artisans ----------------------------------------------------


def test_with_djinns_the_board_is_6x6_and_uses_all_36_tiles_once() -> None:
    """Base + Djinns of Naqala: the 30 base tiles, 5 Fabulous Cities and the Great Lake make
    a 6×6 board, each tile used exactly once."""
    rules = djinns_rules()
    assert len(rules.tile_specs) == 36
    for seed in range(20):
        layout = rules.new_game(4, seed).layout
        assert (layout.rows, layout.cols) == (6, 6)
        assert sorted(layout.tiles) == sorted(rules.tile_specs)


def test_five_fabulous_cities_three_blue_two_red_and_one_great_lake() -> None:
    """The box adds 5 Fabulous Cities (city-1 to city-5: 3 blue-valued, 2 red-valued, no tile
    VP of their own) and 1 Great Lake, which holds no meeples."""
    rules = djinns_rules()
    cities = sorted(t for t in rules.tile_specs if kind(rules, t) == "city")
    assert cities == [f"city-{n}" for n in range(1, 6)]
    assert Counter(rules.tile(t).value for t in cities) == {"blue": 3, "red": 2}
    assert all(rules.tile(t).vp == 0 for t in cities)
    assert [t for t in rules.tile_specs if kind(rules, t) == "great-lake"] == [LAKE]
    assert not rules.tile(LAKE).holds_meeples
    state = rules.new_game(3, SEED)
    assert Counter(kind(rules, t) for t in state.layout.tiles)["city"] == 5


def test_without_artisans_cities_and_the_lake_can_lie_anywhere() -> None:
    """Without the Artisans all 36 tiles are shuffled together: over many seeds the Great
    Lake and the cities turn up on the rim (corners included) and inside, and a city lies
    on every square in some game."""
    rules = djinns_rules()
    lake_at: set[int] = set()
    city_at: set[int] = set()
    for seed in SEEDS:
        tiles = rules.new_game(4, seed).layout.tiles
        lake_at.add(tiles.index(LAKE))
        city_at.update(i for i, t in enumerate(tiles) if kind(rules, t) == "city")
    state = rules.new_game(4, 0)
    corners = {0, 5, 30, 35}
    assert lake_at & rim(state) and lake_at - rim(state) and lake_at & corners
    assert len(lake_at) >= 30
    assert city_at == set(range(36))


# -- the 6×7 board with the Artisans --------------------------------------------------------


def test_with_artisans_the_board_is_6x7_and_uses_all_42_tiles_once() -> None:
    """Base + Artisans + Djinns of Naqala: 42 tiles on a 6×7 board (6 rows, columns a–g),
    each tile used exactly once."""
    rules = full_rules()
    assert len(rules.tile_specs) == 42
    for seed in range(20):
        layout = rules.new_game(4, seed).layout
        assert (layout.rows, layout.cols) == (6, 7)
        assert sorted(layout.tiles) == sorted(rules.tile_specs)


def test_with_artisans_the_inner_4x5_holds_the_six_artisans_tiles_and_14_others() -> None:
    """The inner 4×5 (rows 2–5, columns b–f) holds the 6 Artisans tiles (3 workshops, 2
    specialized markets, the chasm) and 14 others drawn at random; the remaining 22 tiles
    form the rim. Cities and the lake are among the tiles drawn for the inside in some
    games and lie on the rim in others."""
    rules = full_rules()
    inner = inner_names(6, 7)
    assert len(inner) == 20
    lake_inside = lake_on_rim = city_inside = city_on_rim = False
    for seed in range(300):
        state = rules.new_game(4, seed)
        geo = state.geometry
        inside = [t for i, t in enumerate(state.layout.tiles) if geo.name(i) in inner]
        outside = [t for i, t in enumerate(state.layout.tiles) if geo.name(i) not in inner]
        counts = Counter(kind(rules, t) if kind(rules, t) in ARTISANS_KINDS else "" for t in inside)
        assert counts == {"workshop": 3, "specialized-market": 2, "chasm": 1, "": 14}, seed
        assert len(outside) == 22
        assert not [t for t in outside if kind(rules, t) in ARTISANS_KINDS], seed
        lake_inside |= LAKE in inside
        lake_on_rim |= LAKE in outside
        city_inside |= any(kind(rules, t) == "city" for t in inside)
        city_on_rim |= any(kind(rules, t) == "city" for t in outside)
    assert lake_inside and lake_on_rim
    assert city_inside and city_on_rim


# -- meeples ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "tiles", "total"), [("djinns", 35, 105), ("artisans+djinns", 40, 120)]
)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_three_meeples_on_every_tile_but_the_lake_and_the_chasm(
    ruleset: str, tiles: int, total: int, players: int
) -> None:
    """Setup deals 3 meeples to every tile but the Great Lake and the chasm, which get none:
    105 meeples (35 tiles) with Djinns of Naqala, 120 (40 tiles) with the Artisans too. The
    box adds 3 meeples of each base colour (the artisans stay at 15), so the board holds
    every meeple of the content and the bag is empty."""
    rules = RULESETS[ruleset]()
    base = {c.id: c.count for c in base_rules().colours}
    counts = {c.id: c.count for c in rules.colours}
    assert counts == {c: n + 3 for c, n in base.items()} | (
        {"purple": 15} if "purple" in counts else {}
    )
    assert sum(counts.values()) == total
    for seed in range(5):
        state = rules.new_game(players, seed)
        empty = {i for i, t in enumerate(state.layout.tiles) if t in (LAKE, CHASM)}
        per_tile = [sum(m) for m in state.board.meeples]
        assert [n for i, n in enumerate(per_tile) if i not in empty] == [3] * tiles
        assert all(per_tile[i] == 0 for i in empty)
        on_board = {
            c.id: sum(m[i] for m in state.board.meeples) for i, c in enumerate(rules.colours)
        }
        assert on_board == counts
        assert not any(state.bag)


# -- the Great Lake: impassable --------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_great_lake_is_impassable(ruleset: str) -> None:
    """The Great Lake is impassable (``layout.blocked``, with the chasm when the Artisans
    play): it has no neighbour a meeple may step to and no tile counts it as one."""
    rules = RULESETS[ruleset]()
    for seed in range(30):
        state = rules.new_game(3, seed)
        tiles = state.layout.tiles
        lake = tiles.index(LAKE)
        assert state.layout.blocked == {i for i, t in enumerate(tiles) if t in (LAKE, CHASM)}
        geo = state.geometry
        assert geo.neighbours[lake] == ()
        assert all(lake not in geo.neighbours[t] for t in range(geo.size))


def test_no_move_crosses_the_great_lake() -> None:
    """Two elders on b3 and one on d3 with the lake on c3 between them: the only walk from
    b3 to d3 (b3, c3, d3) crosses the lake, so no move exists; with the lake elsewhere
    (f6) the two elders can be moved from b3 through c3 onto d3."""
    meeples = {"b3": "WW", "d3": "W"}
    rules, s = lake_position(meeples)
    assert options(rules, s) == []
    rules, s = lake_position(meeples, lake="f6")
    assert options(rules, s) == ["pick b3"]
    s = play(rules, s, "pick b3", "drop c3 W")
    assert options(rules, s, "drop") == ["drop d3 W"]


def test_no_meeple_is_dropped_on_the_great_lake_and_none_picked_up_there() -> None:
    """Moving an elder off b3 next to the lake (c3): only b2, which holds an elder, is
    offered; dropping on the lake is refused as blocked, and the lake cannot be picked."""
    rules, s = lake_position({"b3": "W", "b2": "W"})
    assert options(rules, s) == ["pick b2", "pick b3"]
    with pytest.raises(IllegalAction):
        play(rules, s, "pick c3")
    s = play(rules, s, "pick b3")
    assert options(rules, s, "drop") == ["drop b2 W"]
    with pytest.raises(IllegalAction, match="blocked"):
        play(rules, s, "drop c3 W")


def test_no_tile_is_ever_cut_off_with_the_lake_the_chasm_and_mountains() -> None:
    """With the Artisans and Djinns of Naqala the lake, the chasm and the workshops'
    mountains could shut tiles in; setup lays the board again until every passable tile
    can be reached from every other."""
    rules = full_rules()
    for seed in range(400):
        state = rules.new_game(4, seed)
        assert state.geometry.is_connected(), seed
        assert all(state.geometry.neighbours[t] for t in range(42) if t not in state.layout.blocked)


# -- the Great Lake: scoring -----------------------------------------------------------------


def test_next_to_the_lake_a_palm_tree_scores_6_and_a_palace_10() -> None:
    """A palm tree (3 VP) and a palace (5 VP) on the player's tiles next to the Great Lake
    score their printed value once more, as extra lines of the "palm-trees" and "palaces"
    categories with source "great-lake": 6 and 10 VP in all."""
    rules, s = lake_position(owners={"b2": 0, "c2": 0})
    s = tokens(rules, s, {"b2": {"palm-tree": 1}, "c2": {"palace": 1}})
    assert lake_lines(rules, s, 0) == [
        ScoreLine("palm-trees", 3, "great-lake", "1 by the Great Lake"),
        ScoreLine("palaces", 5, "great-lake", "1 by the Great Lake"),
    ]
    assert category(rules, s, 0, "palm-trees") == 6
    assert category(rules, s, 0, "palaces") == 10
    assert lake_lines(rules, s, 1) == []


def test_all_eight_tiles_around_the_lake_count_diagonals_included() -> None:
    """With the default ``lake_diagonals = 1`` the 8 tiles around the lake are next to it:
    a palm tree on each of them, all the player's, scores 8 × 3 more VP."""
    rules, s = lake_position(owners=dict.fromkeys(AROUND_C3, 0))
    assert rules.content.setting("lake_diagonals") == 1
    assert {s.geometry.name(t) for t in lakeside_tiles(rules, s.layout)} == set(AROUND_C3)
    s = tokens(rules, s, {t: {"palm-tree": 1} for t in AROUND_C3})
    assert lake_lines(rules, s, 0) == [
        ScoreLine("palm-trees", 24, "great-lake", "8 by the Great Lake")
    ]
    assert category(rules, s, 0, "palm-trees") == 48


def test_tokens_two_tiles_away_or_on_an_opponents_tile_do_not_score_for_the_lake() -> None:
    """Only the player's own tiles next to the lake count: a palm tree and a palace on a1
    and a palm tree on e3 (two tiles from c3) add nothing; the palm tree on the opponent's
    d4 doubles for the opponent, not for the player."""
    rules, s = lake_position(owners={"a1": 0, "e3": 0, "d4": 1})
    s = tokens(rules, s, {"a1": {"palm-tree": 1, "palace": 1}, "e3": {"palm-tree": 1}})
    s = tokens(rules, s, {"d4": {"palm-tree": 1}})
    assert lake_lines(rules, s, 0) == []
    assert category(rules, s, 0, "palm-trees") == 6
    assert category(rules, s, 0, "palaces") == 5
    assert lake_lines(rules, s, 1) == [
        ScoreLine("palm-trees", 3, "great-lake", "1 by the Great Lake")
    ]


def test_a_lake_in_a_corner_has_three_tiles_next_to_it() -> None:
    """A Great Lake on the corner a1 has three tiles next to it (b1, a2 and the diagonal
    b2); a palace on each, all the player's, scores 3 × 5 more VP."""
    rules, s = lake_position(owners={"b1": 0, "a2": 0, "b2": 0}, lake="a1")
    assert {s.geometry.name(t) for t in lakeside_tiles(rules, s.layout)} == {"b1", "a2", "b2"}
    s = tokens(rules, s, {t: {"palace": 1} for t in ("b1", "a2", "b2")})
    assert [line.points for line in lake_lines(rules, s, 0)] == [15]


class OrthogonalLake:
    """A content override: only the 4 tiles sharing an edge with the lake are next to it."""

    NAME = "orthogonal-lake"
    REQUIRES = ("djinns",)

    def __init__(self, path: Path) -> None:
        self.path = path

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        return [self.path]


def test_with_lake_diagonals_0_a_diagonal_neighbour_does_not_count(tmp_path: Path) -> None:
    """With ``lake_diagonals = 0`` set in content only the 4 orthogonal neighbours are next
    to the lake: palm trees on all 8 tiles around it score 4 × 3 more VP, and a palm tree
    on the diagonal b2 alone adds nothing."""
    toml = tmp_path / "orthogonal-lake.toml"
    toml.write_text("[settings]\nlake_diagonals = 0\n", encoding="utf-8")
    rules = build_rules(["djinns"], extra_plugins=[OrthogonalLake(toml)])
    assert rules.content.setting("lake_diagonals") == 0
    rules, s = lake_position(owners=dict.fromkeys(AROUND_C3, 0), rules=rules)
    assert {s.geometry.name(t) for t in lakeside_tiles(rules, s.layout)} == set(BESIDE_C3)
    everywhere = tokens(rules, s, {t: {"palm-tree": 1} for t in AROUND_C3})
    assert lake_lines(rules, everywhere, 0) == [
        ScoreLine("palm-trees", 12, "great-lake", "4 by the Great Lake")
    ]
    diagonal = tokens(rules, s, {"b2": {"palm-tree": 1}})
    assert lake_lines(rules, diagonal, 0) == []
    assert category(rules, diagonal, 0, "palm-trees") == 3


def test_haurvatat_palm_tree_by_the_lake_is_worth_double_its_5() -> None:
    """The Great Lake doubles the value of the palm trees next to it; with Haurvatat a palm
    tree is worth 5, so by the lake it is worth 10 (the lake's line adds 5)."""
    rules, s = lake_position(owners={"b2": 0})
    s = player(rules, s, 0, djinns=["haurvatat"])
    s = tokens(rules, s, {"b2": {"palm-tree": 1}})
    assert [line.points for line in lake_lines(rules, s, 0)] == [5]
    assert category(rules, s, 0, "palm-trees") == 10


def test_haurvatat_doubles_only_the_palm_trees_by_the_lake() -> None:
    """With Haurvatat, two palm trees by the lake and one far from it: 3 × 5 + 2 × 5 = 25;
    a palace by the lake is doubled at its own 5 (Haurvatat is for palm trees)."""
    rules, s = lake_position(owners={"b2": 0, "d3": 0, "a5": 0})
    s = player(rules, s, 0, djinns=["haurvatat"])
    s = tokens(rules, s, {"b2": {"palm-tree": 1, "palace": 1}, "d3": {"palm-tree": 1}})
    s = tokens(rules, s, {"a5": {"palm-tree": 1}})
    assert category(rules, s, 0, "palm-trees") == 25
    assert category(rules, s, 0, "palaces") == 10


# -- the plugin's names ----------------------------------------------------------------------


def test_whims_is_another_name_for_djinns() -> None:
    """``whims`` (the box's original title) names the same plugin: the rules built with it
    are the base game and djinns."""
    assert build_rules(["whims"]).ruleset == ("base", "djinns")
    assert build_rules(["whims"]).ruleset == djinns_rules().ruleset


def test_an_unknown_expansion_is_refused_naming_the_known_ones() -> None:
    """An unknown expansion name is refused with a message listing the known expansions,
    djinns among them, and suggesting the closest name."""
    with pytest.raises(PluginError, match=r"known expansions: .*\bartisans\b.*\bdjinns\b"):
        build_rules(["sultans"])
    with pytest.raises(PluginError, match=r"did you mean 'djinns'\?"):
        build_rules(["djins"])
