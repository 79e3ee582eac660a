//! The read-only view of a native state that a plugin's hook sees when the kernel calls
//! it back (`crate::callbacks`), and the calls themselves.
//!
//! A `StateView` reads as much of a Python `State` as hooks read today — the round, the
//! decision, the flags and counters, each player's coins, camels, meeples and hands, the
//! board — named as `State` names them, so one hook serves both engines. Every part is
//! built when it is read, from a copy of the state taken for the call, and every part is
//! immutable: a hook that sets an attribute fails with one clear message. A hook that
//! needs more asks `full_state()` for the Python `State`, built from the state's form
//! (`crate::py_state`), at its cost (docs/hooks.md, "Hooks called back").

use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use pyo3::exceptions::{PyAttributeError, PyIndexError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::callbacks::{
    HookCalls, Verdict, ADJUST_NEW_GAME, ADJUST_SCORE_LINES, CALLED_BACK, GAME_ENDS,
    PROTECTED_MEEPLES, SCORE_LINES, TILE_EFFECTS, VERDICT,
};
use crate::content::Content;
use crate::effects::{At, Effect};
use crate::hook_reads::{
    self, Memo, PlayerPart, Reads, BOARD, DECISION, EVERYTHING, EXTRAS, FLAGS, ROUND,
};
use crate::py_state::{state_form, state_of_form};
use crate::results::Line;
use crate::state::{Player, State};

/// The most effect lists answered that are kept resolved (a hook answers a few lists,
/// again and again; one that makes new ones every call is not kept without bound).
const KEPT_ANSWERS: usize = 256;
/// The most score lines kept made as Python tuples (`PyHooks::given_lines`).
const KEPT_LINES: usize = 4096;

/// What a hook that sets an attribute of a view is told.
const READ_ONLY: &str = "a StateView is read-only: a hook called back by the native engine \
answers from the state it is shown and does not change it";

fn refuse_change(what: &str) -> PyErr {
    PyAttributeError::new_err(format!("{READ_ONLY} (it tried to set '{what}')"))
}

/// A native state as a plugin's hook reads it.
#[pyclass(frozen, module = "naqala.native._native")]
pub struct StateView {
    content: Arc<Content>,
    state: State,
    /// the Python function building a `State` from its form (`full_state`,
    /// `crate::py_state`)
    to_state: Option<Py<PyAny>>,
    /// the parts of the state read through this view (`crate::hook_reads`)
    reads: Arc<AtomicU64>,
}

impl StateView {
    /// A view of (a copy of) `state`, for one call of a hook or a seat, noting in `reads`
    /// each part read.
    fn of(
        py: Python<'_>,
        content: &Arc<Content>,
        state: &State,
        to_state: Option<&Py<PyAny>>,
        reads: &Arc<AtomicU64>,
    ) -> PyResult<Py<StateView>> {
        let view = StateView {
            content: Arc::clone(content),
            state: state.clone(),
            to_state: to_state.map(|f| f.clone_ref(py)),
            reads: Arc::clone(reads),
        };
        Py::new(py, view)
    }

    fn note(&self, part: Reads) {
        self.reads.fetch_or(part, Ordering::Relaxed);
    }
}

#[pymethods]
impl StateView {
    #[getter]
    fn round(&self) -> u16 {
        self.note(ROUND);
        self.state.round
    }

    /// `(stage, player)` as `state.decision` holds them, as a `DecisionView`.
    #[getter]
    fn decision(&self) -> DecisionView {
        self.note(DECISION);
        DecisionView {
            stage: self
                .content
                .names
                .name(self.state.decision.stage)
                .to_owned(),
            player: i64::from(self.state.decision.player),
        }
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.note(DECISION);
        self.content.names.name(self.state.decision.stage) == "over"
    }

    #[getter]
    fn flags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.note(FLAGS);
        let names = &self.content.names;
        PyTuple::new(py, self.state.flags.iter().map(|&f| names.name(f)))
    }

    fn has_flag(&self, flag: &str) -> bool {
        self.note(FLAGS);
        let names = &self.content.names;
        self.state.flags.iter().any(|&f| names.name(f) == flag)
    }

    /// The plugin counters, `(name, value)` sorted by name, as `state.extras`.
    #[getter]
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.note(EXTRAS);
        counters(py, &self.content, &self.state.extras)
    }

    /// The players, each read only when a hook looks at it (`PlayersView`).
    #[getter]
    fn players(slf: &Bound<'_, Self>) -> PlayersView {
        PlayersView {
            view: slf.clone().unbind(),
        }
    }

    #[getter]
    fn board(&self, py: Python<'_>) -> PyResult<BoardView> {
        self.note(BOARD);
        let colours = self.content.doc.colours.len();
        let tokens = self.content.doc.tokens.len();
        let tiles = 0..self.state.layout.size();
        let board = &self.state.board;
        Ok(BoardView {
            meeples: tuple_of_tuples(py, tiles.clone().map(|t| &board.meeples(t)[..colours]))?,
            owners: PyTuple::new(py, tiles.clone().map(|t| board.owner(t)))?.unbind(),
            tokens: tuple_of_tuples(py, tiles.map(|t| &board.tokens(t)[..tokens]))?,
        })
    }

    /// The Python `State` of this view, built from its form (`crate::py_state`):
    /// everything a hook can read on the Python engine, at the cost of building it
    /// (docs/hooks.md).
    fn full_state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.note(EVERYTHING);
        let to_state = self.to_state.as_ref().ok_or_else(|| {
            PyAttributeError::new_err("this view was made without a way to read a full State")
        })?;
        to_state.call1(py, (state_form(py, &self.content, &self.state)?,))
    }

    fn __setattr__(&self, name: &str, _value: Bound<'_, PyAny>) -> PyResult<()> {
        Err(refuse_change(name))
    }
}

