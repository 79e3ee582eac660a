//! The PyO3 classes of the AI-research environments (`naqala.envs.native`): a ruleset's
//! engine, one game stepped by codec index, and a batch of games. Observations, masks and
//! a batch's results are written straight into buffers the caller owns (numpy arrays), one
//! block copy each, never a Python number per element.

use std::sync::Arc;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyNotImplementedError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::content::Content;
use crate::envs::{Batch, Engine, EnvError, Game, Reward};
use crate::observe::{ActionTable, ObservationSpec, Observer};
use crate::python_args::{Count, Seed};
use crate::statejson::{state_from_json, state_to_json};
use crate::views::view_text;

fn env_error(error: EnvError) -> PyErr {
    match error {
        EnvError::Unported(what) => {
            PyNotImplementedError::new_err(format!("the kernel has not ported {what}"))
        }
        EnvError::NotInCodec(notation) => PyValueError::new_err(format!(
            "action {notation} is not in the codec of these rules"
        )),
        EnvError::Illegal(index) => {
            PyValueError::new_err(format!("action {index} is not legal now"))
        }
        EnvError::Reward(why) => PyValueError::new_err(why),
    }
}

fn reward_kind(kind: &str) -> PyResult<Reward> {
    Reward::parse(kind)
        .ok_or_else(|| PyValueError::new_err(format!("unknown reward {kind:?}: win or margin")))
}

/// The engine of one ruleset for the environments: content, rules, observer, codec.
#[pyclass(frozen, module = "naqala.native._native")]
pub struct EnvKernel {
    engine: Arc<Engine>,
}

impl EnvKernel {
    /// ValueError in the rules' words when they refuse a game of `players` players.
    fn allow_players(&self, players: usize) -> PyResult<()> {
        match crate::setup::refused_players(self.engine.content(), players) {
            Some(refused) => Err(PyValueError::new_err(refused)),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl EnvKernel {
    /// From the content document, the observation spec (JSON) and the codec's notation
    /// of every index in order.
    #[new]
    fn new(content_json: &str, spec_json: &str, notations: Vec<String>) -> PyResult<Self> {
        let content = Arc::new(Content::from_json(content_json).map_err(PyValueError::new_err)?);
        let spec: ObservationSpec = serde_json::from_str(spec_json)
            .map_err(|e| PyValueError::new_err(format!("observation spec: {e}")))?;
        let observer = Observer::new(&content, spec).map_err(PyValueError::new_err)?;
        let table = ActionTable::new(notations).map_err(PyValueError::new_err)?;
        Ok(EnvKernel {
            engine: Arc::new(Engine::new(content, observer, table)),
        })
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.engine.observer.size()
    }

    #[getter]
    fn action_size(&self) -> usize {
        self.engine.table.size()
    }

    /// A new game, set up as `rules.new_game(players, seed)` (ValueError in the rules'
    /// words for a player count they refuse).
    fn deal(&self, players: Count, seed: Seed) -> PyResult<EnvGame> {
        self.allow_players(players.0)?;
        let game = Game::deal(&self.engine, players.0, seed.0).map_err(env_error)?;
        Ok(self.game(game))
    }

    /// The game of a state JSON text (ValueError naming the JSON path it cannot hold).
    fn load(&self, text: &str) -> PyResult<EnvGame> {
        let state = state_from_json(self.engine.content(), text).map_err(PyValueError::new_err)?;
        let game = Game::new(&self.engine, state).map_err(env_error)?;
        Ok(self.game(game))
    }

    /// `count` games of `players` from seeds `seed`…, self-play or against random
    /// players at every seat but `learner`, stepped and observed on `threads` threads
    /// (1: the caller's; 0: one per core), with the same results on any number.
    #[pyo3(signature = (count, players, seed, learner=None, threads=1))]
    fn batch(
        &self,
        py: Python<'_>,
        count: Count,
        players: Count,
        seed: Seed,
        learner: Option<Count>,
        threads: usize,
    ) -> PyResult<EnvBatch> {
        let pool = thread_pool(threads)?;
        let (count, players, seed) = (count.0, players.0, seed.0);
        let learner = learner.map(|l| l.0);
        self.allow_players(players)?;
        if learner.is_some_and(|l| l >= players) {
            return Err(PyValueError::new_err(format!(
                "learner seat {learner:?} of a {players}-player game"
            )));
        }
        let engine = Arc::clone(&self.engine);
        let batch = py
            .detach(|| Batch::new(&engine, count, players, seed, learner))
            .map_err(env_error)?;
        Ok(EnvBatch {
            engine,
            batch,
            pool,
        })
    }
}

/// The most threads a batch may ask for (far more than any machine's cores).
const MOST_THREADS: usize = 1024;

/// The pool of a batch on `threads` threads: none for 1 (the caller's thread), one per
/// core for 0.
pub(crate) fn thread_pool(threads: usize) -> PyResult<Option<ThreadPool>> {
    if threads == 1 {
        return Ok(None);
    }
    if threads > MOST_THREADS {
        return Err(PyValueError::new_err(format!(
            "threads={threads}: at most {MOST_THREADS} (0 is one per core)"
        )));
    }
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("threads={threads}: {e}")))
}

impl EnvKernel {
    fn game(&self, game: Game) -> EnvGame {
        EnvGame {
            engine: Arc::clone(&self.engine),
            game,
        }
    }
}

/// One game stepped by codec index; its options are read once per step.
#[pyclass(module = "naqala.native._native")]
pub struct EnvGame {
    engine: Arc<Engine>,
    game: Game,
}

#[pymethods]
impl EnvGame {
    /// An independent copy (the same position).
    fn copy(&self) -> EnvGame {
        EnvGame {
            engine: Arc::clone(&self.engine),
            game: self.game.clone(),
        }
    }

