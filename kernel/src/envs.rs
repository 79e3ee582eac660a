//! Games stepped by codec index for the AI-research environments (`naqala.envs`): one
//! game a learner or an OpenSpiel state steps (`Game`), and a batch of games stepped in
//! one call (`Batch`), each keeping its legal actions and their indices between steps so
//! that reading the mask and checking an action cost nothing more.
//!
//! The rules are those of the kernel (`rules.rs`), the observation and the indices those
//! of `observe.rs`; a random opponent is `core/agents.py`'s `RandomAgent` seeded as
//! `core/simulate.py`'s `agent_seed`, so a batch against random players plays the very
//! games the Python engine plays with the same seeds.

use std::sync::Arc;

use rayon::prelude::*;
use rayon::ThreadPool;
use self_cell::self_cell;

use crate::actions::Action;
use crate::content::Content;
use crate::observe::{ActionTable, Observer};
use crate::rng::Rng;
use crate::rules::{Rules, Unported};
use crate::setup::new_game;
use crate::state::State;

self_cell!(
    /// The rules over content they share with every game of the engine.
    struct RulesCell {
        owner: Arc<Content>,
        #[covariant]
        dependent: Rules,
    }
);

/// What every game of one ruleset shares: the content, its rules (built once: building
/// them reads every name), the observer and the action table.
pub struct Engine {
    cell: RulesCell,
    pub observer: Observer,
    pub table: ActionTable,
}

impl Engine {
    pub fn new(content: Arc<Content>, observer: Observer, table: ActionTable) -> Engine {
        Engine {
            cell: RulesCell::new(content, |content| Rules::new(content)),
            observer,
            table,
        }
    }

    /// The players who won `state` (`Rules.winners`): solo mode's verdict, else the
    /// highest scores (a tie shared or broken as `verdict.tie_break` says).
    pub fn winners(&self, state: &State, scores: &[i64]) -> Vec<usize> {
        self.rules().winners(state, scores)
    }

    /// Each seat's reward for `state` (`final_rewards`); an error for a margin without
    /// an opponent to measure it against (one seat), as the Python refuses it.
    pub fn rewards(&self, state: &State, kind: Reward) -> Result<Vec<f32>, EnvError> {
        let scores = self.rules().scores(state);
        match kind {
            Reward::Win => {
                let winners = self.winners(state, &scores);
                let share = 1.0 / winners.len().max(1) as f32;
                Ok((0..scores.len())
                    .map(|p| if winners.contains(&p) { share } else { 0.0 })
                    .collect())
            }
            Reward::Margin if scores.len() < 2 => Err(EnvError::Reward(MARGIN_ALONE.to_owned())),
            Reward::Margin => Ok(kind.of(&scores)),
        }
    }

    pub fn rules(&self) -> &Rules<'_> {
        self.cell.borrow_dependent()
    }

    pub fn content(&self) -> &Content {
        self.cell.borrow_owner()
    }
}

/// Why a margin has no meaning in a one-seat game (`envs/common.py` says the same).
pub const MARGIN_ALONE: &str =
    "the margin reward needs an opponent's score: a solo game's reward is 'win'";

/// Why a step was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvError {
    /// a decision or stage the kernel has not ported
    Unported(String),
    /// a legal action outside the codec (its notation)
    NotInCodec(String),
    /// an index that is not among the legal actions
    Illegal(u32),
    /// a reward these rules cannot give (a margin without an opponent)
    Reward(String),
}

impl From<Unported> for EnvError {
    fn from(error: Unported) -> Self {
        EnvError::Unported(error.0)
    }
}

/// The reward kinds of `envs/common.py`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// the winners (highest score) share 1
    Win,
    /// own score minus the best other score
    Margin,
}

impl Reward {
    pub fn parse(kind: &str) -> Option<Reward> {
        match kind {
            "win" => Some(Reward::Win),
            "margin" => Some(Reward::Margin),
            _ => None,
        }
    }

    /// Each seat's reward for `scores` (`final_rewards` with the default verdict: the
    /// kernel plays no rules with a verdict of their own).
    pub fn of(self, scores: &[i64]) -> Vec<f32> {
        let best = scores.iter().copied().max().unwrap_or(0);
        match self {
            Reward::Win => {
                let winners = scores.iter().filter(|&&s| s == best).count() as f32;
                scores
                    .iter()
                    .map(|&s| if s == best { 1.0 / winners } else { 0.0 })
                    .collect()
            }
            Reward::Margin => (0..scores.len())
                .map(|p| {
                    let other = (0..scores.len())
                        .filter(|&q| q != p)
                        .map(|q| scores[q])
                        .max()
                        .unwrap_or(0);
                    (scores[p] - other) as f32
                })
                .collect(),
        }
    }
}

/// `agent_seed(game_seed, seat)`: a seat's agent seed, independent of the game's draws.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    Rng::new(game_seed ^ 0x5EED_A6E7).below(1 << 62) + seat as u64
}

