//! The search player (`agents/mcts.py`, with its playouts `agents/rollout.py`):
//! determinized Monte Carlo search at the root over the greedy player's candidates, every
//! seat of a playout played by a lighter greedy policy, rounds of sequential halving.
//!
//! With a budget of playouts or of work its choice is a function of the seed, the seat's
//! view and the budget, on both engines: the same draws (the view's digest, the deals),
//! the same work counted (`greedy::Meter`), the same float arithmetic in the same order.
//! A budget of CPU seconds (`mcts:1.5s`) is supported but cannot be equal across engines.

use std::collections::HashMap;

use crate::actions::Action;
use crate::greedy::{bid_for_gain, is_move_stage, Meter, Plan, Settings};
use crate::greedy_player::GreedyPlayer;
use crate::perft::process_time;
use crate::player::Player;
use crate::rng::Rng;
use crate::rules::{Rules, Unported};
use crate::state::State;
use crate::views::{determinize, view_digest};

/// playouts per decision when the seat names no budget
pub const DEFAULT_ITERATIONS: usize = 64;
/// work (`Meter` units) a decision of the default budget may spend
pub const DEFAULT_WORK: u64 = 8000;
/// the share of the budget spent on a decision other than a pick or a bid
const OTHER_SHARE: f64 = 0.25;
/// the greedy player's best this many moves are the candidates at a pick
const MOVE_WIDTH: usize = 8;
/// at most this many options of another decision are candidates
const WIDTH: usize = 6;
/// points of benefit of the doubt for the greedy player's own choice
const PRIOR: f64 = 1.0;
/// the most playouts and CPU seconds a seat may ask for a decision
pub const MAX_PLAYOUTS: usize = 5000;
pub const MAX_SECONDS: f64 = 60.0;

/// a playout stops after at most this many meeple moves per player
const MOVE_CAP_PER_PLAYER: usize = 2;
/// points added to a won, finished game's value
const WIN_BONUS: f64 = 15.0;
/// weight of the margin over the others' mean, next to the margin over the best other
const MEAN_WEIGHT: f64 = 0.5;
/// the playout policy: this many move ends played out, and positions searched when the
/// rules refuse them (`rollout.LIGHT_PLAYED_OUT`, `LIGHT_SEARCH_LIMIT`)
const LIGHT: Settings = Settings {
    played_out: 3,
    spread: false,
    search_limit: 150,
};

/// Playouts per decision, or CPU seconds per decision; `work` caps a decision's work on
/// top of its playouts (`mcts.Budget`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub iterations: usize,
    pub seconds: Option<f64>,
    pub work: Option<u64>,
}

/// `ai:mcts`: `DEFAULT_ITERATIONS` playouts within `DEFAULT_WORK`.
pub const DEFAULT_BUDGET: Budget = Budget {
    iterations: DEFAULT_ITERATIONS,
    seconds: None,
    work: Some(DEFAULT_WORK),
};

/// `ai:mcts:strong`: four times the default playouts and work.
pub const STRONG_BUDGET: Budget = Budget {
    iterations: 4 * DEFAULT_ITERATIONS,
    seconds: None,
    work: Some(4 * DEFAULT_WORK),
};

/// `ai:mcts:deep`: the budget that spends on the native engine about the CPU a
/// decision that the default spends on the Python engine (docs/ai.md measures it); still
/// bounded by work, so a function of the seed on both engines (slow on Python).
pub const DEEP_BUDGET: Budget = Budget {
    iterations: 64 * DEFAULT_ITERATIONS,
    seconds: None,
    work: Some(64 * DEFAULT_WORK),
};

/// `parse_budget`: `""` (the default), `strong`, `deep`, playouts (`2000`, at most
/// `MAX_PLAYOUTS`) or CPU seconds (`1.5s`, at most `MAX_SECONDS`).
pub fn parse_budget(text: &str) -> Result<Budget, String> {
    let text = text.trim().to_lowercase();
    match text.as_str() {
        "" => return Ok(DEFAULT_BUDGET),
        "strong" => return Ok(STRONG_BUDGET),
        "deep" => return Ok(DEEP_BUDGET),
        _ => {}
    }
    if !text.starts_with('0') && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<usize>() {
            Ok(n) if n <= MAX_PLAYOUTS => Ok(Budget {
                iterations: n,
                seconds: None,
                work: None,
            }),
            _ => Err(format!("budget {text:?}: at most {MAX_PLAYOUTS} playouts")),
        };
    }
    if let Some(number) = text.strip_suffix('s') {
        let digits = number.replace('.', "");
        let one_point = number.matches('.').count() <= 1;
        if one_point && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let seconds: f64 = number
                .parse()
                .map_err(|_| format!("budget {text:?} is not a number of seconds"))?;
            if seconds > 0.0 && seconds <= MAX_SECONDS {
                return Ok(Budget {
                    iterations: DEFAULT_ITERATIONS,
                    seconds: Some(seconds),
                    work: None,
                });
            }
            return Err(format!(
                "budget {text:?}: more than 0 and at most {MAX_SECONDS} CPU seconds"
            ));
        }
    }
    Err(format!(
        "budget {text:?} is neither playouts (mcts:2000), CPU seconds (mcts:1.5s), strong nor deep"
    ))
}

