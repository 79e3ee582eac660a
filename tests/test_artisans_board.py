"""Scenario tests for the board of The Artisans of Naqala (content facts §3.2 and §3.3).

Covered here: ``-x artisans`` on the command line; the 6×6 layout and its central 4×4; the
chasm; the 105 meeples; the mountains on the workshops' darkened edges, which block
movement; the re-laying of a board that shuts tiles in; and what mountains do NOT block
(assassin range, the builders' blue tiles, the tent's red tiles).

Hand-built positions use one fixed arrangement of the new tiles (``NEW_TILES``), so the
only mountains are: c2|c3 and b3|c3 (workshop-1 on c3, darkened north and west), e4|e5
and e4|f4 (workshop-2 on e4, south and east), b5|b6 and b5|c5 (workshop-3 on b5)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Mapping

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.board import edge
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.serialize import state_from_json
from naqala.core.state import Layout, State, evolve
from naqala.plugins.base.setup import finish_layout
from naqala.testing.scenario import board, options, play, tokens, turn_of

NEW_KINDS = ("workshop", "specialized-market", "chasm")
#: rows 2-5, columns b-e
CENTRE = frozenset(f"{col}{row}" for row in range(2, 6) for col in "bcde")
#: the darkened edges of each workshop, as (row, column) steps: number 1 north and west,
#: numbers 2 and 3 south and east
DARK = {1: ((-1, 0), (0, -1)), 2: ((1, 0), (0, 1)), 3: ((1, 0), (0, 1))}
NEW_TILES = {
    "c3": "workshop-1",
    "e4": "workshop-2",
    "b5": "workshop-3",
    "e2": "chasm-1",
    "d5": "specialized-market-1",
    "b2": "specialized-market-2",
}
FIXED_WALLS = {("b3", "c3"), ("c2", "c3"), ("e4", "e5"), ("e4", "f4"), ("b5", "b6"), ("b5", "c5")}


@functools.cache
def artisans_rules() -> Rules:
    return build_rules(["artisans"])


def kind(rules: Rules, tile_id: str) -> str:
    return rules.tile(tile_id).kind


def position(
    meeples: Mapping[str, str],
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> tuple[Rules, State]:
    """A 2-player Artisans game where only the named tiles hold meeples, player 1 (seat 0)
    to move; the new tiles lie as in ``NEW_TILES``, base tiles as ``tiles`` says, and the
    chasm and mountains are worked out again for that arrangement."""
    rules = artisans_rules()
    assert not set(tiles or {}) & set(NEW_TILES), "the new tiles keep their places"
    state = rules.new_game(2, 7)
    state = board(
        rules, state, meeples, clear=True, tiles={**NEW_TILES, **(tiles or {})}, owners=owners
    )
    state = evolve(state, layout=finish_layout(rules, state.layout))
    assert wall_names(state) == FIXED_WALLS
    return rules, turn_of(rules, state, 0)


def wall_names(state: State) -> set[tuple[str, str]]:
    geo = state.geometry
    return {(geo.name(a), geo.name(b)) for a, b in state.layout.walls}


def workshop_edges(layout: Layout, index: int) -> set[tuple[int, int]]:
    """The darkened edges of the workshop at ``index`` that lie inside the board."""
    number = int(layout.tiles[index].rpartition("-")[2])
    row, col = divmod(index, layout.cols)
    return {
        edge(index, (row + dr) * layout.cols + col + dc)
        for dr, dc in DARK[number]
        if 0 <= row + dr < layout.rows and 0 <= col + dc < layout.cols
    }


def workshops(layout: Layout) -> list[int]:
    return [i for i, t in enumerate(layout.tiles) if t.startswith("workshop-")]


def games(seeds: Iterable[int], players: int = 4) -> Iterable[State]:
    rules = artisans_rules()
    return (rules.new_game(players, seed) for seed in seeds)


# -- the command line ---------------------------------------------------------------------

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    return result.stdout


def test_state_new_with_x_artisans_makes_an_artisans_game() -> None:
    """``naqala state new -x artisans`` prints a new game with the expansion: the state
    names the plugin and is the engine's own Artisans setup (6×6 board)."""
    out = ok("state", "new", "-x", "artisans", "--players", "3", "--seed", "5")
    assert '"artisans"' in out
    rules, state = state_from_json(out)
    assert rules.ruleset == state.ruleset == ("base", "artisans")
    assert state == artisans_rules().new_game(3, 5)
    assert (state.layout.rows, state.layout.cols) == (6, 6)


