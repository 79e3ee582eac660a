//! A seat's observation and the legal actions' codec indices, computed from a native
//! state: the numbers of `envs/observation.py` (its own parts and the base game's `turn`
//! and `end-triggers`, `plugins/base/encoding.py`) and the indices of `envs/codec.py`.
//!
//! What the numbering depends on (the squares in order, the tile kinds and VP, each
//! deck's card ids, the stages, the tracks' lengths, which decks are hidden) is computed
//! once by Python from the rules (`naqala.envs.native`) and handed over as an
//! `ObservationSpec`, so both engines number the same things the same way; this module
//! only reads a state into those places. Like the Python encoder, it reads exactly what
//! the seat's view (`core/views.py`) shows: another player's coins and hidden hands,
//! the draw piles' order and the generator never reach the numbers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use crate::actions::Action;
use crate::content::Content;
use crate::extras::get_extra;
use crate::names::Sym;
use crate::state::{tile_name, Count, State, NOBODY, NON_PLAYER, NO_CARD};

/// One deck's place in the observation (`_Shape.cards`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckPart {
    /// the deck's index in the content
    pub deck: usize,
    /// by card index of the content: the card's number among the deck's ids, if any
    pub cards: Vec<Option<usize>>,
    /// how many distinct ids the deck has (its counts' width)
    pub size: usize,
    /// whether the cards in another player's hand are hidden (`naqala_hidden_decks`)
    pub hidden: bool,
}

/// A part of one player counter per slot, seen from the seat (`seats_from`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterPart {
    /// the part's name
    pub part: String,
    /// the player counter it shows (`Player.extras`)
    pub extra: String,
}

/// The Whims' `whims-on-cities` (`plugins/whims/encoding.py`): each whim's city as its
/// place among the board's cities, in board order, plus one (0: on no city).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhimsPart {
    /// the whims deck's index in the content
    pub deck: usize,
    /// by card index of the content: the whim's number (`card_ids` order), if any
    pub cards: Vec<Option<usize>>,
    /// how many distinct whims there are (the part's size)
    pub size: usize,
    /// by tile index of the content: whether the tile is a city
    pub cities: Vec<bool>,
}

/// The layout of the observation, as `naqala.envs.native.observation_spec` writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservationSpec {
    /// the squares in order (`board_squares`)
    pub squares: Vec<String>,
    /// the players' slots: the most seats the rules allow
    pub slots: usize,
    /// whether a square has an owner number for a non-player opponent
    pub non_player: bool,
    /// the number of tile kinds (the one-hot's width)
    pub kinds: usize,
    /// by tile index of the content: the kind one-hot and the VP
    pub prefix: Vec<Vec<f32>>,
    pub decks: Vec<DeckPart>,
    /// the stages in order (`_Shape.stages`)
    pub stages: Vec<String>,
    pub bid_spots: usize,
    pub turn_spots: usize,
    /// the end-trigger flags in order
    pub flags: Vec<String>,
    /// the parts in order; each must be one this module reads
    pub parts: Vec<String>,
    /// the plugins' parts that show one player counter per slot (the Artisans' `tents`:
    /// `piece.tent`; the Whims' `whims-claimed`: `whims.claimed`), by part name
    #[serde(default)]
    pub counters: Vec<CounterPart>,
    /// the Whims' `whims-on-cities`, when the rules have it
    #[serde(default)]
    pub whims: Option<WhimsPart>,
    /// the encoder's size, checked against the parts'
    pub size: usize,
}

/// The parts this module reads besides the plugins' (`counters`, `whims`).
const PARTS: &[&str] = &[
    "board",
    "players",
    "bag",
    "bank",
    "decks",
    "tracks",
    "decision",
    "turn",
    "end-triggers",
];

/// The Whims' part of which whim lies on which city.
const WHIMS_ON_CITIES: &str = "whims-on-cities";

/// Each tile's square on a board (None: a tile no square names).
type Squares = Arc<[Option<usize>]>;

