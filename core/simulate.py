"""Playing many complete games with agents and summarising them (``naqala simulate``).

Game ``i`` of a run with seed ``s`` uses game seed ``s + i`` and agent seed derived from
both, so the same arguments always give the same summary, in any process.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from naqala.core.actions import Action
from naqala.core.agents import Agent, RandomAgent
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import State, effect_counts


@attrs.frozen
class GameResult:
    seed: int
    rounds: int
    actions: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    categories: tuple[dict[str, int], ...]
    flags: tuple[str, ...]
    effects: dict[str, int]


def agent_seed(game_seed: int, seat: int) -> int:
    """A seed for seat ``seat``'s agent, independent of the game's own draws."""
    value, _ = Rng(game_seed ^ 0x5EED_A6E7).below(1 << 62)
    return value + seat


def play_game(
    rules: Rules,
    players: int,
    seed: int,
    agents: list[Agent] | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> tuple[State, int]:
    """Play one game to the end; the final state and the number of actions taken."""
    if agents is None:
        agents = [RandomAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    count = 0
    while not state.is_over:
        options = rules.legal_actions(state)
        action = agents[state.decision.player].choose(rules, state, options)
        if on_action is not None:
            on_action(state, action)
        state = rules.apply(state, action)
        count += 1
    return state, count


def result_of(rules: Rules, state: State, seed: int, actions: int) -> GameResult:
    categories = []
    effects: Counter[str] = Counter(effect_counts(state))
    plugins = set(rules.ruleset)
    for player in range(len(state.players)):
        totals: Counter[str] = Counter()
        for line in rules.score_lines(state, player):
            totals[line.category] += line.points
            if line.source not in plugins and line.points:
                effects[line.source] += 1  # a card that changed a score line
        categories.append(dict(totals))
    return GameResult(
        seed=seed,
        rounds=state.round,
        actions=actions,
        scores=rules.scores(state),
        winners=rules.winners(state),
        categories=tuple(categories),
        flags=state.flags,
        effects=dict(effects),
    )


def run(rules: Rules, games: int, players: int, seed: int) -> Iterator[GameResult]:
    """Results of ``games`` random games, one at a time (for progress display)."""
    for i in range(games):
        state, actions = play_game(rules, players, seed + i)
        yield result_of(rules, state, seed + i, actions)


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
    played or scored, whims fulfilled)."""
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    all_scores = [s for r in results for s in r.scores]
    categories: Counter[str] = Counter()
    for r in results:
        for per_player in r.categories:
            categories.update(per_player)
    ends: Counter[str] = Counter(flag for r in results for flag in r.flags)
    n = len(results)
    return {
        "games": n,
        "players": players,
        "seed": seed,
        "plugins": list(ruleset),
        "mean_rounds": round(statistics.fmean(r.rounds for r in results), 3) if n else 0,
        "mean_actions": round(statistics.fmean(r.actions for r in results), 3) if n else 0,
        "mean_score": round(statistics.fmean(all_scores), 3) if n else 0,
        "stdev_score": round(statistics.pstdev(all_scores), 3) if n else 0,
        "wins_by_seat": [round(w, 3) for w in wins],
        "mean_score_by_category": {
            k: round(v / (n * players), 3) for k, v in sorted(categories.items())
        }
        if n
        else {},
        "end_triggers": dict(sorted(ends.items())),
        "djinn_effects": {
            djinn: sum(r.effects.get(djinn, 0) for r in results) for djinn in sorted(djinns)
        },
        "card_effects": {
            card: sum(r.effects.get(card, 0) for r in results) for card in sorted(cards)
        },
    }
