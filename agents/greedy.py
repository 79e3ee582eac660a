"""The greedy AI (``ai:greedy``): the turn that most raises its own score right now, found
fast.

Every distinct way a move can end (``move_ends``) gets a quick estimate from the board
alone — the tile taken, the meeples collected and what their tribe gives — and only the
most promising few, plus the best of each colour, are played out through the rules in
use and judged by the score after the best next decision of the same turn. Bids reuse
that one plan of the board. The slower player that plays every move out is kept as
``greedy-full`` (``greedy_full.py``) to measure this one against.
"""

from __future__ import annotations

from naqala.agents.greedy_full import (
    MOVE_STAGES,
    best_option,
    distinct_moves,
    follow,
    own_score,
    settled_score,
)
from naqala.agents.move_ends import MoveEnd, move_ends
from naqala.core.actions import Action
from naqala.core.content import RESOURCES
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, Decision, State, Turn, add_at, evolve
from naqala.core.views import determinize
from naqala.plugins.base.api import pieces_left

#: at most this many pick and drop options are tried when searching through the rules
SEARCH_LIMIT = 5_000
#: how many of the best-estimated move ends are played out through the rules
PLAYED_OUT = 10
#: the estimate of a move's worth: a merchant (per resource card taken), an assassins'
#: move, a meeple of a colour returned to the bag that the estimate does not know
MERCHANT_VALUE = 1.5
ASSASSIN_VALUE = 8.0
OTHER_COLOUR = 1.5


class Estimator:
    """Quick guesses at what a move ending so is worth to ``player``, from the board
    alone. Meeples the player keeps (viziers, elders…) are valued exactly, by the change
    in the player's score lines with that many more kept (so majorities count); the
    value of each count is remembered for the decision."""

    def __init__(self, rules: Rules, state: State, player: int) -> None:
        self.rules = rules
        self.state = state
        self.player = player
        self.score = own_score(rules, state, player)
        self.kept: dict[tuple[int, int], float] = {}
        board, tiles = state.board, state.layout.tiles
        specs = [rules.tile(t) for t in tiles]
        can_claim = pieces_left(state.players[player]) > 0
        #: what taking each tile would be worth (0 if it is owned or no camel is left)
        self.claim = [
            spec.vp + sum(n * rules.tokens[i].vp for i, n in enumerate(board.tokens[t]))
            if can_claim and board.owners[t] == NOBODY
            else 0
            for t, spec in enumerate(specs)
        ]
        self.blue = [
            sum(1 for a in state.geometry.area[t] if specs[a].value == "blue")
            for t in range(len(tiles))
        ]
        self.row = len(rules.deck_in(state, RESOURCES).row)
        self.kinds = [c.id if not c.kept else "" for c in rules.colours]

    def _kept(self, colour: int, taken: int) -> float:
        key = (colour, taken)
        if key not in self.kept:
            me = self.state.players[self.player]
            more = evolve(me, meeples=add_at(me.meeples, colour, taken))
            after = self.state.replace_player(self.player, more)
            self.kept[key] = own_score(self.rules, after, self.player) - self.score
        return self.kept[key]

    def __call__(self, end: MoveEnd) -> float:
        value = float(self.claim[end.end]) if end.emptied else 0.0
        colour = self.kinds[end.colour]
        if not colour:
            return value + self._kept(end.colour, end.taken)
        if colour == "blue":
            return value + end.taken * self.blue[end.end]
        if colour == "red":
            return value + ASSASSIN_VALUE
        if colour == "green":
            return value + MERCHANT_VALUE * min(end.taken, self.row)
        return value + OTHER_COLOUR * end.taken