def test_simulate_with_x_artisans_plays_artisans_games() -> None:
    """``naqala simulate -x artisans --json`` plays with the expansion, names it among the
    plugins and reports the artisans' score category."""
    summary = json.loads(ok("simulate", "-x", "artisans", "--json", "-n", "2", "--seed", "3"))
    assert summary["plugins"] == ["base", "artisans"]
    assert summary["games"] == 2
    assert "artisans" in summary["mean_score_by_category"]


def test_play_with_x_artisans_plays_a_whole_game() -> None:
    """``naqala play --seats ai:random,ai:random -x artisans --seed 2`` announces the
    plugins (base and artisans) and plays to the final score table."""
    out = ok("play", "--seats", "ai:random,ai:random", "-x", "artisans", "--seed", "2")
    assert "plugins base, artisans" in out
    assert "artisans" in out.split("plugins base, artisans", 1)[1]  # the score table line
    assert "total" in out


# -- the layout ---------------------------------------------------------------------------


def test_the_board_is_6x6_and_uses_all_36_tiles_once() -> None:
    """The Artisans board is 6×6: the 30 base tiles and the 6 new ones, each exactly once."""
    rules = artisans_rules()
    assert len(rules.tile_specs) == 36
    for state in games(range(5)):
        assert (state.layout.rows, state.layout.cols) == (6, 6)
        assert sorted(state.layout.tiles) == sorted(rules.tile_specs)


def test_the_central_4x4_holds_the_six_new_tiles_and_ten_base_tiles() -> None:
    """Setup: 10 random base tiles and the 6 new ones (3 workshops, 2 specialized markets,
    the chasm) make the central 4×4 (rows 2–5, columns b–e); the other 20 base tiles lie
    around it."""
    rules = artisans_rules()
    for state in games(range(40)):
        geo = state.geometry
        inner = Counter(
            kind(rules, t) if kind(rules, t) in NEW_KINDS else "base"
            for i, t in enumerate(state.layout.tiles)
            if geo.name(i) in CENTRE
        )
        assert inner == {"workshop": 3, "specialized-market": 2, "chasm": 1, "base": 10}
        outer = [t for i, t in enumerate(state.layout.tiles) if geo.name(i) not in CENTRE]
        assert len(outer) == 20
        assert not [t for t in outer if kind(rules, t) in NEW_KINDS]


def test_different_seeds_give_different_layouts() -> None:
    """The tiles are shuffled: ten seeds give ten layouts, and the new tiles do not always
    land on the same central squares."""
    layouts = [state.layout for state in games(range(10))]
    assert len({layout.tiles for layout in layouts}) == 10
    assert len({layout.tiles.index("chasm-1") for layout in layouts}) > 1
    assert len({layout.tiles.index("workshop-1") for layout in layouts}) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chasm_is_impassable_and_never_holds_meeples(players: int) -> None:
    """The chasm is impassable (``layout.blocked``): no meeple is dealt to it and no tile
    counts it as a neighbour a meeple could step to."""
    for state in games(range(10), players):
        chasm = state.layout.tiles.index("chasm-1")
        assert state.layout.blocked == {chasm}
        assert not any(state.board.meeples[chasm])
        geo = state.geometry
        assert geo.neighbours[chasm] == ()
        assert all(chasm not in geo.neighbours[t] for t in range(geo.size))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_other_tile_gets_three_meeples_105_in_all(players: int) -> None:
    """3 meeples on each of the 35 tiles that are not the chasm: 35 × 3 = 105, the 90 of
    the base game and the 15 purple artisans, so the bag is left empty."""
    rules = artisans_rules()
    purple = rules.colour_index["purple"]
    for state in games(range(10), players):
        chasm = state.layout.tiles.index("chasm-1")
        on_tiles = [sum(m) for t, m in enumerate(state.board.meeples) if t != chasm]
        assert on_tiles == [3] * 35
        assert sum(on_tiles) == 105
        assert sum(m[purple] for m in state.board.meeples) == 15
        assert not any(state.bag)


