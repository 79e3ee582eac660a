"""The fast path of a playout changes nothing but speed: hooks resolved once answer as
pluggy does, the colour masks carried from board to board are the masks of the board,
and ``evolve`` keeps a derived cache only while its source is unchanged."""

from __future__ import annotations

import pytest

from naqala.core.actions import Action
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.simulate import play_game
from naqala.core.state import Board, State, evolve


class _Answers:
    """Answers every hot hook with a value naming itself, so the order shows."""

    def __init__(self, name: str) -> None:
        self.NAME = name

    @hookimpl
    def naqala_apply_extra(self, rules: Rules, state: State, action: Action) -> State | None:
        return None if action.kind != "mark" else evolve(state, flags=(self.NAME,))

    @hookimpl
    def naqala_protected_meeples(self, rules: Rules, state: State, player: int) -> list[str]:
        return [self.NAME]

    @hookimpl
    def naqala_game_ends(self, state: State) -> bool:  # asks for part of the arguments
        return False


class _First(_Answers):
    @hookimpl(tryfirst=True)
    def naqala_apply_extra(self, rules: Rules, state: State, action: Action) -> State | None:
        return None if action.kind != "mark" else evolve(state, flags=(self.NAME,))


def test_hot_hooks_answer_in_pluggys_order() -> None:
    rules = build_rules(extra_plugins=[_Answers("one"), _First("first"), _Answers("two")])
    state = rules.new_game(3, 5)
    mark = Action("mark")
    fast = rules._apply_extra.first(rules=rules, state=state, action=mark)
    slow = rules.hook.naqala_apply_extra(rules=rules, state=state, action=mark)
    assert fast.flags == slow.flags == ("first",)
    assert rules._protected(rules=rules, state=state, player=0) == (
        rules.hook.naqala_protected_meeples(rules=rules, state=state, player=0)
    )
    assert rules._game_ends(rules=rules, state=state) == (
        rules.hook.naqala_game_ends(rules=rules, state=state)
    )
    assert rules.protected(state, 0) >= {"one", "two", "first"}


def test_the_colour_masks_carried_along_are_those_of_the_board() -> None:
    """After every action of random games of every expansion set, the masks the board
    carries equal the masks computed from its meeples afresh."""
    for expansions, players in (((), 3), (("artisans", "djinns"), 5)):
        rules = build_rules(list(expansions))
        checked = 0

        def check(state: State, action: Action) -> None:
            nonlocal checked
            board = state.board
            if board._masks is not None:
                fresh = Board(board.meeples, board.owners, board.tokens)
                assert board.colour_masks == fresh.colour_masks
                checked += 1

        play_game(rules, players, seed=7, on_action=check)
        assert checked > 100


def test_evolve_keeps_the_masks_only_while_the_meeples_stay() -> None:
    board = build_rules().new_game(2, 1).board
    masks = board.colour_masks
    assert evolve(board, owners=board.owners)._masks is masks
    assert evolve(board, meeples=board.meeples)._masks is None
    emptied = board.with_meeples_at(0, (0,) * len(board.meeples[0]))
    assert emptied.colour_masks == Board(emptied.meeples, board.owners, board.tokens).colour_masks


def test_a_broken_mask_update_fails_the_property_checks_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``with_meeples_at`` that forgets to update the masks (it keeps the old ones) is
    caught by ``assert_invariants`` at the first action that moves a meeple off its last
    place on a tile, not by a wrong move minutes of shrinking later."""
    from naqala.testing.invariants import checked_playout

    right = Board.with_meeples_at

    def forgetful(self: Board, tile: int, counts: tuple[int, ...]) -> Board:
        board = right(self, tile, counts)
        object.__setattr__(board, "_masks", self._masks)
        return board

    rules = build_rules([])
    checked_playout(rules, 2, 5, max_actions=30)  # the real update passes
    monkeypatch.setattr(Board, "with_meeples_at", forgetful)
    with pytest.raises(AssertionError, match=r"\$\.board\.meeples: colour \d: kept mask"):
        checked_playout(rules, 2, 5, max_actions=30)
