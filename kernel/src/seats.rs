//! Whole games played natively, seat by seat: the one loop every native study, playout
//! and search runs.
//!
//! A `Player` is the kernel's form of a Python AI player of the same name (the hook
//! `naqala_agents`): from the same seed and the same options it picks the same one, so a
//! game played here ends in the state the Python game loop (`core/simulate.py`
//! `play_game`) reaches. `player` makes one by its seat name; a name the kernel has no
//! player for is `None`, and the game then stays in Python.

use std::time::{Duration, Instant};

use crate::rules::{Rules, Unported};
use crate::state::State;
use crate::stats::Decision;

pub use crate::player::{Player, RandomPlayer};

/// The seat names the kernel has players for (a seat's name before any `:setting`).
pub const PLAYERS: &[&str] = &[
    "random",
    "greedy",
    "greedy-full",
    "greedy-nobid",
    "mcts",
    "ismcts",
];

/// The player a seat named `name` (as `--seats` writes it, e.g. `random`) gets from
/// `seed`, or `None` when the kernel has no such player.
pub fn player(name: &str, seed: u64) -> Option<Box<dyn Player + Send>> {
    if let Some(setting) = name
        .strip_prefix("mcts")
        .filter(|s| s.is_empty() || s.starts_with(':'))
    {
        let budget = crate::mcts::parse_budget(setting.trim_start_matches(':')).ok()?;
        return Some(Box::new(crate::mcts::MctsPlayer::new(seed, budget)));
    }
    if let Some(setting) = name
        .strip_prefix("ismcts")
        .filter(|s| s.is_empty() || s.starts_with(':'))
    {
        let budget = crate::search::parse_budget(setting.trim_start_matches(':')).ok()?;
        return Some(Box::new(crate::search::SearchPlayer::new(seed, budget)));
    }
    if let Some(json) = name.strip_prefix(crate::profile::SEAT_PREFIX) {
        let profile = crate::profile::Profile::parse(json).ok()?;
        return Some(Box::new(crate::greedy_player::GreedyPlayer::with_profile(
            seed, profile,
        )));
    }
    match name {
        "random" => Some(Box::new(RandomPlayer::new(seed))),
        "greedy" => Some(Box::new(crate::greedy_player::GreedyPlayer::new(
            seed, false,
        ))),
        "greedy-full" => Some(Box::new(crate::greedy_player::FullGreedyPlayer::new())),
        "greedy-nobid" => Some(Box::new(crate::greedy_player::GreedyPlayer::new(
            seed, true,
        ))),
        _ => None,
    }
}

/// A game played to its end: the final state, the number of actions, and every
/// player's score at the end of each finished round (as the lab records them), and
/// every decision taken (`crate::stats`).
pub struct Played {
    pub state: State,
    pub actions: u64,
    pub rounds: Vec<Vec<i64>>,
    pub decisions: Vec<Decision>,
}

/// The game played from `state` to its end, `players[seat]` choosing at each of that
/// seat's decisions. The scores at the end of round k are read at the first decision of
/// round k + 1, as `lab/study.py`'s `play_task` reads them.
pub fn play(
    rules: &Rules,
    state: &State,
    players: &mut [Box<dyn Player + Send>],
) -> Result<Played, Unported> {
    let mut state = state.clone();
    let mut actions = 0u64;
    let mut rounds: Vec<Vec<i64>> = Vec::new();
    let mut decisions = Vec::new();
    let mut options = Vec::new(); // one list, refilled at each decision
    loop {
        rules.legal_actions_into(&state, &mut options)?;
        if options.is_empty() {
            return Ok(Played {
                state,
                actions,
                rounds,
                decisions,
            });
        }
        if usize::from(state.round) > rounds.len() + 1 {
            rounds.push(rules.scores(&state));
        }
        let seat = state.decision.player as usize;
        let player = players
            .get_mut(seat)
            .ok_or_else(|| Unported(format!("a player for seat {seat}")))?;
        let started = player.timed().then(Instant::now);
        let choice = player.choose(rules, &state, &options)?;
        let time = started.map_or(Duration::ZERO, |at| at.elapsed());
        let action = options
            .get(choice)
            .ok_or_else(|| Unported(format!("option {choice} of {}", options.len())))?;
        let mut decision = Decision::of(rules, &state, options.len(), time);
        state = rules.apply(state, action)?;
        decision.settle(&state);
        decisions.push(decision);
        actions += 1;
    }
}