/// `state.decision`: the stage waiting and who decides it.
#[pyclass(frozen, get_all, module = "naqala.native._native")]
pub struct DecisionView {
    stage: String,
    player: i64,
}

#[pymethods]
impl DecisionView {
    fn __setattr__(&self, name: &str, _value: Bound<'_, PyAny>) -> PyResult<()> {
        Err(refuse_change(name))
    }
}

/// `state.board`: meeples and tokens by tile (tuples by colour and token kind), owners.
#[pyclass(frozen, get_all, module = "naqala.native._native")]
pub struct BoardView {
    meeples: Py<PyTuple>,
    owners: Py<PyTuple>,
    tokens: Py<PyTuple>,
}

#[pymethods]
impl BoardView {
    fn __setattr__(&self, name: &str, _value: Bound<'_, PyAny>) -> PyResult<()> {
        Err(refuse_change(name))
    }
}

/// `state.players`: a sequence of `PlayerView`, each made when it is read.
#[pyclass(frozen, sequence, module = "naqala.native._native")]
pub struct PlayersView {
    view: Py<StateView>,
}

#[pymethods]
impl PlayersView {
    fn __len__(&self) -> usize {
        self.view.get().state.players.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<PlayerView> {
        let count = self.__len__() as isize;
        let at = if index < 0 { index + count } else { index };
        if !(0..count).contains(&at) {
            return Err(PyIndexError::new_err(format!(
                "there is no player {index} of {count}"
            )));
        }
        Ok(PlayerView {
            view: self.view.clone_ref(py),
            index: at as usize,
        })
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let players = (0..self.__len__())
            .map(|index| {
                Py::new(
                    py,
                    PlayerView {
                        view: self.view.clone_ref(py),
                        index,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, players)?
            .into_any()
            .try_iter()?
            .into_any()
            .unbind())
    }

    fn __setitem__(&self, index: isize, _value: Bound<'_, PyAny>) -> PyResult<()> {
        Err(refuse_change(&format!("players[{index}]")))
    }
}

/// `state.players[p]`: coins, camels left, meeples by colour, hands by deck (card ids),
/// counters, each read when asked.
#[pyclass(frozen, module = "naqala.native._native")]
pub struct PlayerView {
    view: Py<StateView>,
    index: usize,
}

impl PlayerView {
    /// This player's `part`, noted as read.
    fn read(&self, part: PlayerPart) -> &Player {
        let view = self.view.get();
        view.note(hook_reads::player_part(self.index, part));
        &view.state.players[self.index]
    }

    fn content(&self) -> &Content {
        &self.view.get().content
    }
}

#[pymethods]
impl PlayerView {
    #[getter]
    fn coins(&self) -> i64 {
        i64::from(self.read(PlayerPart::Coins).coins)
    }

    #[getter]
    fn camels(&self) -> i64 {
        i64::from(self.read(PlayerPart::Camels).camels)
    }

    #[getter]
    fn meeples<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let colours = self.content().doc.colours.len();
        PyTuple::new(py, &self.read(PlayerPart::Meeples).meeples[..colours])
    }

    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let content = self.content();
        let cards = &content.doc.cards;
        let player = self.read(PlayerPart::Hands);
        let hands = (0..content.decks())
            .map(|deck| {
                let hand = player.hands.hand(deck);
                PyTuple::new(py, hand.iter().map(|&c| cards[usize::from(c)].id.as_str()))
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, hands)
    }

    #[getter]
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        counters(py, self.content(), &self.read(PlayerPart::Extras).extras)
    }

    fn __setattr__(&self, name: &str, _value: Bound<'_, PyAny>) -> PyResult<()> {
        Err(refuse_change(name))
    }
}

fn counters<'py>(
    py: Python<'py>,
    content: &Content,
    extras: &[(crate::names::Sym, i64)],
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, extras.iter().map(|&(k, v)| (content.names.name(k), v)))
}

