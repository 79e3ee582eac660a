//! The native search player `ismcts` (kernel only): information-set Monte Carlo tree
//! search over the seat's own decisions.
//!
//! `mcts` (mcts.rs) searches at the root only, over the greedy player's best few moves,
//! with playouts stopped after one move a player: more budget buys it nothing. Here each
//! iteration deals the hidden cards again from what the seat has seen (`determinize`),
//! walks a tree whose nodes are the seat's own later decisions (the other seats played
//! by the light greedy policy), widens each node's list of moves as its visits grow, and
//! plays out to the end of the round with the same policy, judged by the score sheet.
//!
//! Its choice is a function of the seed, the seat's view and the budget of iterations
//! (a budget of CPU seconds cannot be). It exists on the native engine only: on the
//! Python engine the seat is played by today's `mcts` (`agents/__init__.py`).

use crate::actions::Action;
use crate::greedy::{Meter, Plan, Settings};
use crate::greedy_player::GreedyPlayer;
use crate::mcts::{adopt, planned, value_of, Policy};
use crate::perft::process_time;
use crate::player::Player;
use crate::rng::Rng;
use crate::rules::{Rules, Unported};
use crate::state::State;
use crate::views::{determinize, view_digest};

/// iterations a decision of the default budget (`ismcts`)
pub const DEFAULT_ITERATIONS: usize = 48;
/// `ismcts:strong` and `ismcts:deep` multiply the default by these
pub const STRONG_FACTOR: usize = 4;
pub const DEEP_FACTOR: usize = 16;
/// move ends the playout policy settles at a pick: the default's (and `ismcts:N`'s and
/// `ismcts:Xs`'s) light policy, `mcts`'s own, and the higher levels' closer looks
pub const LIGHT_LOOK: usize = 3;
pub const STRONG_LOOK: usize = 8;
pub const DEEP_LOOK: usize = 8;
/// the most iterations and CPU seconds a seat may ask for a decision
pub const MAX_ITERATIONS: usize = 100_000;
pub const MAX_SECONDS: f64 = 60.0;
/// the share of the budget spent on a decision other than a pick or a bid
const OTHER_SHARE: f64 = 0.25;
/// move ends ranked by the greedy judgement at a pick: the widest a node grows
const MOVE_ENDS: usize = 24;
/// progressive widening: a node with n visits offers its best WIDEN_BASE + sqrt(n) moves
const WIDEN_BASE: f64 = 2.0;
/// how many points of playout value a point of the greedy judgement is worth at one
/// visit (progressive bias: the judgement's weight falls as the visits grow)
const PRIOR_WEIGHT: f64 = 4.0;
/// the greedy judgement of a bid other than the greedy player's own, in points
const BID_PRIOR: i64 = 2;
/// the exploration constant of UCB1, in points of value
const EXPLORATION: f64 = 6.0;

/// Iterations per decision, or CPU seconds per decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub iterations: usize,
    pub seconds: Option<f64>,
    /// move ends the playout policy settles at a pick: the higher levels think more
    /// in each playout as well as in more of them
    pub look: usize,
}

/// What each budget name means, one line each (for `naqala play` and the lobby).
pub const LEVELS: &[(&str, &str)] = &[
    (
        "ismcts",
        "tree search over your own later moves, the table's quick level",
    ),
    (
        "ismcts:strong",
        "four times the default's iterations, each played out with a closer look",
    ),
    (
        "ismcts:deep",
        "sixteen times the default's iterations with strong's closer look, slow",
    ),
    (
        "ismcts:2s",
        "as many iterations as the CPU seconds allow (not reproducible)",
    ),
];

/// `parse_budget`: `""` (the default), `strong`, `deep`, iterations (`300`, from 1 to
/// `MAX_ITERATIONS`) or CPU seconds (`1.5s`, more than 0 and at most `MAX_SECONDS`).
pub fn parse_budget(text: &str) -> Result<Budget, String> {
    let text = text.trim().to_lowercase();
    let iterations = |n: usize, look: usize| Budget {
        iterations: n,
        seconds: None,
        look,
    };
    match text.as_str() {
        "" => return Ok(iterations(DEFAULT_ITERATIONS, LIGHT_LOOK)),
        "strong" => return Ok(iterations(STRONG_FACTOR * DEFAULT_ITERATIONS, STRONG_LOOK)),
        "deep" => return Ok(iterations(DEEP_FACTOR * DEFAULT_ITERATIONS, DEEP_LOOK)),
        _ => {}
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<usize>() {
            Ok(n) if (1..=MAX_ITERATIONS).contains(&n) => Ok(iterations(n, LIGHT_LOOK)),
            _ => Err(format!(
                "budget {text:?}: from 1 to {MAX_ITERATIONS} iterations"
            )),
        };
    }
    if let Some(number) = text.strip_suffix('s') {
        let plain = number.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if plain && !number.is_empty() {
            let seconds: f64 = number
                .parse()
                .map_err(|_| format!("budget {text:?} is not a number of seconds"))?;
            if seconds > 0.0 && seconds <= MAX_SECONDS {
                return Ok(Budget {
                    iterations: MAX_ITERATIONS,
                    seconds: Some(seconds),
                    look: LIGHT_LOOK,
                });
            }
            return Err(format!(
                "budget {text:?}: more than 0 and at most {MAX_SECONDS} CPU seconds"
            ));
        }
    }
    Err(format!(
        "budget {text:?} is neither iterations (ismcts:300), CPU seconds (ismcts:1.5s), strong nor deep"
    ))
}

