"""Drop legality pinned branch by branch, on both engines (issue #40).

Whether a drop is offered is decided by a fast path (``legal_drops`` in
``plugins/base/movement.py``, ``Rules::drop_options`` in ``kernel/src/rules.rs`` and the
move lister's ``legal_drops`` in ``kernel/src/moves.rs``): the last meeple must find its
colour; another colour in hand can still end the walk; two of the colour and the walk can
come back to the tile or end on that colour; three of it, or another pair, and the rest
of the walk can loop. A bug in one branch passed every other test, so each branch has a
rule of its own in ``tests/data/drop-rules.json``: a position of the base game and the
exact options it offers. Here that table is checked against a brute force of the rulebook,
the Python engine and the kernel's game state (the kernel plays the rule's actions
itself, so a bug in one engine fails only that engine's tests);
``kernel/tests/drop_legality.rs`` checks the move lister with the same table. The board
files of ``tests/perft`` are listed move by move through the Python options and, those
shaped like the game's board, through the kernel's game state, so every drop offered
there leads to a legal end and none is missing.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from native_kit import require_native
from test_perft import PERFT_DIR, Board, board_files, brute_force, engine_board, load

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.testing.perft import count_moves
from naqala.testing.scenario import base_rules, board, options, play, turn_of

TABLE: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "drop-rules.json").read_text(encoding="utf-8")
)
RULES: list[dict[str, Any]] = TABLE["rules"]
EXPECTED: dict[str, dict[str, int]] = json.loads(
    (PERFT_DIR / "expected.json").read_text(encoding="utf-8")
)
#: the board files added for issue #40, each crowded with what one branch decides
BRANCH_FILES = (
    "back-to-the-start.json",
    "hits-at-the-end.json",
    "pairs-and-backs.json",
    "triples-and-loops.json",
)
ROWS, COLS = 5, 6


def slug(rule: dict[str, Any]) -> str:
    """The rule as a test id: ``a-hand-of-two-yellows-may-...``."""
    return re.sub(r"[^a-z0-9]+", "-", rule["rule"].lower()).strip("-")


def position(rule: dict[str, Any]) -> tuple[Rules, State]:
    """Player 0's turn on a board holding only the rule's meeples, after its actions."""
    rules = base_rules()
    state = board(rules, rules.new_game(3, seed=3), rule["meeples"], clear=True)
    return rules, play(rules, turn_of(rules, state, 0), *rule["played"])


# -- the rulebook, read literally --------------------------------------------------------


def tile(name: str) -> int:
    return (int(name[1:]) - 1) * COLS + "abcdef".index(name[0])


def name(index: int) -> str:
    return f"{'abcdef'[index % COLS]}{index // COLS + 1}"


def steps(here: int) -> list[int]:
    """Orthogonal neighbours on the open 5x6 board, in the engines' order (up, left,
    right, down)."""
    row, col = divmod(here, COLS)
    near = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
    return [r * COLS + c for r, c in near if 0 <= r < ROWS and 0 <= c < COLS]


def walks(here: int, prev: int, length: int) -> Iterator[tuple[int, ...]]:
    """Every walk of ``length`` steps from ``here`` never stepping straight back."""
    if not length:
        yield ()
        return
    for nxt in steps(here):
        if nxt != prev:
            for rest in walks(nxt, here, length - 1):
                yield (nxt, *rest)


def can_end(tiles: list[str], here: int, prev: int, hand: str) -> bool:
    """Whether ``hand`` can be dropped from ``here`` on so that the last meeple lands on a
    tile already holding its colour (the move's own earlier drops included)."""
    orders = {"".join(order) for order in itertools.permutations(hand)}
    for walk in walks(here, prev, len(hand)):
        last = walk[-1]
        for order in orders:
            dropped = "".join(c for t, c in zip(walk[:-1], order[:-1], strict=True) if t == last)
            if order[-1] in tiles[last] + dropped:
                return True
    return False


def rulebook_options(rule: dict[str, Any]) -> list[str]:
    """The options of the rule's position by brute force, in canonical order (on a board
    of single-digit rows, the notation's alphabetical order): every pick or drop after
    which the move can still end legally."""
    tiles = [""] * (ROWS * COLS)
    for where, letters in rule["meeples"].items():
        tiles[tile(where)] = letters
    if not rule["played"]:
        found = []
        for start, hand in enumerate(tiles):
            emptied = [*tiles[:start], "", *tiles[start + 1 :]]
            if hand and can_end(emptied, start, -1, hand):
                found.append(f"pick {name(start)}")
        return sorted(found)
    here, prev, hand = -1, -1, ""
    for action in rule["played"]:
        kind, where, *letter = action.split()
        if kind == "pick":
            here, hand = tile(where), tiles[tile(where)]
            tiles[here] = ""
        else:
            tiles[tile(where)] += letter[0]
            hand = hand.replace(letter[0], "", 1)
            here, prev = tile(where), here
    found = []
    for nxt in steps(here):
        for letter in TABLE["letters"]:
            if nxt == prev or letter not in hand:
                continue
            rest = hand.replace(letter, "", 1)
            after = [*tiles[:nxt], tiles[nxt] + letter, *tiles[nxt + 1 :]]
            if (letter in tiles[nxt]) if not rest else can_end(after, nxt, here, rest):
                found.append(f"drop {name(nxt)} {letter}")
    return sorted(found)


# -- the rules of the table --------------------------------------------------------------


def test_the_table_speaks_the_base_game_and_names_each_rule_once() -> None:
    assert base_rules().letters == TABLE["letters"]
    assert len({slug(rule) for rule in RULES}) == len(RULES)
    assert all(rule["options"] for rule in RULES)


@pytest.mark.parametrize("rule", RULES, ids=slug)
def test_the_rule_is_what_the_rulebook_allows(rule: dict[str, Any]) -> None:
    """The table's options are what a brute force of the rulebook finds."""
    assert rulebook_options(rule) == rule["options"]


@pytest.mark.parametrize("rule", RULES, ids=slug)
def test_the_python_engine_offers_exactly_the_rule(rule: dict[str, Any]) -> None:
    rules, state = position(rule)
    assert options(rules, state) == rule["options"], rule["branch"]


@pytest.mark.parametrize("rule", RULES, ids=slug)
def test_the_kernel_offers_exactly_the_rule(rule: dict[str, Any]) -> None:
    require_native()
    from naqala.native.bridge import NativeRules

    # only the board comes from Python: the kernel plays the rule's actions itself
    rules, state = position({**rule, "played": []})
    native = NativeRules(rules).to_native(state)
    for action in rule["played"]:
        native = native.apply(action)
    assert native.legal_actions() == rule["options"], rule["branch"]


# -- the board files, move by move through the kernel's game state ----------------------


def game_shaped(board_file: Board) -> bool:
    """A board file the base game can hold: its 5x6 board, open, its colours."""
    return (
        (board_file.rows, board_file.cols) == (ROWS, COLS)
        and not board_file.walls
        and not board_file.impassable
        and all(set(m) <= set(TABLE["letters"]) for m in board_file.meeples)
    )


@cache
def game_files() -> list[Path]:
    return [path for path in board_files() if game_shaped(load(path))]


def board_state(board_file: Board) -> tuple[Rules, State]:
    """Player 0 about to pick, on a game board holding the board file's meeples."""
    meeples = {name(t): letters for t, letters in enumerate(board_file.meeples) if letters}
    return position({"meeples": meeples, "played": []})


def native_moves(state: Any, hand: int, start: str, path: tuple[str, ...]) -> Iterator[str]:
    """The moves of a native state waiting for a drop, as ``start path... colours``: each
    drop offered is followed until the hand is empty (the last drop not played, since it
    ends the move); a drop that leads to no option is a dead end and fails."""
    offered = state.legal_actions()
    assert offered, f"dead end after pick {start} {' '.join(path)}"
    for action in offered:
        step = action.removeprefix("drop ")
        if hand == 1:
            yield " ".join((start, *path, step))
        else:
            yield from native_moves(state.apply(action), hand - 1, start, (*path, step))


def features(board_file: Board) -> set[str]:
    """What the board file's moves exercise, by brute force: ``pair`` and ``triple`` (a
    hand with two, three of a colour), ``hit`` (a last meeple landing on its colour there
    from the start), ``loop`` (one landing on its colour dropped earlier in the move:
    nothing of it was there), ``back`` (a walk ending on its first tile) and ``start`` (a
    walk ending on its start tile)."""
    found = set()
    most = [max(m.count(c) for c in m) for m in board_file.meeples if m]
    if 2 in most:
        found.add("pair")
    if max(most) >= 3:
        found.add("triple")
    for start, path, order in brute_force(board_file):
        end = path[-1]
        found.add("hit" if order[-1] in board_file.meeples[end] and end != start else "loop")
        if end == path[0] and len(path) > 1:
            found.add("back")
        if end == start:
            found.add("start")
    return found


def test_the_new_board_files_are_game_shaped_and_exercise_their_branches() -> None:
    """Each board file added for issue #40 holds what its name says, by brute force."""
    assert set(BRANCH_FILES) <= {path.name for path in game_files()}
    assert features(load(PERFT_DIR / "hits-at-the-end.json")) == {"hit"}
    assert features(load(PERFT_DIR / "pairs-and-backs.json")) >= {"pair", "hit", "loop", "back"}
    assert features(load(PERFT_DIR / "triples-and-loops.json")) >= {"triple", "loop", "back"}
    assert features(load(PERFT_DIR / "back-to-the-start.json")) >= {"triple", "loop", "start"}
    colours = {c for m in load(PERFT_DIR / "hits-at-the-end.json").meeples for c in m}
    assert colours == set(TABLE["letters"])


@pytest.mark.parametrize("file", [path.name for path in game_files()])
def test_board_files_list_the_same_moves_through_the_kernel_game_state(file: str) -> None:
    """Every move of the board file, listed by the kernel's own pick and drop options,
    has the numbers the brute force recorded; no drop offered is a dead end."""
    require_native()
    from naqala.native.bridge import NativeRules

    board_file = load(PERFT_DIR / file)
    rules, state = board_state(board_file)
    native = NativeRules(rules).to_native(state)
    moves = []
    for pick in native.legal_actions():
        start = pick.removeprefix("pick ")
        hand = len(board_file.meeples[tile(start)])
        found = list(native_moves(native.apply(pick), hand, start, ()))
        assert found, f"{pick} leads to no move"
        moves += found
    assert len(moves) == len(set(moves))
    # a move is its start, then a tile and a colour per drop
    paths = {(m.split()[0], *m.split()[1::2]) for m in moves}
    expected = EXPECTED[file]
    assert (len(moves), len(paths)) == (expected["moves"], expected["paths"])


@pytest.mark.parametrize("file", [path.name for path in board_files()])
def test_board_files_list_the_same_moves_through_the_python_options(file: str) -> None:
    """The Python engine's lister (``legal_starts`` and ``legal_drops``) on every board
    file gives the numbers the brute force recorded."""
    expected = EXPECTED[file]
    assert count_moves(*engine_board(load(PERFT_DIR / file))) == (
        expected["moves"],
        expected["paths"],
    )
