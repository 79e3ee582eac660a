"""The search AI (``ai:mcts``): information-set Monte Carlo tree search.

Each iteration samples a *determinization* of the decision (``core.views.determinize``:
a full state agreeing with everything the deciding seat may see), walks down one shared
tree from the root, adds one node, then lets the greedy policy play until every player
has made one more meeple move (a fixed horizon, so every iteration is judged at the same
point of the game) and judges that position. The tree is keyed by the actions taken, so
it gathers what holds across the hidden cards and the draws; a child is only chosen
where it is legal in the iteration's determinization and its statistics count how often
it was available (single-observer ISMCTS).

- **Per-player rewards.** Every node keeps a reward per player and each player chooses
  for itself (max-n by sampling), so 3–5 players are searched as they play, not as two
  sides. A position is judged by every player's score lines (the rules' own scoring, so
  every expansion and house rule counts): a player's reward is the logistic of its
  margin over the best other player.
- **Where decisions matter.** The tree branches at meeple moves; a whole move is one
  step, and its options are the greedy player's best ``MOVE_WIDTH`` moves by its own
  judgement (each candidate played out through the rules), best first. Below the
  root, the other decisions of a turn (a kill, a market, a sale, a djinn) take the
  greedy player's choice and bids the cheapest, and the policy past the tree plays the
  greedy move, so the horizon is reached in a few steps. A decision with one option costs
  nothing. At the root, a decision other than a move offers its legal options (the best
  ``WIDTH`` by immediate score when there are more) with a quarter of the budget
  (``OTHER_SHARE``). Bids, whose value only shows turns later, are left to the greedy
  player's bid rule.
- **Budget** (``ai:mcts``, ``ai:mcts:2000``: iterations; ``ai:mcts:1.5s``: CPU seconds per
  decision). With an iteration budget the choice is a pure function of the seed, the
  seat's view and the budget (the search draws from a digest of the view), so it uses
  nothing hidden and a resumed game goes on exactly as the uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Sequence

import attrs

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State
from naqala.core.views import determinize, view_for
from naqala.plugins.base.greedy import GreedyAgent
from naqala.plugins.base.greedy_full import follow, own_score

#: iterations per decision when the seat names no budget
DEFAULT_ITERATIONS = 400
#: the share of the budget spent on a decision other than a meeple move
OTHER_SHARE = 0.25
#: the greedy player's best this many moves are the options of a meeple move
MOVE_WIDTH = 5
#: at most this many options of a decision other than a move enter the tree
WIDTH = 8
#: exploration constant of the UCB rule (rewards lie in [0, 1])
EXPLORATION = 0.7
#: score margin (points) that moves a reward from 0.5 to about 0.73
MARGIN_SCALE = 10.0

Move = tuple[Action, ...]


@attrs.frozen
class Budget:
    """Iterations per decision, or CPU seconds per decision."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


def parse_budget(text: str) -> Budget:
    """``""`` (the default), ``2000`` (iterations) or ``1.5s`` (CPU seconds)."""
    text = text.strip().lower()
    if not text:
        return Budget()
    if re.fullmatch(r"[1-9]\d*", text):
        return Budget(iterations=int(text))
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)s", text)
    if match and float(match.group(1)) > 0:
        return Budget(seconds=float(match.group(1)))
    raise ValueError(
        f"budget {text!r} is neither iterations (mcts:2000) nor CPU seconds (mcts:1.5s)"
    )