# -- mountains ----------------------------------------------------------------------------


def test_two_mountains_lie_on_each_workshops_darkened_edges() -> None:
    """Each workshop carries 2 mountains on its darkened edges: workshop-1 north and west,
    workshops 2 and 3 south and east. There are no other mountains (two workshops side by
    side may share one edge, hence one wall for both)."""
    for state in games(range(60)):
        layout = state.layout
        assert len(workshops(layout)) == 3
        expected: set[tuple[int, int]] = set()
        for index in workshops(layout):
            own = workshop_edges(layout, index)
            assert len(own) == 2  # in the central 4x4, no darkened edge is on the rim
            expected |= own
        assert layout.walls == expected


def test_a_darkened_edge_on_the_boards_rim_gets_no_mountain() -> None:
    """A darkened edge on the rim of the board borders no tile, so no mountain is placed
    there: workshop-1 in the corner a1 (north and west on the rim) gets none, workshop-2
    in the corner f6 (south and east on the rim) none, workshop-3 on f1 only its south edge
    f1|f2."""
    rules = artisans_rules()
    tiles = [t for t in rules.tile_specs if not t.startswith("workshop-")]
    tiles.insert(0, "workshop-1")  # a1
    tiles.insert(5, "workshop-3")  # f1
    tiles.append("workshop-2")  # f6
    layout = finish_layout(rules, Layout(rows=6, cols=6, tiles=tuple(tiles)))
    geo = layout.geometry
    assert {(geo.name(a), geo.name(b)) for a, b in layout.walls} == {("f1", "f2")}


def test_mountains_block_movement_across_their_edge() -> None:
    """In every laid-out board, the two tiles of a mountain's edge are orthogonal
    neighbours, yet a meeple cannot step from one to the other, either way."""
    for state in games(range(30)):
        geo = state.geometry
        for a, b in state.layout.walls:
            assert b in geo.orthogonal[a]
            assert b not in geo.neighbours[a]
            assert a not in geo.neighbours[b]


def test_a_drop_across_a_mountain_is_not_offered_and_is_refused() -> None:
    """Workshop-1 on c3 has mountains on its north (c2) and west (b3) edges. Moving a
    viziers off c3, the drops on c2 and b3 are not offered even though those tiles hold a
    vizier, and typing one is refused; east, d3 is open."""
    rules, s = position({"c3": "Y", "c2": "Y", "b3": "Y", "d3": "Y"})
    s = play(rules, s, "pick c3")
    assert options(rules, s, "drop") == ["drop d3 Y"]
    for blocked in ("drop c2 Y", "drop b3 Y"):
        with pytest.raises(IllegalAction, match="blocked"):
            play(rules, s, blocked)


def test_a_mountain_blocks_the_way_in_as_well_as_the_way_out() -> None:
    """From c2, the workshop c3 south of it is behind the mountain: only c1 is offered."""
    rules, s = position({"c2": "G", "c3": "G", "c1": "G"})
    s = play(rules, s, "pick c2")
    assert options(rules, s, "drop") == ["drop c1 G"]
    with pytest.raises(IllegalAction, match="blocked"):
        play(rules, s, "drop c3 G")


# -- no tile shut in ----------------------------------------------------------------------