/// One of a node's moves: a whole meeple move at a pick, one option elsewhere.
struct Edge {
    plan: Plan,
    /// the greedy judgement of the move (its settled score), a bias that fades with visits
    prior: f64,
    visits: u64,
    /// iterations in which the move was legal (information-set UCB counts these)
    available: u64,
    value: f64,
    child: Option<usize>,
}

/// A decision of the searching seat, its moves best first by the greedy judgement.
struct Node {
    edges: Vec<Edge>,
    visits: u64,
}

/// The stage of `state`'s decision, by name.
fn stage<'a>(meter: &'a Meter, state: &State) -> &'a str {
    meter.rules.content.names.name(state.decision.stage)
}

/// The moves worth searching at `state` for its decider, best first: the greedy
/// player's ranked move ends at a pick, every option elsewhere by the score right after.
fn moves_of(meter: &Meter, state: &State) -> Result<Vec<(i64, Plan)>, Unported> {
    let options = meter.legal(state)?;
    if options.len() <= 1 {
        return Ok(options.iter().map(|&a| (0, vec![a])).collect());
    }
    let player = state.decision.player as usize;
    let wide = Settings {
        played_out: MOVE_ENDS,
        ..Settings::default()
    };
    match stage(meter, state) {
        "pick" | "drop" => {
            let ranked = wide.ranked_moves(meter, state, player)?;
            if !ranked.is_empty() {
                return Ok(ranked.into_iter().take(MOVE_ENDS).collect());
            }
            let plan = wide.search(meter, state, player)?.1;
            Ok(vec![(
                0,
                if plan.is_empty() {
                    vec![options[0]]
                } else {
                    plan
                },
            )])
        }
        "bid" => {
            let chosen =
                options[GreedyPlayer::new(0, false).choose_metered(meter, state, &options)?];
            let mut out = vec![(0, vec![chosen])];
            out.extend(
                options
                    .iter()
                    .filter(|&&a| a != chosen)
                    .map(|&a| (-BID_PRIOR, vec![a])),
            );
            Ok(out)
        }
        _ => {
            let mut scored: Vec<(i64, usize)> = Vec::with_capacity(options.len());
            for (i, option) in options.iter().enumerate() {
                let after = meter.apply(state.clone(), option)?;
                scored.push((meter.own_score(&after, player), i));
            }
            scored.sort_by_key(|&(value, i)| (std::cmp::Reverse(value), i));
            Ok(scored
                .into_iter()
                .map(|(value, i)| (value, vec![options[i]]))
                .collect())
        }
    }
}

/// The searching seat's value of a playout's last state (`value_of`, as `mcts` judges:
/// margins over the others, a bonus for a won game).
fn judge(meter: &Meter, state: &State, me: usize) -> f64 {
    let scores = meter.scores(state);
    let over = meter.is_over(state);
    let won = over && crate::variants::winners(meter.rules.content, state, &scores).contains(&me);
    value_of(&scores, me, won, over && !won)
}

/// The rounds a playout spans, the root's included: as many as hold two turns of the
/// seat, so that the others answer its move (two turn markers a seat at 2 players: the
/// root's round; one at 3 to 5: to the end of the next). Measured both ways at 2, 3
/// and 4 players (docs/ai.md).
fn horizon_rounds(markers: &[i8], me: usize) -> u16 {
    let mine = markers
        .iter()
        .filter(|&&owner| usize::try_from(owner).is_ok_and(|o| o == me))
        .count();
    match mine {
        0 | 1 => 2,
        _ => 1,
    }
}

/// One decision's search tree and the playout policy it shares.
struct Tree<'m, 'r, 'c> {
    meter: &'m Meter<'r, 'c>,
    me: usize,
    nodes: Vec<Node>,
    policy: Policy,
    /// the last round of the horizon: playouts stop at its end and the tree grows no
    /// further (`horizon_rounds`)
    last_round: u16,
}

