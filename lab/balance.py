"""The balance card's numbers (``naqala balance``): what a set of games says about a rule
set, from what each game recorded (``GameResult``: final and per-round scores, the first
round's bidding order, the djinns held and the tiles' points).

- **Lead changes**: the leader after a round is the one seat with the highest score (a
  tie at the top keeps the previous leader); a lead change is a round whose leader is not
  the previous round's.
- **Comebacks**: the leader at two thirds of the game (after round ⌈2·rounds/3⌉) is
  beaten when it is not among the winners; games tied at the top then are left out.
- **Margin**: the winner's final score minus the best other score (0 when shared).
- **Djinns**: a djinn is taken in a game when a seat holds it at the end; its holders'
  win rate is the split wins of the seats that held it, per seat.
- **Tile kinds**: the points the tiles of each kind were worth to the seats that
  controlled them at the end, per player and game.
- **Decided**: the round from which the one final winner led to the end, as a share of
  the game's rounds (Browne's decisiveness: late is dramatic).
- **Turn money**: coins paid at the bids for turn order, per game, per player and per
  turn position bought (summed over the rounds), from the games' decisions.
- **Decision load**: by stage, decisions per game and the legal options at each (the
  branching factor: mean and 90th percentile), and each agent's seconds per decision.
- **Turn positions**: the win rate of the player in each turn position in rounds 2 and
  later (round 1's order is the first-round bidding position's).

Only the standard library: the seat and position tests (scipy) are added by the command.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from naqala.lab.results import GameResult, quantiles, split_wins, wilson


def _rate(successes: float, n: int) -> dict[str, Any]:
    if n == 0:
        return {"n": 0, "rate": None, "ci": [None, None]}
    return {
        "n": n,
        "rate": round(successes / n, 4),
        "ci": [round(x, 4) for x in wilson(successes, n)],
    }


def leaders(result: GameResult) -> list[int | None]:
    """The leader after each round (``None`` until one seat has led alone)."""
    found: list[int | None] = []
    leader: int | None = None
    for scores in result.round_scores:
        best = max(scores)
        top = [seat for seat, score in enumerate(scores) if score == best]
        if len(top) == 1:
            leader = top[0]
        found.append(leader)
    return found


def lead_changes(result: GameResult) -> int:
    """How often the leader changed from one round to the next."""
    sequence = [seat for seat in leaders(result) if seat is not None]
    return sum(1 for a, b in itertools.pairwise(sequence) if a != b)


def two_thirds_leader(result: GameResult) -> int | None:
    """The one seat with the highest score after round ⌈2·rounds/3⌉ (None on a tie)."""
    if not result.round_scores:
        return None
    index = max(1, math.ceil(2 * len(result.round_scores) / 3)) - 1
    scores = result.round_scores[index]
    best = max(scores)
    top = [seat for seat, score in enumerate(scores) if score == best]
    return top[0] if len(top) == 1 else None


def margin(result: GameResult) -> int:
    """The winner's lead over the best other seat at the end (0 for a shared win)."""
    if len(result.winners) != 1:
        return 0
    winner = result.winners[0]
    others = [s for seat, s in enumerate(result.scores) if seat != winner]
    return result.scores[winner] - max(others) if others else 0


def _distribution(values: Sequence[int]) -> dict[str, Any]:
    return {
        "mean": round(statistics.fmean(values), 3),
        "sd": round(statistics.pstdev(values), 3),
        "quantiles": quantiles(values),
        "counts": {str(k): v for k, v in sorted(Counter(values).items())},
    }


