"""Moving meeples and the tile control check (content facts §1.6 steps 2-3, §7.1, §7.15).

Every position is a real 3-player game with a hand-set board (all other tiles empty), at
the start of player 0's turn. The board is 5 rows x 6 columns, a1 top-left, f5 bottom-right.
"""

from __future__ import annotations

import copy

import pytest

from naqala.core.engine import IllegalAction, Rules
from naqala.core.state import NOBODY, State
from naqala.testing.scenario import act, base_rules, board, counts, options, play, player, turn_of


def position(meeples: dict[str, str], owners: dict[str, int] | None = None) -> tuple[Rules, State]:
    """Player 0 is about to pick up meeples; only the named tiles hold any."""
    rules = base_rules()
    state = rules.new_game(3, seed=3)
    state = board(rules, state, meeples, clear=True, owners=owners)
    return rules, turn_of(rules, state, 0)


def meeples_on(rules: Rules, state: State, tile: str) -> str:
    """The meeples on a tile as letters in colour order (e.g. ``"YYW"``)."""
    here = state.board.meeples[state.geometry.parse(tile)]
    return "".join(letter * n for letter, n in zip(rules.letters, here, strict=True))


def owner(state: State, tile: str) -> int:
    return state.board.owners[state.geometry.parse(tile)]


def refused(rules: Rules, state: State, text: str, cause: str) -> None:
    """``text`` is refused with a reason naming ``cause``, and the position is untouched:
    same state, same decision, same options."""
    before = copy.deepcopy(state)
    legal = options(rules, state)
    assert text not in legal
    with pytest.raises(IllegalAction, match=cause):
        rules.apply(state, act(text))
    assert cause in rules.explain(state, act(text))
    assert state == before
    assert options(rules, state) == legal


# -- picking up --------------------------------------------------------------------------


def test_pick_up_takes_every_meeple_of_the_tile() -> None:
    """ "Pick up all meeples from one non-empty tile": the tile is left empty and every
    meeple on it is in hand; nothing else on the board changes."""
    rules, state = position({"c3": "YWG", "b1": "G", "f5": "RR"})
    state = play(rules, state, "pick c3")
    assert state.decision.stage == "drop"
    assert meeples_on(rules, state, "c3") == ""
    assert state.turn is not None
    assert state.turn.hand == counts(rules, "YWG")
    assert state.turn.start == state.geometry.parse("c3")
    assert meeples_on(rules, state, "b1") == "G"
    assert meeples_on(rules, state, "f5") == "RR"


def test_picking_an_empty_or_hopeless_tile_is_refused() -> None:
    """Only a non-empty tile from which some legal move exists may be picked: b2 is empty,
    and from c3 no walk of four steps can bring a Vizier onto a Vizier: the only other
    Vizier, on c4, is an odd number of steps away, and the start tile starts empty. Picking
    a1, b1 or c4 (one step onto c3) is fine."""
    rules, state = position({"c3": "YYYY", "c4": "Y", "a1": "W", "b1": "W"})
    assert options(rules, state) == ["pick a1", "pick b1", "pick c4"]
    refused(rules, state, "pick b2", "b2 holds no meeples")
    refused(rules, state, "pick c3", "no legal move starts on c3")
    refused(rules, state, "pick g1", "off the 5x6 board")


# -- dropping along a path ----------------------------------------------------------------


def test_one_meeple_per_tile_along_an_orthogonal_path() -> None:
    """ "Drop one meeple per tile along an orthogonal path. No diagonal steps": the first
    drop goes to a tile next to the start, each next drop to a tile next to the previous
    one, and each drop leaves exactly one meeple."""
    rules, state = position({"c3": "YWG", "f3": "G", "a2": "G", "b5": "G", "d1": "G"})
    state = play(rules, state, "pick c3")
    first = {a.split()[1] for a in options(rules, state, "drop")}
    assert first == {"b3", "c2", "d3", "c4"}
    refused(rules, state, "drop d4 W", "not orthogonally next to c3")
    refused(rules, state, "drop e3 W", "not orthogonally next to c3")
    refused(rules, state, "drop d3 R", "you hold no Assassin")
    state = play(rules, state, "drop d3 W")
    assert meeples_on(rules, state, "d3") == "W"
    assert state.turn is not None and state.turn.hand == counts(rules, "YG")
    refused(rules, state, "drop d3 Y", "not orthogonally next to d3")
    refused(rules, state, "drop c4 Y", "not orthogonally next to d3")
    state = play(rules, state, "drop e3 Y", "drop f3 G")
    assert [meeples_on(rules, state, t) for t in ("c3", "d3", "e3")] == ["", "W", "Y"]
    assert state.turn is not None and state.turn.path == tuple(
        state.geometry.parse(t) for t in ("d3", "e3", "f3")
    )


def test_no_immediate_backtracking_and_the_start_tile_counts() -> None:
    """ "No immediate backtracking": a meeple may not be dropped on the tile just left, and
    that includes the start tile right after the first drop."""
    rules, state = position({"c3": "WWWW", "a1": "W", "c1": "W", "f5": "W"})
    state = play(rules, state, "pick c3", "drop d3 W")
    assert not [a for a in options(rules, state) if a.startswith("drop c3")]
    refused(rules, state, "drop c3 W", "no immediate backtracking: you just came from c3")
    state = play(rules, state, "drop d2 W")
    refused(rules, state, "drop d3 W", "no immediate backtracking: you just came from d3")
    state = play(rules, state, "drop c2 W", "drop c1 W")
    assert meeples_on(rules, state, "c1") == ""
    assert owner(state, "c1") == 0


