"""The search's playouts: every seat played by the fast greedy policy, cut off at a
horizon and judged from the score sheet.

A playout is cheap because the greedy policy's choices are remembered by what every seat
can see of the position (``public_key``): the board, the mover's public holdings, the
face-up rows and the tracks. The moves of a playout mostly depend on the board alone, so
the playouts of one candidate over several determinizations replay the same judgements
for free; a remembered move the rules refuse in a given deal is judged afresh.

The horizon: a playout stops when each player has started one more meeple move after the
candidate (so the others' replies to it, and the player's own next move, are counted), at
``MOVE_CAP`` moves, or at the end of the game. ``judge`` turns the scores there into the
deciding player's value: its margin over the best other player, plus the margin over
the others' mean (so in 3–5 players a move that hurts every rival counts too), plus
``WIN_BONUS`` if the game is over and it has won.
"""

from __future__ import annotations

from collections.abc import Sequence

from naqala.agents.greedy import GreedyAgent, bid_for_gain
from naqala.agents.greedy_full import MOVE_STAGES, follow
from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import State

Move = tuple[Action, ...]

#: a playout stops after at most this many meeple moves per player
MOVE_CAP_PER_PLAYER = 2
#: points added to a won, finished game's value
WIN_BONUS = 15.0
#: weight of the margin over the others' mean, next to the margin over the best other
MEAN_WEIGHT = 0.5


def gain_key(state: State) -> object:
    """What the greedy weighing of the board for a bid depends on that every seat can
    see (not the bid track: the best move on the board stays the same while bids go on)."""
    player = state.decision.player
    p = state.players[player]
    rows = tuple(d.row for d in state.decks)
    return (state.board, player, p.meeples, p.camels, p.djinns, p.extras, rows)


def public_key(state: State) -> object:
    """What the greedy judgement of a decision depends on that every seat can see: the
    board, the decider's public holdings, the face-up rows, the tracks and the stage."""
    player = state.decision.player
    p = state.players[player]
    rows = tuple(d.row for d in state.decks)
    return (
        state.decision.stage,
        state.board,
        player,
        p.meeples,
        p.camels,
        p.djinns,
        p.coins,
        p.extras,
        rows,
        state.bid_track,
        state.markers,
    )


#: the playout policy plays out this many of the best-estimated move ends (greedy: 10)
LIGHT_PLAYED_OUT = 3
#: positions the playout policy searches when the rules refuse its few candidates (a
#: house rule such as no-loops; greedy: 5,000): a playout step stays cheap
LIGHT_SEARCH_LIMIT = 150


class Policy:
    """The fast greedy player, lightened (``LIGHT_PLAYED_OUT`` move ends played out, no
    best-of-each-colour), as a playout policy; it remembers its judgements for one
    decision's search (so the search stays a function of the decision alone)."""

    def __init__(self, seed: int) -> None:
        self.greedy = GreedyAgent(
            seed, played_out=LIGHT_PLAYED_OUT, spread=False, search_limit=LIGHT_SEARCH_LIMIT
        )
        self.moves: dict[object, Move] = {}
        self.gains: dict[object, int] = {}
        self.choices: dict[object, Action] = {}

    def clear(self) -> None:
        self.moves.clear()
        self.gains.clear()
        self.choices.clear()

    def move(self, rules: Rules, state: State) -> Move:
        """The greedy player's whole meeple move from a pick (or the rest of one)."""
        key = public_key(state)
        plan = self.moves.get(key)
        if not plan or not rules.is_legal(state, plan[0]):
            plan = tuple(self.greedy.plan_move(rules, state, state.decision.player)[1])
            self.moves[key] = plan
        return plan

    def bid(self, rules: Rules, state: State, options: list[Action]) -> Action:
        """The greedy bid, its weighing of the board remembered."""
        key = gain_key(state)
        gain = self.gains.get(key)
        if gain is None:
            gain = self.gains[key] = self.greedy.move_gain(rules, state, state.decision.player)
        return bid_for_gain(options, gain)

    def other(self, rules: Rules, state: State, options: list[Action]) -> Action:
        """Any other decision: the option with the best immediate score."""
        key = public_key(state)
        choice = self.choices.get(key)
        if choice is None or choice not in options:
            choice = self.greedy.best(rules, state, options, state.decision.player)[1]
            self.choices[key] = choice
        return choice

    def step(self, rules: Rules, state: State) -> State:
        """The state after the policy's next decision (a whole move at a pick)."""
        options = rules.legal_actions(state)
        if len(options) == 1:
            return rules.apply(state, options[0])
        stage = state.decision.stage
        if stage in MOVE_STAGES:
            plan = self.move(rules, state)
            after = follow(rules, state, plan) if plan else None
            if after is not None:
                return after
            # no whole move found: one step, so the playout always moves on
            return rules.apply(state, self.other(rules, state, options))
        if stage == "bid":
            return rules.apply(state, self.bid(rules, state, options))
        return rules.apply(state, self.other(rules, state, options))

    def playout(self, rules: Rules, state: State) -> State:
        """Play on from ``state`` until every player has started one more meeple move (at
        most ``MOVE_CAP_PER_PLAYER`` moves a player in all) or the game ends."""
        players = len(state.players)
        counts = [0] * players
        cap = MOVE_CAP_PER_PLAYER * players
        while not state.is_over:
            if state.decision.stage == "pick":
                if min(counts) >= 1 or sum(counts) >= cap:
                    break
                counts[state.decision.player] += 1
            state = self.step(rules, state)
        return state


def judge(rules: Rules, state: State, me: int) -> float:
    """``me``'s value of a position: margin over the best other player, plus
    ``MEAN_WEIGHT`` times the margin over the others' mean, plus ``WIN_BONUS`` for a won
    finished game."""
    scores = rules.scores(state)
    won = state.is_over and me in rules.winners(state)
    return value_of(scores, me, won, lost=state.is_over and not won)


def value_of(scores: Sequence[int], me: int, won: bool = False, lost: bool = False) -> float:
    """The value ``judge`` gives a row of scores (see there). A lone player (the solo
    mode) is worth its score, and nothing once it has lost the game (to the Sultan)."""
    others = [s for p, s in enumerate(scores) if p != me]
    if not others:
        return 0.0 if lost else float(scores[me])
    mine = scores[me]
    value = mine - max(others) + MEAN_WEIGHT * (mine - sum(others) / len(others))
    return value + (WIN_BONUS if won else 0.0)
