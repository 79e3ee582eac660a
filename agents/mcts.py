"""The search AI (``ai:mcts``): information-set Monte Carlo search at the root, with the
fast greedy player as its prior and its playout policy.

Each decision worth searching (a meeple move, a bid, a tile's or a tribe's choice) gets a
short list of candidates, the greedy player's own choice first: at a pick, the greedy
player's best ``MOVE_WIDTH`` whole moves by its own judgement; at a bid, every bid; at
another decision, the best ``WIDTH`` options by immediate score. The search then plays
rounds: each round samples one *determinization* of the decision (``core.views.
determinize``: a full state agreeing with everything the deciding seat may see) and
plays every live candidate out on that same deal (common random numbers: candidates are
compared on equal hidden cards and equal draws), with every seat played by the greedy
policy until each player has started one more meeple move (``rollout.Policy``), and
judges the position from the score sheet (``rollout.judge``: the margin over the best
other player and over the others' mean). After each round from the second, the worse
half of the candidates is dropped (sequential halving), so the budget goes to telling the
best apart. The choice is the best mean, the greedy choice given ``PRIOR`` points of
benefit of the doubt (it is only left for a move that plays out clearly better).

- **Cheap where it can be.** A decision with one option costs nothing; the rest of a
  chosen move is played from its plan; decisions other than picks and bids get
  ``OTHER_SHARE`` of the budget. The playout policy remembers its judgements by what every
  seat can see of the position, so playouts over further deals mostly replay them.
- **Rules API only.** Candidates, legality and scores come from the rules in use (every
  expansion, djinn, item, whim and house rule counts through the score lines); a
  candidate the rules refuse in a deal is not played there.
- **Profile** (``ai:mcts:profile=builder``, ``ai:mcts:200:profile=builder``): the greedy
  player that ranks the candidates and is the prior is the profiled one
  (``profiled.ProfiledGreedyAgent``), so the profile's tastes decide which moves are
  searched and which one keeps the benefit of the doubt; the playouts stay plain greedy.
- **Budget** (``ai:mcts:200``: playouts; ``ai:mcts:1s``: CPU seconds per decision,
  ``time.process_time``; ``ai:mcts``: ``DEFAULT_ITERATIONS`` playouts within
  ``DEFAULT_WORK`` units of work). Work is counted, not timed (``meter.Meter``: actions
  applied and score sheets read, candidates included): no playout starts that the dearest
  playout so far would take past the cap, and a later round plays only as many of the
  best candidates as fit. With a playout or work budget the choice is a pure function
  of the seed, the seat's view and the budget (the search draws from a digest of the
  view), so it uses nothing hidden and a resumed game goes on exactly as the
  uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

import attrs

from naqala.agents.greedy import GreedyAgent
from naqala.agents.greedy_full import follow, own_score
from naqala.agents.meter import Meter
from naqala.agents.profile import Profile
from naqala.agents.profiled import ProfiledGreedyAgent
from naqala.agents.rollout import Move, Policy, value_of
from naqala.core.actions import Action, shorten
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State
from naqala.core.views import determinize, view_for

#: playouts per decision when the seat names no budget
DEFAULT_ITERATIONS = 64
#: work (``meter.Meter``: actions applied and score sheets read) a decision of the
#: default budget may spend, candidates and playouts together; calibrated on the machine
#: the figures of docs/ai.md come from, so that the heaviest decisions stay under one CPU
#: second (a unit cost 30-70 us in 2-player base games, up to ~110 us with five players
#: and both expansions)
DEFAULT_WORK = 8000
#: the share of the budget spent on a decision other than a pick or a bid
OTHER_SHARE = 0.25
#: the greedy player's best this many moves are the candidates at a pick
MOVE_WIDTH = 8
#: at most this many options of another decision are candidates
WIDTH = 6
#: points of benefit of the doubt for the greedy player's own choice
PRIOR = 1.0


@attrs.frozen
class Budget:
    """Playouts per decision, or CPU seconds per decision; ``work`` caps a decision's
    work (``meter.Meter`` units) on top of its playouts. The default is
    ``DEFAULT_ITERATIONS`` playouts within ``DEFAULT_WORK``."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float | None = None
    work: int | None = None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g}s"
        return str(self.iterations) + (f" within {self.work} work" if self.work else "")


