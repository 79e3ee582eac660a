"""The move preview of a seat's page (``web.preview``) against the rules themselves: every
way the hand in play can end, found by walking the rules' own drop options one by one,
with what each end collects and whether it takes the tile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.web.games import Game
from naqala.web.store import Store


def _ends_by_the_rules(rules: Rules, state: State) -> set[tuple[str, str, int, bool]]:
    """(end, colour letter, meeples collected, tile taken) of every complete drop walk."""
    player = state.decision.player
    found: set[tuple[str, str, int, bool]] = set()

    def walk(current: State) -> None:
        for action in rules.legal_actions(current):
            after = rules.apply(current, action)
            if after.decision.player == player and after.decision.stage == "drop":
                walk(after)
                continue
            tile, letter = action.args
            end = current.geometry.parse(tile)
            colour = rules.letters.index(letter)
            taken = current.board.meeples[end][colour] + 1
            took = state.board.owners[end] != player and after.board.owners[end] == player
            found.add((tile, letter, taken, took))

    walk(state)
    return found


def _at_a_drop(tmp_path: Path, seed: int, moves: int) -> Game:
    """A game whose person holds a hand at a drop, after ``moves`` moves of theirs."""
    game = Store(tmp_path, [], 5).create(["human", "ai:greedy", "ai:greedy"], [], [], seed)
    game.set_autoplay(0, True)
    picks = 0
    while True:
        state = game.state
        assert not state.is_over
        deciding = game.next_player()
        assert deciding is not None
        game.play(deciding[1].choose(game.rules, state, game.rules.legal_actions(state)))
        if state.decision.player == 0 and state.decision.stage == "pick":
            picks += 1
            if picks > moves:
                game.set_autoplay(0, False)
                return game


@pytest.mark.parametrize(("seed", "moves"), [(7, 0), (8, 2), (9, 4)])
def test_the_preview_lists_every_end_the_rules_allow(tmp_path: Path, seed: int, moves: int) -> None:
    game = _at_a_drop(tmp_path, seed, moves)
    page: dict[str, Any] = game.page(0)
    preview = page["preview"]
    assert preview, "a hand in play has somewhere to end"
    shown = {(e["end"], e["letter"], e["taken"], e["captures"]) for e in preview}
    assert shown == _ends_by_the_rules(game.rules, game.state)
    options = {option["action"] for option in page["options"]}
    assert all(end["first"] in options for end in preview)  # a first step toward each
    for end in preview:
        assert end["words"].startswith(f"{end['end']} ({end['tile']}): {end['taken']} ")
        assert ("takes the tile" in end["words"]) == end["captures"]
    # the other seats get none, nor does the seat once its move is over
    assert game.page(1)["preview"] == []


@pytest.mark.parametrize(("seed", "moves"), [(9, 4), (10, 1), (11, 3)])
def test_a_drop_that_leaves_a_tile_of_one_colour_is_warned_of(
    tmp_path: Path, seed: int, moves: int
) -> None:
    """A drop with the hand going on that leaves its tile unowned with one colour only
    (the next player ending there with it takes the tile) says so; no other drop does."""
    game = _at_a_drop(tmp_path, seed, moves)
    rules, state = game.rules, game.state
    warned = {o["action"]: o["warning"] for o in game.page(0)["options"] if "warning" in o}
    assert warned, "these games hold such a drop"
    for action in rules.legal_actions(state):
        after = rules.apply(state, action)
        going_on = after.decision.player == 0 and after.decision.stage == "drop"
        tile = after.geometry.parse(action.args[0])
        kinds = [(i, n) for i, n in enumerate(after.board.meeples[tile]) if n]
        open_tile = going_on and len(kinds) == 1 and after.board.owners[tile] == NOBODY
        assert (str(action) in warned) == open_tile, action
        if open_tile:
            ((colour, count),) = kinds
            name = rules.colours[colour].name
            assert warned[str(action)].startswith(f"leaves {action.args[0]} with {count} {name}")
    assert all("warning" not in o for o in game.page(1)["options"])