    /// Plays the action of codec index `index`; ValueError if it is not legal.
    fn step(&mut self, index: u32) -> PyResult<()> {
        self.game.step(&self.engine, index).map_err(env_error)
    }

    /// The legal actions' codec indices, ascending.
    fn legal(&self) -> Vec<u32> {
        self.game.legal_indices()
    }

    /// The legal actions' notations, in the rules' order.
    fn notations(&self) -> Vec<String> {
        let (content, cols) = (
            self.engine.content(),
            usize::from(self.game.state.layout.cols),
        );
        self.game
            .legal()
            .iter()
            .map(|a| a.notation(content, cols))
            .collect()
    }

    /// How many legal actions there are.
    fn option_count(&self) -> usize {
        self.game.legal().len()
    }

    /// The codec index of legal action number `place` in the rules' order.
    fn option_index(&self, place: usize) -> PyResult<u32> {
        self.game
            .index_of(place)
            .ok_or_else(|| PyValueError::new_err(format!("no legal action number {place}")))
    }

    /// The deciding player, None when the game is over.
    fn player(&self) -> Option<usize> {
        self.game.player()
    }

    fn stage(&self) -> String {
        let stage = self.game.state.decision.stage;
        self.engine.content().names.name(stage).to_owned()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn scores(&self) -> Vec<i64> {
        self.engine.rules().scores(&self.game.state)
    }

    /// Each seat's reward if the game ended now (`final_rewards`).
    fn rewards(&self, kind: &str) -> PyResult<Vec<f32>> {
        self.engine
            .rewards(&self.game.state, reward_kind(kind)?)
            .map_err(env_error)
    }

    /// `seat`'s observation into `out` (float32, the observation's size).
    fn observe(&self, py: Python<'_>, seat: usize, out: PyBuffer<f32>) -> PyResult<()> {
        if seat >= self.game.state.players.len() {
            return Err(PyValueError::new_err(format!(
                "no seat {seat} in this game"
            )));
        }
        let mut numbers = vec![0.0; self.engine.observer.size()];
        self.engine
            .observer
            .observe(&self.game.state, seat, &mut numbers);
        out.copy_from_slice(py, &numbers)
    }

    /// `seat`'s observation into `observation` and the mask into `mask`, all zeros
    /// unless `seat` decides now: what an agent reads at every step, in one call.
    fn observe_with_mask(
        &self,
        py: Python<'_>,
        seat: usize,
        observation: PyBuffer<f32>,
        mask: PyBuffer<i8>,
    ) -> PyResult<()> {
        self.observe(py, seat, observation)?;
        let mut flags = vec![0; self.engine.table.size()];
        if self.game.player() == Some(seat) {
            self.game.mask_into(&mut flags);
        }
        mask.copy_from_slice(py, &flags)
    }

    /// The legal-action mask into `out` (int8, the codec's size).
    fn mask(&self, py: Python<'_>, out: PyBuffer<i8>) -> PyResult<()> {
        let mut mask = vec![0; self.engine.table.size()];
        self.game.mask_into(&mut mask);
        out.copy_from_slice(py, &mask)
    }

    /// What `seat` observes as canonical JSON (`ObservationEncoder.text`): its view with
    /// keys sorted and no spaces, written here with no Python state made.
    fn view_text(&self, seat: usize) -> PyResult<String> {
        if seat >= self.game.state.players.len() {
            return Err(PyValueError::new_err(format!(
                "no seat {seat} in this game"
            )));
        }
        Ok(view_text(self.engine.content(), &self.game.state, seat))
    }

    /// The state as state JSON text.
    fn to_json(&self) -> String {
        state_to_json(self.engine.content(), &self.game.state)
    }
}

/// N games stepped in one call (`naqala.envs.VectorEnv`).
#[pyclass(module = "naqala.native._native")]
pub struct EnvBatch {
    engine: Arc<Engine>,
    batch: Batch,
    /// the threads the games move on (None: the caller's)
    pool: Option<ThreadPool>,
}

#[pymethods]
impl EnvBatch {
    fn __len__(&self) -> usize {
        self.batch.games.len()
    }