/// Reads native states into observations of one spec.
#[derive(Debug)]
pub struct Observer {
    spec: ObservationSpec,
    colours: usize,
    tokens: usize,
    /// the stage's number by symbol
    stage_of: Vec<Option<usize>>,
    flag_syms: Vec<Option<Sym>>,
    /// by part name: the player counter a counter part shows (None: a name no state
    /// can hold, always zero)
    counter_syms: HashMap<String, Option<Sym>>,
    square_at: HashMap<String, usize>,
    /// by board width: each tile's square (boards of one width name tiles alike)
    squares_by_cols: Mutex<Vec<(u8, Squares)>>,
    /// each part's first index, in spec order
    starts: Vec<usize>,
}

impl Observer {
    /// An observer of `spec` over `content`; an error names what does not fit.
    pub fn new(content: &Content, spec: ObservationSpec) -> Result<Observer, String> {
        let colours = content.colours();
        let tokens = content.tokens();
        let names = &content.names;
        let mut stage_of = vec![None; names.len()];
        for (index, stage) in spec.stages.iter().enumerate() {
            if let Some(sym) = names.sym(stage) {
                stage_of[usize::from(sym.0)] = Some(index);
            }
        }
        for deck in &spec.decks {
            let numbered = deck.cards.iter().flatten().all(|&at| at < deck.size);
            if deck.deck >= content.decks()
                || deck.cards.len() != content.doc.cards.len()
                || !numbered
            {
                return Err(format!("observation spec: deck {} does not fit", deck.deck));
            }
        }
        if let Some(whims) = &spec.whims {
            if whims.deck >= content.decks()
                || whims.cards.len() != content.doc.cards.len()
                || whims.cards.iter().flatten().any(|&at| at >= whims.size)
                || whims.cities.len() != content.doc.tiles.len()
            {
                return Err("observation spec: the whims part does not fit".to_owned());
            }
        }
        if spec.prefix.len() != content.doc.tiles.len()
            || spec.prefix.iter().any(|p| p.len() != spec.kinds + 1)
        {
            return Err("observation spec: the tile prefixes do not fit the tiles".to_owned());
        }
        let mut observer = Observer {
            colours,
            tokens,
            stage_of,
            flag_syms: spec.flags.iter().map(|f| names.sym(f)).collect(),
            counter_syms: spec
                .counters
                .iter()
                .map(|c| (c.part.clone(), names.sym(&c.extra)))
                .collect(),
            square_at: spec
                .squares
                .iter()
                .enumerate()
                .map(|(i, s)| (s.clone(), i))
                .collect(),
            squares_by_cols: Mutex::new(Vec::new()),
            starts: Vec::new(),
            spec,
        };
        let mut start = 0;
        for part in &observer.spec.parts {
            let plugin_part = observer.counter_syms.contains_key(part)
                || (part == WHIMS_ON_CITIES && observer.spec.whims.is_some());
            if !PARTS.contains(&part.as_str()) && !plugin_part {
                return Err(format!("observation part {part:?} is not read natively"));
            }
            observer.starts.push(start);
            start += observer.part_size(part);
        }
        if start != observer.spec.size {
            return Err(format!(
                "observation spec: the parts make {start} numbers, not {}",
                observer.spec.size
            ));
        }
        Ok(observer)
    }

    /// The number of numbers an observation has.
    pub fn size(&self) -> usize {
        self.spec.size
    }

    fn owners(&self) -> usize {
        self.spec.slots + usize::from(self.spec.non_player)
    }

    fn per_square(&self) -> usize {
        self.spec.kinds + 2 + self.colours + self.owners() + self.tokens
    }

    fn player_size(&self) -> usize {
        4 + self.colours + self.spec.decks.iter().map(|d| d.size + 1).sum::<usize>()
    }

