//! The greedy search (`agents/greedy.py`, `agents/nobid.py`): the turn that most raises
//! the player's own score right now, found fast; the seats that play it are
//! `greedy_player.rs`, so that a profile's tastes (`profile.rs`) can read this search
//! without this module reading them.
//!
//! Every distinct way a move can end (`moves.rs`) gets a quick estimate from the board
//! alone; the most promising few, plus the best of each colour and of each kind of end
//! tile, are played out through the rules and judged by the score after the best next
//! decision of the same turn. Bids weigh that one plan of the board against the price.
//! Every rule call goes through a `Meter`, which counts work as `agents/meter.py` does,
//! so the search player built on these functions stops where the Python one stops.

use std::cell::Cell;
use std::collections::HashMap;

use crate::actions::Action;
use crate::moves::{distinct_moves, MoveEnd, MoveSource};
use crate::rules::{KnownStage, Rules, Unported};
use crate::state::{Count, Decision, State, NOBODY};

/// at most this many pick and drop options are tried when searching through the rules
pub const SEARCH_LIMIT: usize = 5_000;
/// how many of the best-estimated move ends are played out through the rules
pub const PLAYED_OUT: usize = 10;
/// at most this many complete moves are walked from the middle of a move
/// (`greedy_full.MOVE_LIMIT`)
pub const MOVE_LIMIT: usize = 20_000;
/// the estimate of a merchant (per resource card taken), an assassins' move, and a
/// meeple of a colour the estimate does not know
const MERCHANT_VALUE: f64 = 1.5;
const ASSASSIN_VALUE: f64 = 8.0;
const OTHER_COLOUR: f64 = 1.5;

/// A whole move or the rest of one: the actions in order.
pub type Plan = Vec<Action>;

/// The rules, counting one unit of work per action applied and per score sheet read
/// (`agents/meter.py`'s `Meter`): a search's budget of work stops it at the same point
/// on both engines.
pub struct Meter<'r, 'c> {
    pub rules: &'r Rules<'c>,
    work: Cell<u64>,
}

impl<'r, 'c> Meter<'r, 'c> {
    pub fn new(rules: &'r Rules<'c>) -> Meter<'r, 'c> {
        Meter {
            rules,
            work: Cell::new(0),
        }
    }

    pub fn work(&self) -> u64 {
        self.work.get()
    }

    fn count(&self, units: u64) {
        self.work.set(self.work.get() + units);
    }

    pub fn apply(&self, state: State, action: &Action) -> Result<State, Unported> {
        self.count(1);
        self.rules.apply(state, action)
    }

    /// `own_score`: the player's score lines added up (one score sheet read).
    pub fn own_score(&self, state: &State, player: usize) -> i64 {
        self.count(1);
        self.rules.score(state, player)
    }

    /// `rules.scores`: one score sheet read a player.
    pub fn scores(&self, state: &State) -> Vec<i64> {
        self.count(state.players.len() as u64);
        self.rules.scores(state)
    }

    pub fn legal(&self, state: &State) -> Result<Vec<Action>, Unported> {
        self.rules.legal_actions(state)
    }

    pub fn is_over(&self, state: &State) -> bool {
        self.rules.at_stage(state, KnownStage::Over)
    }

    /// `follow`: the state after `plan`, or None if the rules refuse one of its steps.
    pub fn follow(&self, state: &State, plan: &[Action]) -> Result<Option<State>, Unported> {
        let mut state = state.clone();
        for action in plan {
            if !self.legal(&state)?.contains(action) {
                return Ok(None);
            }
            state = self.apply(state, action)?;
        }
        Ok(Some(state))
    }

    /// `best_option`: the option with the best score right after it (the first such).
    pub fn best_option(
        &self,
        state: &State,
        options: &[Action],
        player: usize,
    ) -> Result<(i64, usize), Unported> {
        let mut best: Option<(i64, usize)> = None;
        for (index, option) in options.iter().enumerate() {
            let value = self.own_score(&self.apply(state.clone(), option)?, player);
            if best.is_none_or(|(top, _)| value > top) {
                best = Some((value, index));
            }
        }
        Ok(best.expect("a decision has options"))
    }

