"""Move counting checked against a slow, independent brute force.

The brute force below reads the movement rule straight from the rulebook and shares no
code with ``naqala.plugins.base.movement`` or the walk tables of ``Geometry``: for each
tile with meeples it lists every walk of exactly as many steps as there are meeples (each
step to an orthogonal neighbour, never into an impassable tile, never across a wall, never
straight back to the tile just left), every distinct order of the hand, and keeps the
moves whose last meeple lands on a tile already holding its colour (counting meeples
dropped earlier in the same move; the start tile starts empty).

Run ``python tests/test_perft.py`` to recompute ``tests/perft/expected.json`` with the
brute force (never with the engine).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.board import Geometry
from naqala.core.state import NOBODY, Counts
from naqala.plugins.base.api import legal_drops, legal_starts
from naqala.testing.boardfile import LETTERS, parse_board
from naqala.testing.perft import PerftTimeout, count_moves, count_moves_fast, legal_sequences

PERFT_DIR = Path(__file__).parent / "perft"
EXPECTED = PERFT_DIR / "expected.json"

#: (start tile, tiles stepped on in order, colour letters dropped in order)
Move = tuple[int, tuple[int, ...], str]


# -- the brute force -----------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A board as the brute force sees it: meeple letters per tile, row-major."""

    rows: int
    cols: int
    meeples: tuple[str, ...]
    impassable: frozenset[int] = frozenset()
    walls: frozenset[frozenset[int]] = field(default_factory=frozenset)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Board:
        return cls(
            rows=doc["rows"],
            cols=doc["cols"],
            meeples=tuple(doc["meeples"]),
            impassable=frozenset(doc.get("impassable", [])),
            walls=frozenset(frozenset(pair) for pair in doc.get("walls", [])),
        )

    def to_doc(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "meeples": list(self.meeples),
            "impassable": sorted(self.impassable),
            "walls": sorted(sorted(pair) for pair in self.walls),
        }

    def steps_from(self, tile: int) -> list[int]:
        """Tiles one step away: up, down, left, right, on the board, passable, no wall."""
        if tile in self.impassable:
            return []
        row, col = divmod(tile, self.cols)
        result = []
        for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + d_row, col + d_col
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                continue
            nxt = r * self.cols + c
            if nxt in self.impassable or frozenset((tile, nxt)) in self.walls:
                continue
            result.append(nxt)
        return result