    fn part_size(&self, part: &str) -> usize {
        let spec = &self.spec;
        match part {
            "board" => spec.squares.len() * self.per_square(),
            "players" => spec.slots * self.player_size(),
            "bag" => self.colours,
            "bank" => self.tokens,
            "decks" => spec.decks.iter().map(|d| 1 + 2 * d.size).sum(),
            "tracks" => (spec.bid_spots + spec.turn_spots) * spec.slots,
            "decision" => spec.stages.len() + spec.slots + 1,
            "turn" => 1 + 2 * spec.squares.len() + 2 * self.colours + 5,
            "end-triggers" => spec.flags.len(),
            WHIMS_ON_CITIES => spec.whims.as_ref().map_or(0, |w| w.size),
            _ if self.counter_syms.contains_key(part) => spec.slots,
            _ => 0,
        }
    }

    /// Each tile's square on boards `cols` wide (named `a1`… as `tile_name` names them).
    fn squares(&self, tiles: usize, cols: u8) -> Squares {
        let mut known = self
            .squares_by_cols
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((_, found)) = known.iter().find(|(c, s)| *c == cols && s.len() == tiles) {
            return Arc::clone(found);
        }
        let squares: Squares = (0..tiles)
            .map(|t| {
                self.square_at
                    .get(&tile_name(t, usize::from(cols)))
                    .copied()
            })
            .collect();
        known.push((cols, Arc::clone(&squares)));
        squares
    }

    /// The observation of `state` for `seat` (a player of the game) into `out`, which
    /// holds `size()` numbers.
    pub fn observe(&self, state: &State, seat: usize, out: &mut [f32]) {
        out.fill(0.0);
        let squares = self.squares(state.layout.size(), state.layout.cols);
        let count = state.players.len();
        let slot_of = |player: usize| (player + count - seat % count) % count;
        for (part, &start) in self.spec.parts.iter().zip(&self.starts) {
            let out = &mut out[start..start + self.part_size(part)];
            match part.as_str() {
                "board" => self.board(state, &squares, &slot_of, out),
                "players" => self.players(state, seat, out),
                "bag" => write_counts(out, &state.bag[..self.colours]),
                "bank" => write_counts(out, &state.pool[..self.tokens]),
                "decks" => self.decks(state, out),
                "tracks" => self.tracks(state, &slot_of, out),
                "decision" => self.decision(state, &slot_of, out),
                "turn" => self.turn(state, &squares, out),
                "end-triggers" => {
                    for (value, flag) in out.iter_mut().zip(&self.flag_syms) {
                        if flag.is_some_and(|f| state.flags.contains(&f)) {
                            *value = 1.0;
                        }
                    }
                }
                WHIMS_ON_CITIES => self.whims_on_cities(state, out),
                _ => {
                    if let Some(&Some(extra)) = self.counter_syms.get(part) {
                        for (slot, value) in out.iter_mut().take(count).enumerate() {
                            let player = &state.players[(seat + slot) % count];
                            *value = get_extra(&player.extras, extra) as f32;
                        }
                    }
                }
            }
        }
    }

    /// The Whims' `whims-on-cities`: the whims deck's row lies on the board's cities
    /// in board order, one place each; a whim's number is its city's place plus one.
    fn whims_on_cities(&self, state: &State, out: &mut [f32]) {
        let Some(whims) = &self.spec.whims else {
            return;
        };
        let layout = &state.layout;
        let cities = (0..layout.size())
            .filter(|&t| whims.cities[usize::from(layout.tiles[t])])
            .count();
        let row = state.decks[whims.deck].row();
        for (place, &card) in row.iter().take(cities).enumerate() {
            if card == NO_CARD {
                continue;
            }
            if let Some(Some(at)) = whims.cards.get(usize::from(card)) {
                out[*at] = (place + 1) as f32;
            }
        }
    }

