//! A native state handed to Python as the positional form of its `State`, and that form
//! read back, without state JSON in between.
//!
//! A hook that takes and returns a whole Python `State` (`naqala_adjust_new_game`, a
//! view's `full_state()`) used to cost a state JSON round trip: the kernel wrote the text,
//! Python parsed it and structured it with cattrs, the hook's answer went back the same
//! way. That was a hundred times a native new game. The form is what the Python side
//! builds a `State` from with the attrs constructors directly (`naqala.native.state_form`):
//! tuples mirroring `core/state.py`'s classes field by field, in their order — counts as
//! tuples of ints, tiles by board index, tiles, cards and stages by id.
//!
//! ```text
//! (ruleset, (rows, cols, tile ids, blocked, walls), (meeples, owners, tokens),
//!  players: (coins, camels, meeples, hands by deck, extras)…, bag, pool,
//!  decks: (draw, row, discard)…, markers, bid_track, turn_track, (stage, player),
//!  (seed, counter), round, turn, flags, extras)
//! turn: None | (marker, start, path, hand, colour, taken, used, revealed, resume,
//!               callers, fields: (name, value)… of the turn fields the plugins declare)
//! ```
//!
//! A form read back comes from a plugin's hook and may hold anything: its shape, types and
//! sizes are checked here, each problem named by the state JSON path of the same place,
//! and the rest by the very checks a state JSON document passes (`state_from_doc`, then
//! `statecheck`), so the answer is held to what a state file is.

use indexmap::IndexMap;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};

use crate::content::Content;
use crate::python_args::shown;
use crate::state::{tile_name, Count, State, NOBODY, NO_CARD};
use crate::statejson::{
    check_board_size, state_from_doc, target_name, BoardDoc, DecisionDoc, DeckDoc, PlayerDoc,
    RngDoc, StateDoc, TileDoc, TurnDoc, FORMAT, VERSION,
};

/// The turn fields the kernel holds, in the order the form lists those declared.
const TURN_FIELDS: [&str; 4] = ["reach", "kills", "target", "claimed"];

/// `state` as its form (module docs).
pub fn state_form<'py>(
    py: Python<'py>,
    content: &Content,
    state: &State,
) -> PyResult<Bound<'py, PyTuple>> {
    let colours = content.colours();
    let tokens = content.tokens();
    let layout = &state.layout;
    let size = layout.size();
    let names = &content.names;
    let cards = |ids: &[u8]| PyTuple::new(py, ids.iter().map(|&c| card_id(content, c)));
    let syms = |list: &[crate::names::Sym]| PyTuple::new(py, list.iter().map(|&s| names.name(s)));
    let counters = |extras: &[(crate::names::Sym, i64)]| {
        PyTuple::new(py, extras.iter().map(|&(k, v)| (names.name(k), v)))
    };
    let layout_form = (
        layout.rows,
        layout.cols,
        PyTuple::new(
            py,
            layout
                .tiles
                .iter()
                .map(|&t| content.doc.tiles[usize::from(t)].id.as_str()),
        )?,
        PyTuple::new(
            py,
            (0..size)
                .filter(|&t| layout.blocked & (1 << t) != 0)
                .collect::<Vec<_>>(),
        )?,
        PyTuple::new(py, layout.walls.iter().copied())?,
    );
    let board = &state.board;
    let board_form = (
        per_tile(py, size, |t| &board.meeples(t)[..colours])?,
        PyTuple::new(py, (0..size).map(|t| board.owner(t)))?,
        per_tile(py, size, |t| &board.tokens(t)[..tokens])?,
    );
    let players = state
        .players
        .iter()
        .map(|p| {
            let hands = (0..content.decks())
                .map(|d| cards(p.hands.hand(d)))
                .collect::<PyResult<Vec<_>>>()?;
            (
                p.coins,
                p.camels,
                PyTuple::new(py, &p.meeples[..colours])?,
                PyTuple::new(py, hands)?,
                counters(&p.extras)?,
            )
                .into_pyobject(py)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let decks = state
        .decks
        .iter()
        .map(|d| (cards(d.draw())?, cards(d.row())?, cards(d.discard())?).into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    let turn = match &state.turn {
        None => py.None().into_bound(py),
        Some(t) => turn_form(py, content, state, t)?.into_any(),
    };
    let parts: [Bound<'py, PyAny>; 16] = [
        PyTuple::new(py, &content.doc.ruleset)?.into_any(),
        layout_form.into_pyobject(py)?.into_any(),
        board_form.into_pyobject(py)?.into_any(),
        PyTuple::new(py, players)?.into_any(),
        PyTuple::new(py, &state.bag[..colours])?.into_any(),
        PyTuple::new(py, &state.pool[..tokens])?.into_any(),
        PyTuple::new(py, decks)?.into_any(),
        PyTuple::new(py, state.markers.as_slice())?.into_any(),
        PyTuple::new(py, state.bid_track.as_slice())?.into_any(),
        PyTuple::new(py, state.turn_track.as_slice())?.into_any(),
        (names.name(state.decision.stage), state.decision.player)
            .into_pyobject(py)?
            .into_any(),
        (state.rng.seed, state.rng.counter)
            .into_pyobject(py)?
            .into_any(),
        state.round.into_pyobject(py)?.into_any(),
        turn,
        syms(&state.flags)?.into_any(),
        counters(&state.extras)?.into_any(),
    ];
    PyTuple::new(py, parts)
}

/// A tuple of counts per tile, from `cells` of each tile.
fn per_tile<'py, 'b>(
    py: Python<'py>,
    size: usize,
    cells: impl Fn(usize) -> &'b [Count],
) -> PyResult<Bound<'py, PyTuple>> {
    let rows = (0..size)
        .map(|t| PyTuple::new(py, cells(t)))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, rows)
}