fn tuple_of_tuples<'a, T, I>(py: Python<'_>, rows: I) -> PyResult<Py<PyTuple>>
where
    T: Copy + for<'py> IntoPyObject<'py> + 'a,
    I: Iterator<Item = &'a [T]>,
{
    let rows = rows
        .map(|row| PyTuple::new(py, row.iter().copied()))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, rows)?.unbind())
}

/// How often one hook was asked, how often it was called back (an answer it gave before
/// to the same question is not asked again: `crate::hook_reads`), and the time its calls
/// took (the engine report).
#[derive(Debug, Default)]
struct Tally {
    asked: AtomicU64,
    calls: AtomicU64,
    nanos: AtomicU64,
}

/// A plugin's hooks as the kernel calls them: one Python function per hook (the plugins'
/// answers combined in Python, `naqala.native.callbacks`), called with a `StateView`.
#[derive(Debug)]
pub struct PyHooks {
    content: Arc<Content>,
    /// the function of each hook of `CALLED_BACK`, if a plugin implements it
    functions: [Option<Py<PyAny>>; CALLED_BACK.len()],
    to_state: Option<Py<PyAny>>,
    tallies: [Tally; CALLED_BACK.len()],
    /// the first hook's failure, raised when the kernel's call returns
    failure: Mutex<Option<String>>,
    /// the effect lists answered, by their JSON, resolved against the content once
    answered: Mutex<HashMap<String, Arc<Vec<Effect>>>>,
    /// the score lines handed to `naqala_adjust_score_lines`, each made once in Python
    handed: Mutex<HashMap<Line, Py<PyTuple>>>,
    /// the hooks' answers, remembered by what each read (`crate::hook_reads`)
    remembered: Remembered,
    /// each distinct score line handed to an adjustment, numbered once (numbers are never
    /// given twice), and the last number given
    numbered: Mutex<(HashMap<Line, u64, FixedState>, u64)>,
}