def walks(board: Board, start: int, length: int) -> Iterator[tuple[int, ...]]:
    """Every path of ``length`` steps from ``start`` (the tiles stepped on, in order) that
    never steps straight back to the tile it just left."""

    def extend(trail: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(trail) == length + 1:
            yield trail[1:]
            return
        for nxt in board.steps_from(trail[-1]):
            if len(trail) >= 2 and nxt == trail[-2]:
                continue
            yield from extend((*trail, nxt))

    yield from extend((start,))


def is_legal(board: Board, start: int, path: tuple[int, ...], order: str) -> bool:
    """Drop ``order`` along ``path`` (one meeple per step): does the last meeple land on a
    tile that already holds its colour?"""
    last = path[-1]
    on_last = "" if last == start else board.meeples[last]  # the start tile was emptied
    on_last += "".join(c for t, c in zip(path[:-1], order[:-1], strict=True) if t == last)
    return order[-1] in on_last


def brute_force(board: Board) -> set[Move]:
    """Every legal move of ``board``."""
    moves: set[Move] = set()
    for start, hand in enumerate(board.meeples):
        if not hand:
            continue
        orders = {"".join(p) for p in itertools.permutations(hand)}
        for path in walks(board, start, len(hand)):
            for order in orders:
                if is_legal(board, start, path, order):
                    moves.add((start, path, order))
    return moves


def brute_perft(board: Board) -> dict[str, int]:
    """``{"moves": M, "paths": P}`` by brute force."""
    moves = brute_force(board)
    return {"moves": len(moves), "paths": len({(s, p) for s, p, _ in moves})}


# -- the engine's view ---------------------------------------------------------------------


def engine_board(board: Board) -> tuple[Geometry, tuple[Counts, ...]]:
    """The same board read by the engine's board-file reader."""
    doc = board.to_doc()
    # give walls in both orders, as a hand-written file might
    doc["walls"] = [pair[::-1] if i % 2 else pair for i, pair in enumerate(doc["walls"])]
    return parse_board(doc, "test")


def engine_perft(board: Board) -> dict[str, int]:
    moves, paths = count_moves(*engine_board(board))
    return {"moves": moves, "paths": paths}


def stepwise_moves(board: Board) -> set[Move]:
    """Walk the engine's step-wise decision tree (``legal_starts`` then ``legal_drops``)
    and return its leaves, asserting that every offered option leads to a complete move."""
    geo, meeples = engine_board(board)
    leaves: set[Move] = set()

    def explore(
        grid: list[Counts],
        here: int,
        prev: int,
        hand: Counts,
        start: int,
        path: tuple[int, ...],
        order: str,
    ) -> None:
        options = list(legal_drops(geo, grid, here, prev, hand))
        assert options, f"dead end: start {start}, path {path}, dropped {order!r}"
        assert len(options) == len(set(options)), f"repeated options {options}"
        for nxt, colour in options:
            assert hand[colour] > 0, f"offered colour {LETTERS[colour]} not in hand"
            rest = tuple(n - (i == colour) for i, n in enumerate(hand))
            before = grid[nxt]
            grid[nxt] = tuple(n + (i == colour) for i, n in enumerate(before))
            steps, dropped = (*path, nxt), order + LETTERS[colour]
            if any(rest):
                explore(grid, nxt, here, rest, start, steps, dropped)
            else:
                leaves.add((start, steps, dropped))
            grid[nxt] = before

    starts = list(legal_starts(geo, meeples))
    assert len(starts) == len(set(starts)), f"repeated starts {starts}"
    for start in starts:
        hand = meeples[start]
        assert any(hand), f"start {start} offered with no meeples"
        grid = list(meeples)
        grid[start] = (0,) * len(hand)
        explore(grid, start, NOBODY, hand, start, (), "")
    return leaves


# -- random boards ---------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn, big_hands: bool = False) -> Board:
    """Small random boards: 1-4 rows and columns, 0-4 meeples per tile from a random
    palette, random impassable (empty) tiles and random walls. With ``big_hands``, one or
    two tiles hold 5-6 meeples of at most three colours (long enough to loop)."""
    max_side, max_meeples = 4, 4
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    size = rows * cols
    palette = draw(st.sampled_from(["W", "WR", "WRG", "YWGB", LETTERS]))
    blocked_chance = draw(st.sampled_from([0, 0, 10, 25]))
    impassable = set()
    meeples = []
    for tile in range(size):
        if draw(st.integers(0, 99)) < blocked_chance:
            impassable.add(tile)
            meeples.append("")
        else:
            hand = draw(st.lists(st.sampled_from(palette), max_size=max_meeples))
            meeples.append("".join(hand))
    open_tiles = [t for t in range(size) if t not in impassable]
    if big_hands and open_tiles:
        big_palette = draw(st.sampled_from(["WR", "WRG"]))
        for tile in draw(st.sets(st.sampled_from(open_tiles), min_size=1, max_size=2)):
            hand = draw(st.lists(st.sampled_from(big_palette), min_size=5, max_size=6))
            meeples[tile] = "".join(hand)
    edges = [(t, t + 1) for t in range(size) if (t + 1) % cols]
    edges += [(t, t + cols) for t in range(size - cols)]
    walls = draw(st.sets(st.sampled_from(edges))) if edges else set()
    return Board(
        rows, cols, tuple(meeples), frozenset(impassable), frozenset(map(frozenset, walls))
    )


#: hypothesis budgets: the whole file runs in about 15 s on two cores
SMALL = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SMALL
@given(boards())
def test_count_moves_matches_brute_force(board: Board) -> None:
    """``count_moves`` gives the brute force's numbers of moves and of paths."""
    assert engine_perft(board) == brute_perft(board)


@BIG
@given(boards(big_hands=True))
def test_count_moves_matches_brute_force_with_big_hands(board: Board) -> None:
    """``count_moves`` matches the brute force when hands are long enough to revisit a
    tile (meeples dropped earlier in the move count for the last meeple)."""
    assert engine_perft(board) == brute_perft(board)


@SMALL
@given(boards())
def test_step_wise_options_have_no_dead_ends(board: Board) -> None:
    """Every start and drop offered step by step leads to a complete legal move, and the
    completed moves are exactly the brute force's legal moves."""
    expected = brute_force(board)
    assert stepwise_moves(board) == expected
    geo, meeples = engine_board(board)
    assert set(legal_starts(geo, meeples)) == {start for start, _, _ in expected}


@BIG
@given(boards(big_hands=True))
def test_step_wise_options_have_no_dead_ends_with_big_hands(board: Board) -> None:
    """No dead ends and no missing moves step by step when hands can loop."""
    assert stepwise_moves(board) == brute_force(board)


# -- the brute force itself, on boards small enough to count by hand --------------------------


def test_brute_force_on_hand_counted_boards() -> None:
    """The brute force agrees with moves counted by hand (drops, walls, no backtracking,
    identical meeples counted once)."""
    # a1 -> b1 -> c1 dropping R then W: W is already on c1; W then R is illegal
    assert brute_force(Board(1, 4, ("RW", "", "W", ""))) == {(0, (1, 2), "RW")}
    # 1x3 corridor: the third step would have to go straight back, so nothing is legal
    assert brute_force(Board(1, 3, ("WWR", "", ""))) == set()
    # one step each way onto a W
    assert brute_perft(Board(1, 2, ("W", "W"))) == {"moves": 2, "paths": 2}
    # ... unless a wall separates them
    walled = Board(1, 2, ("W", "W"), walls=frozenset({frozenset((0, 1))}))
    assert brute_force(walled) == set()
    # two identical meeples: one colour sequence per path, around both sides of the square
    assert brute_force(Board(2, 2, ("WW", "", "", "W"))) == {
        (0, (1, 3), "WW"),
        (0, (2, 3), "WW"),
    }
    # two colours: both orders legal where the end tile holds both
    assert brute_perft(Board(2, 2, ("WR", "", "", "W"))) == {"moves": 2, "paths": 2}
    assert brute_perft(Board(2, 2, ("WR", "", "", "WR"))) == {"moves": 8, "paths": 4}
    # an impassable tile blocks the only way
    assert brute_force(Board(1, 3, ("W", "", "W"), impassable=frozenset({1}))) == set()


# -- hand-made boards --------------------------------------------------------------------------


def check(board: Board) -> set[Move]:
    """Assert the engine agrees with the brute force on ``board``; return the moves."""
    expected = brute_force(board)
    assert engine_perft(board) == {
        "moves": len(expected),
        "paths": len({(s, p) for s, p, _ in expected}),
    }
    assert stepwise_moves(board) == expected
    return expected


def test_loop_back_onto_the_start_tile() -> None:
    """A move may pass the (emptied) start tile again and end on it, if a meeple of the
    last colour was dropped there earlier in the same move."""
    # 8 meeples around a 2x2 square: back on a1 after 4 and after 8 steps
    moves = check(Board(2, 2, ("WWRGBYYP", "", "", "")))
    assert moves
    assert all(path[-1] == 0 and path[3] == 0 for _, path, _ in moves)
    assert all(order[3] == order[7] for _, _, order in moves)
    # the same start inside a larger board, with other meeples around
    moves = check(Board(3, 3, ("WWWRRRGG", "R", "", "G", "", "Y", "", "", "B")))
    assert any(path[-1] == 0 for start, path, _ in moves if start == 0)


def test_loop_passing_the_start_tile() -> None:
    """With 5 meeples (two alike) a move can go round a square, through the start tile,
    and end on the tile it first stepped on, which now holds the earlier meeple."""
    moves = check(Board(2, 3, ("WWRGB", "", "", "", "", "")))
    assert (0, (1, 4, 3, 0, 1), "WRGBW") in moves
    assert all(path[0] == path[4] for _, path, _ in moves)
    # only loop endings exist, and the lone colours never end a move
    assert all(order[0] == order[4] == "W" for _, _, order in moves)
    check(Board(3, 3, ("", "", "", "", "WWRRG", "", "R", "", "")))


def test_corridor() -> None:
    """A 1xN corridor allows only straight walks (no stepping back)."""
    moves = check(Board(1, 7, ("W", "RW", "", "WWR", "", "R", "WG")))
    for start, path, _ in moves:
        line = (start, *path)
        assert all(abs(a - b) == 1 for a, b in itertools.pairwise(line))
        assert len(set(line)) == len(line)
    assert moves
    check(Board(6, 1, ("GG", "W", "G", "", "RRGW", "G")))


def test_walls_enclosing_a_region() -> None:
    """Walls around a 2x2 region keep every move of its meeples inside it, and every
    move from outside out of it."""
    inside = {5, 6, 9, 10}
    walls = frozenset(
        frozenset(pair)
        for pair in [(1, 5), (2, 6), (4, 5), (7, 6), (8, 9), (11, 10), (13, 9), (14, 10)]
    )
    meeples = ("W", "R", "WR", "G", "RG", "WWRG", "R", "W", "G", "", "GW", "R", "W", "", "RW", "")
    moves = check(Board(4, 4, meeples, walls=walls))
    assert moves
    for start, path, _ in moves:
        assert {t in inside for t in (start, *path)} == {start in inside}
    assert any(start in inside for start, _, _ in moves)


def test_impassable_tile_in_the_middle() -> None:
    """No walk enters an impassable tile."""
    meeples = ("WR", "G", "W", "R", "", "RG", "GW", "W", "RR")
    moves = check(Board(3, 3, meeples, impassable=frozenset({4})))
    assert moves
    assert all(4 not in path for _, path, _ in moves)
    check(
        Board(
            3, 4, ("WRG", "W", "R", "G", "WG", "", "", "RW", "G", "W", "R", "WG"), frozenset({5, 6})
        )
    )


def test_no_legal_move_at_all() -> None:
    """Boards without any legal move count zero (single tile, lone meeples, no match)."""
    assert check(Board(1, 1, ("WRG",))) == set()
    assert check(Board(2, 2, ("", "", "", ""))) == set()
    assert check(Board(2, 2, ("W", "R", "G", "B"))) == set()


# -- perft files -------------------------------------------------------------------------------


def board_files() -> list[Path]:
    return sorted(p for p in PERFT_DIR.glob("*.json") if p != EXPECTED)


def load(path: Path) -> Board:
    return Board.from_doc(json.loads(path.read_text(encoding="utf-8")))


def test_perft_files_are_listed_in_expected() -> None:
    """expected.json lists exactly the board files of tests/perft/."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert sorted(expected) == [p.name for p in board_files()]
    assert len(expected) >= 5


def test_perft_command_on_board_files() -> None:
    """``naqala perft FILE`` prints the brute-force numbers recorded in expected.json."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    runner = CliRunner()
    for path in board_files():
        result = runner.invoke(app, ["perft", str(path)])
        assert result.exit_code == 0, (path.name, result.output)
        assert json.loads(result.stdout) == expected[path.name], path.name


def test_perft_files_cover_the_cases() -> None:
    """The board files include a real 5x6 start, walls, impassable tiles, a 1xN corridor
    and a move that loops back onto its start tile."""
    standard = load(PERFT_DIR / "standard-5x6-seed1.json")
    assert (standard.rows, standard.cols) == (5, 6)
    assert {len(m) for m in standard.meeples} == {3}
    assert load(PERFT_DIR / "walls.json").walls
    assert load(PERFT_DIR / "impassable.json").impassable
    assert load(PERFT_DIR / "corridor.json").rows == 1
    loop = brute_force(load(PERFT_DIR / "loop-to-start.json"))
    assert any(path[-1] == start for start, path, _ in loop)


def test_expected_numbers_come_from_the_brute_force() -> None:
    """The recorded perft numbers are what the brute force computes."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    for path in board_files():
        assert brute_perft(load(path)) == expected[path.name], path.name


# -- the polynomial counter ------------------------------------------------------------------


def fast_perft(board: Board) -> dict[str, int]:
    moves, paths = count_moves_fast(*engine_board(board))
    return {"moves": moves, "paths": paths}


@SMALL
@given(boards())
def test_fast_count_matches_brute_force(board: Board) -> None:
    """Counting walks per target tile gives the brute force's numbers."""
    assert fast_perft(board) == brute_perft(board)


@BIG
@given(boards(big_hands=True))
def test_fast_count_matches_brute_force_with_big_hands(board: Board) -> None:
    """... also when walks revisit their last tile (earlier drops there count)."""
    assert fast_perft(board) == brute_perft(board)


@st.composite
def crowded_boards(draw: st.DrawFn) -> Board:
    """2x2 to 3x3 boards where one or two tiles hold 6-8 meeples of at most two colours:
    long loops that the brute force is too slow for, but the enumerator still lists."""
    rows, cols = draw(st.integers(2, 3)), draw(st.integers(2, 3))
    size = rows * cols
    meeples = ["".join(draw(st.lists(st.sampled_from("WRG"), max_size=2))) for _ in range(size)]
    palette = draw(st.sampled_from(["W", "WR"]))
    for tile in draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=2)):
        meeples[tile] = "".join(draw(st.lists(st.sampled_from(palette), min_size=6, max_size=8)))
    edges = [(t, t + 1) for t in range(size) if (t + 1) % cols]
    walls = draw(st.sets(st.sampled_from(edges), max_size=1))
    return Board(rows, cols, tuple(meeples), walls=frozenset(map(frozenset, walls)))