fn card_id(content: &Content, card: u8) -> &str {
    if card == NO_CARD {
        ""
    } else {
        content.doc.cards[usize::from(card)].id.as_str()
    }
}

/// The turn's form: its core fields, then the declared turn fields the kernel holds as
/// `(name, value)` (the Python side leaves out those at their default, as `Turn` does).
fn turn_form<'py>(
    py: Python<'py>,
    content: &Content,
    state: &State,
    t: &crate::state::Turn,
) -> PyResult<Bound<'py, PyTuple>> {
    let names = &content.names;
    let cols = usize::from(state.layout.cols);
    let mut fields: Vec<Bound<'py, PyAny>> = Vec::new();
    for name in TURN_FIELDS {
        if !content.declares_turn_field(name) {
            continue;
        }
        let value = match name {
            "reach" => t.reach.into_pyobject(py)?.into_any(),
            "kills" => t.kills.into_pyobject(py)?.into_any(),
            "target" => target_name(t.target, cols).into_pyobject(py)?.into_any(),
            _ => PyTuple::new(py, t.claimed.iter())?.into_any(),
        };
        fields.push((name, value).into_pyobject(py)?.into_any());
    }
    let hand = match &t.hand {
        None => PyTuple::empty(py),
        Some(h) => PyTuple::new(py, &h[..content.colours()])?,
    };
    let parts: [Bound<'py, PyAny>; 11] = [
        t.marker.into_pyobject(py)?.into_any(),
        t.start.into_pyobject(py)?.into_any(),
        PyTuple::new(py, t.path.iter())?.into_any(),
        hand.into_any(),
        t.colour.into_pyobject(py)?.into_any(),
        t.taken.into_pyobject(py)?.into_any(),
        PyTuple::new(py, t.used.iter().map(|&s| names.name(s)))?.into_any(),
        PyTuple::new(py, t.revealed.iter().map(|&c| card_id(content, c)))?.into_any(),
        names.name(t.resume).into_pyobject(py)?.into_any(),
        PyTuple::new(py, t.callers.iter().map(|&s| names.name(s)))?.into_any(),
        PyTuple::new(py, fields)?.into_any(),
    ];
    PyTuple::new(py, parts)
}