/// A key of the position as every seat sees it, built of numbers
/// (`rollout.public_key` when `full`, else `gain_key`): the policy remembers its
/// judgements by it.
fn key_of(state: &State, full: bool) -> Vec<i64> {
    let player = state.decision.player as usize;
    let p = &state.players[player];
    let mut key: Vec<i64> = Vec::with_capacity(256);
    if full {
        key.push(i64::from(state.decision.stage.0));
    }
    for tile in 0..state.layout.size() {
        key.extend(state.board.meeples(tile).iter().map(|&n| i64::from(n)));
        key.push(i64::from(state.board.owner(tile)));
        key.extend(state.board.tokens(tile).iter().map(|&n| i64::from(n)));
    }
    key.push(player as i64);
    key.extend(p.meeples.iter().map(|&n| i64::from(n)));
    key.push(i64::from(p.camels));
    let djinns = p.hands.hand(1);
    key.push(djinns.len() as i64);
    key.extend(djinns.iter().map(|&c| i64::from(c)));
    if full {
        key.push(i64::from(p.coins));
    }
    key.push(p.extras.len() as i64);
    for &(name, value) in p.extras.iter() {
        key.extend([i64::from(name.0), value]);
    }
    for deck in state.decks.iter() {
        key.push(deck.row().len() as i64);
        key.extend(deck.row().iter().map(|&c| i64::from(c)));
    }
    if full {
        for track in [&state.bid_track, &state.markers] {
            key.push(track.as_slice().len() as i64);
            key.extend(track.as_slice().iter().map(|&m| i64::from(m)));
        }
    }
    key
}

/// `rollout.Policy`: the light greedy player as a playout policy, remembering its
/// judgements for one decision's search.
pub(crate) struct Policy {
    settings: Settings,
    moves: HashMap<Vec<i64>, Plan>,
    gains: HashMap<Vec<i64>, i64>,
    choices: HashMap<Vec<i64>, Action>,
}

impl Policy {
    pub(crate) fn new() -> Policy {
        Policy::looking(LIGHT.played_out)
    }

    /// The policy whose moves settle `look` move ends at a pick (`new`: the light
    /// player's), searching `look` times further when no move end is found.
    pub(crate) fn looking(look: usize) -> Policy {
        let settings = if look <= LIGHT.played_out {
            LIGHT
        } else {
            Settings {
                played_out: look,
                search_limit: LIGHT.search_limit * look,
                ..LIGHT
            }
        };
        Policy {
            settings,
            moves: HashMap::new(),
            gains: HashMap::new(),
            choices: HashMap::new(),
        }
    }

    pub(crate) fn clear(&mut self) {
        self.moves.clear();
        self.gains.clear();
        self.choices.clear();
    }

    fn player(state: &State) -> usize {
        state.decision.player as usize
    }

    /// `Policy.move`: the whole meeple move from a pick (or the rest of one).
    fn movement(&mut self, meter: &Meter, state: &State) -> Result<Plan, Unported> {
        let key = key_of(state, true);
        if let Some(plan) = self.moves.get(&key) {
            if let Some(first) = plan.first() {
                if meter.legal(state)?.contains(first) {
                    return Ok(plan.clone());
                }
            }
        }
        let plan = self
            .settings
            .plan_move(meter, state, Self::player(state))?
            .1;
        self.moves.insert(key, plan.clone());
        Ok(plan)
    }

    /// `Policy.bid`: the greedy bid, its weighing of the board remembered.
    fn bid(&mut self, meter: &Meter, state: &State, options: &[Action]) -> Result<usize, Unported> {
        let key = key_of(state, false);
        let gain = match self.gains.get(&key) {
            Some(&gain) => gain,
            None => {
                let gain = self.settings.move_gain(meter, state, Self::player(state))?;
                self.gains.insert(key, gain);
                gain
            }
        };
        Ok(bid_for_gain(options, gain))
    }