#: the budget of ``ai:mcts``
DEFAULT_BUDGET = Budget(work=DEFAULT_WORK)
#: ``ai:mcts:strong``, the upper rung of the skill ladder (``naqala skill``): four times
#: the default playouts and work, still bounded by work, so still a function of the seed
STRONG_BUDGET = Budget(iterations=4 * DEFAULT_ITERATIONS, work=4 * DEFAULT_WORK)
#: ``ai:mcts:deep``: 64 times the default playouts and work, about the CPU a decision on
#: the native engine (``naqala.native``) that the default spends on this one (docs/ai.md);
#: bounded by work, so both engines make the same decisions (this one slowly)
DEEP_BUDGET = Budget(iterations=64 * DEFAULT_ITERATIONS, work=64 * DEFAULT_WORK)
#: the named budgets a seat may give instead of a number
NAMED_BUDGETS = {"strong": STRONG_BUDGET, "deep": DEEP_BUDGET}
#: the most playouts a seat may ask for a decision (``ai:mcts:5000``): at ~10 ms a
#: playout, about a minute for the dearest decisions, so a seat from a record, a lobby
#: or a command line can slow a game down but never stop it
MAX_PLAYOUTS = 5000
#: the most CPU seconds a seat may ask for a decision (``ai:mcts:60s``)
MAX_SECONDS = 60.0


def parse_budget(text: str) -> Budget:
    """``""`` (the default), a name of ``NAMED_BUDGETS`` (``strong``), ``2000``
    (playouts, at most ``MAX_PLAYOUTS``) or ``1.5s`` (CPU seconds, at most
    ``MAX_SECONDS``); ``ValueError`` saying which and why not."""
    text = text.strip().lower()
    if not text:
        return DEFAULT_BUDGET
    if text in NAMED_BUDGETS:
        return NAMED_BUDGETS[text]
    if re.fullmatch(r"[1-9]\d*", text):
        if len(text) > len(str(MAX_PLAYOUTS)) or int(text) > MAX_PLAYOUTS:
            raise ValueError(
                f"budget {shorten(text)!r}: at most {MAX_PLAYOUTS} playouts a decision"
            )
        return Budget(iterations=int(text))
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)s", text)
    if match and re.fullmatch(r"0*\.?0*", match.group(1)) is None:
        number = match.group(1).lstrip("0") or "0"
        if len(number.partition(".")[0]) > len(str(int(MAX_SECONDS))) or (
            float(number) > MAX_SECONDS
        ):
            raise ValueError(
                f"budget {shorten(text)!r}: at most {MAX_SECONDS:g} CPU seconds a decision"
            )
        return Budget(seconds=float(number))
    raise ValueError(
        f"budget {shorten(text)!r} is neither playouts (mcts:2000), CPU seconds (mcts:1.5s), "
        "strong nor deep"
    )


@attrs.frozen
class Analysis:
    """One candidate after a search: how many playouts it had, the decider's mean value
    of them (points of margin, see ``rollout.judge``) and its mean score gain."""

    move: Move
    visits: int
    reward: float
    gain: float


@attrs.frozen
class Spent:
    """What a search cost: its work (``meter.Meter`` units: candidates and playouts),
    its playouts and the work of the dearest one."""

    work: int = 0
    playouts: int = 0
    dearest: int = 0