/// A native state from a form (module docs), checked as state JSON is; the error names
/// the state JSON path of the first problem.
pub fn state_of_form(content: &Content, form: &Bound<'_, PyAny>) -> Result<State, String> {
    let doc = Reader::new(content, form)?.doc(form)?;
    state_from_doc(content, &doc)
}

type Found<T> = Result<T, String>;

/// Where a value lies, as the state JSON path of the same place: written out only for an
/// error, so reading a good form formats nothing.
#[derive(Clone, Copy)]
enum At<'a> {
    Root(&'static str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Root(name) => write!(f, "{name}"),
            At::Key(parent, key) => write!(f, "{parent}.{key}"),
            At::Index(parent, k) => write!(f, "{parent}[{k}]"),
        }
    }
}

impl<'a> At<'a> {
    fn key(&'a self, key: &'a str) -> At<'a> {
        At::Key(self, key)
    }

    fn index(&'a self, k: usize) -> At<'a> {
        At::Index(self, k)
    }
}

const ROOT: At<'static> = At::Root("$");

/// What a value is, for an error: its type's name.
fn kind(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// The items of a tuple (or a list: a hook may build one).
fn items<'py>(value: &Bound<'py, PyAny>, at: &At<'_>) -> Found<Vec<Bound<'py, PyAny>>> {
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    if let Ok(list) = value.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    Err(format!("{at}: expected a tuple, not {}", kind(value)))
}

/// The `N` items of a tuple of exactly `N`.
fn fixed<'py, const N: usize>(
    value: &Bound<'py, PyAny>,
    at: &At<'_>,
) -> Found<[Bound<'py, PyAny>; N]> {
    let found = items(value, at)?;
    let len = found.len();
    found
        .try_into()
        .map_err(|_| format!("{at}: expected {N} items, not {len}"))
}

