"""Bidding for turn order (rulebook "Bid for Turn Order").

Markers bid in bid-track order. A bid takes a free spot of the turn-order track and pays
its cost at once. Spots of the same cost are a queue: a new bid takes the front one and
pushes earlier bidders back, so the last to bid zero plays first among the zeros; when
every spot of a cost is taken, that cost cannot be bid. In the base game only the three
zero spots share a cost; the five-player track has pairs at 5, 3 and 1 as well.
"""

from __future__ import annotations

import functools

from naqala.core.actions import Action, action_of
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, State, evolve, replace_at
from naqala.plugins.base.common import current, gain_coins


def turn_order_costs(rules: Rules, players: int) -> tuple[int, ...]:
    """The costs of the turn-order spots, best first: content table
    ``turn_order_costs_<players>`` where a player count has its own track (5 players),
    else ``turn_order_costs``."""
    key = f"bidding.costs.{players}"
    known: tuple[object, tuple[int, ...]] | None = rules.memo.get(key)
    if known is None or known[0] is not rules.content:
        tables = rules.content.tables
        costs = tables.get(f"turn_order_costs_{players}") or rules.content.table("turn_order_costs")
        known = rules.memo[key] = (rules.content, costs)
    return known[1]


def costs_in_play(rules: Rules, state: State) -> tuple[int, ...]:
    return turn_order_costs(rules, len(state.players))  # remembered per rules and content


def distinct_costs(costs: tuple[int, ...]) -> list[int]:
    """Each cost once, dearest first (a Kumarbi discount steps down this list)."""
    return sorted(set(costs), reverse=True)


def spots_costing(costs: tuple[int, ...], cost: int) -> list[int]:
    return [i for i, c in enumerate(costs) if c == cost]


def bidding_marker(state: State) -> int:
    return next(m for m in state.bid_track if m != NOBODY)


def free_spots(rules: Rules, state: State) -> list[int]:
    """Spots the bidding marker may take, one per distinct cost: the front spot of each
    cost while any spot of that cost is free."""
    track = state.turn_track
    return [
        group[0]
        for group in _cost_groups(costs_in_play(rules, state))
        if any(track[i] == NOBODY for i in group)
    ]


@functools.lru_cache(maxsize=64)
def _cost_groups(costs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The spots of each distinct cost, dearest cost first."""
    return tuple(tuple(spots_costing(costs, cost)) for cost in distinct_costs(costs))


def place_bid(rules: Rules, state: State, cost: int, price: int) -> State:
    """The bidding marker takes the front spot costing ``cost``, pushing markers already
    on spots of that cost back (the rulebook's zero spots; a track may have several
    spots of other costs too), and its owner pays ``price`` (all their coins if they have
    less)."""
    costs = costs_in_play(rules, state)
    marker = bidding_marker(state)
    player = current(state)
    track = list(state.turn_track)
    group = spots_costing(costs, cost)
    queue = [marker] + [track[i] for i in group if track[i] != NOBODY]
    for i, spot in enumerate(group):
        track[spot] = queue[i] if i < len(queue) else NOBODY
    state = gain_coins(state, player, -min(price, state.players[player].coins))
    return evolve(
        state,
        turn_track=tuple(track),
        bid_track=replace_at(state.bid_track, state.bid_track.index(marker), NOBODY),
    )


class BidStage(Stage):
    """``bid <cost>``: take the free turn-order spot of that cost and pay it.

    A player who cannot afford any free spot takes the cheapest one and pays all their
    coins (the rulebook is silent; see docs/rules-notes.md)."""

    in_turn = False  # bids come before the turns of a round

    def legal(self, rules: Rules, state: State) -> list[Action]:
        costs = costs_in_play(rules, state)
        coins = state.players[current(state)].coins
        spots = free_spots(rules, state)
        affordable = [s for s in spots if costs[s] <= coins]
        if not affordable:
            affordable = [min(spots, key=lambda s: costs[s])]
        return [action_of("bid", str(costs[s])) for s in affordable]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        cost = int(action.args[0])
        return rules.proceed(place_bid(rules, state, cost, cost), self.name)

    def title(self, rules: Rules, state: State) -> str:
        return "Bid for turn order (the price of a spot is paid at once)"

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "bid" or len(action.args) != 1 or not action.args[0].isdigit():
            return None
        costs = costs_in_play(rules, state)
        cost = int(action.args[0])
        if cost not in costs:
            return f"there is no spot costing {cost} (spots: {', '.join(map(str, costs))})"
        if cost > state.players[current(state)].coins:
            return f"you cannot afford {cost} coins"
        if len(spots_costing(costs, cost)) > 1:
            cheaper = " at least 1" if cost == 0 else " another price"
            return f"all spots costing {cost} are taken: you must pay{cheaper}"
        return f"the spot costing {cost} is already taken"