def seats_and_positions(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """Win rates by seat and by first-round bidding position, with their intervals."""
    n = len(results)
    by_seat = split_wins(results, players)
    by_position = [0.0] * players
    for r in results:
        for position, seat in enumerate(r.start_order):
            if seat in r.winners:
                by_position[position] += 1 / len(r.winners)
    return {
        "fair_share": round(1 / players, 4),
        "wins_by_seat": [round(w, 3) for w in by_seat],
        "win_rate_by_seat": [_rate(w, n) for w in by_seat],
        "wins_by_position": [round(w, 3) for w in by_position],
        "win_rate_by_position": [_rate(w, n) for w in by_position],
    }


def lead(results: Sequence[GameResult]) -> dict[str, Any]:
    """Lead changes per game and the comebacks against the two-thirds leader."""
    changes = [lead_changes(r) for r in results]
    judged = [(r, two_thirds_leader(r)) for r in results]
    judged = [(r, seat) for r, seat in judged if seat is not None]
    beaten = sum(1 for r, seat in judged if seat not in r.winners)
    decided = [share for r in results if (share := decided_share(r)) is not None]
    return {
        "decided_at_share": {
            "games": len(decided),
            "mean": round(statistics.fmean(decided), 4) if decided else None,
            "quantiles": quantiles_of(decided),
        },
        "lead_changes": _distribution(changes),
        "games_with_a_lead_change": _rate(sum(1 for c in changes if c), len(changes)),
        "comebacks": {
            "games": len(judged),
            "leader_at_two_thirds_lost": beaten,
            **_rate(beaten, len(judged)),
        },
    }


def decided_share(result: GameResult) -> float | None:
    """The round from which the one winner led alone to the end, as a share of the
    game's rounds (1.0: it took the lead in the last round); None for a shared win."""
    if len(result.winners) != 1 or not result.round_scores:
        return None
    winner = result.winners[0]
    led = leaders(result)
    since = len(led)
    while since > 0 and led[since - 1] == winner:
        since -= 1
    return round((since + 1) / len(led), 4)


def quantiles_of(values: Sequence[float]) -> list[float]:
    """Least, quartiles and most of ``values`` (empty for none)."""
    if not values:
        return []
    if len(values) == 1:
        return [round(values[0], 4)] * 5
    q1, median, q3 = statistics.quantiles(values, n=4)
    return [round(x, 4) for x in (min(values), q1, median, q3, max(values))]


def p90(values: Sequence[int]) -> float:
    """The 90th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)])


def score_categories(results: Sequence[GameResult], players: int) -> dict[str, float]:
    """The mean points per player and game in each score category."""
    totals: Counter[str] = Counter()
    for r in results:
        for per_seat in r.categories:
            totals.update(per_seat)
    seats = len(results) * players
    return {k: round(v / seats, 3) for k, v in sorted(totals.items())}


def turn_money(results: Sequence[GameResult], players: int) -> dict[str, Any] | None:
    """The coins paid for turn order: per game (all players), per player and game, and
    per game for each turn position bought; None unless every game recorded its play."""
    stats = [r.play for r in results]
    if not stats or any(s is None for s in stats):
        return None
    per_game = [sum(s.paid) for s in stats if s is not None]
    by_position = [0] * players
    for s in stats:
        if s is not None:
            for position, coins in enumerate(s.paid_by_position):
                by_position[position] += coins
    n = len(stats)
    return {
        "per_game": _distribution(per_game),
        "per_player": round(sum(per_game) / (n * players), 3),
        "per_position": [round(c / n, 3) for c in by_position],
    }


def decision_load(results: Sequence[GameResult]) -> dict[str, Any] | None:
    """By stage: decisions per game, and the legal options at each (mean, p90); every
    decision's too; and each agent's decisions per game and seconds per decision. None
    unless every game recorded its play."""
    if not results or any(r.play is None for r in results):
        return None
    n = len(results)
    by_stage: dict[str, list[int]] = {}
    every: list[int] = []
    decisions: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    seconds: dict[str, float] = {}
    for r in results:
        assert r.play is not None  # checked above
        for seat, stages in enumerate(r.play.options):
            name = r.agents[seat] if seat < len(r.agents) else f"seat {seat + 1}"
            seats[name] += 1
            for stage, counts in stages.items():
                by_stage.setdefault(stage, []).extend(counts)
                every.extend(counts)
                decisions[name] += len(counts)
            seconds[name] = seconds.get(name, 0.0) + r.play.seconds[seat]
    return {
        "decisions_per_game": round(len(every) / n, 3),
        "branching": _branching(every),
        "by_stage": {
            stage: {"decisions_per_game": round(len(c) / n, 3), **_branching(c)}
            for stage, c in sorted(by_stage.items())
        },
        "by_agent": {
            name: {
                "decisions_per_game": round(decisions[name] / seats[name], 3),
                "seconds_per_decision": round(seconds[name] / decisions[name], 6)
                if decisions[name]
                else None,
            }
            for name in sorted(seats)
        },
    }


def _branching(counts: Sequence[int]) -> dict[str, Any]:
    if not counts:
        return {"mean": None, "p90": None}
    return {"mean": round(statistics.fmean(counts), 3), "p90": p90(counts)}


def turn_positions(results: Sequence[GameResult], players: int) -> dict[str, Any] | None:
    """Per turn position, the win rate of its player over the rounds 2 and later of every
    game (a round each); None unless every game recorded its play."""
    if not results or any(r.play is None for r in results):
        return None
    wins = [0.0] * players
    rounds = 0
    for r in results:
        assert r.play is not None  # checked above
        for order in r.play.turn_order[1:]:
            rounds += 1
            for position, who in enumerate(order):
                if who in r.winners:
                    wins[position] += 1 / len(r.winners)
    return {"rounds": rounds, "win_rate_by_turn_position": [_rate(w, rounds) for w in wins]}


def djinns(results: Sequence[GameResult], deck: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per djinn of ``deck``: how often it was taken, and its holders' win rate."""
    n = len(results)
    table: dict[str, dict[str, Any]] = {}
    for djinn in sorted(deck):
        taken = 0
        holders = 0
        wins = 0.0
        for r in results:
            seats = [seat for seat, hand in enumerate(r.djinns) if djinn in hand]
            taken += bool(seats)
            holders += len(seats)
            wins += sum(1 / len(r.winners) for seat in seats if seat in r.winners)
        table[djinn] = {
            "taken": _rate(taken, n),
            "holders": holders,
            "holders_win_rate": _rate(wins, holders),
        }
    return table


def tile_kinds(results: Sequence[GameResult], players: int) -> dict[str, dict[str, Any]]:
    """Per tile kind: mean points per player per game, and their share of tile points."""
    totals: Counter[str] = Counter()
    for r in results:
        for per_seat in r.tile_points:
            totals.update(per_seat)
    everything = sum(totals.values()) or 1
    seats = len(results) * players or 1
    return {
        kind: {
            "points_per_player": round(points / seats, 3),
            "share_of_tile_points": round(points / everything, 4),
        }
        for kind, points in sorted(totals.items())
    }


def card(results: Sequence[GameResult], players: int, djinn_deck: Sequence[str]) -> dict[str, Any]:
    """Every number of the balance card that the games themselves give (a JSON dict)."""
    if not results:
        raise ValueError("a balance card needs at least one game")
    scores = [s for r in results for s in r.scores]
    return {
        "games": len(results),
        "players": players,
        "seats_and_positions": seats_and_positions(results, players),
        "length": {
            "rounds": _distribution([r.rounds for r in results]),
            "actions": {
                "mean": round(statistics.fmean(r.actions for r in results), 3),
                "quantiles": quantiles([r.actions for r in results]),
            },
        },
        "scores": {
            "mean": round(statistics.fmean(scores), 3),
            "sd": round(statistics.pstdev(scores), 3),
            "quantiles": quantiles(scores),
        },
        "lead": lead(results),
        "margin": _distribution([margin(r) for r in results]),
        "djinns": djinns(results, djinn_deck),
        "tile_kinds": tile_kinds(results, players),
        "score_by_category": score_categories(results, players),
        "turn_money": turn_money(results, players),
        "turn_positions": turn_positions(results, players),
        "decision_load": decision_load(results),
    }