    /// Each game's seed.
    fn seeds(&self) -> Vec<u64> {
        self.batch.seeds.clone()
    }

    /// Each game's deciding seat's observation, its mask and the seat, into `(N, size)`
    /// float32, `(N, actions)` int8 and `(N,)` int64 buffers.
    fn observe(
        &self,
        py: Python<'_>,
        observations: PyBuffer<f32>,
        masks: PyBuffer<i8>,
        seats: PyBuffer<i64>,
    ) -> PyResult<()> {
        let (size, actions) = (self.engine.observer.size(), self.engine.table.size());
        let count = self.batch.games.len();
        let mut numbers = vec![0.0; count * size];
        let mut mask = vec![0; count * actions];
        let mut who = vec![0i64; count];
        let engine = &self.engine;
        let read = |game: &Game, numbers: &mut [f32], mask: &mut [i8], who: &mut i64| {
            let seat = game.player().unwrap_or(0);
            engine.observer.observe(&game.state, seat, numbers);
            game.mask_into(mask);
            *who = seat as i64;
        };
        let games = &self.batch.games;
        py.detach(|| match &self.pool {
            // rows of one or more numbers: each game's row is its own to write
            Some(pool) if size > 0 && actions > 0 => pool.install(|| {
                let rows = games.par_iter().zip(numbers.par_chunks_mut(size));
                let marks = mask.par_chunks_mut(actions).zip(who.par_iter_mut());
                rows.zip(marks)
                    .for_each(|((game, row), (mask, who))| read(game, row, mask, who))
            }),
            _ => {
                for (i, game) in games.iter().enumerate() {
                    let row = &mut numbers[i * size..(i + 1) * size];
                    read(
                        game,
                        row,
                        &mut mask[i * actions..(i + 1) * actions],
                        &mut who[i],
                    );
                }
            }
        });
        observations.copy_from_slice(py, &numbers)?;
        masks.copy_from_slice(py, &mask)?;
        seats.copy_from_slice(py, &who)
    }

    /// `seat`'s observation of the last state of each game that finished in the last
    /// step into its row of `observations` (`(N, size)` float32; other rows untouched);
    /// the finished games' numbers, ascending.
    fn finals(
        &self,
        py: Python<'_>,
        seat: usize,
        observations: PyBuffer<f32>,
    ) -> PyResult<Vec<usize>> {
        let size = self.engine.observer.size();
        let count = self.batch.games.len();
        if seat >= self.batch.players {
            return Err(PyValueError::new_err(format!(
                "no seat {seat} in these games"
            )));
        }
        let mut numbers = observations.to_vec(py)?;
        if numbers.len() != count * size {
            return Err(PyValueError::new_err(format!(
                "{} numbers for {count} observations of {size}",
                numbers.len()
            )));
        }
        let mut finished = Vec::new();
        for (i, state) in self.batch.finals.iter().enumerate() {
            if let Some(state) = state {
                let row = &mut numbers[i * size..(i + 1) * size];
                self.engine.observer.observe(state, seat, row);
                finished.push(i);
            }
        }
        observations.copy_from_slice(py, &numbers)?;
        Ok(finished)
    }

    /// Each game's action (`(N,)` int64 codec indices); each finished game's final
    /// rewards into `(N, players)` float32 and whether it finished into `(N,)` uint8,
    /// finished games dealt again with the next seeds. ValueError naming the game of an
    /// illegal action, before any game moves.
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyBuffer<i64>,
        kind: &str,
        rewards: PyBuffer<f32>,
        done: PyBuffer<u8>,
    ) -> PyResult<()> {
        let kind = reward_kind(kind)?;
        let actions: Vec<u32> = actions
            .to_vec(py)?
            .into_iter()
            .map(|a| u32::try_from(a).unwrap_or(u32::MAX))
            .collect();
        let count = self.batch.games.len();
        if actions.len() != count {
            return Err(PyValueError::new_err(format!(
                "{} actions for {count} games",
                actions.len()
            )));
        }
        let mut gains = vec![0.0; count * self.batch.players];
        let mut ended = vec![0u8; count];
        let engine = Arc::clone(&self.engine);
        let batch = &mut self.batch;
        let pool = self.pool.as_ref();
        py.detach(|| batch.step(&engine, &actions, kind, &mut gains, &mut ended, pool))
            .map_err(|(game, error)| match error {
                EnvError::Illegal(index) => {
                    PyValueError::new_err(format!("game {game}: action {index} is not legal now"))
                }
                other => env_error(other),
            })?;
        rewards.copy_from_slice(py, &gains)?;
        done.copy_from_slice(py, &ended)
    }
}
