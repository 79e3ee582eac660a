"""Bidding for turn order (rulebook "Bid for Turn Order").

Markers bid in bid-track order. A bid takes a free spot of the turn-order track and pays
its cost at once; only one marker per non-zero spot. The zero spots are a queue: a new zero
bid takes the front zero spot and pushes earlier zero bidders back, so the last to bid zero
plays first among them; when every zero spot is taken, the bidder must pay.
"""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, State, evolve, replace_at
from naqala.plugins.base.common import current, gain_coins


def zero_spots(costs: tuple[int, ...]) -> list[int]:
    return [i for i, cost in enumerate(costs) if cost == 0]


def bidding_marker(state: State) -> int:
    return next(m for m in state.bid_track if m != NOBODY)


def free_spots(rules: Rules, state: State) -> list[int]:
    """Spots the bidding marker may take, one per distinct offer: every free non-zero spot,
    and the front zero spot while any zero spot is free."""
    costs = rules.content.table("turn_order_costs")
    spots = [i for i, c in enumerate(costs) if c > 0 and state.turn_track[i] == NOBODY]
    zeros = zero_spots(costs)
    if zeros and any(state.turn_track[i] == NOBODY for i in zeros):
        spots.append(zeros[0])
    return spots


def place_bid(rules: Rules, state: State, cost: int, price: int) -> State:
    """The bidding marker takes the free spot costing ``cost`` (the front zero spot, pushing
    earlier zero bids back, when ``cost`` is 0) and its owner pays ``price`` (all their
    coins if they have less)."""
    costs = rules.content.table("turn_order_costs")
    marker = bidding_marker(state)
    player = current(state)
    track = list(state.turn_track)
    if cost == 0:
        zeros = zero_spots(costs)
        queue = [track[i] for i in zeros if track[i] != NOBODY]
        queue.insert(0, marker)
        for i, spot in enumerate(zeros):
            track[spot] = queue[i] if i < len(queue) else NOBODY
    else:
        spot = next(i for i, c in enumerate(costs) if c == cost and state.turn_track[i] == NOBODY)
        track[spot] = marker
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

    def legal(self, rules: Rules, state: State) -> list[Action]:
        costs = rules.content.table("turn_order_costs")
        coins = state.players[current(state)].coins
        spots = free_spots(rules, state)
        affordable = [s for s in spots if costs[s] <= coins]
        if not affordable:
            affordable = [min(spots, key=lambda s: costs[s])]
        return [Action("bid", (str(costs[s]),)) for s in affordable]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        cost = int(action.args[0])
        return rules.proceed(place_bid(rules, state, cost, cost), self.name)

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "bid" or len(action.args) != 1 or not action.args[0].isdigit():
            return None
        costs = rules.content.table("turn_order_costs")
        cost = int(action.args[0])
        if cost not in costs:
            return f"there is no spot costing {cost} (spots: {', '.join(map(str, costs))})"
        if cost == 0:
            return "all zero spots are taken: you must pay at least 1"
        if cost > state.players[current(state)].coins:
            return f"you cannot afford {cost} coins"
        return f"the spot costing {cost} is already taken"