/// A sheet's adjustment asked of a player's lines, each by its number
/// (`PyHooks::line_numbers`).
type Adjusting = (usize, Vec<u64>);
/// A tile kind's effects asked before, after or instead of its action.
type TileAsked = (String, &'static str);

/// The answers of each hook shown a view, by its arguments and what it read: a greedy
/// player asks them of thousands of states alike where the hook looks.
#[derive(Debug, Default)]
struct Remembered {
    points: Mutex<Memo<usize, i64>>,
    lines: Mutex<Memo<usize, Vec<Line>>>,
    adjusted_points: Mutex<Memo<Adjusting, i64>>,
    adjusted_lines: Mutex<Memo<Adjusting, Vec<Line>>>,
    protected: Mutex<Memo<usize, u64>>,
    ends: Mutex<Memo<(), bool>>,
    verdicts: Mutex<Memo<(), Option<Verdict>>>,
    tile_effects: Mutex<Memo<TileAsked, Option<Arc<Vec<Effect>>>>>,
}

impl PyHooks {
    /// The calls to `functions` (`(hook name, function)`); ValueError naming a hook the
    /// kernel does not call back.
    pub fn new(
        content: Arc<Content>,
        functions: Vec<(String, Py<PyAny>)>,
        to_state: Option<Py<PyAny>>,
    ) -> PyResult<PyHooks> {
        let mut found: [Option<Py<PyAny>>; CALLED_BACK.len()] = Default::default();
        for (hook, function) in functions {
            let at = CALLED_BACK.iter().position(|&h| h == hook).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "the native engine does not call back '{hook}' (it calls back {})",
                    CALLED_BACK.join(", ")
                ))
            })?;
            found[at] = Some(function);
        }
        let given = |hook: &str| {
            let at = CALLED_BACK.iter().position(|&h| h == hook);
            at.is_some_and(|at| found[at].is_some())
        };
        if given(ADJUST_SCORE_LINES) && !crate::results::readable(&content, given) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "naqala_adjust_score_lines reads every score line, and the native engine \
                 does not write the score lines of these rules",
            ));
        }
        Ok(PyHooks {
            content,
            functions: found,
            to_state,
            tallies: Default::default(),
            failure: Mutex::new(None),
            answered: Mutex::new(HashMap::new()),
            handed: Mutex::new(HashMap::new()),
            remembered: Remembered::default(),
            numbered: Mutex::new((HashMap::default(), 0)),
        })
    }

    /// Each hook asked at least once: `(hook, asked, calls, seconds)`, in `CALLED_BACK`
    /// order.
    pub fn tallies(&self) -> Vec<(String, u64, u64, f64)> {
        CALLED_BACK
            .iter()
            .zip(&self.tallies)
            .filter(|(_, t)| t.asked.load(Ordering::Relaxed) > 0)
            .map(|(hook, t)| {
                let seconds = t.nanos.load(Ordering::Relaxed) as f64 / 1e9;
                let count = |n: &AtomicU64| n.load(Ordering::Relaxed);
                (
                    (*hook).to_owned(),
                    count(&t.asked),
                    count(&t.calls),
                    seconds,
                )
            })
            .collect()
    }

    /// `hook` counted as asked, once a question.
    fn ask(&self, hook: &str) {
        if let Some(at) = CALLED_BACK.iter().position(|&h| h == hook) {
            self.tallies[at].asked.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Hook `hook`'s answer to `asked` about `state`: the one `memo` keeps for what the
    /// hook reads, or else `call`'s (handed the log its view notes each read in), then
    /// kept. Nothing is kept of a call that failed.
    fn remembered<Q: Hash + Eq, A: Clone>(
        &self,
        hook: &str,
        memo: &Mutex<Memo<Q, A>>,
        asked: Q,
        state: &State,
        call: impl FnOnce(&Arc<AtomicU64>) -> Option<A>,
    ) -> Option<A> {
        self.ask(hook);
        let shown = |reads| hook_reads::values(state, reads);
        let question = match memo.lock() {
            Ok(memo) => {
                let question = memo.key(asked, shown);
                if let Some(found) = question.as_ref().and_then(|q| memo.get(q)) {
                    return Some(found);
                }
                question
            }
            Err(_) => None,
        };
        let reads = Arc::new(AtomicU64::new(0));
        let answer = call(&reads)?;
        if let (Some(question), Ok(mut memo)) = (question, memo.lock()) {
            memo.keep(
                question,
                reads.load(Ordering::Relaxed),
                shown,
                answer.clone(),
            );
        }
        Some(answer)
    }

    /// Score lines as the `(category, source, points)` tuples the Python side reads, each
    /// distinct line made once: a greedy game hands the hook thousands of sheets of the
    /// same few lines. No Python object is made while the lock is held.
    fn given_lines<'py>(&self, py: Python<'py>, lines: &[Line]) -> PyResult<Bound<'py, PyList>> {
        let kept: Vec<Option<Py<PyTuple>>> = match self.handed.lock() {
            Ok(kept) => (lines.iter())
                .map(|line| kept.get(line).map(|t| t.clone_ref(py)))
                .collect(),
            Err(_) => lines.iter().map(|_| None).collect(),
        };
        let mut made = Vec::new();
        let mut given = Vec::with_capacity(lines.len());
        for (line, kept) in lines.iter().zip(kept) {
            let tuple = match kept {
                Some(tuple) => tuple,
                None => {
                    let tuple = (line.category.as_str(), line.source.as_str(), line.points)
                        .into_pyobject(py)?
                        .unbind();
                    made.push((line.clone(), tuple.clone_ref(py)));
                    tuple
                }
            };
            given.push(tuple);
        }
        if !made.is_empty() {
            if let Ok(mut kept) = self.handed.lock() {
                if kept.len() + made.len() > KEPT_LINES {
                    kept.clear();
                }
                kept.extend(made);
            }
        }
        PyList::new(py, given)
    }

    /// A view of `state` for a hook, noting its reads in `reads`.
    fn view(
        &self,
        py: Python<'_>,
        state: &State,
        reads: &Arc<AtomicU64>,
    ) -> PyResult<Py<StateView>> {
        StateView::of(py, &self.content, state, self.to_state.as_ref(), reads)
    }

    /// The number of each line: an adjustment's answers are kept by the numbers of the
    /// lines it was handed rather than by copies of them.
    fn line_numbers(&self, lines: &[Line]) -> Vec<u64> {
        // a map is never left half-changed here, so one a panic poisoned is still sound
        let mut numbered = self.numbered.lock().unwrap_or_else(|e| e.into_inner());
        let (known, last) = &mut *numbered;
        if known.len() + lines.len() > KEPT_LINES {
            known.clear(); // the numbers go on: an answer kept by an old one is not found
        }
        lines
            .iter()
            .map(|line| match known.get(line) {
                Some(&number) => number,
                None => {
                    *last += 1;
                    known.insert(line.clone(), *last);
                    *last
                }
            })
            .collect()
    }

    fn fail(&self, message: String) {
        if let Ok(mut failure) = self.failure.lock() {
            failure.get_or_insert(message);
        }
    }

    /// The hook `hook`'s answer about `state` (with `player` when it takes one), read by
    /// `read`, its view noting its reads in `reads`; None (and the failure kept) when the
    /// hook or its answer fails.
    fn call<T>(
        &self,
        hook: &str,
        state: &State,
        player: Option<usize>,
        reads: &Arc<AtomicU64>,
        read: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
    ) -> Option<T> {
        self.call_with(hook, read, |py, function| {
            let view = self.view(py, state, reads)?;
            match player {
                Some(p) => function.call1(py, (view, p)),
                None => function.call1(py, (view,)),
            }
        })
    }

    /// The hook `hook`'s function called by `call`, its answer read by `read`, the call
    /// tallied; None (and the failure kept) when the hook or its answer fails.
    fn call_with<T>(
        &self,
        hook: &str,
        read: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
        call: impl FnOnce(Python<'_>, &Py<PyAny>) -> PyResult<Py<PyAny>>,
    ) -> Option<T> {
        let at = CALLED_BACK.iter().position(|&h| h == hook)?;
        let function = self.functions[at].as_ref()?;
        let started = Instant::now();
        let answer = Python::attach(|py| {
            let answer = call(py, function).map_err(|e| blamed(py, &e).unwrap_or(e.to_string()))?;
            // an answer the kernel refuses is said in its own words: no code of ours
            // failed (`blame` would call it an internal error)
            read(answer.bind(py)).map_err(|e| e.value(py).to_string())
        });
        let tally = &self.tallies[at];
        tally.calls.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        tally.nanos.fetch_add(nanos, Ordering::Relaxed);
        match answer {
            Ok(found) => Some(found),
            Err(line) => {
                self.fail(format!(
                    "{hook} failed when the native engine called it: {line}"
                ));
                None
            }
        }
    }
}