class GreedyAgent:
    """Chooses the turn that most raises its own score right now.

    A meeple move is chosen whole (see the module docstring); other decisions take the
    option with the best immediate score. Options are judged on a determinization for
    the deciding seat, so nothing it may not see (other hands, the piles' order, future
    draws) plays a part. Bids weigh the best move on the board against
    the price: the agent pays at most a quarter of what that move would gain. Ties go to
    the first option in canonical order, so the agent is deterministic."""

    def __init__(
        self,
        seed: int = 0,
        played_out: int = PLAYED_OUT,
        spread: bool = True,
        search_limit: int = SEARCH_LIMIT,
    ) -> None:
        self.seed = seed
        #: how many of the best-estimated move ends are played out through the rules
        self.played_out = played_out
        #: whether the best of each colour and of each kind of end tile are played out too
        self.spread = spread
        #: positions the rules' own options are searched through when a movement rule
        #: (a house rule such as no-loops) refuses every candidate move
        self.search_limit = search_limit
        self.plan: list[Action] = []

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        player = state.decision.player
        stage = state.decision.stage
        # judge options on a determinization: what the seat cannot see plays no part
        state = determinize(rules, state, player, self.seed)
        if stage in MOVE_STAGES:
            if not (self.plan and self.plan[0] in options):
                self.plan = list(self.plan_move(rules, state, player)[1])
            if self.plan and self.plan[0] in options:
                return self.plan.pop(0)
        if stage == "bid":
            return self._bid(rules, state, options, player)
        return self.best(rules, state, options, player)[1]

    def best(
        self, rules: Rules, state: State, options: list[Action], player: int
    ) -> tuple[int, Action]:
        """The option with the best score right after it (the first such in order)."""
        return best_option(rules, state, options, player)

    def settled(self, rules: Rules, state: State, player: int) -> int:
        """The score once the move is over, counting the best option that follows."""
        return settled_score(rules, state, player)

    def candidates(self, rules: Rules, state: State, player: int) -> list[MoveEnd]:
        """The move ends worth playing out: the best few by estimate, and the best of each
        colour and of each kind of end tile (whose tile action the estimate ignores), in
        estimate order (ties in canonical order)."""
        ends = move_ends(state.geometry, state.board.meeples, rules.letters)
        estimate = Estimator(rules, state, player)
        ranked = sorted(ends, key=lambda e: -estimate(e))
        chosen = ranked[: self.played_out]
        if not self.spread:
            return chosen
        tiles = state.layout.tiles
        seen = {(e.colour, "") for e in chosen} | {
            (-1, rules.tile(tiles[e.end]).kind) for e in chosen
        }
        for end in ranked[self.played_out :]:
            keys = {(end.colour, ""), (-1, rules.tile(tiles[end.end]).kind)}
            if keys - seen:
                seen |= keys
                chosen.append(end)
        return chosen

    def plan_move(self, rules: Rules, state: State, player: int) -> tuple[int, tuple[Action, ...]]:
        """The best move (its settled score and its plan) among the candidates the rules
        in use allow; in the middle of a move or if none is allowed, the rules' own
        options are searched instead."""
        ranked = self.ranked_moves(rules, state, player)
        if ranked:
            return ranked[0]
        return self._search(rules, state, player)

    def ranked_moves(
        self, rules: Rules, state: State, player: int
    ) -> list[tuple[int, tuple[Action, ...]]]:
        """The candidate moves the rules in use allow with their settled scores, best
        first (ties in candidate order)."""
        plans: list[tuple[Action, ...]] = []
        if state.decision.stage == "pick":
            plans = [end.plan for end in self.candidates(rules, state, player)]
        elif state.decision.stage == "drop":
            plans = [tuple(plan) for plan in distinct_moves(rules, state)]
        scored = []
        for plan in plans:
            after = follow(rules, state, plan)
            if after is not None:
                scored.append((self.settled(rules, after, player), plan))
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        return [scored[i] for i in order]

    def _search(self, rules: Rules, state: State, player: int) -> tuple[int, tuple[Action, ...]]:
        """Moves found through the rules' own pick and drop options (slower, but right for
        any movement rule), up to ``search_limit`` positions."""
        best: tuple[int, tuple[Action, ...]] = (-(10**9), ())
        budget = [self.search_limit]

        def explore(current: State, path: tuple[Action, ...]) -> None:
            nonlocal best
            if current.decision.stage not in MOVE_STAGES or current.decision.player != player:
                value = self.settled(rules, current, player)
                if value > best[0]:
                    best = (value, path)
                return
            for action in rules.legal_actions(current):
                if budget[0] <= 0:
                    return
                if action.kind in MOVE_STAGES:
                    budget[0] -= 1
                    explore(rules.apply(current, action), (*path, action))

        explore(state, ())
        return best

    def move_gain(self, rules: Rules, state: State, player: int) -> int:
        """What the best move on the board would gain ``player`` if they moved now (the
        value a bid is weighed against)."""
        marker = next(m for m in state.bid_track if m != NOBODY)
        trial = evolve(state, turn=Turn(marker=marker), decision=Decision("pick", player))
        value, plan = self.plan_move(rules, trial, player)
        return value - own_score(rules, trial, player) if plan else 0

    def _bid(self, rules: Rules, state: State, options: list[Action], player: int) -> Action:
        if not any(a.kind == "bid" for a in options):
            return options[0]
        return bid_for_gain(options, self.move_gain(rules, state, player))


def bid_for_gain(options: list[Action], gain: int) -> Action:
    """The greedy bid rule: the dearest bid costing at most a quarter of ``gain`` (what
    the best move on the board would gain), else the cheapest."""
    bids = [a for a in options if a.kind == "bid"]
    if not bids:
        return options[0]
    affordable = [a for a in bids if int(a.args[0]) * 4 <= gain]
    pool = affordable or [min(bids, key=lambda a: int(a.args[0]))]
    return max(pool, key=lambda a: int(a.args[0]))