def test_loops_are_allowed_and_earlier_drops_of_the_move_count() -> None:
    """ "Loops are allowed" (only immediate backtracking is not), and the last meeple may
    land on a tile whose same-colour meeple was dropped earlier in this very move: around
    c3 → d3 → d4 → c4 → c3 (passing the start tile) → d3, ending on the Vizier dropped
    on d3 at the first step. No other tile holds a Vizier."""
    rules, state = position({"c3": "YBBBY"})
    state = play(rules, state, "pick c3", "drop d3 Y", "drop d4 B", "drop c4 B", "drop c3 B")
    assert options(rules, state) == ["drop d3 Y"]
    state = play(rules, state, "drop d3 Y")
    assert state.turn is not None
    assert [state.geometry.name(t) for t in state.turn.path] == ["d3", "d4", "c4", "c3", "d3"]
    assert state.players[0].meeples == counts(rules, "YY")
    assert owner(state, "d3") == 0
    assert [meeples_on(rules, state, t) for t in ("d4", "c4", "c3")] == ["B", "B", "B"]


def test_last_meeple_must_land_on_a_tile_holding_its_colour() -> None:
    """ "The last meeple must land on a tile that already holds a meeple of the same
    colour": with one Vizier left at d3, e3 (a Vizier) is fine, d2 (only a Merchant) and
    d4 (empty) are refused."""
    rules, state = position({"c3": "YW", "e3": "Y", "d2": "G"})
    state = play(rules, state, "pick c3", "drop d3 W")
    assert options(rules, state) == ["drop e3 Y"]
    refused(rules, state, "drop d2 Y", "last meeple must land on a tile already holding a Y")
    refused(rules, state, "drop d4 Y", "last meeple must land on a tile already holding a Y")


def test_a_drop_that_leaves_no_legal_ending_is_refused() -> None:
    """Only steps that still allow a legal end are offered: dropping the Vizier first at
    d3 would leave a lone Elder with no Elder in reach."""
    rules, state = position({"c3": "YW", "e3": "Y"})
    state = play(rules, state, "pick c3")
    refused(rules, state, "drop d3 Y", "could never land on a tile holding its colour")


def test_the_start_tile_starts_empty() -> None:
    """The start tile holds nothing once picked up: although c3 held a Vizier before the
    move, the last Vizier of a loop back to c3 may not end there (nothing of its colour
    was dropped on c3 in this move); it must go to b4."""
    rules, state = position({"c3": "GGGY", "b4": "Y"})
    state = play(rules, state, "pick c3", "drop d3 G", "drop d4 G", "drop c4 G")
    assert options(rules, state) == ["drop b4 Y"]
    refused(rules, state, "drop c3 Y", "last meeple must land on a tile already holding a Y")


# -- tile control check -------------------------------------------------------------------


def test_control_check_takes_back_every_meeple_of_the_last_colour() -> None:
    """ "Take the last meeple back, together with all meeples of that colour on the tile":
    here 3 Viziers from d3; the Elder stays, so the tile is not empty and nobody takes it."""
    rules, state = position({"c3": "Y", "d3": "YYW"})
    state = play(rules, state, "pick c3", "drop d3 Y")
    assert meeples_on(rules, state, "d3") == "W"
    assert state.players[0].meeples == counts(rules, "YYY")
    assert owner(state, "d3") == NOBODY
    assert state.players[0].camels == 8


def test_emptied_unowned_tile_gets_a_camel() -> None:
    """ "If the tile is now empty and has no owner, place one of your camels on it.\""""
    rules, state = position({"c3": "Y", "d3": "YY", "f5": "GG"})
    state = play(rules, state, "pick c3", "drop d3 Y")
    assert meeples_on(rules, state, "d3") == ""
    assert owner(state, "d3") == 0
    assert state.players[0].camels == 7


@pytest.mark.parametrize("holder", [0, 1])
def test_an_owned_tile_never_changes_owner(holder: int) -> None:
    """ "An owned tile never changes owner": emptying a tile that already has a camel,
    an opponent's or one's own, gives nothing and costs no camel."""
    rules, state = position({"c3": "Y", "d3": "YY"}, owners={"d3": holder})
    state = play(rules, state, "pick c3", "drop d3 Y")
    assert meeples_on(rules, state, "d3") == ""
    assert owner(state, "d3") == holder
    assert [p.camels for p in state.players] == [8, 8, 8]
    assert state.players[0].meeples == counts(rules, "YYY")


def test_with_no_camel_left_no_new_tile_is_taken() -> None:
    """A player with no camel left cannot take control: the emptied tile stays unowned
    (the meeples are still collected)."""
    rules, state = position({"c3": "Y", "d3": "YY"})
    state = player(rules, state, 0, camels=0)
    state = play(rules, state, "pick c3", "drop d3 Y")
    assert meeples_on(rules, state, "d3") == ""
    assert owner(state, "d3") == NOBODY
    assert state.players[0].camels == 0
    assert state.players[0].meeples == counts(rules, "YYY")