impl Tree<'_, '_, '_> {
    fn node(&mut self, state: &State) -> Result<usize, Unported> {
        let edges = moves_of(self.meter, state)?
            .into_iter()
            .map(|(prior, plan)| Edge {
                plan,
                prior: prior as f64,
                visits: 0,
                available: 0,
                value: 0.0,
                child: None,
            })
            .collect();
        let mut node = Node { edges, visits: 0 };
        let top = node.edges.iter().map(|e| e.prior).fold(f64::MIN, f64::max);
        for edge in &mut node.edges {
            edge.prior -= top;
        }
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    /// Whether `state` is a decision the tree makes (the seat's own, with a choice).
    fn is_mine(&self, state: &State) -> Result<bool, Unported> {
        Ok(!self.meter.is_over(state)
            && state.decision.player as usize == self.me
            && self.meter.legal(state)?.len() > 1)
    }

    /// Plays the other seats (and the seat's forced decisions) with the policy until
    /// the seat's next decision, the end of the horizon, or the game's end.
    fn advance(&mut self, mut state: State) -> Result<State, Unported> {
        while !self.meter.is_over(&state)
            && state.round <= self.last_round
            && !self.is_mine(&state)?
        {
            state = self.policy.step(self.meter, state)?;
        }
        Ok(state)
    }

    /// The playout from a leaf: the policy to the end of the horizon or of the game.
    /// Every iteration is judged at that one horizon (the search used to play on through
    /// the next round whenever the seat's last move of the round was made: docs/ai.md).
    fn playout(&mut self, mut state: State) -> Result<f64, Unported> {
        while !self.meter.is_over(&state) && state.round <= self.last_round {
            state = self.policy.step(self.meter, state)?;
        }
        Ok(judge(self.meter, &state, self.me))
    }

    /// The edge of `node` to follow in `state`: an unvisited move within the widening
    /// limit first (best judged first), else the best by UCB1 over the moves legal here.
    /// The edge's index and the state after its move; None if no move is legal here.
    fn select(&mut self, node: usize, state: &State) -> Result<Option<(usize, State)>, Unported> {
        let legal = self.meter.legal(state)?;
        let visits = self.nodes[node].visits;
        let width = (WIDEN_BASE + (visits as f64).sqrt()).floor() as usize;
        let mut tried: Vec<usize> = Vec::new();
        loop {
            let edges = &self.nodes[node].edges;
            let open = |i: usize| !tried.contains(&i) && legal.contains(&edges[i].plan[0]);
            let mut best: Option<(f64, usize)> = None;
            let mut seen = 0usize;
            for (i, edge) in edges.iter().enumerate() {
                if seen >= width {
                    break;
                }
                if !open(i) {
                    continue;
                }
                seen += 1;
                let score = if edge.visits == 0 {
                    f64::INFINITY
                } else {
                    let mean = edge.value / edge.visits as f64;
                    let log = ((edge.available.max(1)) as f64).ln();
                    mean + EXPLORATION * (log / edge.visits as f64).sqrt()
                        + PRIOR_WEIGHT * edge.prior / edge.visits as f64
                };
                if best.is_none_or(|(top, _)| score > top) {
                    best = Some((score, i));
                }
            }
            let Some((_, chosen)) = best else {
                return Ok(None);
            };
            let plan = self.nodes[node].edges[chosen].plan.clone();
            match self.meter.follow(state, &plan)? {
                Some(after) => {
                    for i in 0..self.nodes[node].edges.len().min(width) {
                        if legal.contains(&self.nodes[node].edges[i].plan[0]) {
                            self.nodes[node].edges[i].available += 1;
                        }
                    }
                    return Ok(Some((chosen, after)));
                }
                None => tried.push(chosen),
            }
        }
    }

    /// One iteration from the root on one deal: down the tree to a new node, a
    /// playout, its value added back along the path.
    fn iterate(&mut self, root_state: State) -> Result<(), Unported> {
        let mut state = root_state;
        let mut node = 0usize;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let value = loop {
            let Some((edge, after)) = self.select(node, &state)? else {
                break self.playout(state)?;
            };
            path.push((node, edge));
            let next = self.advance(after)?;
            let leaf = self.nodes[node].edges[edge].visits == 0;
            if leaf || next.round > self.last_round || !self.is_mine(&next)? {
                break self.playout(next)?;
            }
            node = match self.nodes[node].edges[edge].child {
                Some(child) => child,
                None => {
                    let child = self.node(&next)?;
                    self.nodes[node].edges[edge].child = Some(child);
                    child
                }
            };
            state = next;
        };
        for (node, edge) in path {
            self.nodes[node].visits += 1;
            let entry = &mut self.nodes[node].edges[edge];
            entry.visits += 1;
            entry.value += value;
        }
        Ok(())
    }
}