CROWDED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CROWDED
@given(crowded_boards())
def test_fast_count_matches_the_enumerator_on_crowded_boards(board: Board) -> None:
    """The polynomial count equals the enumerator's on boards with long hands."""
    assert fast_perft(board) == engine_perft(board)


@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=3).filter(lambda h: 0 < sum(h) <= 7),
    st.data(),
)
def test_legal_sequences_matches_listing_them(hand: list[int], data: st.DataObject) -> None:
    """The formula for legal colour sequences equals listing every distinct order of the
    hand with the earlier drops on the last tile at chosen positions."""
    n = sum(hand)
    present = data.draw(st.lists(st.booleans(), min_size=len(hand), max_size=len(hand)))
    spots = data.draw(st.sets(st.integers(0, n - 2)) if n > 1 else st.just(set[int]()))
    letters = "".join(str(c) * k for c, k in enumerate(hand))
    orders = set(itertools.permutations(letters))
    legal = sum(
        1
        for order in orders
        if present[int(order[-1])] or any(order[i] == order[-1] for i in spots)
    )
    assert legal_sequences(tuple(hand), present, len(spots)) == legal


def test_dense_square_counted_by_listing_the_orders() -> None:
    """2x2 with 20 meeples per tile (10 W, 10 R): a walk must go round the square, so each
    start has 2 paths, both back on the (emptied) start after 20 steps, having stood on it
    after 4, 8, 12 and 16 steps. A colour order is legal when its last colour is among
    those four drops; the orders are listed here one by one (184,756 per path)."""
    legal = 0
    for whites in itertools.combinations(range(20), 10):
        chosen = set(whites)
        last = 19 in chosen
        if any((i in chosen) == last for i in (3, 7, 11, 15)):
            legal += 1
    board = Board(2, 2, ("W" * 10 + "R" * 10,) * 4)
    assert fast_perft(board) == {"moves": 8 * legal, "paths": 8}


