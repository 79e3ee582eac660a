//! The greedy player with a profile's tastes (`agents/profiled.py`): the same search,
//! each candidate move judged by its settled score plus the profile's points for the
//! meeples it takes and the tile it claims, moves of assassins left out under
//! `never_kill`, a djinn offered judged with its points, and bids by the profile's share
//! and cap; the same decision as the Python player from the same seed and state.
//!
//! The profile arrives parsed and checked by Python (`agents/profile.py`), as the JSON
//! of a seat named `greedy:profile-json={…}` (`naqala.native.profiles`), so the kernel
//! reads no TOML; its numbers are checked again here, in one line, before any game.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::Deserialize;

use crate::actions::Action;
use crate::greedy::{bid_trial, pieces_left, Meter, Plan, Settings};
use crate::moves::MoveEnd;
use crate::rules::{KnownStage, Unported};
use crate::state::{State, NOBODY};

/// The kernel's seat name of a profiled greedy player, before the profile's JSON.
pub const SEAT_PREFIX: &str = "greedy:profile-json=";
/// the largest weight in points (`profile.MAX_WEIGHT`)
const MAX_WEIGHT: f64 = 100.0;

/// A player profile's numbers (`profile.Profile`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub tribes: HashMap<String, f64>,
    pub tiles: HashMap<String, f64>,
    pub djinns: HashMap<String, f64>,
    pub bid_share: f64,
    pub bid_max: Option<i64>,
    pub never_kill: bool,
}

impl Profile {
    /// The profile of the JSON `text`, its numbers checked as `agents/profile.py` does.
    pub fn parse(text: &str) -> Result<Profile, String> {
        let profile: Profile =
            serde_json::from_str(text).map_err(|e| format!("a profile's JSON: {e}"))?;
        let weights = [&profile.tribes, &profile.tiles, &profile.djinns];
        for (key, &weight) in weights.iter().flat_map(|table| table.iter()) {
            if !weight.is_finite() || weight.abs() > MAX_WEIGHT {
                return Err(format!("the weight of {key}, {weight}, is out of range"));
            }
        }
        if !(0.0..=10.0).contains(&profile.bid_share) {
            return Err(format!(
                "the bid share {} is out of range",
                profile.bid_share
            ));
        }
        if profile
            .bid_max
            .is_some_and(|cap| !(0..=1000).contains(&cap))
        {
            return Err("the bid cap is out of range".to_owned());
        }
        Ok(profile)
    }

    fn colour<'c>(meter: &Meter<'_, 'c>, colour: usize) -> &'c str {
        meter.rules.content.doc.colours[colour].id.as_str()
    }

    /// `taste`: the profile's points for the move ending so, per meeple of its colour
    /// taken and for the tile it would claim (emptied, free, a piece left to place).
    fn taste(&self, meter: &Meter, state: &State, player: usize, end: &MoveEnd) -> f64 {
        let colour = Profile::colour(meter, end.colour);
        let mut points = self.tribes.get(colour).copied().unwrap_or(0.0) * f64::from(end.taken);
        let claims = end.emptied
            && state.board.owner(end.end) == NOBODY
            && pieces_left(meter.rules.content, state, player) > 0;
        if claims {
            let content = meter.rules.content;
            let kind = &content.doc.tiles[usize::from(state.layout.tiles[end.end])].kind;
            points += self.tiles.get(kind).copied().unwrap_or(0.0);
        }
        points
    }