/// One game and its pending decision's options.
#[derive(Clone, Debug)]
pub struct Game {
    pub state: State,
    /// the legal actions, in the rules' order
    legal: Vec<Action>,
    /// each legal action's codec index, in the same order
    indices: Vec<u32>,
}

impl Game {
    /// `state` with its options read.
    pub fn new(engine: &Engine, state: State) -> Result<Game, EnvError> {
        let mut game = Game {
            state,
            legal: Vec::new(),
            indices: Vec::new(),
        };
        game.read_options(engine)?;
        Ok(game)
    }

    /// A new game of `players` players from `seed`, set up as `rules.new_game`.
    pub fn deal(engine: &Engine, players: usize, seed: u64) -> Result<Game, EnvError> {
        Game::new(engine, new_game(engine.rules(), players, seed)?)
    }

    fn read_options(&mut self, engine: &Engine) -> Result<(), EnvError> {
        self.legal = engine.rules().legal_actions(&self.state)?;
        let (content, cols) = (engine.content(), self.state.layout.cols);
        self.indices = self
            .legal
            .iter()
            .map(|a| engine.table.index(content, cols, a))
            .collect::<Result<_, _>>()
            .map_err(EnvError::NotInCodec)?;
        Ok(())
    }

    pub fn is_over(&self) -> bool {
        self.legal.is_empty()
    }

    /// The deciding player, None when the game is over.
    pub fn player(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.state.decision.player as usize)
    }

    pub fn legal(&self) -> &[Action] {
        &self.legal
    }

    /// The legal actions' codec indices, ascending (`codec.legal`).
    pub fn legal_indices(&self) -> Vec<u32> {
        let mut indices = self.indices.clone();
        indices.sort_unstable();
        indices
    }

    /// The codec index of legal action number `place` in the rules' order.
    pub fn index_of(&self, place: usize) -> Option<u32> {
        self.indices.get(place).copied()
    }

    /// Ones at the legal actions' indices of `mask` (zeroed first).
    pub fn mask_into(&self, mask: &mut [i8]) {
        mask.fill(0);
        for &index in &self.indices {
            mask[index as usize] = 1;
        }
    }

    /// The game after the action of codec index `index`.
    pub fn step(&mut self, engine: &Engine, index: u32) -> Result<(), EnvError> {
        let place = self
            .indices
            .iter()
            .position(|&i| i == index)
            .ok_or(EnvError::Illegal(index))?;
        self.play(engine, place)
    }

    /// The game after its legal action number `place` (in the rules' order).
    fn play(&mut self, engine: &Engine, place: usize) -> Result<(), EnvError> {
        let action = self.legal[place];
        // `apply` consumes a state: the game keeps its own if the kernel refuses
        self.state = engine.rules().apply(self.state.clone(), &action)?;
        self.read_options(engine)
    }
}

/// N games stepped together. Without a learner seat, each game's deciding player acts
/// (self-play); with one, the other seats are random players and each step plays them
/// until the learner decides again. A finished game is dealt again at once with the
/// batch's next seed: game `i` plays seeds `seed + i`, `seed + i + N`, …
pub struct Batch {
    pub games: Vec<Game>,
    /// each game's seed
    pub seeds: Vec<u64>,
    /// each game's random opponents (one generator per seat; the learner's is unused)
    opponents: Vec<Vec<Rng>>,
    pub players: usize,
    pub learner: Option<usize>,
    next_seed: u64,
    /// the last state of each game that finished in the last step (None: it did not),
    /// what Gymnasium's same-step autoreset hands over as `final_obs`
    pub finals: Vec<Option<State>>,
}

impl Batch {
    pub fn new(
        engine: &Engine,
        count: usize,
        players: usize,
        seed: u64,
        learner: Option<usize>,
    ) -> Result<Batch, EnvError> {
        let mut batch = Batch {
            games: Vec::with_capacity(count),
            seeds: Vec::with_capacity(count),
            opponents: Vec::with_capacity(count),
            players,
            learner,
            next_seed: seed + count as u64,
            finals: vec![None; count],
        };
        for i in 0..count {
            let (game, rngs) = batch.dealt(engine, seed + i as u64)?;
            batch.games.push(game);
            batch.seeds.push(seed + i as u64);
            batch.opponents.push(rngs);
        }
        Ok(batch)
    }

    fn dealt(&self, engine: &Engine, seed: u64) -> Result<(Game, Vec<Rng>), EnvError> {
        let rngs: Vec<Rng> = (0..self.players)
            .map(|seat| Rng::new(agent_seed(seed, seat)))
            .collect();
        let mut game = Game::deal(engine, self.players, seed)?;
        let mut rngs = rngs;
        if let Some(learner) = self.learner {
            play_random(engine, &mut game, &mut rngs, learner)?;
        }
        Ok((game, rngs))
    }