def test_perft_command_counts_a_crowded_board(tmp_path: Path) -> None:
    """A 5x6 board with 8 meeples on every tile is answered (the enumerator would list
    hundreds of millions of moves), and the same board with the enumerator and no time
    gives up with exit code 1 and a message, not a hang."""
    colours = "YWGBR"
    meeples = ["".join(colours[(t + i) % 5] for i in range(8)) for t in range(30)]
    path = tmp_path / "crowded.json"
    path.write_text(json.dumps({"rows": 5, "cols": 6, "meeples": meeples}), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["perft", str(path)])
    assert result.exit_code == 0, result.output
    counted = json.loads(result.stdout)
    assert counted["paths"] > 10_000 and counted["moves"] > 10**8
    result = runner.invoke(app, ["perft", "--enumerate", "--max-seconds", "0", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "gave up after 0 s of CPU time (0 of 30 start tiles counted)" in result.stderr


def test_fast_count_gives_up_after_its_time() -> None:
    """``max_seconds`` stops the polynomial count too, saying how far it got."""
    geo, meeples = engine_board(load(PERFT_DIR / "mid-game.json"))
    with pytest.raises(PerftTimeout) as caught:
        count_moves_fast(geo, meeples, max_seconds=0)
    assert caught.value.done == 0 and caught.value.total == 28


def test_the_time_limit_holds_within_one_target_tile(monkeypatch: Any) -> None:
    """A big board with full tiles spends long on a single target tile, so the limit is
    looked at during each target's count too, not only between targets: with a clock
    that advances one second per look and a limit of 2.5 s, a 2x2 board of 30 meeples a
    tile (walks of 30 steps go round and round it) gives up inside the first target."""
    import naqala.testing.perft as perft_module

    ticks = itertools.count()
    monkeypatch.setattr(perft_module.time, "process_time", lambda: float(next(ticks)))
    geo, meeples = parse_board({"rows": 2, "cols": 2, "meeples": ["W" * 30, "R" * 30] * 2})
    with pytest.raises(PerftTimeout) as caught:
        count_moves_fast(geo, meeples, max_seconds=2.5)
    assert caught.value.done == 0 and caught.value.total == 4


def test_perft_command_both_ways_on_board_files() -> None:
    """``naqala perft`` and ``naqala perft --enumerate`` print the same recorded numbers,
    reporting progress when asked."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    for path in board_files():
        geo, meeples = engine_board(load(path))
        seen: list[tuple[int, int]] = []
        fast = count_moves_fast(geo, meeples, progress=lambda d, t, log=seen: log.append((d, t)))
        assert {"moves": fast[0], "paths": fast[1]} == expected[path.name]
        assert seen == [(d, seen[0][1]) for d in range(seen[0][1] + 1)]
        result = CliRunner().invoke(app, ["perft", "--enumerate", str(path)])
        assert json.loads(result.stdout) == expected[path.name], path.name


if __name__ == "__main__":
    results = {path.name: brute_perft(load(path)) for path in board_files()}
    EXPECTED.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


def test_a_tile_of_a_hundred_thousand_meeples_beside_one_other_answers() -> None:
    """Where the walks die out, the count stops with them: 100,000 meeples on a tile of a
    1x2 board (one step, then no way on) answers well within a limit of minutes (today
    5,000 took 28 s and 100,000 never answered, the time quadratic in the hand)."""
    for hand in (5_000, 100_000):
        geo, meeples = parse_board({"rows": 1, "cols": 2, "meeples": ["R" * hand, "R"]})
        assert count_moves_fast(geo, meeples, max_seconds=120) == (1, 1)


def test_a_long_walk_round_a_cycle_is_counted_by_its_visits() -> None:
    """A 2x2 board walked round and round: 5,001 steps from a1 end on a2 or b1 (one way
    round each), having stood there 1,250 times before (steps 1, 5, …, 4,997)."""
    geo, meeples = parse_board({"rows": 2, "cols": 2, "meeples": ["R" * 5_001, "", "", ""]})
    assert count_moves_fast(geo, meeples, max_seconds=120) == (2, 2)
    # 4,999 reds and 2 yellows: a last red is always legal (reds were dropped there on
    # the visits the yellows leave free); a last yellow only with the other yellow
    # dropped on one of the 1,250 visits
    hand = "R" * 4_999 + "YY"
    geo, meeples = parse_board({"rows": 2, "cols": 2, "meeples": [hand, "", "", ""]})
    assert count_moves_fast(geo, meeples, max_seconds=120) == (2 * (5_000 * 4_999 // 2 + 1_250), 2)


def test_perft_has_a_time_limit_by_default(monkeypatch: Any, tmp_path: Path) -> None:
    """Without ``--max-seconds`` the count still gives up, after ``PERFT_MAX_SECONDS``."""
    import naqala.testing.perft as api

    path = tmp_path / "board.json"
    path.write_text(json.dumps({"rows": 2, "cols": 2, "meeples": ["R" * 50] * 4}), "utf-8")
    monkeypatch.setattr(api, "PERFT_MAX_SECONDS", 0.0)
    result = CliRunner().invoke(app, ["perft", str(path)])
    assert result.exit_code == 1
    assert "gave up after 0 s of CPU time (0 of 4 target tiles counted)" in result.stderr