    /// `settled_score`: the score once the move is over, counting the best option of
    /// the decision that follows in the same turn (a kill, a market, a djinn).
    pub fn settled_score(&self, state: &State, player: usize) -> Result<i64, Unported> {
        if self.is_over(state)
            || state.decision.player != player as i8
            || is_move_stage(self.rules, state)
        {
            return Ok(self.own_score(state, player));
        }
        let options = self.legal(state)?;
        if options.is_empty() {
            return Ok(self.own_score(state, player));
        }
        Ok(self.best_option(state, &options, player)?.0)
    }
}

pub(crate) fn stage_is(rules: &Rules, state: &State, stage: KnownStage) -> bool {
    rules.at_stage(state, stage)
}

/// Whether the decision is a pick or a drop (`MOVE_STAGES`).
pub fn is_move_stage(rules: &Rules, state: &State) -> bool {
    stage_is(rules, state, KnownStage::Pick) || stage_is(rules, state, KnownStage::Drop)
}

fn is_move_action(action: &Action) -> bool {
    matches!(action, Action::Pick(_) | Action::Drop(..))
}

/// `pieces_left`: the camels and other pieces (`piece.*` counters) `player` has still to
/// place.
pub(crate) fn pieces_left(content: &crate::content::Content, state: &State, player: usize) -> i64 {
    let me = &state.players[player];
    i64::from(me.camels)
        + me.extras
            .iter()
            .filter(|(k, _)| content.names.name(*k).starts_with("piece."))
            .map(|&(_, v)| v)
            .sum::<i64>()
}

/// `Estimator`: quick guesses at what a move ending so is worth to `player`, from the
/// board alone; meeples kept are valued exactly, by the change in the score with that
/// many more kept (remembered per count for the decision).
struct Estimator<'m, 'r, 'c> {
    meter: &'m Meter<'r, 'c>,
    state: &'m State,
    player: usize,
    score: i64,
    kept: HashMap<(usize, Count), f64>,
    claim: Vec<i64>,
    blue: Vec<i64>,
    row: usize,
    kinds: Vec<&'c str>,
}

impl<'m, 'r, 'c> Estimator<'m, 'r, 'c> {
    fn new(meter: &'m Meter<'r, 'c>, state: &'m State, player: usize) -> Self {
        let content: &'c crate::content::Content = meter.rules.content;
        let doc = &content.doc;
        let score = meter.own_score(state, player);
        let pieces = pieces_left(content, state, player);
        let size = state.layout.size();
        let spec = |t: usize| &doc.tiles[usize::from(state.layout.tiles[t])];
        let claim = (0..size)
            .map(|t| {
                if pieces > 0 && state.board.owner(t) == NOBODY {
                    spec(t).vp
                        + state
                            .board
                            .tokens(t)
                            .iter()
                            .zip(&doc.tokens)
                            .map(|(&n, token)| i64::from(n) * token.vp)
                            .sum::<i64>()
                } else {
                    0
                }
            })
            .collect();
        let geo = &state.layout.geometry;
        let blue = (0..size)
            .map(|t| {
                geo.area[t]
                    .iter()
                    .filter(|&&a| spec(usize::from(a)).value == "blue")
                    .count() as i64
            })
            .collect();
        let kinds = doc
            .colours
            .iter()
            .map(|c| if c.kept { "" } else { c.id.as_str() })
            .collect();
        Estimator {
            meter,
            state,
            player,
            score,
            kept: HashMap::new(),
            claim,
            blue,
            row: state.decks[0].row().len(),
            kinds,
        }
    }

    fn kept_value(&mut self, colour: usize, taken: Count) -> f64 {
        if let Some(&value) = self.kept.get(&(colour, taken)) {
            return value;
        }
        let mut after = self.state.clone();
        after.players[self.player].meeples[colour] += taken;
        let value = (self.meter.own_score(&after, self.player) - self.score) as f64;
        self.kept.insert((colour, taken), value);
        value
    }

