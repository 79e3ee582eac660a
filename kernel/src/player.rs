//! What a seat is to the kernel: a `Player` picks one of the legal options. The search
//! players (`greedy`, `mcts`, `search`) and the game loop (`seats`) all read this
//! module, and it reads none of them.

use crate::actions::Action;
use crate::rng::Rng;
use crate::rules::{Rules, Unported};
use crate::state::State;

/// A seated player: which of the legal `options` (in the canonical order) it takes.
pub trait Player {
    fn choose(
        &mut self,
        rules: &Rules,
        state: &State,
        options: &[Action],
    ) -> Result<usize, Unported>;

    /// Whether the game loop times this player's decisions (the lab's AI time per
    /// decision). A random draw is not worth the two clock reads, which cost about 7%
    /// of a random game: its time is recorded as 0.
    fn timed(&self) -> bool {
        true
    }
}

/// `core/agents.py`'s `RandomAgent`: `below(number of options)` from its own generator.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, _: &Rules, _: &State, options: &[Action]) -> Result<usize, Unported> {
        Ok(self.rng.below(options.len() as u64) as usize)
    }

    fn timed(&self) -> bool {
        false
    }
}