class _Stats:
    """Sums over one candidate's playouts."""

    __slots__ = ("gain", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.gain = 0.0

    def mean(self) -> float:
        return self.value / self.visits if self.visits else float("-inf")


class MctsAgent:
    """Determinized Monte Carlo search over the greedy player's candidates (see the
    module docstring)."""

    def __init__(
        self, seed: int, budget: Budget | None = None, profile: Profile | None = None
    ) -> None:
        self.seed = seed
        self.budget = budget or DEFAULT_BUDGET
        #: the candidates' ranker and the prior; a profile's tastes steer both
        self.greedy = GreedyAgent(seed) if profile is None else ProfiledGreedyAgent(seed, profile)
        self.policy = Policy(seed)
        self.plan: list[Action] = []
        #: what the last search cost
        self.spent = Spent()

    # -- the agent -------------------------------------------------------------------------

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        if self.plan and self.plan[0] in options:
            return self.plan.pop(0)
        self.plan = []
        if len(options) == 1:
            return options[0]
        if state.decision.stage == "drop":
            return self.greedy.choose(rules, state, options)
        found = self.analyse(rules, state)
        if not found or found[0].move[0] not in options:
            return self.greedy.choose(rules, state, options)
        best = found[0].move
        self.plan = list(best[1:])
        return best[0]

    def analyse(self, rules: Rules, state: State) -> list[Analysis]:
        """Search from ``state`` for its decider; the candidates, the chosen one first."""
        started = time.process_time()
        meter = Meter(rules)
        rules = meter.rules
        me = state.decision.player
        rng = Rng(self.seed ^ view_digest(rules, state, me))
        self.policy.clear()
        deal, rng = rng.next64()
        first = determinize(rules, state, me, deal)
        candidates = self.candidates(rules, first)
        if not candidates:
            self.spent = Spent(meter.work)
            return []
        stage = state.decision.stage
        share = 1.0 if stage in ("pick", "bid") else OTHER_SHARE
        seconds = self.budget.seconds
        deadline = started + seconds * share if seconds is not None else None
        limit = max(1, int(self.budget.iterations * share))
        cap = int(self.budget.work * share) if self.budget.work else None
        base = own_score(rules, state, me)
        stats = {move: _Stats() for move in candidates}
        live = list(candidates)
        done = rounds = 0
        dearest = 0  # the most work one playout has cost so far
        while len(candidates) > 1:
            if deadline is None and rounds and done + len(live) > limit:
                break
            if cap is not None and rounds:
                fit = (cap - meter.work) // max(1, dearest)
                if fit < 2:
                    break
                if fit < len(live):  # room for fewer playouts: the best go on
                    live = sorted(live, key=lambda m: -self._score(stats, m, candidates))[:fit]
            deal_state = first if rounds == 0 else determinize(rules, state, me, deal)
            results: dict[Move, tuple[float, int] | None] = {}
            for move in live:
                if deadline is not None and rounds and time.process_time() >= deadline:
                    break  # an unfinished round would compare candidates on unequal deals
                if cap is not None and results and meter.work + dearest > cap:
                    break
                spent = meter.work
                results[move] = self._playout(rules, deal_state, move, me)
                dearest = max(dearest, meter.work - spent)
            if len(results) < len(live):
                if rounds:
                    break
                # the work ran out in the first round: the candidates played so far
                # (the greedy choice first) are compared, the others dropped
                live = list(results)
            for move, result in results.items():
                if result is not None:
                    entry = stats[move]
                    entry.visits += 1
                    entry.value += result[0]
                    entry.gain += result[1] - base
            done += len(results)
            rounds += 1
            if deadline is not None and time.process_time() >= deadline:
                break
            if rounds >= 2 and len(live) > 2:
                live = sorted(live, key=lambda m: -self._score(stats, m, candidates))
                live = live[: max(2, (len(live) + 1) // 2)]
            deal, rng = rng.next64()
        self.spent = Spent(meter.work, done, dearest)
        order = sorted(
            candidates, key=lambda m: (m not in live, -self._score(stats, m, candidates))
        )
        return [
            Analysis(
                move,
                stats[move].visits,
                stats[move].mean() if stats[move].visits else 0.0,
                stats[move].gain / stats[move].visits if stats[move].visits else 0.0,
            )
            for move in order
            if stats[move].visits or move == candidates[0]
        ]

    @staticmethod
    def _score(stats: dict[Move, _Stats], move: Move, candidates: list[Move]) -> float:
        """A candidate's mean value, with the benefit of the doubt for the greedy choice."""
        return stats[move].mean() + (PRIOR if move == candidates[0] else 0.0)

    def _playout(self, rules: Rules, state: State, move: Move, me: int) -> tuple[float, int] | None:
        """``move`` played on one deal, then the policy to the horizon: the decider's value
        and score there (None if the rules refuse the move in this deal)."""
        after = follow(rules, state, move)
        if after is None:
            return None
        final = self.policy.playout(rules, after)
        scores = rules.scores(final)
        won = final.is_over and me in rules.winners(final)
        return value_of(scores, me, won, lost=final.is_over and not won), scores[me]

    # -- candidates ------------------------------------------------------------------------

    def candidates(self, rules: Rules, state: State) -> list[Move]:
        """The options worth searching at ``state`` (a determinization), the greedy
        player's choice first: its best moves at a pick, every bid at a bid, the best
        ``WIDTH`` options by immediate score elsewhere, the rest of the greedy move in the
        middle of one."""
        options = rules.legal_actions(state)
        if len(options) <= 1:
            return [(a,) for a in options]
        stage = state.decision.stage
        player = state.decision.player
        if stage == "pick":
            ranked = self.greedy.ranked_moves(rules, state, player)
            if ranked:
                return [plan for _value, plan in ranked[:MOVE_WIDTH]]
        if stage in ("pick", "drop"):
            plan = self.greedy.plan_move(rules, state, player)[1]
            return [tuple(plan)] if plan else [(options[0],)]
        if stage == "bid":
            chosen = self.greedy.choose(rules, state, options)
            return [(chosen,), *((a,) for a in options if a != chosen)]
        scored = sorted(
            range(len(options)),
            key=lambda i: (-own_score(rules, rules.apply_on_view(state, options[i]), player), i),
        )
        return [(options[i],) for i in scored[:WIDTH]]


def view_digest(rules: Rules, state: State, seat: int) -> int:
    """A number fixed by what ``seat`` sees of ``state``: the search's draws come from it
    and the agent's seed, so a decision depends on nothing hidden, and a saved game
    resumed later is searched exactly as it would have been."""
    text = json.dumps(view_for(rules, state, seat), sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