    fn estimate(&mut self, end: &MoveEnd) -> f64 {
        let value = if end.emptied {
            self.claim[end.end] as f64
        } else {
            0.0
        };
        let taken = f64::from(end.taken);
        match self.kinds[end.colour] {
            "" => value + self.kept_value(end.colour, end.taken),
            "blue" => value + taken * self.blue[end.end] as f64,
            "red" => value + ASSASSIN_VALUE,
            "green" => value + MERCHANT_VALUE * (usize::from(end.taken).min(self.row) as f64),
            _ => value + OTHER_COLOUR * taken,
        }
    }
}

/// How the greedy player searches (`GreedyAgent`'s constructor arguments): the
/// playout policy of the search player is a lighter one.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub played_out: usize,
    pub spread: bool,
    pub search_limit: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            played_out: PLAYED_OUT,
            spread: true,
            search_limit: SEARCH_LIMIT,
        }
    }
}

/// The greedy judgement of moves and bids (`GreedyAgent`'s methods), over a meter.
impl Settings {
    /// `candidates`: the move ends worth playing out, with their plans: the best few by
    /// estimate, and the best of each colour and of each kind of end tile.
    fn candidates(&self, meter: &Meter, state: &State, player: usize) -> Vec<Plan> {
        self.candidate_ends(meter, state, player)
            .into_iter()
            .map(|(_, plan)| plan)
            .collect()
    }