def test_no_tile_is_ever_enclosed() -> None:
    """Setup is done again when a tile ends up enclosed: in a thousand boards every tile but
    the chasm has a neighbour a meeple can step to, and every such tile can be reached
    from every other (seed 1897 used to leave c3 and c4 as a two-tile pocket)."""
    for seed in [*range(1000), 1897]:
        state = artisans_rules().new_game(4, seed)
        geo = state.geometry
        passable = [t for t in range(geo.size) if t not in geo.impassable]
        assert all(geo.neighbours[t] for t in passable), seed
        seen, todo = {passable[0]}, [passable[0]]
        while todo:
            for nxt in geo.neighbours[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert len(seen) == len(passable), seed


def _layout(placed: Mapping[str, str]) -> Layout:
    """A 6×6 layout with the named tiles where ``placed`` says and base tiles elsewhere."""
    rules = artisans_rules()
    geo = Layout(rows=6, cols=6, tiles=("",) * 36).geometry
    rest = iter(t for t in rules.tile_specs if t not in placed.values())
    by_index = {geo.parse(name): tile for name, tile in placed.items()}
    return Layout(rows=6, cols=6, tiles=tuple(by_index.get(i) or next(rest) for i in range(36)))


def test_a_tile_shut_in_by_mountains_and_the_chasm_counts_as_enclosed() -> None:
    """c3 walled off on three sides (workshop-2 above, workshop-3 left, workshop-1 below)
    with the chasm on the fourth is enclosed; so is the pocket c3+c4 (workshop-1 on c3,
    workshop-3 on c4, workshop-2 on b4, the chasm on d3), whose two tiles only reach each
    other. The fixed test arrangement encloses nothing."""
    single = {"c2": "workshop-2", "b3": "workshop-3", "c4": "workshop-1", "d3": "chasm-1"}
    pocket = {"c3": "workshop-1", "c4": "workshop-3", "b4": "workshop-2", "d3": "chasm-1"}
    rules = artisans_rules()

    def encloses_a_tile(placed: Mapping[str, str]) -> bool:
        return not finish_layout(rules, _layout(placed)).geometry.is_connected()

    assert encloses_a_tile(single)
    assert encloses_a_tile(pocket)
    assert not encloses_a_tile(NEW_TILES)


# -- what mountains do not block ------------------------------------------------------------


def test_assassin_range_ignores_mountains() -> None:
    """Assassins reach by orthogonal distance, mountains ignored. Two assassins end on c3
    (range 2): c2 and b3 beyond the mountains next door, c1 and a3 two squares away beyond
    them (a walk around to c1 would take 4 steps) are all targets; f6 is out of range."""
    rules, s = position(
        {"c4": "R", "c3": "R", "c2": "G", "b3": "W", "c1": "Y", "a3": "B", "f6": "G"}
    )
    s = play(rules, s, "pick c4", "drop c3 R")
    assert s.decision.stage == "kill"
    assert options(rules, s, "kill") == ["kill a3 B", "kill b3 W", "kill c1 Y", "kill c2 G"]
    after = play(rules, s, "kill c1 Y")
    assert not any(after.board.meeples[after.geometry.parse("c1")])


AREA_OF_C3 = {  # the 3×3 block around c3 besides c3 (workshop, blue) and b2 (red)
    "c2": "village-1",  # beyond c3's north mountain
    "b3": "sacred-place-1",  # beyond c3's west mountain
    "d2": "oasis-1",
    "d3": "oasis-2",
    "b4": "oasis-3",
    "c4": "oasis-4",
    "d4": "small-market-1",
}


def test_builders_count_blue_tiles_beyond_mountains() -> None:
    """Builders earn per blue-valued tile in the 3×3 area, mountains ignored. Around the
    workshop c3 (blue) the village c2 and the sacred place b3 lie beyond its mountains;
    they count: 2 builders × 3 blue tiles = 6 coins (not 2 × 1)."""
    rules, s = position({"d3": "B", "c3": "B"}, tiles=AREA_OF_C3)
    after = play(rules, s, "pick d3", "drop c3 B")
    assert after.players[0].coins - s.players[0].coins == 2 * 3


def test_tent_score_counts_red_tiles_beyond_mountains() -> None:
    """A tent scores 1 VP per red-valued tile in its 3×3 area, mountains ignored. A tent on
    the workshop c3 (blue) with the oasis c2 and the small market b3 beyond its mountains,
    the specialized market b2 on the diagonal, and only blue tiles otherwise: 3 VP."""
    around = {
        "c2": "oasis-1",
        "b3": "small-market-1",
        "d2": "village-1",
        "d3": "village-2",
        "b4": "village-3",
        "c4": "village-4",
        "d4": "sacred-place-1",
    }
    rules, s = position({"a1": "G", "a2": "G"}, tiles=around, owners={"c3": 0})
    s = tokens(rules, s, {"c3": {"tent": 1}})
    tent = [line for line in rules.score_lines(s, 0) if line.category == "tent"]
    assert [line.points for line in tent] == [3]