    /// `ranked_moves`: at a pick, the candidates (without assassins' moves under
    /// `never_kill`, when another is allowed) by settled score plus taste, rounded to
    /// whole points as Python's `round` does (half to even), best first; at a drop, the
    /// greedy player's.
    pub fn ranked_moves(
        &self,
        settings: &Settings,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<Vec<(i64, Plan)>, Unported> {
        if !meter.rules.at_stage(state, KnownStage::Pick) {
            return settings.ranked_moves(meter, state, player);
        }
        let mut ends = settings.candidate_ends(meter, state, player);
        if self.never_kill {
            let peaceful: Vec<(MoveEnd, Plan)> = ends
                .iter()
                .filter(|(end, _)| Profile::colour(meter, end.colour) != crate::content::ASSASSIN)
                .cloned()
                .collect();
            if !peaceful.is_empty() {
                ends = peaceful;
            }
        }
        let mut scored = Vec::new();
        for (end, plan) in ends {
            if let Some(after) = meter.follow(state, &plan)? {
                let settled = meter.settled_score(&after, player)? as f64;
                let value = settled + self.taste(meter, state, player, &end);
                scored.push((value.round_ties_even() as i64, plan));
            }
        }
        // a stable sort on the value alone keeps ties in candidate order
        scored.sort_by_key(|entry| Reverse(entry.0));
        Ok(scored)
    }

    /// `plan_move` with the profile's ranking; the rules' own options searched when no
    /// candidate is allowed.
    pub fn plan_move(
        &self,
        settings: &Settings,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<(i64, Plan), Unported> {
        let mut ranked = self.ranked_moves(settings, meter, state, player)?;
        if !ranked.is_empty() {
            return Ok(ranked.swap_remove(0));
        }
        settings.search(meter, state, player)
    }

    /// `_bid`: the dearest bid within the cap costing at most `share` of the best move's
    /// gain (judged with the profile's tastes), else the cheapest bid of all.
    pub fn bid(
        &self,
        settings: &Settings,
        meter: &Meter,
        state: &State,
        options: &[Action],
        player: usize,
    ) -> Result<usize, Unported> {
        let bids: Vec<(usize, i64)> = options
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Bid(cost) => Some((i, i64::from(*cost))),
                _ => None,
            })
            .collect();
        // Rust's min_by_key keeps the first of equal costs, as Python's min does
        let Some(&cheapest) = bids.iter().min_by_key(|&&(_, cost)| cost) else {
            return Ok(0);
        };
        let gain = if self.bid_share > 0.0 {
            let trial = bid_trial(meter.rules, state, player);
            let (value, plan) = self.plan_move(settings, meter, &trial, player)?;
            if plan.is_empty() {
                0
            } else {
                value - meter.own_score(&trial, player)
            }
        } else {
            0
        };
        let limit = self.bid_share * gain as f64;
        let affordable: Vec<(usize, i64)> = bids
            .iter()
            .copied()
            .filter(|&(_, cost)| self.bid_max.is_none_or(|cap| cost <= cap))
            .filter(|&(_, cost)| cost as f64 <= limit)
            .collect();
        let pool = if affordable.is_empty() {
            vec![cheapest]
        } else {
            affordable
        };
        // Python's max keeps the first of equal costs
        let mut best = pool[0];
        for &entry in &pool[1..] {
            if entry.1 > best.1 {
                best = entry;
            }
        }
        Ok(best.0)
    }

    /// `best`: the option with the best score right after it plus the profile's points
    /// for the djinn it takes, rounded as Python does (the first such in order); the
    /// greedy player's when the profile weighs no djinn.
    pub fn best(
        &self,
        meter: &Meter,
        state: &State,
        options: &[Action],
        player: usize,
    ) -> Result<usize, Unported> {
        if self.djinns.is_empty() {
            return Ok(meter.best_option(state, options, player)?.1);
        }
        let cards = &meter.rules.content.doc.cards;
        let mut best: Option<(i64, usize)> = None;
        for (index, option) in options.iter().enumerate() {
            let taste = match option {
                Action::Djinn(card, _) => {
                    let id = &cards[usize::from(*card)].id;
                    self.djinns.get(id).copied().unwrap_or(0.0)
                }
                _ => 0.0,
            };
            let after = meter.apply(state.clone(), option)?;
            let value = (meter.own_score(&after, player) as f64 + taste).round_ties_even() as i64;
            if best.is_none_or(|(top, _)| value > top) {
                best = Some((value, index));
            }
        }
        Ok(best.expect("a decision has options").1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_is_read_and_its_numbers_checked() {
        let text = r#"{"tribes": {"blue": 3.0}, "tiles": {}, "djinns": {}, "bid_share": 0.1, "bid_max": null, "never_kill": true}"#;
        let profile = Profile::parse(text).expect("a good profile");
        assert_eq!(profile.tribes["blue"], 3.0);
        assert!(profile.never_kill && profile.bid_max.is_none());
        let bad = text.replace("3.0", "300.0");
        assert!(Profile::parse(&bad).unwrap_err().contains("out of range"));
        let share = text.replace("0.1", "11.0");
        assert!(Profile::parse(&share).unwrap_err().contains("bid share"));
        assert!(Profile::parse("{}").is_err());
        let extra = text.replace("\"tribes\"", "\"colour\": 1, \"tribes\"");
        assert!(Profile::parse(&extra).is_err());
    }
}
