//! The greedy seats (`agents/greedy.py`, `agents/nobid.py`, `agents/profiled.py`): the
//! same decision as the Python player from the same seed and state, every time. The
//! search they run is `greedy.rs`; a profiled seat judges its candidates with the
//! profile's tastes (`profile.rs`), which read that search too.

use crate::actions::Action;
use crate::greedy::{
    bid_for_gain, bid_trial, is_move_stage, stage_is, Meter, Plan, Settings, MOVE_LIMIT,
};
use crate::moves::distinct_moves;
use crate::player::Player;
use crate::profile::Profile;
use crate::rules::{KnownStage, Rules, Unported};
use crate::state::State;
use crate::views::determinize;

/// `GreedyAgent` (and `NoBidGreedyAgent` when `no_bid`): options judged on a
/// determinization for the deciding seat, a move chosen whole and played from its plan.
pub struct GreedyPlayer {
    seed: u64,
    settings: Settings,
    no_bid: bool,
    plan: Plan,
    /// a profile's tastes (`ProfiledGreedyAgent`, `profile.rs`), or none
    profile: Option<Profile>,
}

impl GreedyPlayer {
    pub fn new(seed: u64, no_bid: bool) -> GreedyPlayer {
        GreedyPlayer {
            seed,
            settings: Settings::default(),
            no_bid,
            plan: Vec::new(),
            profile: None,
        }
    }

    /// `ProfiledGreedyAgent`: the greedy player judging moves, bids and djinns by
    /// `profile`.
    pub fn with_profile(seed: u64, profile: Profile) -> GreedyPlayer {
        GreedyPlayer {
            profile: Some(profile),
            ..GreedyPlayer::new(seed, false)
        }
    }

    /// `GreedyAgent.choose` over a meter (the search player counts its work).
    pub fn choose_metered(
        &mut self,
        meter: &Meter,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported> {
        let rules = meter.rules;
        let player = state.decision.player as usize;
        if self.no_bid && stage_is(rules, state, KnownStage::Bid) {
            if let Some(i) = cheapest_bid(options) {
                return Ok(i);
            }
        }
        let state = determinize(rules.content, state, player, self.seed);
        if is_move_stage(rules, &state) {
            if !self.plan.first().is_some_and(|a| options.contains(a)) {
                self.plan = match &self.profile {
                    Some(profile) => profile.plan_move(&self.settings, meter, &state, player)?.1,
                    None => self.settings.plan_move(meter, &state, player)?.1,
                };
            }
            if let Some(first) = self.plan.first() {
                if let Some(i) = options.iter().position(|a| a == first) {
                    self.plan.remove(0);
                    return Ok(i);
                }
            }
        }
        if stage_is(rules, &state, KnownStage::Bid) {
            if !options.iter().any(|a| matches!(a, Action::Bid(_))) {
                return Ok(0);
            }
            if let Some(profile) = &self.profile {
                return profile.bid(&self.settings, meter, &state, options, player);
            }
            let gain = self.settings.move_gain(meter, &state, player)?;
            return Ok(bid_for_gain(options, gain));
        }
        if let Some(profile) = &self.profile {
            return profile.best(meter, &state, options, player);
        }
        Ok(meter.best_option(&state, options, player)?.1)
    }
}

/// `NoBidGreedyAgent`: the cheapest bid on offer (the first of equal costs).
fn cheapest_bid(options: &[Action]) -> Option<usize> {
    options
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Bid(cost) => Some((i, *cost)),
            _ => None,
        })
        .min_by_key(|&(i, cost)| (cost, i))
        .map(|(i, _)| i)
}

impl Player for GreedyPlayer {
    fn choose(
        &mut self,
        rules: &Rules,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported> {
        self.choose_metered(&Meter::new(rules), state, options)
    }
}

/// `FullGreedyAgent` (`greedy-full`): every distinct move played out through the rules,
/// on the state itself (this yardstick does not determinize).
pub struct FullGreedyPlayer {
    plan: Plan,
}

impl FullGreedyPlayer {
    pub fn new() -> FullGreedyPlayer {
        FullGreedyPlayer { plan: Vec::new() }
    }

    /// `_plan_move`: the best of the base game's moves the rules in use allow (the first
    /// of equal scores), else the rules' own options searched.
    fn plan_move(
        &self,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<(i64, Plan), Unported> {
        let rules = meter.rules;
        let at_drop = stage_is(rules, state, KnownStage::Drop);
        let colours = rules.content.colours();
        let mut best: (i64, Plan) = (-(10i64.pow(9)), Vec::new());
        for plan in distinct_moves(state, &state.layout.geometry, colours, MOVE_LIMIT, at_drop) {
            let Some(after) = meter.follow(state, &plan)? else {
                continue;
            };
            let value = meter.settled_score(&after, player)?;
            if value > best.0 {
                best = (value, plan);
            }
        }
        if !best.1.is_empty() {
            return Ok(best);
        }
        Settings::default().search(meter, state, player)
    }
}

impl Default for FullGreedyPlayer {
    fn default() -> Self {
        FullGreedyPlayer::new()
    }
}

impl Player for FullGreedyPlayer {
    fn choose(
        &mut self,
        rules: &Rules,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported> {
        let meter = Meter::new(rules);
        let player = state.decision.player as usize;
        if is_move_stage(rules, state) {
            if !self.plan.first().is_some_and(|a| options.contains(a)) {
                self.plan = self.plan_move(&meter, state, player)?.1;
            }
            if let Some(first) = self.plan.first() {
                if let Some(i) = options.iter().position(|a| a == first) {
                    self.plan.remove(0);
                    return Ok(i);
                }
            }
        }
        if stage_is(rules, state, KnownStage::Bid) {
            if !options.iter().any(|a| matches!(a, Action::Bid(_))) {
                return Ok(0);
            }
            let trial = bid_trial(rules, state, player);
            let (value, plan) = self.plan_move(&meter, &trial, player)?;
            let gain = if plan.is_empty() {
                0
            } else {
                value - meter.own_score(&trial, player)
            };
            return Ok(bid_for_gain(options, gain));
        }
        Ok(meter.best_option(state, options, player)?.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_bid_takes_the_cheapest_bid() {
        let options = [
            Action::Pick(3),
            Action::Bid(3),
            Action::Bid(1),
            Action::Bid(1),
            Action::Bid(5),
        ];
        assert_eq!(cheapest_bid(&options), Some(2));
        assert_eq!(cheapest_bid(&options[1..]), Some(1));
        assert_eq!(cheapest_bid(&[Action::Pick(3)]), None);
    }
}