    /// `Policy.other`: the option with the best immediate score.
    fn other(
        &mut self,
        meter: &Meter,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported> {
        let key = key_of(state, true);
        if let Some(choice) = self.choices.get(&key) {
            if let Some(i) = options.iter().position(|a| a == choice) {
                return Ok(i);
            }
        }
        let index = meter.best_option(state, options, Self::player(state))?.1;
        self.choices.insert(key, options[index]);
        Ok(index)
    }

    /// `Policy.step`: the state after the policy's next decision (a whole move at a pick).
    pub(crate) fn step(&mut self, meter: &Meter, state: State) -> Result<State, Unported> {
        let options = meter.legal(&state)?;
        if options.len() == 1 {
            return meter.apply(state, &options[0]);
        }
        let names = &meter.rules.content.names;
        if is_move_stage(meter.rules, &state) {
            let plan = self.movement(meter, &state)?;
            if !plan.is_empty() {
                if let Some(after) = meter.follow(&state, &plan)? {
                    return Ok(after);
                }
            }
            let i = self.other(meter, &state, &options)?;
            return meter.apply(state, &options[i]);
        }
        let i = if names.name(state.decision.stage) == "bid" {
            self.bid(meter, &state, &options)?
        } else {
            self.other(meter, &state, &options)?
        };
        meter.apply(state, &options[i])
    }

    /// `Policy.playout`: play on until every player has started one more meeple move (at
    /// most `MOVE_CAP_PER_PLAYER` a player in all) or the game ends.
    fn playout(&mut self, meter: &Meter, mut state: State) -> Result<State, Unported> {
        let players = state.players.len();
        let mut counts = vec![0usize; players];
        let cap = MOVE_CAP_PER_PLAYER * players;
        let pick = meter.rules.content.names.known("pick");
        while !meter.is_over(&state) {
            if state.decision.stage == pick {
                if counts.iter().min().copied().unwrap_or(0) >= 1
                    || counts.iter().sum::<usize>() >= cap
                {
                    break;
                }
                counts[Self::player(&state)] += 1;
            }
            state = self.step(meter, state)?;
        }
        Ok(state)
    }
}

/// `rollout.value_of`: the margin over the best other player, plus `MEAN_WEIGHT` times
/// the margin over the others' mean, plus `WIN_BONUS` for a won finished game (Python's
/// arithmetic, in its order).
pub fn value_of(scores: &[i64], me: usize, won: bool, lost: bool) -> f64 {
    let others: Vec<i64> = scores
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .map(|(_, &s)| s)
        .collect();
    let mine = scores[me];
    let Some(&best) = others.iter().max() else {
        return if lost { 0.0 } else { mine as f64 };
    };
    let mean = others.iter().sum::<i64>() as f64 / others.len() as f64;
    let value = (mine - best) as f64 + MEAN_WEIGHT * (mine as f64 - mean);
    value + if won { WIN_BONUS } else { 0.0 }
}

/// Sums over one candidate's playouts.
#[derive(Clone, Copy, Default)]
struct Stats {
    visits: u64,
    value: f64,
    gain: f64,
}

impl Stats {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            f64::NEG_INFINITY
        } else {
            self.value / self.visits as f64
        }
    }
}

/// What the last search cost (`mcts.Spent`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub work: u64,
    pub playouts: u64,
    pub dearest: u64,
}

/// `MctsAgent`: determinized Monte Carlo search over the greedy player's candidates.
pub struct MctsPlayer {
    seed: u64,
    budget: Budget,
    greedy: GreedyPlayer,
    policy: Policy,
    plan: Plan,
    pub spent: Spent,
}

impl MctsPlayer {
    pub fn new(seed: u64, budget: Budget) -> MctsPlayer {
        MctsPlayer {
            seed,
            budget,
            greedy: GreedyPlayer::new(seed, false),
            policy: Policy::new(),
            plan: Vec::new(),
            spent: Spent::default(),
        }
    }