class Node:
    """Statistics of one action sequence from the root."""

    __slots__ = ("available", "children", "rewards", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.available = 0
        self.rewards = [0.0] * players


@attrs.frozen
class Analysis:
    """One root option after a search: visits, the mover's mean reward and mean score
    gain over the iterations that tried it."""

    move: Move
    visits: int
    reward: float
    gain: float


class MctsAgent:
    """Information-set MCTS with per-player rewards (see the module docstring)."""

    def __init__(self, seed: int, budget: Budget | None = None) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.greedy = GreedyAgent(seed)
        self.plan: list[Action] = []
        #: moves by the public part of a position, for this decision's search
        self._moves: dict[object, list[Move]] = {}

    # -- the agent -------------------------------------------------------------------------

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        if self.plan and self.plan[0] in options:
            return self.plan.pop(0)
        self.plan = []
        if len(options) == 1:
            return options[0]
        stage = state.decision.stage
        if stage == "bid" or stage == "drop":
            return self.greedy.choose(rules, state, options)
        found = self.analyse(rules, state)
        if not found or found[0].move[0] not in options:
            return self.greedy.choose(rules, state, options)
        best = found[0].move
        self.plan = list(best[1:])
        return best[0]

    def analyse(self, rules: Rules, state: State) -> list[Analysis]:
        """Search from ``state`` for its decider; the root options, most visited first."""
        me = state.decision.player
        players = len(state.players)
        root = Node(players)
        rng = Rng(self.seed ^ view_digest(rules, state, me))
        self._moves.clear()
        base = [own_score(rules, state, p) for p in range(players)]
        gains: dict[Move, float] = {}
        share = 1.0 if state.decision.stage == "pick" else OTHER_SHARE
        seconds = self.budget.seconds
        deadline = time.process_time() + seconds * share if seconds is not None else None
        iterations = max(1, int(self.budget.iterations * share))
        done = 0
        while True:
            if deadline is not None:
                if time.process_time() >= deadline and done > 0:
                    break
            elif done >= iterations:
                break
            seed, rng = rng.next64()
            first, scores = self._iterate(rules, determinize(rules, state, me, seed), root, base)
            if first is not None:
                gains[first] = gains.get(first, 0.0) + scores[me] - base[me]
            done += 1
        found = [
            Analysis(
                move, child.visits, child.rewards[me] / child.visits, gains[move] / child.visits
            )
            for move, child in root.children.items()
            if child.visits
        ]
        return sorted(found, key=lambda a: (-a.visits, -a.reward))

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(
        self, rules: Rules, state: State, root: Node, base: Sequence[int]
    ) -> tuple[Move | None, Sequence[int]]:
        """One iteration on one determinization: down the tree, one new node, then the
        greedy policy until every player has made one more move (the horizon). ``base``
        are the scores at the root, what a lone player (the solo mode) measures against."""
        path = [root]
        node = root
        first: Move | None = None
        in_tree = True
        horizon = len(state.players)
        moved = 0
        while not state.is_over and moved < horizon:
            at_root = node is root and first is None
            moves = self.moves(rules, state, at_root, in_tree)
            if not in_tree or (len(moves) == 1 and not at_root):
                move = moves[0]
            else:
                mover = state.decision.player
                fresh = [m for m in moves if m not in node.children]
                for m in moves:
                    child = node.children.get(m)
                    if child is not None:
                        child.available += 1
                if fresh:
                    move = fresh[0]
                    child = Node(len(state.players))
                    child.available = 1
                    node.children[move] = child
                    in_tree = False  # the new node: from here on, the policy plays
                else:
                    move = max(moves, key=lambda m: _ucb(node.children[m], mover))
                    child = node.children[move]
                path.append(child)
                node = child
                if first is None:
                    first = move
            moved += state.decision.stage == "pick"
            after = self._play(rules, state, move)
            if after is None:  # a move remembered from another deal is refused here
                break
            state = after
        scores = rules.scores(state)
        rewards = _rewards(scores, base)
        if state.is_over and len(scores) == 1 and not rules.winners(state):
            rewards = [0.0]  # a lone player who lost (to the solo mode's Sultan)
        for visited in path:
            visited.visits += 1
            for p, r in enumerate(rewards):
                visited.rewards[p] += r
        return first, scores

    @staticmethod
    def _play(rules: Rules, state: State, move: Move) -> State | None:
        """The state after ``move``, or None if the rules in use refuse one of its steps."""
        return follow(rules, state, move)

    def moves(
        self, rules: Rules, state: State, root: bool = True, in_tree: bool = True
    ) -> list[Move]:
        """The options at ``state``, best first: at a pick, the greedy player's move
        first, then its other candidate moves (only the greedy move outside the tree);
        at a bid below the root, the cheapest bid; at other decisions below the root,
        the greedy player's choice; at the root, the legal options (at most ``WIDTH``,
        the best by immediate score)."""
        options = rules.legal_actions(state)
        stage = state.decision.stage
        player = state.decision.player
        if stage == "pick":
            found = self._pick_moves(rules, state, options, in_tree or root)
            if found:
                return found
        if len(options) == 1:
            return [(options[0],)]
        if stage == "bid" and not root:
            bids = [a for a in options if a.kind == "bid"] or options
            return [(min(bids, key=lambda a: int(a.args[0]) if a.args else 0),)]
        if stage == "drop":
            return [tuple(self.greedy.plan_move(rules, state, player)[1]) or (options[0],)]
        if not root:
            return [(self.greedy.best(rules, state, options, player)[1],)]
        if len(options) > WIDTH:
            scored = sorted(options, key=lambda a: -own_score(rules, rules.apply(state, a), player))
            return [(a,) for a in scored[:WIDTH]]
        return [(a,) for a in options]

    def _pick_moves(
        self, rules: Rules, state: State, options: list[Action], all_of_them: bool
    ) -> list[Move]:
        """The greedy player's best moves by its own judgement (remembered by what
        everybody can see of the position): the best ``MOVE_WIDTH``, or only the best."""
        key = _public_key(state)
        cached = self._moves.get(key)
        if cached is None:
            ranked = self.greedy.ranked_moves(rules, state, state.decision.player)
            cached = self._moves[key] = [plan for _value, plan in ranked[:MOVE_WIDTH]]
        return cached if all_of_them else cached[:1]


def _public_key(state: State) -> object:
    """What the greedy judgement of a move depends on that every seat can see: the board,
    the mover's public holdings, the face-up rows and the tracks."""
    player = state.decision.player
    p = state.players[player]
    rows = tuple(d.row for d in state.decks)
    return (state.board, player, p.meeples, p.camels, p.djinns, p.coins, p.extras, rows)


def view_digest(rules: Rules, state: State, seat: int) -> int:
    """A number fixed by what ``seat`` sees of ``state``: the search's draws come from it
    and the agent's seed, so a decision depends on nothing hidden, and a saved game
    resumed later is searched exactly as it would have been."""
    text = json.dumps(view_for(rules, state, seat), sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _ucb(child: Node, mover: int) -> float:
    mean = child.rewards[mover] / child.visits
    return mean + EXPLORATION * math.sqrt(math.log(max(child.available, 1)) / child.visits)


def _rewards(scores: Sequence[int], base: Sequence[int] = ()) -> list[float]:
    """Each player's reward: the logistic of its margin over the best other player; a lone
    player's, of its gain over ``base`` (its score at the root of the search)."""
    rewards = []
    for p, score in enumerate(scores):
        others = [s for q, s in enumerate(scores) if q != p]
        best_other = max(others) if others else (base[p] if base else 0)
        rewards.append(1 / (1 + math.exp(-(score - best_other) / MARGIN_SCALE)))
    return rewards