impl HookCalls for PyHooks {
    fn answers(&self, hook: &str) -> bool {
        CALLED_BACK
            .iter()
            .position(|&h| h == hook)
            .is_some_and(|at| self.functions[at].is_some())
    }

    /// The new game handed over and read back as the form of a Python `State`
    /// (`crate::py_state`), its answer checked as a state file is.
    fn adjust_new_game(&self, state: &State) -> Option<State> {
        let content = &self.content;
        let read = |answer: &Bound<'_, PyAny>| -> PyResult<Option<State>> {
            if answer.is_none() {
                return Ok(None);
            }
            state_of_form(content, answer)
                .map(Some)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("its new game: {e}")))
        };
        self.ask(ADJUST_NEW_GAME); // once a game: never remembered
        self.call_with(ADJUST_NEW_GAME, read, |py, function| {
            function.call1(py, (state_form(py, content, state)?,))
        })
        .flatten()
    }

    fn tile_effects(&self, state: &State, kind: &str, at: At) -> Option<Arc<Vec<Effect>>> {
        let read = |answer: &Bound<'_, PyAny>| -> PyResult<Option<Arc<Vec<Effect>>>> {
            if answer.is_none() {
                return Ok(None);
            }
            let text: String = answer.extract()?;
            let mut kept = self.answered.lock().map_err(|_| {
                pyo3::exceptions::PyRuntimeError::new_err("the effects answered were lost")
            })?;
            if let Some(found) = kept.get(&text) {
                return Ok(Some(Arc::clone(found)));
            }
            let list = crate::effects::answered(&self.content.doc, &self.content.names, &text)
                .map_err(pyo3::exceptions::PyValueError::new_err)?;
            let list = Arc::new(list);
            if kept.len() >= KEPT_ANSWERS {
                kept.clear();
            }
            kept.insert(text, Arc::clone(&list));
            Ok(Some(list))
        };
        let memo = &self.remembered.tile_effects;
        self.remembered(
            TILE_EFFECTS,
            memo,
            (kind.to_owned(), at.name()),
            state,
            |reads| {
                self.call_with(TILE_EFFECTS, read, |py, function| {
                    function.call1(py, (self.view(py, state, reads)?, kind, at.name()))
                })
            },
        )
        .flatten()
    }

    fn game_ends(&self, state: &State) -> bool {
        self.remembered(GAME_ENDS, &self.remembered.ends, (), state, |reads| {
            self.call(GAME_ENDS, state, None, reads, |answer| answer.is_truthy())
        })
        .unwrap_or(false)
    }

    fn protected(&self, state: &State, player: usize) -> u64 {
        let colours = &self.content.doc.colours;
        let protected = |reads: &Arc<AtomicU64>| {
            self.call(PROTECTED_MEEPLES, state, Some(player), reads, |answer| {
                let mut found = 0u64;
                for item in answer.try_iter()? {
                    let id: String = item?.extract()?;
                    let at = colours.iter().position(|c| c.id == id).ok_or_else(|| {
                        pyo3::exceptions::PyValueError::new_err(format!(
                            "it answered {id:?}, which is no colour of these rules"
                        ))
                    })?;
                    found |= 1 << at;
                }
                Ok(found)
            })
        };
        self.remembered(
            PROTECTED_MEEPLES,
            &self.remembered.protected,
            player,
            state,
            protected,
        )
        .unwrap_or(0)
    }

    fn score_points(&self, state: &State, player: usize) -> i64 {
        self.remembered(
            SCORE_LINES,
            &self.remembered.points,
            player,
            state,
            |reads| {
                self.call(SCORE_LINES, state, Some(player), reads, |answer| {
                    answer.extract::<i64>()
                })
            },
        )
        .unwrap_or(0)
    }

    fn score_lines(&self, state: &State, player: usize) -> Vec<Line> {
        self.remembered(
            SCORE_LINES,
            &self.remembered.lines,
            player,
            state,
            |reads| {
                self.call_with(SCORE_LINES, read_lines, |py, function| {
                    function.call1(py, (self.view(py, state, reads)?, player, true))
                })
            },
        )
        .unwrap_or_default()
    }

    fn adjusted_points(&self, state: &State, player: usize, lines: &[Line]) -> i64 {
        let asked = (player, self.line_numbers(lines));
        self.remembered(
            ADJUST_SCORE_LINES,
            &self.remembered.adjusted_points,
            asked,
            state,
            |reads| {
                self.call_with(
                    ADJUST_SCORE_LINES,
                    |answer| answer.extract::<i64>(),
                    |py, function| {
                        let view = self.view(py, state, reads)?;
                        function.call1(py, (view, player, self.given_lines(py, lines)?, false))
                    },
                )
            },
        )
        .unwrap_or(0)
    }

    fn adjusted_lines(&self, state: &State, player: usize, lines: &[Line]) -> Vec<Line> {
        let asked = (player, self.line_numbers(lines));
        self.remembered(
            ADJUST_SCORE_LINES,
            &self.remembered.adjusted_lines,
            asked,
            state,
            |reads| {
                self.call_with(ADJUST_SCORE_LINES, read_lines, |py, function| {
                    let view = self.view(py, state, reads)?;
                    function.call1(py, (view, player, self.given_lines(py, lines)?, true))
                })
            },
        )
        .unwrap_or_default()
    }

    fn verdict(&self, state: &State) -> Option<Verdict> {
        let players = state.players.len();
        let verdict = |reads: &Arc<AtomicU64>| {
            self.call(VERDICT, state, None, reads, |answer| {
                if answer.is_none() {
                    return Ok(None);
                }
                let (winners, kind): (Vec<usize>, String) = answer.extract()?;
                if let Some(&seat) = winners.iter().find(|&&w| w >= players) {
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "its winner {seat} is no seat of a game of {players}"
                    )));
                }
                Ok(Some(Verdict { winners, kind }))
            })
        };
        self.remembered(VERDICT, &self.remembered.verdicts, (), state, verdict)
            .flatten()
    }

    fn take_failure(&self) -> Option<String> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }
}

