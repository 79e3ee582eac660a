"""The first greedy AI, which plays every distinct move out through the rules
(``ai:greedy-full``): slow (about a second per pick or bid on a busy machine), kept as the
yardstick the fast greedy player (``greedy.py``) is measured against in
``bench/agents.py``."""

from __future__ import annotations

from collections.abc import Sequence

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, Counts, Decision, State, Turn, add_at, evolve
from naqala.plugins.base.api import legal_drops, legal_starts

MOVE_STAGES = ("pick", "drop")
#: at most this many complete moves are enumerated when planning one meeple move
MOVE_LIMIT = 20_000
#: at most this many pick and drop options are tried when searching through the rules
SEARCH_LIMIT = 5_000


def own_score(rules: Rules, state: State, player: int) -> int:
    """The player's score lines added up, as they stand now."""
    return sum(line.points for line in rules.score_lines(state, player))


def best_option(
    rules: Rules, state: State, options: list[Action], player: int
) -> tuple[int, Action]:
    """The option with the best score right after it (the first such in order)."""
    scored = [(own_score(rules, rules.apply_on_view(state, a), player), a) for a in options]
    top = max(value for value, _ in scored)
    return top, next(a for value, a in scored if value == top)


def settled_score(rules: Rules, state: State, player: int) -> int:
    """The score once the move is over, counting the best option of the decision that
    follows in the same turn (a kill, a market, a djinn)."""
    if state.is_over or state.decision.player != player or state.decision.stage in MOVE_STAGES:
        return own_score(rules, state, player)
    options = rules.legal_actions(state)
    return (
        best_option(rules, state, options, player)[0]
        if options
        else own_score(rules, state, player)
    )


def distinct_moves(rules: Rules, state: State) -> list[list[Action]]:
    """One action sequence for each distinct way the pending move can end (start tile,
    final tile, colour collected): the rest of the path changes little right now."""
    geo = state.geometry
    letters = rules.letters
    found: dict[tuple[int, int, int], list[Action]] = {}
    count = 0

    def walk(board: list[Counts], here: int, prev: int, hand: Counts, path: list[Action]) -> None:
        nonlocal count
        for nxt, colour in legal_drops(geo, board, here, prev, hand):
            if count >= MOVE_LIMIT:
                return
            step = [*path, Action("drop", (geo.name(nxt), letters[colour]))]
            rest = add_at(hand, colour, -1)
            if any(rest):
                before = board[nxt]
                board[nxt] = add_at(before, colour, 1)
                walk(board, nxt, here, rest, step)
                board[nxt] = before
            else:
                count += 1
                found.setdefault((start, nxt, colour), step)

    turn = state.turn
    if state.decision.stage == "drop" and turn is not None:
        start = turn.start
        walk(list(state.board.meeples), turn.here, turn.previous, turn.hand, [])
    else:
        for start in legal_starts(geo, state.board.meeples):
            board = list(state.board.meeples)
            hand = board[start]
            board[start] = (0,) * len(hand)
            walk(board, start, NOBODY, hand, [Action("pick", (geo.name(start),))])
    return list(found.values())


def follow(rules: Rules, state: State, plan: Sequence[Action]) -> State | None:
    """The state after ``plan``, or None if the rules in use refuse one of its steps."""
    for action in plan:
        if not rules.is_legal(state, action):
            return None
        state = rules.apply(state, action)
    return state


class FullGreedyAgent:
    """Chooses the turn that most raises its own score right now.

    A meeple move is chosen whole: each distinct way the move can end is played out and
    judged by the score after the best next decision of the same turn. Other decisions
    take the option with the best immediate score. Bids weigh the best move on the board
    against the price: the agent pays at most a quarter of what that move would gain.
    Ties go to the first option in canonical order, so the agent is deterministic."""

    def __init__(self, seed: int = 0) -> None:
        self.plan: list[Action] = []

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        player = state.decision.player
        stage = state.decision.stage
        if stage in MOVE_STAGES:
            if not (self.plan and self.plan[0] in options):
                self.plan = self._plan_move(rules, state, player)[1]
            if self.plan and self.plan[0] in options:
                return self.plan.pop(0)
        if stage == "bid":
            return self._bid(rules, state, options, player)
        return best_option(rules, state, options, player)[1]

    def _plan_move(self, rules: Rules, state: State, player: int) -> tuple[int, list[Action]]:
        """The best move: the base game's moves, each checked against the rules in use (a
        variant may forbid some); if none is allowed, the rules' own options are searched."""
        best: tuple[int, list[Action]] = (-(10**9), [])
        for plan in distinct_moves(rules, state):
            after = follow(rules, state, plan)
            if after is None:
                continue
            value = settled_score(rules, after, player)
            if value > best[0]:
                best = (value, plan)
        if best[1]:
            return best
        return self._search(rules, state, player)

    def _search(self, rules: Rules, state: State, player: int) -> tuple[int, list[Action]]:
        """Moves found through the rules' own pick and drop options (slower, but right for
        any movement rule), up to ``SEARCH_LIMIT`` positions."""
        best: tuple[int, list[Action]] = (-(10**9), [])
        budget = [SEARCH_LIMIT]

        def explore(current: State, path: list[Action]) -> None:
            nonlocal best
            if current.decision.stage not in MOVE_STAGES or current.decision.player != player:
                value = settled_score(rules, current, player)
                if value > best[0]:
                    best = (value, path)
                return
            for action in rules.legal_actions(current):
                if budget[0] <= 0:
                    return
                if action.kind in MOVE_STAGES:
                    budget[0] -= 1
                    explore(rules.apply(current, action), [*path, action])

        explore(state, [])
        return best

    def _bid(self, rules: Rules, state: State, options: list[Action], player: int) -> Action:
        bids = [a for a in options if a.kind == "bid"]
        if not bids:
            return options[0]
        marker = next(m for m in state.bid_track if m != NOBODY)
        trial = evolve(state, turn=Turn(marker=marker), decision=Decision("pick", player))
        value, _plan = self._plan_move(rules, trial, player)
        gain = value - own_score(rules, trial, player) if _plan else 0
        affordable = [a for a in bids if int(a.args[0]) * 4 <= gain]
        pool = affordable or [min(bids, key=lambda a: int(a.args[0]))]
        return max(pool, key=lambda a: int(a.args[0]))