    /// `analyse`: the candidates searched from `state` for its decider, the chosen first
    /// (only their moves: the callers here need no more).
    fn analyse(&mut self, rules: &Rules, state: &State) -> Result<Vec<Plan>, Unported> {
        let started = process_time();
        let meter = Meter::new(rules);
        let content = rules.content;
        let me = state.decision.player as usize;
        let mut rng = Rng::new(self.seed ^ view_digest(content, state, me));
        self.policy.clear();
        let mut deal = rng.next64();
        let first = determinize(content, state, me, deal);
        let candidates = self.candidates(&meter, &first)?;
        if candidates.is_empty() {
            self.spent = Spent {
                work: meter.work(),
                ..Spent::default()
            };
            return Ok(Vec::new());
        }
        let stage = content.names.name(state.decision.stage);
        let share = if stage == "pick" || stage == "bid" {
            1.0
        } else {
            OTHER_SHARE
        };
        let deadline = self.budget.seconds.map(|s| started + s * share);
        let limit = ((self.budget.iterations as f64 * share) as usize).max(1);
        let cap: Option<i64> = self.budget.work.map(|w| (w as f64 * share) as i64);
        let base = meter.own_score(state, me);
        let mut stats = vec![Stats::default(); candidates.len()];
        let score = |stats: &[Stats], i: usize| stats[i].mean() + if i == 0 { PRIOR } else { 0.0 };
        let by_score = |stats: &[Stats], live: &mut Vec<usize>| {
            live.sort_by(|&a, &b| {
                score(stats, b)
                    .partial_cmp(&score(stats, a))
                    .expect("no NaN")
            });
        };
        let mut live: Vec<usize> = (0..candidates.len()).collect();
        let (mut done, mut rounds, mut dearest) = (0usize, 0usize, 0i64);
        let work = |meter: &Meter| meter.work() as i64;
        while candidates.len() > 1 {
            if deadline.is_none() && rounds > 0 && done + live.len() > limit {
                break;
            }
            if let Some(cap) = cap {
                if rounds > 0 {
                    let fit = (cap - work(&meter)).div_euclid(dearest.max(1));
                    if fit < 2 {
                        break;
                    }
                    if (fit as usize) < live.len() {
                        by_score(&stats, &mut live);
                        live.truncate(fit as usize);
                    }
                }
            }
            let deal_state = if rounds == 0 {
                first.clone()
            } else {
                determinize(content, state, me, deal)
            };
            let mut results: Vec<(usize, Option<(f64, i64)>)> = Vec::with_capacity(live.len());
            for &move_index in &live {
                if let Some(deadline) = deadline {
                    if rounds > 0 && process_time() >= deadline {
                        break;
                    }
                }
                if let Some(cap) = cap {
                    if !results.is_empty() && work(&meter) + dearest > cap {
                        break;
                    }
                }
                let before = work(&meter);
                let result = self.playout(&meter, &deal_state, &candidates[move_index], me)?;
                results.push((move_index, result));
                dearest = dearest.max(work(&meter) - before);
            }
            if results.len() < live.len() {
                if rounds > 0 {
                    break;
                }
                live = results.iter().map(|&(i, _)| i).collect();
            }
            for &(i, result) in &results {
                if let Some((value, mine)) = result {
                    let entry = &mut stats[i];
                    entry.visits += 1;
                    entry.value += value;
                    entry.gain += (mine - base) as f64;
                }
            }
            done += results.len();
            rounds += 1;
            if deadline.is_some_and(|d| process_time() >= d) {
                break;
            }
            if rounds >= 2 && live.len() > 2 {
                by_score(&stats, &mut live);
                live.truncate(2.max(live.len().div_ceil(2)));
            }
            deal = rng.next64();
        }
        self.spent = Spent {
            work: meter.work(),
            playouts: done as u64,
            dearest: dearest as u64,
        };
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| {
            let dead = |i: usize| !live.contains(&i);
            dead(a).cmp(&dead(b)).then(
                score(&stats, b)
                    .partial_cmp(&score(&stats, a))
                    .expect("no NaN"),
            )
        });
        Ok(order
            .into_iter()
            .filter(|&i| stats[i].visits > 0 || i == 0)
            .map(|i| candidates[i].clone())
            .collect())
    }

    /// `_playout`: `plan` played on one deal, then the policy to the horizon: the
    /// decider's value and score there (None if the rules refuse the move in this deal).
    fn playout(
        &mut self,
        meter: &Meter,
        state: &State,
        plan: &[Action],
        me: usize,
    ) -> Result<Option<(f64, i64)>, Unported> {
        let Some(after) = meter.follow(state, plan)? else {
            return Ok(None);
        };
        let last = self.policy.playout(meter, after)?;
        let scores = meter.scores(&last);
        let over = meter.is_over(&last);
        // `rules.winners`: a called-back verdict's winners, solo mode's verdict, else the
        // highest score wins, a tie shared or broken as `verdict.tie_break` says (read
        // through the rules themselves in Python, so it costs no counted work)
        let won = over && meter.rules.winners(&last, &scores).contains(&me);
        Ok(Some((value_of(&scores, me, won, over && !won), scores[me])))
    }

    /// `candidates`: the options worth searching at `state` (a determinization), the
    /// greedy player's choice first.
    fn candidates(&mut self, meter: &Meter, state: &State) -> Result<Vec<Plan>, Unported> {
        let options = meter.legal(state)?;
        if options.len() <= 1 {
            return Ok(options.iter().map(|&a| vec![a]).collect());
        }
        let stage = meter.rules.content.names.name(state.decision.stage);
        let player = state.decision.player as usize;
        let greedy = Settings::default();
        if stage == "pick" {
            let ranked = greedy.ranked_moves(meter, state, player)?;
            if !ranked.is_empty() {
                return Ok(ranked
                    .into_iter()
                    .take(MOVE_WIDTH)
                    .map(|(_, plan)| plan)
                    .collect());
            }
        }
        if stage == "pick" || stage == "drop" {
            let plan = greedy.plan_move(meter, state, player)?.1;
            return Ok(vec![if plan.is_empty() {
                vec![options[0]]
            } else {
                plan
            }]);
        }
        if stage == "bid" {
            let chosen = options[self.greedy.choose_metered(meter, state, &options)?];
            let mut out = vec![vec![chosen]];
            out.extend(options.iter().filter(|&&a| a != chosen).map(|&a| vec![a]));
            return Ok(out);
        }
        let mut scored: Vec<(i64, usize)> = Vec::with_capacity(options.len());
        for (i, option) in options.iter().enumerate() {
            let after = meter.apply(state.clone(), option)?;
            scored.push((meter.own_score(&after, player), i));
        }
        scored.sort_by_key(|&(value, i)| (std::cmp::Reverse(value), i));
        Ok(scored
            .into_iter()
            .take(WIDTH)
            .map(|(_, i)| vec![options[i]])
            .collect())
    }
}