/// `ismcts`: information-set MCTS over the seat's own decisions.
pub struct SearchPlayer {
    seed: u64,
    budget: Budget,
    greedy: GreedyPlayer,
    plan: Plan,
    /// iterations the last decision ran
    pub iterations: u64,
}

impl SearchPlayer {
    pub fn new(seed: u64, budget: Budget) -> SearchPlayer {
        SearchPlayer {
            seed,
            budget,
            greedy: GreedyPlayer::new(seed, false),
            plan: Vec::new(),
            iterations: 0,
        }
    }

    /// The move searched best from `state` for its decider (the most visited root move,
    /// ties to the better judged), or None when the search has no move.
    fn search(&mut self, rules: &Rules, state: &State) -> Result<Option<Plan>, Unported> {
        let started = process_time();
        let meter = Meter::new(rules);
        let content = rules.content;
        let me = state.decision.player as usize;
        let mut rng = Rng::new(self.seed ^ view_digest(content, state, me));
        let mut tree = Tree {
            meter: &meter,
            me,
            nodes: Vec::new(),
            policy: Policy::looking(self.budget.look),
            last_round: state.round + horizon_rounds(state.markers.as_slice(), me) - 1,
        };
        let first = determinize(content, state, me, rng.next64());
        tree.node(&first)?;
        if tree.nodes[0].edges.len() <= 1 {
            self.iterations = 0;
            return Ok(tree.nodes[0].edges.first().map(|e| e.plan.clone()));
        }
        let share = match stage(&meter, state) {
            "pick" | "bid" => 1.0,
            _ => OTHER_SHARE,
        };
        let limit = ((self.budget.iterations as f64 * share) as usize).max(1);
        let deadline = self.budget.seconds.map(|s| started + s * share);
        let mut done = 0usize;
        let mut deal = first;
        while done < limit {
            tree.iterate(deal)?;
            done += 1;
            if deadline.is_some_and(|d| process_time() >= d) {
                break;
            }
            deal = determinize(content, state, me, rng.next64());
        }
        self.iterations = done as u64;
        let edges = &tree.nodes[0].edges;
        let best = (0..edges.len()).max_by(|&a, &b| {
            edges[a]
                .visits
                .cmp(&edges[b].visits)
                .then(edges[a].prior.total_cmp(&edges[b].prior))
                .then(b.cmp(&a))
        });
        Ok(best.map(|i| edges[i].plan.clone()))
    }
}

impl Player for SearchPlayer {
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
        let best = self.search(rules, state)?;
        match adopt(&mut self.plan, options, best.as_ref()) {
            Some(index) => Ok(index),
            None => self.greedy.choose(rules, state, options),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_horizon_holds_two_turns_of_the_seat() {
        // two markers a seat at 2 players: the root's round
        assert_eq!(horizon_rounds(&[0, 1, 0, 1], 0), 1);
        assert_eq!(horizon_rounds(&[1, 1, 0, 0], 1), 1);
        // one marker a seat at 3 to 5 players: to the end of the next round
        assert_eq!(horizon_rounds(&[2, 0, 1], 0), 2);
        assert_eq!(horizon_rounds(&[0, 1, 2, 3, 4], 4), 2);
        assert_eq!(horizon_rounds(&[], 0), 2);
    }

    #[test]
    fn budgets_name_a_ladder_and_refuse_the_rest() {
        assert_eq!(
            parse_budget("").map(|b| b.iterations),
            Ok(DEFAULT_ITERATIONS)
        );
        assert_eq!(
            parse_budget(" Strong ").map(|b| b.iterations),
            Ok(STRONG_FACTOR * DEFAULT_ITERATIONS)
        );
        assert_eq!(
            parse_budget("deep").map(|b| b.iterations),
            Ok(DEEP_FACTOR * DEFAULT_ITERATIONS)
        );
        assert_eq!(parse_budget("").map(|b| b.look), Ok(LIGHT_LOOK));
        assert_eq!(parse_budget("strong").map(|b| b.look), Ok(STRONG_LOOK));
        assert_eq!(parse_budget("deep").map(|b| b.look), Ok(DEEP_LOOK));
        const { assert!(STRONG_LOOK > LIGHT_LOOK) };
        assert_eq!(parse_budget("300").map(|b| b.iterations), Ok(300));
        assert_eq!(parse_budget("300").map(|b| b.look), Ok(LIGHT_LOOK));
        assert_eq!(parse_budget("1.5s").map(|b| b.seconds), Ok(Some(1.5)));
        for bad in [
            "0", "100001", "0s", "61s", "1.2.3s", "fast", "-5", "s", "nans",
        ] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
    }
}
