//! The PyO3 bindings: the module `naqala.native._native`. Only conversions live here;
//! every rule is in the pure modules, so `cargo test` covers them without Python.

#[pyo3::pymodule]
mod _native {
    use std::sync::Arc;

    use num_bigint::BigUint;
    use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyTimeoutError, PyValueError};
    use pyo3::prelude::*;
    use rayon::prelude::*;

    use crate::actions::Action;
    use crate::callbacks::HookCalls;
    use crate::content::Content;
    use crate::perft::{self, PerftBoard, Stopped};
    use crate::playout::random_playout;
    use crate::python_args::{Count, Seed};
    use crate::rng::Rng;
    use crate::rules::Unported;
    use crate::seats::{player, Player, PLAYERS};
    use crate::shared_rules::SharedRules;
    use crate::state::State;
    use crate::statejson::{state_from_json, state_to_json};

    /// The read-only view a hook called back sees (`crate::state_view`).
    #[pymodule_export]
    use crate::state_view::{BoardView, DecisionView, PlayerView, PlayersView, StateView};
    use crate::state_view::{PyHooks, PyPlayer};

    /// One decision of a played game, as `NativeState.play_recorded` hands it to Python.
    type DecisionRow = (u16, u8, String, u32, i64, i8, f64);
    /// What `NativeState.play_recorded` returns: final state, actions, round scores, and
    /// the decisions.
    type RecordedGame = (NativeState, u64, Vec<Vec<i64>>, Vec<DecisionRow>);

    /// The environments' classes (`naqala.envs.native`).
    #[pymodule_export]
    use crate::python_envs::{EnvBatch, EnvGame, EnvKernel};

    /// The crate's version, so Python can say which kernel it loaded.
    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// The rules' merged content, read once per `Rules`, and the kernel's rules built
    /// over it once, shared by every state it makes; it reads and makes native states.
    #[pyclass(frozen, module = "naqala.native._native")]
    struct Kernel {
        rules: Arc<SharedRules>,
        /// a plugin's hooks called back, if any (`crate::state_view::PyHooks`)
        hooks: Option<Arc<PyHooks>>,
    }

    #[pymethods]
    impl Kernel {
        /// The kernel of a content; `callbacks`: `(hook, function)` pairs the kernel calls
        /// at its hook points with a `StateView` (`crate::callbacks`), `to_state` the
        /// function a view's `full_state` builds a Python `State` from its form with
        /// (`crate::py_state`).
        #[new]
        #[pyo3(signature = (content_json, callbacks=None, to_state=None))]
        fn new(
            content_json: &str,
            callbacks: Option<Vec<(String, Py<PyAny>)>>,
            to_state: Option<Py<PyAny>>,
        ) -> PyResult<Self> {
            let content =
                Arc::new(Content::from_json(content_json).map_err(PyValueError::new_err)?);
            let Some(functions) = callbacks.filter(|f| !f.is_empty()) else {
                return Ok(Kernel {
                    rules: Arc::new(SharedRules::new(content)),
                    hooks: None,
                });
            };
            let hooks = Arc::new(PyHooks::new(Arc::clone(&content), functions, to_state)?);
            let calls: Arc<dyn HookCalls> = hooks.clone();
            Ok(Kernel {
                rules: Arc::new(SharedRules::with_callbacks(content, calls)),
                hooks: Some(hooks),
            })
        }

        /// The hooks asked so far: `(hook, asked, calls, seconds)` for each one asked (an
        /// answer remembered is asked, not called: `crate::hook_reads`).
        fn called_back(&self) -> Vec<(String, u64, u64, f64)> {
            self.hooks.as_ref().map(|h| h.tallies()).unwrap_or_default()
        }

        /// A native state from state JSON text; ValueError naming the JSON path if the
        /// kernel cannot hold it, NotImplementedError if its rules have one the kernel does
        /// not implement (`refuse_foreign_rules`).
        fn state(&self, text: &str) -> PyResult<NativeState> {
            let content = self.rules.content();
            let state = state_from_json(content, text).map_err(PyValueError::new_err)?;
            refuse_foreign_rules(&self.rules)?;
            Ok(NativeState {
                rules: Arc::clone(&self.rules),
                state,
            })
        }

        /// A native state from the form of a Python `State` (`crate::py_state`), checked
        /// as state JSON is; ValueError naming the state JSON path of the first problem.
        fn state_of_form(&self, form: &Bound<'_, PyAny>) -> PyResult<NativeState> {
            let state = crate::py_state::state_of_form(self.rules.content(), form)
                .map_err(PyValueError::new_err)?;
            refuse_foreign_rules(&self.rules)?;
            Ok(NativeState {
                rules: Arc::clone(&self.rules),
                state,
            })
        }

        /// What of this content the kernel's rules cannot play yet (card kinds by deck).
        fn unported_content(&self) -> Vec<String> {
            self.rules.rules().unported_content()
        }

        /// A new game of `players` players from `seed`, set up natively as
        /// `rules.new_game` sets it up, waiting for the first bid; ValueError in the
        /// rules' words when they refuse that player count, NotImplementedError if its
        /// rules have one the kernel does not implement.
        fn new_game(&self, players: Count, seed: Seed) -> PyResult<NativeState> {
            let content = self.rules.content();
            if let Some(refused) = crate::setup::refused_players(content, players.0) {
                return Err(PyValueError::new_err(refused));
            }
            let state =
                crate::setup::new_game(self.rules.rules(), players.0, seed.0).map_err(unported)?;
            hooks_answered(&self.rules)?;
            refuse_foreign_rules(&self.rules)?;
            Ok(NativeState {
                rules: Arc::clone(&self.rules),
                state,
            })
        }

        /// Every name the kernel knows (stages, marks, flags, counters), sorted.
        fn names(&self) -> Vec<String> {
            let names = &self.rules.content().names;
            (0..names.len())
                .map(|i| names.name(crate::names::Sym(i as u16)).to_owned())
                .collect()
        }
    }

    impl NativeState {
        /// The game played from this state to its end by `seats` (a Python player where
        /// `agents` gives one): what `play` and `play_recorded` share.
        fn played(
            &self,
            py: Python<'_>,
            seats: Vec<(String, Seed)>,
            agents: Option<Vec<Option<Py<PyAny>>>>,
            to_state: Option<Py<PyAny>>,
        ) -> PyResult<crate::seats::Played> {
            let mut agents = agents.unwrap_or_default().into_iter();
            let failure = Arc::new(std::sync::Mutex::new(None));
            let mut players: Vec<Box<dyn Player + Send>> = Vec::with_capacity(seats.len());
            for (name, seed) in &seats {
                if let Some(choose) = agents.next().flatten() {
                    players.push(Box::new(PyPlayer {
                        content: self.rules.shared_content(),
                        choose,
                        to_state: to_state.as_ref().map(|f| f.clone_ref(py)),
                        failure: Arc::clone(&failure),
                    }));
                    continue;
                }
                let seated = player(name, seed.0).ok_or_else(|| {
                    PyNotImplementedError::new_err(format!("the kernel has no player '{name}'"))
                })?;
                players.push(seated);
            }
            let rules = &self.rules;
            let state = &self.state;
            let played = py.detach(|| crate::seats::play(rules.rules(), state, &mut players));
            if let Some(error) = failure.lock().ok().and_then(|mut f| f.take()) {
                return Err(error);
            }
            let played = played.map_err(unported)?;
            hooks_answered(&self.rules)?;
            Ok(played)
        }

        /// A state of this game's rules.
        fn after(&self, state: State) -> NativeState {
            NativeState {
                rules: Arc::clone(&self.rules),
                state,
            }
        }
    }

    /// A game played to its end: the final state, the actions taken and the scores at
    /// the end of each finished round (`crate::seats::Played`).
    type PlayedGame = (NativeState, u64, Vec<Vec<i64>>);

    /// A native game state, with the rules (and the content that names its parts) of
    /// the kernel that made it.
    #[pyclass(frozen, module = "naqala.native._native")]
    struct NativeState {
        rules: Arc<SharedRules>,
        state: State,
    }

    #[pymethods]
    impl NativeState {
        /// The state as state JSON text (compact), as the Python engine writes it.
        fn to_json(&self) -> String {
            state_to_json(self.rules.content(), &self.state)
        }

        /// The state as the form a Python `State` is built from (`crate::py_state`,
        /// `naqala.native.state_form`): no state JSON in between.
        fn form<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
            crate::py_state::state_form(py, self.rules.content(), &self.state)
        }

        /// The bytes the state takes (the value and what it owns; the layout is shared).
        fn size_bytes(&self) -> usize {
            self.state.size_bytes()
        }

        /// The legal actions' notations in canonical order; NotImplementedError naming
        /// the stage when the kernel has not ported the pending decision.
        fn legal_actions(&self) -> PyResult<Vec<String>> {
            let cols = usize::from(self.state.layout.cols);
            Ok(self
                .legal()?
                .iter()
                .map(|a| a.notation(self.rules.content(), cols))
                .collect())
        }

        /// Every player's score (the base game's score lines, summed), as `rules.scores`.
        fn scores(&self) -> Vec<i64> {
            self.rules.rules().scores(&self.state)
        }

        /// `agents/mcts.py`'s `view_digest`: the number the search of `seat` draws from;
        /// ValueError for a seat the game does not have.
        fn view_digest(&self, seat: Count) -> PyResult<u64> {
            if seat.0 >= self.state.players.len() {
                return Err(PyValueError::new_err(format!(
                    "no seat {} in a game of {} players",
                    seat.0,
                    self.state.players.len()
                )));
            }
            Ok(crate::views::view_digest(
                self.rules.content(),
                &self.state,
                seat.0,
            ))
        }

        /// The finished game as the lab reads it (`crate::results`), as plain data:
        /// `(round, lines, scores, winners, flags, effects, djinns, tile_points, verdict)`,
        /// each seat's score lines as `(category, source, points)`, `verdict` a called-back
        /// verdict's kind (else empty); None when its rules score lines the kernel does not
        /// write (the caller reads a Python state instead).
        #[allow(clippy::type_complexity)]
        fn reading(
            &self,
        ) -> PyResult<
            Option<(
                u16,
                Vec<Vec<(String, String, i64)>>,
                Vec<i64>,
                Vec<usize>,
                Vec<String>,
                Vec<(String, i64)>,
                Vec<Vec<String>>,
                Vec<Vec<(String, i64)>>,
                String,
            )>,
        > {
            let found = crate::reading::read(self.rules.rules(), &self.state);
            hooks_answered(&self.rules)?;
            let Some(read) = found else {
                return Ok(None);
            };
            let lines = read
                .lines
                .into_iter()
                .map(|sheet| {
                    sheet
                        .into_iter()
                        .map(|l| (l.category, l.source, l.points))
                        .collect()
                })
                .collect();
            Ok(Some((
                read.round,
                lines,
                read.scores,
                read.winners,
                read.flags,
                read.effects,
                read.djinns,
                read.tile_points,
                read.verdict,
            )))
        }

        /// The players in the order their first marker lies on the bid track
        /// (`lab/results.py`'s `start_order`).
        fn first_bidders(&self) -> Vec<usize> {
            crate::reading::first_bidders(&self.state)
        }

        /// Whether the game is over.
        fn is_over(&self) -> bool {
            self.rules.content().names.name(self.state.decision.stage) == "over"
        }

        /// The game played to its end by random players seeded `agent_seeds` (one per
        /// seat, as `RandomAgent(agent_seed(seed, seat))`): the final state and the
        /// number of actions. The work runs without the GIL.
        fn random_playout(
            &self,
            py: Python<'_>,
            agent_seeds: Vec<Seed>,
        ) -> PyResult<(NativeState, u64)> {
            let agent_seeds: Vec<u64> = agent_seeds.iter().map(|s| s.0).collect();
            let rules = &self.rules;
            let state = &self.state;
            let (state, count) = py
                .detach(|| random_playout(rules.rules(), state, &agent_seeds))
                .map_err(unported)?;
            hooks_answered(&self.rules)?;
            Ok((
                NativeState {
                    rules: Arc::clone(&self.rules),
                    state,
                },
                count,
            ))
        }

        /// The game played to its end by the players `seats` names, one `(name, seed)`
        /// per seat (the seat's player name as `--seats` writes it, and its agent seed):
        /// the final state, the number of actions and every player's score at the end of
        /// each finished round. NotImplementedError names a player or a rule the kernel
        /// lacks. `agents`: by seat, a Python player's `choose(view, notations) -> index`
        /// in place of the named one (`crate::state_view::PyPlayer`), `to_state` what its
        /// view's `full_state` reads state JSON with; its failure is raised as it was.
        /// The work runs without the GIL, taken back for a Python player's decisions.
        #[pyo3(signature = (seats, agents=None, to_state=None))]
        fn play(
            &self,
            py: Python<'_>,
            seats: Vec<(String, Seed)>,
            agents: Option<Vec<Option<Py<PyAny>>>>,
            to_state: Option<Py<PyAny>>,
        ) -> PyResult<PlayedGame> {
            let played = self.played(py, seats, agents, to_state)?;
            Ok((self.after(played.state), played.actions, played.rounds))
        }

        /// `play`, and last every decision taken (`crate::stats`, for the lab's game
        /// rows): `(round, seat, stage, options, coins paid for turn order, player whose
        /// turn it is or -1, seconds the player took)`.
        #[pyo3(signature = (seats, agents=None, to_state=None))]
        fn play_recorded(
            &self,
            py: Python<'_>,
            seats: Vec<(String, Seed)>,
            agents: Option<Vec<Option<Py<PyAny>>>>,
            to_state: Option<Py<PyAny>>,
        ) -> PyResult<RecordedGame> {
            let played = self.played(py, seats, agents, to_state)?;
            let names = &self.rules.rules().content.names;
            let decisions = played
                .decisions
                .into_iter()
                .map(|d| {
                    let stage = names.name(d.stage).to_owned();
                    let seconds = d.time.as_secs_f64();
                    (d.round, d.seat, stage, d.options, d.paid, d.turn, seconds)
                })
                .collect();
            let state = self.after(played.state);
            Ok((state, played.actions, played.rounds, decisions))
        }

        /// Many games played to their end at once, each from its state by its seats'
        /// native players (`play` with no Python player), on `threads` threads (1: the
        /// caller's, 0: one per core); each result is the one `play` gives, in order,
        /// whatever the threads. ValueError if `seats` does not give one list per state.
        /// The work runs without the GIL.
        #[staticmethod]
        #[pyo3(signature = (states, seats, threads=1))]
        fn play_batch(
            py: Python<'_>,
            states: Vec<Py<NativeState>>,
            seats: Vec<Vec<(String, Seed)>>,
            threads: usize,
        ) -> PyResult<Vec<PlayedGame>> {
            if states.len() != seats.len() {
                return Err(PyValueError::new_err(format!(
                    "{} states but {} lists of seats",
                    states.len(),
                    seats.len()
                )));
            }
            let pool = crate::python_envs::thread_pool(threads)?;
            let mut games = Vec::with_capacity(states.len());
            for (state, names) in states.iter().zip(&seats) {
                let mut players: Vec<Box<dyn Player + Send>> = Vec::with_capacity(names.len());
                for (name, seed) in names {
                    players.push(player(name, seed.0).ok_or_else(|| {
                        PyNotImplementedError::new_err(format!("the kernel has no player '{name}'"))
                    })?);
                }
                games.push((state.get(), players));
            }
            let play_one = |(game, players): &mut (&NativeState, Vec<Box<dyn Player + Send>>)| {
                crate::seats::play(game.rules.rules(), &game.state, players)
            };
            let played: Vec<_> = py.detach(|| match &pool {
                Some(pool) => pool.install(|| games.par_iter_mut().map(play_one).collect()),
                None => games.iter_mut().map(play_one).collect(),
            });
            let mut results = Vec::with_capacity(played.len());
            for ((game, _), played) in games.iter().zip(played) {
                let played = played.map_err(unported)?;
                hooks_answered(&game.rules)?;
                results.push((game.after(played.state), played.actions, played.rounds));
            }
            Ok(results)
        }

        /// The legal meeple moves on this state's board, `(moves, paths)`, as
        /// `naqala.testing.perft.count_moves_fast` counts them; TimeoutError((done, total))
        /// after `max_seconds` of CPU time. The work runs without the GIL.
        #[pyo3(signature = (max_seconds=None))]
        fn perft(&self, py: Python<'_>, max_seconds: Option<f64>) -> PyResult<(BigUint, BigUint)> {
            let board = PerftBoard::of_state(&self.state);
            count_on(py, &board, max_seconds, None)
        }

        /// The state after the action written `notation`: ValueError if it is not legal,
        /// NotImplementedError naming what the kernel has not ported on the way.
        fn apply(&self, notation: &str) -> PyResult<NativeState> {
            let cols = usize::from(self.state.layout.cols);
            let legal = self.legal()?;
            let Some(action) = legal
                .iter()
                .find(|a| a.notation(self.rules.content(), cols) == notation)
            else {
                return Err(PyValueError::new_err(format!(
                    "'{notation}' is not one of the legal options"
                )));
            };
            let state = self
                .rules
                .rules()
                .apply(self.state.clone(), action)
                .map_err(unported)?;
            hooks_answered(&self.rules)?;
            Ok(NativeState {
                rules: Arc::clone(&self.rules),
                state,
            })
        }
    }

    impl NativeState {
        fn legal(&self) -> PyResult<Vec<Action>> {
            let legal = self
                .rules
                .rules()
                .legal_actions(&self.state)
                .map_err(unported)?;
            hooks_answered(&self.rules)?;
            Ok(legal)
        }
    }

    /// One seat's native player, kept between decisions (a player remembers its plan):
    /// the differential tests ask it and the Python player the same decisions.
    #[pyclass(module = "naqala.native._native")]
    struct NativePlayer {
        player: std::sync::Mutex<Box<dyn Player + Send>>,
    }

    #[pymethods]
    impl NativePlayer {
        /// The player a seat named `name` gets from `seed`; NotImplementedError if the
        /// kernel has none.
        #[new]
        fn new(name: &str, seed: Seed) -> PyResult<Self> {
            let seated = player(name, seed.0).ok_or_else(|| {
                PyNotImplementedError::new_err(format!("the kernel has no player '{name}'"))
            })?;
            Ok(NativePlayer {
                player: std::sync::Mutex::new(seated),
            })
        }

        /// The index, among `state.legal_actions()`, of the option the player takes.
        fn choose(&self, py: Python<'_>, state: &NativeState) -> PyResult<usize> {
            let options = state.legal()?;
            let rules = &state.rules;
            let mut guard = self.player.lock().unwrap_or_else(|e| e.into_inner());
            let seated: &mut Box<dyn Player + Send> = &mut guard;
            py.detach(|| seated.choose(rules.rules(), &state.state, &options))
                .map_err(unported)
        }
    }

    /// The first failure of a hook called back during the kernel's last call, raised.
    fn hooks_answered(rules: &SharedRules) -> PyResult<()> {
        match rules.rules().callbacks().and_then(|c| c.take_failure()) {
            Some(failure) => Err(called_back_failed(failure)),
            None => Ok(()),
        }
    }

    /// `core.failures.CalledBackFailed` (a `RuntimeError` that the command line says as
    /// it is, naming the plugin), or a plain `RuntimeError` where it cannot be imported.
    fn called_back_failed(failure: String) -> PyErr {
        Python::attach(|py| {
            py.import("naqala.core.failures")
                .and_then(|m| m.getattr("CalledBackFailed"))
                .and_then(|kind| kind.call1((failure.as_str(),)))
                .map(PyErr::from_value)
                .unwrap_or_else(|_| PyRuntimeError::new_err(failure.clone()))
        })
    }

    fn unported(error: Unported) -> PyErr {
        PyNotImplementedError::new_err(format!("the kernel has not ported {}", error.0))
    }

    /// NotImplementedError naming the first rule whose provider the kernel does not
    /// implement (`crate::providers`): it would play that rule as the shipped one.
    fn refuse_foreign_rules(rules: &SharedRules) -> PyResult<()> {
        let calls = rules.rules().callbacks();
        let called_back = |hook: &str| calls.is_some_and(|c| c.answers(hook));
        match crate::providers::first_foreign_rule_beside(
            &rules.content().doc.providers,
            called_back,
        ) {
            None => Ok(()),
            Some(spec) => Err(PyNotImplementedError::new_err(format!(
                "the kernel does not implement {} as plugin '{}' provides it",
                spec.entry, spec.plugin
            ))),
        }
    }

    /// The entries of a providers table (JSON: `[{entry, plugin, module, ported}]`, as
    /// `naqala.native.content.providers_table` writes it) whose provider the kernel does
    /// not implement, as `(entry, plugin)`; ValueError for a table it cannot read.
    #[pyfunction]
    fn foreign_providers(table_json: &str) -> PyResult<Vec<(String, String)>> {
        let table = crate::providers::from_json(table_json).map_err(PyValueError::new_err)?;
        Ok(crate::providers::foreign(&table)
            .into_iter()
            .map(|spec| (spec.entry.clone(), spec.plugin.clone()))
            .collect())
    }

    /// The seat names the kernel has players for.
    #[pyfunction]
    fn players() -> Vec<&'static str> {
        PLAYERS.to_vec()
    }

    /// `(moves, paths)` on a board given by its walk neighbours, impassable tiles and
    /// meeples per colour (as `naqala.core.board.Geometry` and a board hold them), as
    /// `naqala.testing.perft.count_moves_fast` counts them: ValueError if that is not a
    /// board, TimeoutError((done, total)) after `max_seconds` of CPU time;
    /// `progress(done, total)` before the first target tile and after each.
    #[pyfunction]
    #[pyo3(signature = (neighbours, impassable, meeples, max_seconds=None, progress=None))]
    fn count_moves(
        py: Python<'_>,
        neighbours: Vec<Vec<usize>>,
        impassable: Vec<usize>,
        meeples: Vec<Vec<u64>>,
        max_seconds: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(BigUint, BigUint)> {
        let board =
            PerftBoard::new(neighbours, &impassable, meeples).map_err(PyValueError::new_err)?;
        count_on(py, &board, max_seconds, progress)
    }

    /// The count without the GIL, taking it back only to report progress (and to see a
    /// pending signal, so Ctrl-C stops a long count).
    fn count_on(
        py: Python<'_>,
        board: &PerftBoard,
        max_seconds: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(BigUint, BigUint)> {
        let mut failure: Option<PyErr> = None;
        let counted = py.detach(|| {
            perft::count_moves(board, max_seconds, &mut |done, total| {
                Python::attach(|py| {
                    let reported = match &progress {
                        Some(callback) => callback.call1(py, (done, total)).map(drop),
                        None => Ok(()),
                    };
                    match reported.and_then(|()| py.check_signals()) {
                        Ok(()) => true,
                        Err(error) => {
                            failure = Some(error);
                            false
                        }
                    }
                })
            })
        });
        match counted {
            Ok(found) => Ok(found),
            Err(Stopped::Timeout { done, total }) => Err(PyTimeoutError::new_err((done, total))),
            Err(Stopped::Cancelled) => {
                Err(failure.unwrap_or_else(|| PyValueError::new_err("the count was stopped")))
            }
        }
    }

    /// `Rng(seed, counter).below(n)`: the value and the new counter.
    #[pyfunction]
    fn rng_below(seed: u64, counter: u64, n: u64) -> PyResult<(u64, u64)> {
        if n == 0 {
            return Err(PyValueError::new_err("below() needs n >= 1, got 0"));
        }
        let mut rng = Rng { seed, counter };
        let value = rng.below(n);
        Ok((value, rng.counter))
    }

    /// `Rng(seed, counter).shuffled(range(n))`: the permutation and the new counter.
    #[pyfunction]
    /// ValueError beyond `SHUFFLED_MOST` items (a list that large is no deck or bag).
    fn rng_shuffled(seed: u64, counter: u64, n: usize) -> PyResult<(Vec<usize>, u64)> {
        if n > SHUFFLED_MOST {
            return Err(PyValueError::new_err(format!(
                "shuffled(range({n})): at most {SHUFFLED_MOST} items"
            )));
        }
        let mut rng = Rng { seed, counter };
        let mut items: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut items);
        Ok((items, rng.counter))
    }

    /// The most items `rng_shuffled` shuffles.
    const SHUFFLED_MOST: usize = 1 << 24;

    /// `Rng(seed, counter).choice_weighted(counts)`: the index and the new counter.
    #[pyfunction]
    fn rng_choice_weighted(seed: u64, counter: u64, counts: Vec<u64>) -> PyResult<(usize, u64)> {
        match counts
            .iter()
            .try_fold(0u64, |total, &n| total.checked_add(n))
        {
            None => return Err(PyValueError::new_err("the counts add up beyond 2**64-1")),
            Some(0) => return Err(PyValueError::new_err("below() needs n >= 1, got 0")),
            Some(_) => {}
        }
        let mut rng = Rng { seed, counter };
        let index = rng.choice_weighted(&counts);
        Ok((index, rng.counter))
    }
}