fn int(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<i64> {
    if value.is_instance_of::<PyBool>() {
        return Err(format!("{at}: expected an integer, not a bool"));
    }
    value.extract::<i64>().map_err(|_| {
        if value.is_instance_of::<pyo3::types::PyInt>() {
            format!(
                "{at}: {} is out of the kernel's range",
                shown(value.as_borrowed())
            )
        } else {
            format!("{at}: expected an integer, not {}", kind(value))
        }
    })
}

/// An integer from 0 to 2⁶⁴−1 (the generator's seed and counter).
fn unsigned(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<u64> {
    if value.is_instance_of::<PyBool>() {
        return Err(format!("{at}: expected an integer, not a bool"));
    }
    value.extract::<u64>().map_err(|_| {
        format!(
            "{at}: expected an integer from 0 to 2**64-1, not {}",
            shown(value.as_borrowed())
        )
    })
}

fn text(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<String> {
    value
        .cast::<PyString>()
        .map_err(|_| format!("{at}: expected a string, not {}", kind(value)))?
        .to_str()
        .map(str::to_owned)
        .map_err(|_| format!("{at}: not a valid string"))
}

fn texts(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<Vec<String>> {
    items(value, at)?
        .iter()
        .enumerate()
        .map(|(k, v)| text(v, &at.index(k)))
        .collect()
}

fn ints(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<Vec<i64>> {
    items(value, at)?
        .iter()
        .enumerate()
        .map(|(k, v)| int(v, &at.index(k)))
        .collect()
}

/// Counters `(name, value)…` as the state document keys them.
fn counters(value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<IndexMap<String, i64>> {
    let mut found = IndexMap::new();
    for (k, pair) in items(value, at)?.iter().enumerate() {
        let at = at.index(k);
        let [name, n] = fixed::<2>(pair, &at)?;
        let name = text(&name, &at.index(0))?;
        let n = int(&n, &at.index(1))?;
        if found.insert(name, n).is_some() {
            return Err(format!("{at}: a counter named twice"));
        }
    }
    Ok(found)
}

/// Reads a form into a state document, with the content naming its parts and the
/// board's shape (tiles are named by index in the form, by name in the document).
struct Reader<'a> {
    content: &'a Content,
    rows: usize,
    cols: usize,
}

impl<'a> Reader<'a> {
    /// The reader of `form`'s board, whose shape is checked before any tile is named.
    fn new(content: &'a Content, form: &Bound<'_, PyAny>) -> Found<Reader<'a>> {
        let layout = items(form, &ROOT)?
            .into_iter()
            .nth(1)
            .ok_or("$: expected 16 items (a State's fields)")?;
        let at = ROOT.key("board");
        let found = items(&layout, &at)?;
        let (Some(rows), Some(cols)) = (found.first(), found.get(1)) else {
            return Err("$.board: expected rows, cols, tiles, blocked and walls".to_owned());
        };
        let rows = int(rows, &at.key("rows"))?;
        let cols = int(cols, &at.key("cols"))?;
        check_board_size(rows, cols)?;
        Ok(Reader {
            content,
            rows: rows as usize,
            cols: cols as usize,
        })
    }

    fn size(&self) -> usize {
        self.rows * self.cols
    }

    /// The name of the tile at index `value`.
    fn tile(&self, value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<String> {
        self.tile_at(int(value, at)?, at)
    }

    fn tile_at(&self, index: i64, at: &At<'_>) -> Found<String> {
        usize::try_from(index)
            .ok()
            .filter(|&t| t < self.size())
            .map(|t| tile_name(t, self.cols))
            .ok_or_else(|| {
                format!(
                    "{at}: {index} is no tile of the {}x{} board",
                    self.rows, self.cols
                )
            })
    }

    fn tiles(&self, value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<Vec<String>> {
        items(value, at)?
            .iter()
            .enumerate()
            .map(|(k, v)| self.tile(v, &at.index(k)))
            .collect()
    }

    /// `n` counts, each from 0 to the most the kernel holds.
    fn counts(&self, value: &Bound<'_, PyAny>, n: usize, at: &At<'_>) -> Found<Vec<Count>> {
        let found = items(value, at)?;
        if found.len() != n {
            return Err(format!("{at}: {} counts, expected {n}", found.len()));
        }
        found
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let count = int(v, &at.index(k))?;
                Count::try_from(count).map_err(|_| {
                    format!("{}: {count} is no count (0 to {})", at.index(k), Count::MAX)
                })
            })
            .collect()
    }

    /// Meeples per colour as the document writes them: colour letters.
    fn letters(&self, value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<String> {
        let counts = self.counts(value, self.content.colours(), at)?;
        let mut text = String::new();
        for (&letter, &n) in self.content.letters.iter().zip(&counts) {
            text.extend(std::iter::repeat_n(letter, usize::from(n)));
        }
        Ok(text)
    }

    /// Tokens per kind as the document keys them (`all`: zeros too).
    fn tokens(
        &self,
        value: &Bound<'_, PyAny>,
        all: bool,
        at: &At<'_>,
    ) -> Found<IndexMap<String, i64>> {
        let counts = self.counts(value, self.content.tokens(), at)?;
        Ok(self
            .content
            .doc
            .tokens
            .iter()
            .zip(counts)
            .filter(|&(_, n)| all || n != 0)
            .map(|(t, n)| (t.id.clone(), i64::from(n)))
            .collect())
    }

    /// One entry per deck at most, each with its deck's index.
    fn by_deck<'py>(
        &self,
        value: &Bound<'py, PyAny>,
        at: &At<'_>,
    ) -> Found<Vec<Bound<'py, PyAny>>> {
        let found = items(value, at)?;
        let decks = self.content.decks();
        if found.len() > decks {
            return Err(format!(
                "{at}: {} decks, these rules have {decks}",
                found.len()
            ));
        }
        Ok(found)
    }

    fn board(&self, layout: &Bound<'_, PyAny>, board: &Bound<'_, PyAny>) -> Found<BoardDoc> {
        let at = ROOT.key("board");
        let [_, _, tiles, blocked, walls] = fixed::<5>(layout, &at)?;
        let tiles = texts(&tiles, &at.key("tiles"))?;
        let [meeples, owners, tokens] = fixed::<3>(board, &at)?;
        let meeples = items(&meeples, &at.key("meeples"))?;
        let owners = ints(&owners, &at.key("owners"))?;
        let tokens = items(&tokens, &at.key("tokens"))?;
        let size = self.size();
        for (what, len) in [
            ("tiles", tiles.len()),
            ("meeples", meeples.len()),
            ("owners", owners.len()),
            ("tokens", tokens.len()),
        ] {
            if len != size {
                return Err(format!(
                    "$.board.{what}: {len} tiles, expected {size} for a {}x{} board",
                    self.rows, self.cols
                ));
            }
        }
        let listed = at.key("tiles");
        let tiles = tiles
            .into_iter()
            .enumerate()
            .map(|(i, tile)| {
                let here = listed.index(i);
                Ok(TileDoc {
                    at: tile_name(i, self.cols),
                    tile,
                    meeples: self.letters(&meeples[i], &here.key("meeples"))?,
                    owner: (owners[i] != i64::from(NOBODY)).then_some(owners[i]),
                    tokens: self.tokens(&tokens[i], false, &here.key("tokens"))?,
                })
            })
            .collect::<Found<Vec<_>>>()?;
        let listed = at.key("walls");
        let walls = items(&walls, &listed)?
            .iter()
            .enumerate()
            .map(|(i, wall)| {
                let here = listed.index(i);
                let [a, b] = fixed::<2>(wall, &here)?;
                Ok(vec![
                    self.tile(&a, &here.index(0))?,
                    self.tile(&b, &here.index(1))?,
                ])
            })
            .collect::<Found<Vec<_>>>()?;
        Ok(BoardDoc {
            rows: self.rows as i64,
            cols: self.cols as i64,
            blocked: self.tiles(&blocked, &at.key("blocked"))?,
            walls,
            tiles,
        })
    }

    fn player(&self, value: &Bound<'_, PyAny>, at: &At<'_>) -> Found<PlayerDoc> {
        let [coins, camels, meeples, hands, extras] = fixed::<5>(value, at)?;
        let mut held = IndexMap::new();
        let listed = at.key("hands");
        for (deck, hand) in self.by_deck(&hands, &listed)?.iter().enumerate() {
            let name = &self.content.doc.decks[deck].id;
            let cards = texts(hand, &listed.key(name))?;
            if !cards.is_empty() {
                held.insert(name.clone(), cards);
            }
        }
        Ok(PlayerDoc {
            coins: int(&coins, &at.key("coins"))?,
            camels: int(&camels, &at.key("camels"))?,
            meeples: self.letters(&meeples, &at.key("meeples"))?,
            hands: held,
            extras: counters(&extras, &at.key("extras"))?,
        })
    }

    fn turn(&self, value: &Bound<'_, PyAny>) -> Found<TurnDoc> {
        let at = ROOT.key("turn");
        let [marker, start, walked, hand, colour, taken, used, revealed, resume, callers, fields] =
            fixed::<11>(value, &at)?;
        let start = int(&start, &at.key("start"))?;
        let colour = int(&colour, &at.key("colour"))?;
        let letters = &self.content.letters;
        let colour = if colour == i64::from(NOBODY) {
            None
        } else {
            let letter = usize::try_from(colour).ok().and_then(|c| letters.get(c));
            let letter = letter.ok_or_else(|| format!("$.turn.colour: {colour} is no colour"))?;
            Some(letter.to_string())
        };
        let mut doc = TurnDoc {
            marker: int(&marker, &at.key("marker"))?,
            start: if start == i64::from(NOBODY) {
                None
            } else {
                Some(self.tile_at(start, &at.key("start"))?)
            },
            path: self.tiles(&walked, &at.key("path"))?,
            hand: if items(&hand, &at.key("hand"))?.is_empty() {
                None
            } else {
                Some(self.letters(&hand, &at.key("hand"))?)
            },
            colour,
            taken: int(&taken, &at.key("taken"))?,
            reach: None,
            kills: None,
            target: None,
            used: texts(&used, &at.key("used"))?,
            revealed: texts(&revealed, &at.key("revealed"))?,
            resume: text(&resume, &at.key("resume"))?,
            claimed: None,
            callers: texts(&callers, &at.key("callers"))?,
        };
        let listed = at.key("fields");
        for (k, pair) in items(&fields, &listed)?.iter().enumerate() {
            let here = listed.index(k);
            let [name, field] = fixed::<2>(pair, &here)?;
            let name = text(&name, &here.index(0))?;
            let here = at.key(&name);
            match name.as_str() {
                "reach" => doc.reach = Some(int(&field, &here)?),
                "kills" => doc.kills = Some(int(&field, &here)?),
                "target" => doc.target = Some(text(&field, &here)?),
                "claimed" => doc.claimed = Some(self.tiles(&field, &here)?),
                _ => {
                    return Err(format!(
                        "{listed}[{k}]: no turn field {name:?} the kernel holds ({})",
                        TURN_FIELDS.join(", ")
                    ))
                }
            }
        }
        Ok(doc)
    }

    fn doc(&self, form: &Bound<'_, PyAny>) -> Found<StateDoc> {
        let [ruleset, layout, board, players, bag, pool, decks, markers, bid_track, turn_track, decision, rng, round, turn, flags, extras] =
            fixed::<16>(form, &ROOT)?;
        let content = self.content;
        let listed = ROOT.key("players");
        let players = items(&players, &listed)?
            .iter()
            .enumerate()
            .map(|(i, p)| self.player(p, &listed.index(i)))
            .collect::<Found<Vec<_>>>()?;
        let mut held = IndexMap::new();
        let listed = ROOT.key("decks");
        for (deck, value) in self.by_deck(&decks, &listed)?.iter().enumerate() {
            let name = &content.doc.decks[deck].id;
            let here = listed.key(name);
            let [draw, row, discard] = fixed::<3>(value, &here)?;
            let doc = DeckDoc {
                draw: texts(&draw, &here.key("draw"))?,
                row: texts(&row, &here.key("row"))?,
                discard: texts(&discard, &here.key("discard"))?,
            };
            held.insert(name.clone(), doc);
        }
        let spots = |value: &Bound<'_, PyAny>, at: &At<'_>| -> Found<Vec<Option<i64>>> {
            Ok(ints(value, at)?
                .into_iter()
                .map(|m| (m != i64::from(NOBODY)).then_some(m))
                .collect())
        };
        let at = ROOT.key("decision");
        let [stage, player] = fixed::<2>(&decision, &at)?;
        let stage = text(&stage, &at.key("stage"))?;
        let player = int(&player, &at.key("player"))?;
        let at = ROOT.key("rng");
        let [seed, counter] = fixed::<2>(&rng, &at)?;
        Ok(StateDoc {
            format: FORMAT.to_owned(),
            version: VERSION,
            ruleset: texts(&ruleset, &ROOT.key("ruleset"))?,
            colours: content.letters.iter().collect(),
            tokens: content.doc.tokens.iter().map(|t| t.id.clone()).collect(),
            round: int(&round, &ROOT.key("round"))?,
            decision: DecisionDoc {
                stage,
                player: (player != i64::from(NOBODY)).then_some(player),
            },
            board: self.board(&layout, &board)?,
            players,
            bag: self.letters(&bag, &ROOT.key("bag"))?,
            pool: self.tokens(&pool, true, &ROOT.key("pool"))?,
            decks: held,
            markers: ints(&markers, &ROOT.key("markers"))?,
            bid_track: spots(&bid_track, &ROOT.key("bid_track"))?,
            turn_track: spots(&turn_track, &ROOT.key("turn_track"))?,
            turn: if turn.is_none() {
                None
            } else {
                Some(self.turn(&turn)?)
            },
            flags: texts(&flags, &ROOT.key("flags"))?,
            extras: counters(&extras, &ROOT.key("extras"))?,
            rng: RngDoc {
                seed: unsigned(&seed, &at.key("seed"))?,
                counter: unsigned(&counter, &at.key("counter"))?,
            },
            without: content.doc.without.clone(),
        })
    }
}