    /// The candidates with the move ends they come from (a profile's tastes read them).
    pub(crate) fn candidate_ends(
        &self,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Vec<(MoveEnd, Plan)> {
        let content = meter.rules.content;
        let colours = content.colours();
        let geo = &state.layout.geometry;
        let mut source = MoveSource::new(geo, &state.board, state.layout.size(), colours);
        let ends = source.move_ends();
        let mut estimate = Estimator::new(meter, state, player);
        let values: Vec<f64> = ends.iter().map(|e| estimate.estimate(e)).collect();
        let mut ranked: Vec<usize> = (0..ends.len()).collect();
        ranked.sort_by(|&a, &b| values[b].partial_cmp(&values[a]).expect("no NaN"));
        let kind = |end: &MoveEnd| {
            content.doc.tiles[usize::from(state.layout.tiles[end.end])]
                .kind
                .as_str()
        };
        let cut = self.played_out.min(ranked.len());
        let mut chosen: Vec<usize> = ranked[..cut].to_vec();
        if self.spread {
            let mut colours_seen: Vec<usize> = chosen.iter().map(|&i| ends[i].colour).collect();
            let mut kinds_seen: Vec<&str> = chosen.iter().map(|&i| kind(&ends[i])).collect();
            for &i in &ranked[cut..] {
                let end = &ends[i];
                let new_colour = !colours_seen.contains(&end.colour);
                let new_kind = !kinds_seen.contains(&kind(end));
                if new_colour || new_kind {
                    colours_seen.push(end.colour);
                    kinds_seen.push(kind(end));
                    chosen.push(i);
                }
            }
        }
        chosen
            .iter()
            .map(|&i| (ends[i].clone(), source.plan(&ends[i])))
            .collect()
    }

    /// `ranked_moves`: the candidate moves the rules allow with their settled scores,
    /// best first (ties in candidate order).
    pub fn ranked_moves(
        &self,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<Vec<(i64, Plan)>, Unported> {
        let rules = meter.rules;
        let plans = if stage_is(rules, state, KnownStage::Pick) {
            self.candidates(meter, state, player)
        } else if stage_is(rules, state, KnownStage::Drop) {
            distinct_moves(
                state,
                &state.layout.geometry,
                rules.content.colours(),
                MOVE_LIMIT,
                true,
            )
        } else {
            Vec::new()
        };
        let mut scored = Vec::new();
        for plan in plans {
            if let Some(after) = meter.follow(state, &plan)? {
                scored.push((meter.settled_score(&after, player)?, plan));
            }
        }
        // a stable sort on the score alone keeps ties in candidate order
        scored.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        Ok(scored)
    }

    /// `plan_move`: the best move (its settled score and plan) among the candidates the
    /// rules allow; if none is, the rules' own options are searched instead.
    pub fn plan_move(
        &self,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<(i64, Plan), Unported> {
        let mut ranked = self.ranked_moves(meter, state, player)?;
        if !ranked.is_empty() {
            return Ok(ranked.swap_remove(0));
        }
        self.search(meter, state, player)
    }

    /// `_search`: moves found through the rules' own pick and drop options, up to
    /// `search_limit` positions.
    pub fn search(
        &self,
        meter: &Meter,
        state: &State,
        player: usize,
    ) -> Result<(i64, Plan), Unported> {
        struct Search<'a, 'r, 'c> {
            meter: &'a Meter<'r, 'c>,
            player: usize,
            budget: usize,
            best: (i64, Plan),
        }
        impl Search<'_, '_, '_> {
            fn explore(&mut self, current: &State, path: &mut Plan) -> Result<(), Unported> {
                let rules = self.meter.rules;
                if !is_move_stage(rules, current) || current.decision.player != self.player as i8 {
                    let value = self.meter.settled_score(current, self.player)?;
                    if value > self.best.0 {
                        self.best = (value, path.clone());
                    }
                    return Ok(());
                }
                for action in self.meter.legal(current)? {
                    if self.budget == 0 {
                        return Ok(());
                    }
                    if is_move_action(&action) {
                        self.budget -= 1;
                        let next = self.meter.apply(current.clone(), &action)?;
                        path.push(action);
                        self.explore(&next, path)?;
                        path.pop();
                    }
                }
                Ok(())
            }
        }
        let mut search = Search {
            meter,
            player,
            budget: self.search_limit,
            best: (-(10i64.pow(9)), Vec::new()),
        };
        search.explore(state, &mut Vec::new())?;
        Ok(search.best)
    }

    /// `move_gain`: what the best move on the board would gain `player` if they moved
    /// now (the value a bid is weighed against).
    pub fn move_gain(&self, meter: &Meter, state: &State, player: usize) -> Result<i64, Unported> {
        let trial = bid_trial(meter.rules, state, player);
        let (value, plan) = self.plan_move(meter, &trial, player)?;
        Ok(if plan.is_empty() {
            0
        } else {
            value - meter.own_score(&trial, player)
        })
    }
}

/// The position a bid is weighed on: `player` about to pick with the first marker of the
/// bid track (`move_gain`'s `trial`).
pub(crate) fn bid_trial(rules: &Rules, state: &State, player: usize) -> State {
    let names = &rules.content.names;
    let marker = state
        .bid_track
        .as_slice()
        .iter()
        .copied()
        .find(|&m| m != NOBODY)
        .expect("a bid decision has a marker on the bid track");
    let mut trial = state.clone();
    trial.turn = Some(Box::new(crate::rules::new_turn(
        marker as u8,
        names.known(""),
    )));
    trial.decision = Decision {
        stage: names.known("pick"),
        player: player as i8,
    };
    trial
}

/// `bid_for_gain`: the dearest bid costing at most a quarter of `gain`, else the
/// cheapest; the index among `options` (the first option when none is a bid).
pub fn bid_for_gain(options: &[Action], gain: i64) -> usize {
    let bids: Vec<(usize, i64)> = options
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Bid(cost) => Some((i, i64::from(*cost))),
            _ => None,
        })
        .collect();
    let Some(&cheapest) = bids.iter().min_by_key(|&&(_, cost)| cost) else {
        return 0;
    };
    let affordable: Vec<(usize, i64)> = bids
        .iter()
        .copied()
        .filter(|&(_, cost)| cost * 4 <= gain)
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
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bids_cost_at_most_a_quarter_of_the_gain() {
        let options = [
            Action::Bid(0),
            Action::Bid(1),
            Action::Bid(3),
            Action::Bid(5),
        ];
        assert_eq!(bid_for_gain(&options, 12), 2);
        assert_eq!(bid_for_gain(&options, 20), 3);
        assert_eq!(bid_for_gain(&options, 3), 0);
        // nothing affordable: the cheapest
        assert_eq!(bid_for_gain(&options[1..], 0), 0);
        assert_eq!(bid_for_gain(&[Action::Pick(3)], 10), 0);
    }
}
