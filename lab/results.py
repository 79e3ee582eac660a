"""What one game of a study leaves behind (``GameResult``) and the summary of a run
(``summarise``), using only the standard library so ``naqala simulate`` works without the
lab extra."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from naqala.core.content import DJINNS
from naqala.core.engine import Rules
from naqala.core.state import State, effect_counts
from naqala.lab.game_stats import PlayStats


@attrs.frozen
class GameResult:
    """One finished game: its seed, length, scores and winners by seat, the points of each
    seat by category, how it ended, the cards that changed it, and the agent at each seat."""

    seed: int
    rounds: int
    actions: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    categories: tuple[dict[str, int], ...]
    flags: tuple[str, ...]
    effects: dict[str, int]
    agents: tuple[str, ...] = ()
    #: the players in the order of the first round's bidding (random at set-up), the
    #: turn order a player starts with
    start_order: tuple[int, ...] = ()
    #: the kind of outcome, when a plugin decides who won (the solo mode: ``won``,
    #: ``assassins``…); empty for the highest score
    verdict: str = ""
    #: the scores by seat at the end of each round, the last the final scores (lead
    #: changes and comebacks are read from them)
    round_scores: tuple[tuple[int, ...], ...] = ()
    #: the djinns each seat holds at the end
    djinns: tuple[tuple[str, ...], ...] = ()
    #: the points each seat's tiles are worth at the end, by tile kind
    tile_points: tuple[dict[str, int], ...] = ()
    #: what its decisions add up to: turn order and its price each round, decision load
    play: PlayStats | None = None


def tile_points(rules: Rules, state: State) -> tuple[dict[str, int], ...]:
    """The value of the tiles each seat controls, by tile kind."""
    per_seat: list[Counter[str]] = [Counter() for _ in state.players]
    for tile, owner in enumerate(state.board.owners):
        if 0 <= owner < len(per_seat):
            spec = rules.tile(state.layout.tiles[tile])
            per_seat[owner][spec.kind] += spec.vp
    return tuple(dict(sorted(c.items())) for c in per_seat)


def djinns_held(rules: Rules, state: State) -> tuple[tuple[str, ...], ...]:
    """The djinn cards in each seat's hand (none when the rules have no djinn deck)."""
    if DJINNS not in rules.deck_index:
        return tuple(() for _ in state.players)
    return tuple(tuple(sorted(rules.hand_of(player, DJINNS))) for player in state.players)


def start_order(state: State) -> tuple[int, ...]:
    """The players of a new game in the order they first bid: by their earliest turn
    marker on the bid track (with two markers each, a player's first one counts), then
    on the turn-order track, where a game without bids has already put round 1's order
    (its first marker moved on to the bid track as it plays)."""
    return first_bidders((*state.bid_track, *state.turn_track), state.markers)


def first_bidders(bid_track: Sequence[int | None], markers: Sequence[int]) -> tuple[int, ...]:
    """``start_order`` from the tracks (bid track, then turn-order track) and the markers'
    owners alone (as a state JSON writes them, an empty place ``None``), so a native game
    needs no Python state."""
    first: dict[int, int] = {}
    for position, marker in enumerate(bid_track):
        if marker is not None and 0 <= marker < len(markers):
            first.setdefault(markers[marker], position)
    return tuple(sorted(first, key=first.__getitem__))


def result_of(
    rules: Rules,
    state: State,
    seed: int,
    actions: int,
    agents: Sequence[str] = (),
    first_order: Sequence[int] = (),
    round_scores: Sequence[tuple[int, ...]] = (),
) -> GameResult:
    """The result of the finished game ``state`` (game seed ``seed``, ``actions`` taken;
    ``round_scores`` the scores at the end of every round but the last, whose scores are
    the final ones and are added here)."""
    categories = []
    effects: Counter[str] = Counter(effect_counts(state))
    plugins = set(rules.ruleset)
    final: list[int] = []
    for player in range(len(state.players)):  # each sheet read once: the scores are its sum
        totals: Counter[str] = Counter()
        points = 0
        for line in rules.score_lines(state, player):
            totals[line.category] += line.points
            points += line.points
            if line.source not in plugins and line.points:
                effects[line.source] += 1  # a card that changed a score line
        categories.append(dict(totals))
        final.append(points)
    verdict = rules.verdict(state, final)
    return GameResult(
        seed=seed,
        rounds=state.round,
        actions=actions,
        scores=tuple(final),
        winners=verdict.winners,
        categories=tuple(categories),
        flags=state.flags,
        effects=dict(effects),
        agents=tuple(agents),
        start_order=tuple(first_order),
        verdict=verdict.kind,
        round_scores=(*round_scores, tuple(final)),
        djinns=djinns_held(rules, state),
        tile_points=tile_points(rules, state),
    )


def quantiles(scores: Sequence[int]) -> list[float]:
    """The score distribution in five numbers: least, quartiles, most (empty if none)."""
    if not scores:
        return []
    if len(scores) == 1:
        return [float(scores[0])] * 5
    q1, median, q3 = statistics.quantiles(scores, n=4)
    return [float(min(scores)), round(q1, 2), round(median, 2), round(q3, 2), float(max(scores))]


def split_wins(results: Sequence[GameResult], players: int) -> list[float]:
    """Wins by seat; a shared win counts as a fraction for each winner."""
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    return wins


def start_position_wins(results: Sequence[GameResult], players: int) -> list[float]:
    """Wins by first-round bidding position (first, second, …); shared wins split."""
    wins = [0.0] * players
    for r in results:
        for position, who in enumerate(r.start_order):
            if who in r.winners:
                wins[position] += 1 / len(r.winners)
    return wins


def wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / n`` (successes may be fractional: split
    wins). The normal quantile comes from ``statistics.NormalDist``."""
    if n < 1:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and {n}, not {successes}")
    z = statistics.NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * (p * (1 - p) / n + z2n / (4 * n)) ** 0.5
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _rates(wins: dict[str, float], played: dict[str, int]) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "games": played[name],
            "wins": round(wins.get(name, 0.0), 3),
            "rate": round(wins.get(name, 0.0) / played[name], 4),
            "ci": [round(x, 4) for x in wilson(wins.get(name, 0.0), played[name])],
        }
        for name in sorted(played)
    }


def wins_by_agent(results: Sequence[GameResult]) -> dict[str, dict[str, Any]]:
    """Per agent name: seats it played (a game with two seats of it counts twice), its
    split wins, win rate per seat played, and the rate's Wilson interval."""
    wins: dict[str, float] = {}
    played: Counter[str] = Counter()
    for r in results:
        for seat, name in enumerate(r.agents):
            played[name] += 1
            if seat in r.winners:
                wins[name] = wins.get(name, 0.0) + 1 / len(r.winners)
    return _rates(wins, dict(played))


def summarise(
    results: list[GameResult],
    players: int,
    seed: int,
    ruleset: tuple[str, ...],
    djinns: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The JSON summary of a run. Shared wins count as a fraction for each winner;
    ``djinn_effects`` counts, for each djinn id in ``djinns``, how many times its power
    changed a game (activations, payouts, protected kills, changed score lines);
    ``card_effects`` does the same for the cards of plugin decks in ``cards`` (items
    played or scored, whims fulfilled). ``win_rate_by_seat`` gives each seat's rate with
    its 95% Wilson interval, ``mean_score_by_seat`` each seat's mean final score, and
    ``wins_by_agent`` the same rates per agent name when the games recorded their agents;
    ``win_rate_by_start_position`` the win rate of the player who bid first, second, …
    in the first round (the turn-order advantage) when the games recorded it."""
    all_scores = [s for r in results for s in r.scores]
    ends: Counter[str] = Counter(flag for r in results for flag in r.flags)
    summary: dict[str, Any] = {
        "games": len(results),
        "players": players,
        "seed": seed,
        "plugins": list(ruleset),
        **_means(results, all_scores),
        **_by_seat(results, players),
        "mean_score_by_category": _category_means(results, players),
        "end_triggers": dict(sorted(ends.items())),
        "score_quantiles": quantiles(all_scores),
        "djinn_effects": _effects(results, djinns),
        "card_effects": _effects(results, cards),
    }
    verdicts = Counter(r.verdict for r in results if r.verdict)
    if verdicts:
        summary["verdicts"] = dict(sorted(verdicts.items()))
    if any(r.agents for r in results):
        summary["wins_by_agent"] = wins_by_agent(results)
    summary.update(_by_start_position(results, players))
    return summary


def _rates_of(wins: list[float], n: int) -> list[dict[str, Any]]:
    """Each count of ``wins`` of ``n`` games as a rate with its 95% Wilson interval."""
    return [{"rate": round(w / n, 4), "ci": [round(x, 4) for x in wilson(w, n)]} for w in wins]


def _means(results: list[GameResult], all_scores: list[int]) -> dict[str, float]:
    """The mean length of a game (rounds, actions) and the mean and spread of a score;
    0 for a run of no games."""
    if not results:
        return {"mean_rounds": 0, "mean_actions": 0, "mean_score": 0, "stdev_score": 0}
    return {
        "mean_rounds": round(statistics.fmean(r.rounds for r in results), 3),
        "mean_actions": round(statistics.fmean(r.actions for r in results), 3),
        "mean_score": round(statistics.fmean(all_scores), 3),
        "stdev_score": round(statistics.pstdev(all_scores), 3),
    }


def _by_seat(results: list[GameResult], players: int) -> dict[str, Any]:
    """Each seat's wins, win rate and mean score (no rates for a run of no games)."""
    wins = split_wins(results, players)
    n = len(results)
    return {
        "wins_by_seat": [round(w, 3) for w in wins],
        "win_rate_by_seat": _rates_of(wins, n) if n else [],
        "mean_score_by_seat": [
            round(statistics.fmean(r.scores[seat] for r in results), 3) for seat in range(players)
        ]
        if n
        else [],
    }


def _category_means(results: list[GameResult], players: int) -> dict[str, float]:
    """The mean points a player scored in each score category, over every game."""
    categories: Counter[str] = Counter()
    for r in results:
        for per_player in r.categories:
            categories.update(per_player)
    n = len(results)
    return {k: round(v / (n * players), 3) for k, v in sorted(categories.items())} if n else {}


def _effects(results: list[GameResult], ids: tuple[str, ...]) -> dict[str, int]:
    """How many times each card of ``ids`` changed a game, over every game."""
    return {card: sum(r.effects.get(card, 0) for r in results) for card in sorted(ids)}


def _by_start_position(results: list[GameResult], players: int) -> dict[str, Any]:
    """The wins and win rate of the player who bid first, second, … in the first round,
    when every game recorded that order (nothing otherwise)."""
    n = len(results)
    if not n or not all(len(r.start_order) == players for r in results):
        return {}
    by_position = start_position_wins(results, players)
    return {
        "wins_by_start_position": [round(w, 3) for w in by_position],
        "win_rate_by_start_position": _rates_of(by_position, n),
    }