/// A hook's score lines, answered as `(category, source, points)` tuples.
fn read_lines(answer: &Bound<'_, PyAny>) -> PyResult<Vec<Line>> {
    let found: Vec<(String, String, i64)> = answer.extract()?;
    Ok(found
        .into_iter()
        .map(|(category, source, points)| Line {
            category,
            source,
            points,
        })
        .collect())
}

/// A seat played by a Python AI player (a plugin's `naqala_agents`) in a native game:
/// at each of its seat's decisions the kernel calls `choose(view, notations)` with a
/// read-only view and the legal options' notations in canonical order, and takes the
/// option at the index it answers. A failure is kept in `failure` (shared with the
/// bindings, which raise it once the game stops) and stops the game.
pub struct PyPlayer {
    pub content: Arc<Content>,
    pub choose: Py<PyAny>,
    pub to_state: Option<Py<PyAny>>,
    pub failure: Arc<Mutex<Option<PyErr>>>,
}

impl crate::player::Player for PyPlayer {
    fn choose(
        &mut self,
        _: &crate::rules::Rules,
        state: &State,
        options: &[crate::actions::Action],
    ) -> Result<usize, crate::rules::Unported> {
        let cols = usize::from(state.layout.cols);
        let chosen = Python::attach(|py| {
            let reads = Arc::new(AtomicU64::new(0)); // a seat's answers are not remembered
            let view = StateView::of(py, &self.content, state, self.to_state.as_ref(), &reads)?;
            let notations: Vec<String> = options
                .iter()
                .map(|a| a.notation(&self.content, cols))
                .collect();
            let index: usize = self.choose.call1(py, (view, notations))?.extract(py)?;
            if index >= options.len() {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "the Python player chose option {index} of {}",
                    options.len()
                )));
            }
            Ok(index)
        });
        chosen.map_err(|error| {
            if let Ok(mut failure) = self.failure.lock() {
                failure.get_or_insert(error);
            }
            crate::rules::Unported("a Python player's decision".to_owned())
        })
    }
}

/// `core.failures.blame`'s line for a hook's error, worked out while its traceback is
/// at hand: it names the plugin whose code raised, as the Python engine's line does.
fn blamed(py: Python<'_>, error: &PyErr) -> Option<String> {
    let failures = py.import("naqala.core.failures").ok()?;
    let value = error.value(py);
    if let Some(traceback) = error.traceback(py) {
        value.setattr("__traceback__", traceback).ok()?; // the frames blame reads
    }
    let line = failures.getattr("blame").ok()?.call1((value,)).ok()?;
    line.extract().ok()
}
