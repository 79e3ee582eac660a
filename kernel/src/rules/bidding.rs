//! Bidding for turn order (`plugins/base/bidding.py`): the turn-order costs, the free
//! spots and the bid placed.

use super::{Rules, Step};

use crate::actions::Action;
use crate::state::{State, NOBODY};

impl Rules<'_> {
    /// The turn-order costs in play: `turn_order_costs_<players>` if the content has
    /// one, else `turn_order_costs`.
    pub(super) fn costs(&self, state: &State) -> &[i64] {
        self.turn_order_costs(state.players.len())
    }

    /// The turn-order costs for `players` players (`turn_order_costs`).
    pub fn turn_order_costs(&self, players: usize) -> &[i64] {
        &self.costs[players]
    }

    /// `BaseFlow.start`: the first decision of a freshly set-up game.
    pub fn start(&self, state: State) -> Step {
        self.next_bid(state)
    }

    /// The spots of each distinct cost, dearest cost first (`_cost_groups`).
    pub(super) fn cost_groups(costs: &[i64]) -> Vec<Vec<usize>> {
        let mut distinct: Vec<i64> = costs.to_vec();
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        distinct
            .iter()
            .map(|&cost| (0..costs.len()).filter(|&i| costs[i] == cost).collect())
            .collect()
    }

    /// `free_spots`: the front spot of each cost while any spot of that cost is free.
    pub(super) fn free_spots(&self, state: &State) -> Vec<usize> {
        let track = state.turn_track.as_slice();
        Self::cost_groups(self.costs(state))
            .into_iter()
            .filter(|group| group.iter().any(|&i| track[i] == NOBODY))
            .map(|group| group[0])
            .collect()
    }

    /// `BidStage.legal`: the affordable free spots, or the cheapest when none is.
    /// Written into `out` (empty), with no list of its own: the free spots are each
    /// distinct cost, dearest first, that has a free spot (`free_spots`).
    pub(super) fn bid_options(&self, state: &State, out: &mut Vec<Action>) {
        let costs = self.costs(state);
        let coins = i64::from(state.players[state.decision.player as usize].coins);
        let track = state.turn_track.as_slice();
        let mut cheapest: Option<i64> = None;
        let mut below = i64::MAX;
        // each time the dearest cost under the last one looked at
        while let Some(cost) = costs.iter().copied().filter(|&c| c < below).max() {
            below = cost;
            let free = (0..costs.len()).any(|i| costs[i] == cost && track[i] == NOBODY);
            if !free {
                continue;
            }
            if cost <= coins {
                out.push(Action::Bid(cost as u32));
            }
            cheapest = Some(cost);
        }
        if out.is_empty() {
            // min(spots, key=cost): the lowest cost of a free spot
            if let Some(cost) = cheapest {
                out.push(Action::Bid(cost as u32));
            }
        }
    }

    /// `place_bid`: the bidding marker takes the front spot of `cost`, pushing markers
    /// already on spots of that cost back; its owner pays `price` (all coins if less).
    pub(super) fn place_bid(&self, state: State, cost: u32, price: u32) -> State {
        let costs = self.costs(&state).to_vec();
        let mut state = state;
        let marker = *state
            .bid_track
            .as_slice()
            .iter()
            .find(|&&m| m != NOBODY)
            .expect("a marker is bidding");
        let player = state.decision.player as usize;
        let group: Vec<usize> = (0..costs.len())
            .filter(|&i| costs[i] == i64::from(cost))
            .collect();
        let track = state.turn_track.as_mut_slice();
        let mut queue = vec![marker];
        queue.extend(group.iter().map(|&i| track[i]).filter(|&m| m != NOBODY));
        for (i, &spot) in group.iter().enumerate() {
            track[spot] = queue.get(i).copied().unwrap_or(NOBODY);
        }
        let coins = &mut state.players[player].coins;
        *coins -= (price as i32).min(*coins);
        let bids = state.bid_track.as_mut_slice();
        let at = bids
            .iter()
            .position(|&m| m == marker)
            .expect("the marker bids");
        bids[at] = NOBODY;
        state
    }
}