impl Player for MctsPlayer {
    fn choose(
        &mut self,
        rules: &Rules,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported> {
        if let Some(i) = planned(&mut self.plan, options) {
            return Ok(i);
        }
        if options.len() == 1 {
            return Ok(0);
        }
        if rules.content.names.name(state.decision.stage) == "drop" {
            return self.greedy.choose(rules, state, options);
        }
        let found = self.analyse(rules, state)?;
        match adopt(&mut self.plan, options, found.first()) {
            Some(index) => Ok(index),
            None => self.greedy.choose(rules, state, options),
        }
    }
}

/// The next step of the move a search planned, if `options` still hold it (it is taken
/// off the plan); else None, and the plan is dropped.
pub(crate) fn planned(plan: &mut Plan, options: &[Action]) -> Option<usize> {
    if let Some(i) = plan
        .first()
        .and_then(|first| options.iter().position(|a| a == first))
    {
        plan.remove(0);
        return Some(i);
    }
    plan.clear();
    None
}

/// The option that begins the search's `best` move, the rest of the move kept as the
/// plan; None when there is no best move or `options` lack its first step.
pub(crate) fn adopt(plan: &mut Plan, options: &[Action], best: Option<&Plan>) -> Option<usize> {
    let best = best?;
    let index = options.iter().position(|a| Some(a) == best.first())?;
    *plan = best[1..].to_vec();
    Some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_read_as_python_reads_them() {
        assert_eq!(parse_budget(""), Ok(DEFAULT_BUDGET));
        assert_eq!(parse_budget(" Strong "), Ok(STRONG_BUDGET));
        assert_eq!(parse_budget("200").map(|b| b.iterations), Ok(200));
        assert_eq!(parse_budget("200").map(|b| b.work), Ok(None));
        assert_eq!(parse_budget("1.5s").map(|b| b.seconds), Ok(Some(1.5)));
        assert!(parse_budget("5001").is_err());
        assert!(parse_budget("61s").is_err());
        assert!(parse_budget("0s").is_err());
        assert!(parse_budget("fast").is_err());
    }

    #[test]
    fn values_are_margins_over_the_best_and_the_mean() {
        // 30 - 25 + 0.5 * (30 - 20) = 10
        assert_eq!(value_of(&[30, 25, 15], 0, false, false), 10.0);
        assert_eq!(value_of(&[30, 25, 15], 0, true, false), 25.0);
        // a lone player is worth its score, nothing once lost
        assert_eq!(value_of(&[12], 0, false, false), 12.0);
        assert_eq!(value_of(&[12], 0, false, true), 0.0);
    }
}