    /// Each game's action `actions[i]` (a codec index for its deciding player), then the
    /// random opponents; `rewards` gets each finished game's final rewards (`players`
    /// per game, zeros for the others) and `done` whether it finished, after which it is
    /// dealt again. An illegal action is refused with its game's number, before any game
    /// moves.
    ///
    /// With a `pool`, the games move on its threads. The result is the same as on one
    /// thread: each game's step reads only that game, and the finished games take the
    /// batch's next seeds in game order, after every game has moved.
    pub fn step(
        &mut self,
        engine: &Engine,
        actions: &[u32],
        kind: Reward,
        rewards: &mut [f32],
        done: &mut [u8],
        pool: Option<&ThreadPool>,
    ) -> Result<(), (usize, EnvError)> {
        for (i, (game, &index)) in self.games.iter().zip(actions).enumerate() {
            if !game.indices.contains(&index) {
                return Err((i, EnvError::Illegal(index)));
            }
        }
        rewards.fill(0.0);
        done.fill(0);
        self.finals.fill(None);
        let (players, learner) = (self.players, self.learner);
        let advance = |((game, rngs), &index): ((&mut Game, &mut Vec<Rng>), &u32)| {
            advance(engine, learner, kind, game, rngs, index)
        };
        let games = self.games.iter_mut().zip(self.opponents.iter_mut());
        let outcomes: Vec<Result<Option<Vec<f32>>, EnvError>> = match pool {
            Some(pool) => pool.install(|| {
                let games = self.games.par_iter_mut().zip(self.opponents.par_iter_mut());
                games.zip(actions.par_iter()).map(advance).collect()
            }),
            None => games.zip(actions).map(advance).collect(),
        };
        let mut finished = Vec::new();
        for (i, outcome) in outcomes.into_iter().enumerate() {
            if let Some(gains) = outcome.map_err(|e| (i, e))? {
                rewards[i * players..(i + 1) * players].copy_from_slice(&gains);
                done[i] = 1;
                finished.push((i, self.next_seed));
                self.next_seed += 1;
            }
        }
        let deal = |&(i, seed): &(usize, u64)| self.dealt(engine, seed).map_err(|e| (i, e));
        let dealt: Vec<Result<Dealt, (usize, EnvError)>> = match pool {
            Some(pool) => pool.install(|| finished.par_iter().map(deal).collect()),
            None => finished.iter().map(deal).collect(),
        };
        for (&(i, seed), fresh) in finished.iter().zip(dealt) {
            let (game, rngs) = fresh?;
            let ended = std::mem::replace(&mut self.games[i], game);
            self.finals[i] = Some(ended.state);
            self.seeds[i] = seed;
            self.opponents[i] = rngs;
        }
        Ok(())
    }
}

/// A game dealt with its random opponents' generators.
type Dealt = (Game, Vec<Rng>);

/// One game's step: its action, then the random opponents until the learner decides;
/// the final rewards when the game ended.
fn advance(
    engine: &Engine,
    learner: Option<usize>,
    kind: Reward,
    game: &mut Game,
    rngs: &mut [Rng],
    index: u32,
) -> Result<Option<Vec<f32>>, EnvError> {
    game.step(engine, index)?;
    if let Some(learner) = learner {
        play_random(engine, game, rngs, learner)?;
    }
    if game.is_over() {
        Ok(Some(engine.rewards(&game.state, kind)?))
    } else {
        Ok(None)
    }
}

/// The random players of `rngs` play every decision not `learner`'s, until the learner
/// decides or the game is over (`RandomAgent.choose`: `below(number of options)`).
fn play_random(
    engine: &Engine,
    game: &mut Game,
    rngs: &mut [Rng],
    learner: usize,
) -> Result<(), EnvError> {
    while let Some(player) = game.player().filter(|&p| p != learner) {
        let rng = rngs
            .get_mut(player)
            .ok_or_else(|| EnvError::Unported(format!("a player for seat {player}")))?;
        let place = rng.below(game.legal.len() as u64) as usize;
        game.play(engine, place)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_share_wins_and_measure_margins() {
        assert_eq!(Reward::Win.of(&[10, 30, 30]), vec![0.0, 0.5, 0.5]);
        assert_eq!(Reward::Margin.of(&[10, 30, 25]), vec![-20.0, 5.0, -5.0]);
        assert_eq!(Reward::parse("win"), Some(Reward::Win));
        assert_eq!(Reward::parse("points"), None);
    }

    #[test]
    fn agent_seeds_are_pythons() {
        // printed by Python: naqala.core.simulate.agent_seed(0, 0), agent_seed(7, 2)
        assert_eq!(agent_seed(0, 0), 3_721_145_383_377_885_295);
        assert_eq!(agent_seed(7, 2), 939_557_857_188_124_143);
    }
}
