//! Whole loops that stay native: random playouts.
//!
//! A random player is `core/agents.py`'s `RandomAgent`: its own generator, seeded per
//! seat (`core/simulate.py`'s `agent_seed`), drawing `below(number of options)` at each
//! of its decisions. Because the legal actions come in the Python order, a native
//! playout chooses exactly what the Python players choose, and ends in the same state.

use crate::rng::Rng;
use crate::rules::{Rules, Unported};
use crate::state::State;

/// The game played to its end from `state` by random players, one generator per seat;
/// the final state and the number of actions taken.
pub fn random_playout(
    rules: &Rules,
    state: &State,
    agent_seeds: &[u64],
) -> Result<(State, u64), Unported> {
    let mut agents: Vec<Rng> = agent_seeds.iter().map(|&seed| Rng::new(seed)).collect();
    let mut state = state.clone();
    let mut count = 0u64;
    let mut options = Vec::new(); // one list, refilled at each decision
    loop {
        rules.legal_actions_into(&state, &mut options)?;
        if options.is_empty() {
            return Ok((state, count));
        }
        let seat = state.decision.player as usize;
        let agent = agents
            .get_mut(seat)
            .ok_or_else(|| Unported(format!("a player for seat {seat}")))?;
        let choice = agent.below(options.len() as u64) as usize;
        state = rules.apply(state, &options[choice])?;
        count += 1;
    }
}