    /// `_board`: per square its tile's kind and VP, impassable, meeples, owner, tokens.
    fn board(
        &self,
        state: &State,
        squares: &[Option<usize>],
        slot_of: &dyn Fn(usize) -> usize,
        out: &mut [f32],
    ) {
        let (kinds, per_square) = (self.spec.kinds, self.per_square());
        let layout = &state.layout;
        for (tile, square) in squares.iter().enumerate() {
            let Some(square) = *square else { continue };
            let cell = &mut out[square * per_square..(square + 1) * per_square];
            cell[..=kinds].copy_from_slice(&self.spec.prefix[usize::from(layout.tiles[tile])]);
            if layout.blocked & (1 << tile) != 0 {
                cell[kinds + 1] = 1.0;
            }
            let meeples = kinds + 2;
            write_counts(
                &mut cell[meeples..meeples + self.colours],
                state.board.meeples(tile),
            );
            let owners = meeples + self.colours;
            match state.board.owner(tile) {
                NOBODY => {}
                NON_PLAYER => cell[owners + self.spec.slots] = 1.0,
                owner => cell[owners + slot_of(owner as usize)] = 1.0,
            }
            let first_token = owners + self.owners();
            write_counts(
                &mut cell[first_token..first_token + self.tokens],
                state.board.tokens(tile),
            );
        }
    }

    /// `_players`: per slot present, coins and whether known, camels, kept meeples and
    /// each deck's cards in hand (another player's hidden hand as a count only).
    fn players(&self, state: &State, seat: usize, out: &mut [f32]) {
        let count = state.players.len();
        let size = self.player_size();
        for slot in 0..self.spec.slots.min(count) {
            let index = (seat + slot) % count;
            let player = &state.players[index];
            let out = &mut out[slot * size..(slot + 1) * size];
            out[0] = 1.0;
            if index == seat {
                out[1] = player.coins as f32;
                out[2] = 1.0;
            }
            out[3] = f32::from(player.camels);
            write_counts(&mut out[4..4 + self.colours], &player.meeples);
            let mut at = 4 + self.colours;
            for deck in &self.spec.decks {
                let hand = player.hands.hand(deck.deck);
                if deck.hidden && index != seat {
                    out[at + deck.size] = hand.len() as f32;
                } else {
                    count_cards(&mut out[at..at + deck.size], &deck.cards, hand);
                }
                at += deck.size + 1;
            }
        }
    }

    /// `_decks`: per deck the draw pile's size, the face-up row and the discards.
    fn decks(&self, state: &State, out: &mut [f32]) {
        let mut at = 0;
        for deck in &self.spec.decks {
            let cards = &state.decks[deck.deck];
            out[at] = cards.draw().len() as f32;
            count_cards(
                &mut out[at + 1..at + 1 + deck.size],
                &deck.cards,
                cards.row(),
            );
            let discards = at + 1 + deck.size;
            count_cards(
                &mut out[discards..discards + deck.size],
                &deck.cards,
                cards.discard(),
            );
            at += 1 + 2 * deck.size;
        }
    }

    /// `_tracks`: each bid and turn-order spot, one-hot by its marker's owner's slot.
    fn tracks(&self, state: &State, slot_of: &dyn Fn(usize) -> usize, out: &mut [f32]) {
        let slots = self.spec.slots;
        let tracks = [
            (self.spec.bid_spots, state.bid_track.as_slice()),
            (self.spec.turn_spots, state.turn_track.as_slice()),
        ];
        let mut at = 0;
        for (spots, track) in tracks {
            for spot in 0..spots {
                if let Some(&marker) = track.get(spot).filter(|&&m| m != NOBODY) {
                    let owner = state.markers.as_slice()[marker as usize] as usize;
                    out[at + spot * slots + slot_of(owner)] = 1.0;
                }
            }
            at += spots * slots;
        }
    }

    /// `_decision`: the stage one-hot, the deciding slot one-hot, the round.
    fn decision(&self, state: &State, slot_of: &dyn Fn(usize) -> usize, out: &mut [f32]) {
        let stages = self.spec.stages.len();
        if let Some(Some(stage)) = self.stage_of.get(usize::from(state.decision.stage.0)) {
            out[*stage] = 1.0;
        }
        if state.decision.player != NOBODY {
            out[stages + slot_of(state.decision.player as usize)] = 1.0;
        }
        out[stages + self.spec.slots] = f32::from(state.round);
    }

    /// The base game's `turn` part: where the move is, what it visited, the meeples in
    /// hand, the colour collected, what was taken, the assassins' reach and kills, the
    /// things used and the cards revealed (their count, which every seat sees).
    fn turn(&self, state: &State, squares: &[Option<usize>], out: &mut [f32]) {
        let Some(turn) = state.turn.as_ref() else {
            return;
        };
        let count = self.spec.squares.len();
        out[0] = 1.0;
        let start = (turn.start != NOBODY).then_some(turn.start as u8);
        let square = |tile: u8| squares.get(usize::from(tile)).copied().flatten();
        if let Some(here) = turn.path.last().copied().or(start).and_then(square) {
            out[1 + here] = 1.0;
        }
        let visited = 1 + count;
        for tile in start.iter().chain(turn.path.iter()) {
            if let Some(at) = square(*tile) {
                out[visited + at] += 1.0;
            }
        }
        let hand = visited + count;
        if let Some(counts) = &turn.hand {
            write_counts(&mut out[hand..hand + self.colours], counts);
        }
        let collected = hand + self.colours;
        if turn.colour != NOBODY {
            out[collected + turn.colour as usize] = 1.0;
        }
        let rest = collected + self.colours;
        out[rest..rest + 5].copy_from_slice(&[
            f32::from(turn.taken),
            f32::from(turn.reach),
            turn.kills as f32,
            turn.used.len() as f32,
            turn.revealed.len() as f32,
        ]);
    }
}

fn write_counts(out: &mut [f32], counts: &[Count]) {
    for (value, &count) in out.iter_mut().zip(counts) {
        *value = f32::from(count);
    }
}

/// Adds one for each card of `cards` (card indices; `NO_CARD` is an empty place) at its
/// number among the deck's ids.
fn count_cards(out: &mut [f32], numbers: &[Option<usize>], cards: &[u8]) {
    for &card in cards {
        if card == NO_CARD {
            continue;
        }
        if let Some(Some(at)) = numbers.get(usize::from(card)) {
            out[*at] += 1.0;
        }
    }
}

/// The action codec of the rules (`envs/codec.py`): every action's index, given as the
/// notation of each index in order, and each native action's index found through its
/// notation once (then remembered by the action and the board's width).
#[derive(Debug)]
pub struct ActionTable {
    by_notation: HashMap<String, u32>,
    known: Mutex<HashMap<(u8, Action), u32>>,
}

impl ActionTable {
    /// The table of `notations`, the action of each index in codec order; an error
    /// names a notation given twice (a mask has one place per index).
    pub fn new(notations: Vec<String>) -> Result<ActionTable, String> {
        let mut by_notation = HashMap::with_capacity(notations.len());
        for (index, notation) in notations.into_iter().enumerate() {
            let index = u32::try_from(index).map_err(|_| "codec: too many actions".to_owned())?;
            if let Some(first) = by_notation.insert(notation.clone(), index) {
                return Err(format!(
                    "codec: {notation:?} is both index {first} and index {index}"
                ));
            }
        }
        Ok(ActionTable {
            by_notation,
            known: Mutex::new(HashMap::new()),
        })
    }

    pub fn size(&self) -> usize {
        self.by_notation.len()
    }

    /// The index of `action` on a board `cols` wide; the notation of an action outside
    /// the codec as the error (the codec raises `CodecError` there).
    pub fn index(&self, content: &Content, cols: u8, action: &Action) -> Result<u32, String> {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&index) = known.get(&(cols, *action)) {
            return Ok(index);
        }
        let notation = action.notation(content, usize::from(cols));
        let &index = self.by_notation.get(&notation).ok_or(notation)?;
        known.insert((cols, *action), index);
        Ok(index)
    }
}
