//! State JSON (`core/serialize.py`, version 2) read into a native state and written back.
//!
//! The document's shape is mirrored field for field, in the Python document's key order,
//! so the kernel writes the very JSON the Python engine writes for the same position
//! (the differential harness compares them). What the shape cannot say is checked while
//! reading, with the JSON path of the problem; the Python reader has already checked what
//! the state means (`core/validate.py`); a library user's has not, so what the rules rely
//! on is checked too (`statecheck.rs`), and a state that breaks it is refused.

use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::content::{Content, MAX_COLOURS, MAX_PLAYERS, MAX_TILES, MAX_TOKENS};
use crate::names::Sym;
use crate::rng::Rng;
use crate::state::{
    parse_tile, tile_name, Board, Count, Counts, Decision, Deck, Hands, Layout, Player, State,
    Target, TokenCounts, Track, Turn, MAX_DECKS, MAX_DECK_CARDS, NOBODY, NO_CARD,
};
use crate::statecheck::check_meaning;

pub const FORMAT: &str = "naqala-state";
pub const VERSION: i64 = 2;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecisionDoc {
    pub(crate) stage: String,
    pub(crate) player: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TileDoc {
    pub(crate) at: String,
    pub(crate) tile: String,
    pub(crate) meeples: String,
    pub(crate) owner: Option<i64>,
    pub(crate) tokens: IndexMap<String, i64>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardDoc {
    pub(crate) rows: i64,
    pub(crate) cols: i64,
    pub(crate) blocked: Vec<String>,
    pub(crate) walls: Vec<Vec<String>>,
    pub(crate) tiles: Vec<TileDoc>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerDoc {
    pub(crate) coins: i64,
    pub(crate) camels: i64,
    pub(crate) meeples: String,
    pub(crate) hands: IndexMap<String, Vec<String>>,
    pub(crate) extras: IndexMap<String, i64>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeckDoc {
    pub(crate) draw: Vec<String>,
    pub(crate) row: Vec<String>,
    pub(crate) discard: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TurnDoc {
    pub(crate) marker: i64,
    pub(crate) start: Option<String>,
    pub(crate) path: Vec<String>,
    pub(crate) hand: Option<String>,
    pub(crate) colour: Option<String>,
    pub(crate) taken: i64,
    // the plugins' turn fields (`ContentDoc::turn_fields`), each written only when declared
    // and read as its default when absent; the kernel's `Turn` keeps them all
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reach: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) kills: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) target: Option<String>,
    pub(crate) used: Vec<String>,
    pub(crate) revealed: Vec<String>,
    pub(crate) resume: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) claimed: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) callers: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RngDoc {
    pub(crate) seed: u64,
    pub(crate) counter: u64,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateDoc {
    pub(crate) format: String,
    pub(crate) version: i64,
    pub(crate) ruleset: Vec<String>,
    pub(crate) colours: String,
    pub(crate) tokens: Vec<String>,
    pub(crate) round: i64,
    pub(crate) decision: DecisionDoc,
    pub(crate) board: BoardDoc,
    pub(crate) players: Vec<PlayerDoc>,
    pub(crate) bag: String,
    pub(crate) pool: IndexMap<String, i64>,
    pub(crate) decks: IndexMap<String, DeckDoc>,
    pub(crate) markers: Vec<i64>,
    pub(crate) bid_track: Vec<Option<i64>>,
    pub(crate) turn_track: Vec<Option<i64>>,
    pub(crate) turn: Option<TurnDoc>,
    pub(crate) flags: Vec<String>,
    pub(crate) extras: IndexMap<String, i64>,
    pub(crate) rng: RngDoc,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) without: Vec<String>,
}

/// `value` as a `T`, or an error naming `path` and the range the kernel holds.
fn fit<T: TryFrom<i64>>(value: i64, path: &str) -> Result<T, String> {
    T::try_from(value).map_err(|_| format!("{path}: {value} is out of the kernel's range"))
}

/// A marker or a player index: a small number, never negative.
fn marker(value: i64, path: &str) -> Result<i8, String> {
    fit::<i8>(value, path).and_then(|v| {
        if v < 0 {
            Err(format!("{path}: {value} is out of the kernel's range"))
        } else {
            Ok(v)
        }
    })
}

/// Reads a document into a native state, with the content that names its parts.
struct Reader<'a> {
    content: &'a Content,
    rows: usize,
    cols: usize,
}

impl Reader<'_> {
    fn counts(&self, text: &str, path: &str) -> Result<Counts, String> {
        let mut counts: Counts = [0; MAX_COLOURS];
        for letter in text.chars() {
            let colour = self
                .content
                .letters
                .iter()
                .position(|&l| l == letter)
                .ok_or_else(|| format!("{path}: {letter:?} is not a meeple colour"))?;
            counts[colour] = counts[colour]
                .checked_add(1)
                .ok_or_else(|| format!("{path}: more meeples than the kernel holds"))?;
        }
        Ok(counts)
    }

    fn tile(&self, name: &str, path: &str) -> Result<u8, String> {
        parse_tile(name, self.rows, self.cols)
            .map(|t| t as u8)
            .map_err(|e| format!("{path}: {e}"))
    }

    fn tokens(&self, values: &IndexMap<String, i64>, path: &str) -> Result<TokenCounts, String> {
        let mut counts: TokenCounts = [0; MAX_TOKENS];
        for (key, &n) in values {
            let kind = self
                .content
                .doc
                .tokens
                .iter()
                .position(|t| &t.id == key)
                .ok_or_else(|| format!("{path}.{key}: unknown token {key:?}"))?;
            counts[kind] = fit(n, &format!("{path}.{key}"))?;
        }
        Ok(counts)
    }

    fn sym(&self, name: &str, path: &str) -> Result<Sym, String> {
        self.content
            .names
            .sym(name)
            .ok_or_else(|| format!("{path}: the kernel does not know {name:?}"))
    }

    fn card(&self, id: &str, path: &str) -> Result<u8, String> {
        self.content
            .card_index(id)
            .ok_or_else(|| format!("{path}: unknown card {id:?}"))
    }

    fn cards(&self, ids: &[String], path: &str) -> Result<Vec<u8>, String> {
        ids.iter()
            .enumerate()
            .map(|(k, id)| self.card(id, &format!("{path}[{k}]")))
            .collect()
    }

    fn row(&self, ids: &[String], path: &str) -> Result<Vec<u8>, String> {
        ids.iter()
            .enumerate()
            .map(|(k, id)| {
                if id.is_empty() {
                    Ok(NO_CARD)
                } else {
                    self.card(id, &format!("{path}[{k}]"))
                }
            })
            .collect()
    }

    fn extras(
        &self,
        values: &IndexMap<String, i64>,
        path: &str,
    ) -> Result<Box<[(Sym, i64)]>, String> {
        let mut extras = values
            .iter()
            .map(|(k, &v)| Ok((self.sym(k, &format!("{path}.{k}"))?, v)))
            .collect::<Result<Vec<_>, String>>()?;
        extras.sort();
        Ok(extras.into_boxed_slice())
    }

    fn player(&self, i: usize, p: &PlayerDoc) -> Result<Player, String> {
        let path = format!("$.players[{i}]");
        let mut hands = vec![Vec::new(); self.content.decks()];
        for (deck, cards) in &p.hands {
            let index = self
                .content
                .deck_index(deck)
                .ok_or_else(|| format!("{path}.hands.{deck}: no deck {deck:?} in these rules"))?;
            let hand = self.cards(cards, &format!("{path}.hands.{deck}"))?;
            for (k, &card) in hand.iter().enumerate() {
                if self.content.doc.cards[usize::from(card)].deck != *deck {
                    return Err(format!(
                        "{path}.hands.{deck}[{k}]: no {deck} card {:?}",
                        cards[k]
                    ));
                }
            }
            hands[index] = hand;
        }
        Ok(Player {
            coins: fit(p.coins, &format!("{path}.coins"))?,
            camels: fit(p.camels, &format!("{path}.camels"))?,
            meeples: self.counts(&p.meeples, &format!("{path}.meeples"))?,
            hands: Hands::new(&hands),
            extras: self.extras(&p.extras, &format!("{path}.extras"))?,
        })
    }

    fn target(&self, text: &str) -> Result<Target, String> {
        let path = "$.turn.target";
        if text.is_empty() {
            return Ok(Target::None);
        }
        let target = if let Some(seat) = text.strip_prefix('p') {
            let seat: u8 = seat
                .parse()
                .map_err(|_| format!("{path}: {text:?} is no tile and no player"))?;
            if seat == 0 {
                return Err(format!("{path}: {text:?} is no player"));
            }
            Target::Player(seat - 1)
        } else {
            Target::Tile(self.tile(text, path)?)
        };
        if self.target_name(target) != text {
            return Err(format!(
                "{path}: {text:?} is not written as the kernel writes it"
            ));
        }
        Ok(target)
    }

    fn target_name(&self, target: Target) -> String {
        target_name(target, self.cols)
    }

    fn turn(&self, t: &TurnDoc) -> Result<Turn, String> {
        let colour = match &t.colour {
            None => NOBODY,
            Some(letter) => {
                let mut chars = letter.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => self
                        .content
                        .letters
                        .iter()
                        .position(|&l| l == c)
                        .map(|i| i as i8)
                        .ok_or_else(|| format!("$.turn.colour: {letter:?} is not a colour"))?,
                    _ => return Err(format!("$.turn.colour: {letter:?} is not a colour")),
                }
            }
        };
        let tiles = |names: &[String], what: &str| -> Result<Box<[u8]>, String> {
            names
                .iter()
                .enumerate()
                .map(|(k, n)| self.tile(n, &format!("$.turn.{what}[{k}]")))
                .collect()
        };
        let syms = |names: &[String], what: &str| -> Result<Box<[Sym]>, String> {
            names
                .iter()
                .enumerate()
                .map(|(k, n)| self.sym(n, &format!("$.turn.{what}[{k}]")))
                .collect()
        };
        // a field no plugin declares holds nothing (older files wrote `claimed: []` always)
        let undeclared = |name: &str, empty: bool| -> Result<(), String> {
            if empty || self.content.declares_turn_field(name) {
                Ok(())
            } else {
                Err(format!(
                    "$.turn.{name}: no turn field {name:?} in these rules"
                ))
            }
        };
        undeclared("reach", t.reach.is_none_or(|v| v == 0))?;
        undeclared("kills", t.kills.is_none_or(|v| v == 0))?;
        undeclared("target", t.target.as_deref().is_none_or(str::is_empty))?;
        undeclared(
            "claimed",
            t.claimed.as_deref().is_none_or(<[String]>::is_empty),
        )?;
        Ok(Turn {
            marker: fit(t.marker, "$.turn.marker")?,
            start: match &t.start {
                None => NOBODY,
                Some(name) => self.tile(name, "$.turn.start")? as i8,
            },
            path: tiles(&t.path, "path")?,
            hand: match &t.hand {
                None => None,
                Some(text) => Some(self.counts(text, "$.turn.hand")?),
            },
            colour,
            taken: fit(t.taken, "$.turn.taken")?,
            reach: fit(t.reach.unwrap_or(0), "$.turn.reach")?,
            kills: fit(t.kills.unwrap_or(1), "$.turn.kills")?,
            target: self.target(t.target.as_deref().unwrap_or(""))?,
            used: syms(&t.used, "used")?,
            revealed: self
                .cards(&t.revealed, "$.turn.revealed")?
                .into_boxed_slice(),
            resume: self.sym(&t.resume, "$.turn.resume")?,
            claimed: tiles(t.claimed.as_deref().unwrap_or(&[]), "claimed")?,
            callers: syms(&t.callers, "callers")?,
        })
    }

    fn layout(&self, board: &BoardDoc) -> Result<Layout, String> {
        let mut tiles = Vec::with_capacity(board.tiles.len());
        for (i, tile) in board.tiles.iter().enumerate() {
            let path = format!("$.board.tiles[{i}]");
            if usize::from(self.tile(&tile.at, &format!("{path}.at"))?) != i {
                return Err(format!(
                    "{path}.at: tiles must be listed row by row, a1 first"
                ));
            }
            let index = self
                .content
                .tile_index(&tile.tile)
                .ok_or_else(|| format!("{path}.tile: unknown tile {:?}", tile.tile))?;
            tiles.push(index);
        }
        let mut blocked = 0u64;
        for (i, name) in board.blocked.iter().enumerate() {
            blocked |= 1 << self.tile(name, &format!("$.board.blocked[{i}]"))?;
        }
        let mut walls = Vec::with_capacity(board.walls.len());
        for (i, wall) in board.walls.iter().enumerate() {
            if wall.len() != 2 {
                return Err(format!(
                    "$.board.walls[{i}]: a wall is a pair of tile names"
                ));
            }
            let a = self.tile(&wall[0], &format!("$.board.walls[{i}][0]"))?;
            let b = self.tile(&wall[1], &format!("$.board.walls[{i}][1]"))?;
            walls.push((a.min(b), a.max(b)));
        }
        walls.sort_unstable();
        walls.dedup();
        Ok(Layout::new(
            self.content,
            self.rows as u8,
            self.cols as u8,
            tiles.into_boxed_slice(),
            blocked,
            walls.into_boxed_slice(),
        ))
    }
}

/// The state-JSON spelling of a kill target.
pub(crate) fn target_name(target: Target, cols: usize) -> String {
    match target {
        Target::None => String::new(),
        Target::Tile(t) => tile_name(usize::from(t), cols),
        Target::Player(p) => format!("p{}", u16::from(p) + 1),
    }
}

/// A native state from state JSON text; the error names the JSON path of the problem.
pub fn state_from_json(content: &Content, text: &str) -> Result<State, String> {
    let doc: StateDoc = serde_json::from_str(text).map_err(|e| format!("kernel state: {e}"))?;
    state_from_doc(content, &doc)
}

/// A board of `rows` × `cols` the kernel can hold: both positive, at most 26 columns
/// (the letters of a tile's name) and `MAX_TILES` tiles, whichever form it came in: its
/// number of tiles.
pub(crate) fn check_board_size(rows: i64, cols: i64) -> Result<usize, String> {
    if rows < 1 || !(1..=26).contains(&cols) {
        return Err("$.board: rows and cols must be positive (at most 26 columns)".to_owned());
    }
    let tiles = i128::from(rows) * i128::from(cols);
    if tiles > MAX_TILES as i128 {
        return Err(format!(
            "$.board: {tiles} tiles, the kernel holds at most {MAX_TILES}"
        ));
    }
    Ok(tiles as usize)
}

pub(crate) fn state_from_doc(content: &Content, doc: &StateDoc) -> Result<State, String> {
    if doc.format != FORMAT {
        return Err(format!("$.format: expected {FORMAT:?}"));
    }
    if doc.version != VERSION {
        return Err(format!(
            "$.version: the kernel reads version {VERSION}, not {}",
            doc.version
        ));
    }
    if doc.ruleset != content.doc.ruleset {
        return Err("$.ruleset: does not match the kernel's content".to_owned());
    }
    if doc.without != content.doc.without {
        return Err("$.without: does not match the kernel's content".to_owned());
    }
    let letters: String = content.letters.iter().collect();
    if doc.colours != letters {
        return Err(format!(
            "$.colours: {:?} does not match the rules ({letters:?})",
            doc.colours
        ));
    }
    let token_ids: Vec<&str> = content.doc.tokens.iter().map(|t| t.id.as_str()).collect();
    if doc.tokens != token_ids {
        return Err(format!("$.tokens: expected {token_ids:?}"));
    }
    let (rows, cols) = (doc.board.rows, doc.board.cols);
    let size = check_board_size(rows, cols)?;
    if doc.board.tiles.len() != size {
        return Err(format!(
            "$.board.tiles: expected {size} tiles for a {rows}x{cols} board"
        ));
    }
    if doc.players.len() > MAX_PLAYERS {
        return Err(format!(
            "$.players: the kernel holds at most {MAX_PLAYERS} players"
        ));
    }
    let reader = Reader {
        content,
        rows: rows as usize,
        cols: cols as usize,
    };
    let layout = reader.layout(&doc.board)?;
    let mut board = Board::new(size, content.colours(), content.tokens());
    for (i, tile) in doc.board.tiles.iter().enumerate() {
        let path = format!("$.board.tiles[{i}]");
        let meeples = reader.counts(&tile.meeples, &format!("{path}.meeples"))?;
        board
            .meeples_mut(i)
            .copy_from_slice(&meeples[..content.colours()]);
        if let Some(owner) = tile.owner {
            board.set_owner(i, fit(owner, &format!("{path}.owner"))?);
        }
        let tokens = reader.tokens(&tile.tokens, &format!("{path}.tokens"))?;
        board
            .tokens_mut(i)
            .copy_from_slice(&tokens[..content.tokens()]);
    }
    let players = doc
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| reader.player(i, p))
        .collect::<Result<Vec<_>, String>>()?;
    if content.decks() > MAX_DECKS {
        return Err(format!(
            "$.decks: the kernel holds at most {MAX_DECKS} decks"
        ));
    }
    // cards only move during a game: with every card of the state within the kernel's
    // places, no deck or hand can outgrow them (`Deck::new`, `Hands::new`)
    let in_decks = doc
        .decks
        .values()
        .map(|d| d.draw.len() + d.row.len() + d.discard.len());
    let in_hands = doc
        .players
        .iter()
        .flat_map(|p| p.hands.values().map(Vec::len));
    let cards: usize = in_decks.chain(in_hands).sum();
    if cards > MAX_DECK_CARDS {
        return Err(format!(
            "$.decks: {cards} cards in the decks and hands, the kernel holds at most \
             {MAX_DECK_CARDS}"
        ));
    }
    let mut decks = vec![Deck::default(); content.decks()];
    for (name, deck) in &doc.decks {
        let index = content
            .deck_index(name)
            .ok_or_else(|| format!("$.decks.{name}: no deck {name:?} in these rules"))?;
        let path = format!("$.decks.{name}");
        decks[index] = Deck::new(
            &reader.cards(&deck.draw, &format!("{path}.draw"))?,
            &reader.row(&deck.row, &format!("{path}.row"))?,
            &reader.cards(&deck.discard, &format!("{path}.discard"))?,
        );
    }
    let track = |values: &[Option<i64>], name: &str| -> Result<Track, String> {
        let spots = values
            .iter()
            .enumerate()
            .map(|(i, &m)| match m {
                None => Ok(NOBODY),
                Some(v) => marker(v, &format!("$.{name}[{i}]")),
            })
            .collect::<Result<Vec<i8>, String>>()?;
        Track::new(&spots).ok_or_else(|| format!("$.{name}: longer than the kernel holds"))
    };
    let markers = doc
        .markers
        .iter()
        .enumerate()
        .map(|(i, &m)| marker(m, &format!("$.markers[{i}]")))
        .collect::<Result<Vec<i8>, String>>()?;
    let mut flags = doc
        .flags
        .iter()
        .enumerate()
        .map(|(i, f)| reader.sym(f, &format!("$.flags[{i}]")))
        .collect::<Result<Vec<_>, String>>()?;
    let sorted = flags.windows(2).all(|w| w[0] < w[1]);
    if !sorted {
        // the Python state keeps flags sorted and distinct; so does the kernel
        flags.sort();
        flags.dedup();
    }
    let state = State {
        layout: Arc::new(layout),
        board,
        players: players.into_boxed_slice(),
        bag: reader.counts(&doc.bag, "$.bag")?,
        pool: reader.tokens(&doc.pool, "$.pool")?,
        decks: decks.into_boxed_slice(),
        markers: Track::new(&markers).ok_or("$.markers: more than the kernel holds")?,
        bid_track: track(&doc.bid_track, "bid_track")?,
        turn_track: track(&doc.turn_track, "turn_track")?,
        decision: Decision {
            stage: reader.sym(&doc.decision.stage, "$.decision.stage")?,
            player: match doc.decision.player {
                None => NOBODY,
                Some(p) => fit(p, "$.decision.player")?,
            },
        },
        rng: Rng {
            seed: doc.rng.seed,
            counter: doc.rng.counter,
        },
        round: fit(doc.round, "$.round")?,
        turn: match &doc.turn {
            None => None,
            Some(t) => Some(Box::new(reader.turn(t)?)),
        },
        flags: flags.into_boxed_slice(),
        extras: reader.extras(&doc.extras, "$.extras")?,
    };
    check_meaning(content, &state)?;
    Ok(state)
}

fn letters_of(content: &Content, counts: &[Count]) -> String {
    let mut text = String::new();
    for (colour, &letter) in content.letters.iter().enumerate() {
        for _ in 0..counts[colour] {
            text.push(letter);
        }
    }
    text
}

fn none_if_nobody(value: i8) -> Option<i64> {
    (value != NOBODY).then_some(i64::from(value))
}

fn card_ids(content: &Content, cards: &[u8]) -> Vec<String> {
    cards
        .iter()
        .map(|&c| {
            if c == NO_CARD {
                String::new()
            } else {
                content.doc.cards[usize::from(c)].id.clone()
            }
        })
        .collect()
}

fn extras_doc(content: &Content, extras: &[(Sym, i64)]) -> IndexMap<String, i64> {
    extras
        .iter()
        .map(|&(k, v)| (content.names.name(k).to_owned(), v))
        .collect()
}

fn state_to_doc(content: &Content, state: &State) -> StateDoc {
    let layout = &state.layout;
    let cols = usize::from(layout.cols);
    let name = |t: u8| tile_name(usize::from(t), cols);
    let names = &content.names;
    let declared = |field: &str| content.declares_turn_field(field);
    let tokens_doc = |counts: &[Count], all: bool| -> IndexMap<String, i64> {
        content
            .doc
            .tokens
            .iter()
            .enumerate()
            .filter(|&(k, _)| all || counts[k] != 0)
            .map(|(k, t)| (t.id.clone(), i64::from(counts[k])))
            .collect()
    };
    let size = layout.size();
    let mut blocked: Vec<String> = (0..size)
        .filter(|&t| layout.blocked & (1 << t) != 0)
        .map(|t| tile_name(t, cols))
        .collect();
    blocked.sort();
    let mut walls: Vec<Vec<String>> = layout
        .walls
        .iter()
        .map(|&(a, b)| vec![name(a), name(b)])
        .collect();
    walls.sort();
    StateDoc {
        format: FORMAT.to_owned(),
        version: VERSION,
        ruleset: content.doc.ruleset.clone(),
        colours: content.letters.iter().collect(),
        tokens: content.doc.tokens.iter().map(|t| t.id.clone()).collect(),
        round: i64::from(state.round),
        decision: DecisionDoc {
            stage: names.name(state.decision.stage).to_owned(),
            player: none_if_nobody(state.decision.player),
        },
        board: BoardDoc {
            rows: i64::from(layout.rows),
            cols: i64::from(layout.cols),
            blocked,
            walls,
            tiles: (0..size)
                .map(|i| TileDoc {
                    at: tile_name(i, cols),
                    tile: content.doc.tiles[usize::from(layout.tiles[i])].id.clone(),
                    meeples: letters_of(content, state.board.meeples(i)),
                    owner: none_if_nobody(state.board.owner(i)),
                    tokens: tokens_doc(state.board.tokens(i), false),
                })
                .collect(),
        },
        players: state
            .players
            .iter()
            .map(|p| PlayerDoc {
                coins: i64::from(p.coins),
                camels: i64::from(p.camels),
                meeples: letters_of(content, &p.meeples),
                hands: (0..content.decks())
                    .filter(|&d| !p.hands.hand(d).is_empty())
                    .map(|d| {
                        (
                            content.doc.decks[d].id.clone(),
                            card_ids(content, p.hands.hand(d)),
                        )
                    })
                    .collect(),
                extras: extras_doc(content, &p.extras),
            })
            .collect(),
        bag: letters_of(content, &state.bag),
        pool: tokens_doc(&state.pool, true),
        decks: state
            .decks
            .iter()
            .enumerate()
            .map(|(i, d)| {
                (
                    content.doc.decks[i].id.clone(),
                    DeckDoc {
                        draw: card_ids(content, d.draw()),
                        row: card_ids(content, d.row()),
                        discard: card_ids(content, d.discard()),
                    },
                )
            })
            .collect(),
        markers: state
            .markers
            .as_slice()
            .iter()
            .map(|&m| i64::from(m))
            .collect(),
        bid_track: state
            .bid_track
            .as_slice()
            .iter()
            .map(|&m| none_if_nobody(m))
            .collect(),
        turn_track: state
            .turn_track
            .as_slice()
            .iter()
            .map(|&m| none_if_nobody(m))
            .collect(),
        turn: state.turn.as_ref().map(|t| TurnDoc {
            marker: i64::from(t.marker),
            start: (t.start != NOBODY).then(|| tile_name(t.start as usize, cols)),
            path: t.path.iter().map(|&x| name(x)).collect(),
            hand: t.hand.as_ref().map(|h| letters_of(content, h)),
            colour: (t.colour != NOBODY).then(|| content.letters[t.colour as usize].to_string()),
            taken: i64::from(t.taken),
            reach: declared("reach").then(|| i64::from(t.reach)),
            kills: declared("kills").then(|| i64::from(t.kills)),
            target: declared("target").then(|| target_name(t.target, cols)),
            used: t.used.iter().map(|&s| names.name(s).to_owned()).collect(),
            revealed: card_ids(content, &t.revealed),
            resume: names.name(t.resume).to_owned(),
            claimed: declared("claimed").then(|| t.claimed.iter().map(|&x| name(x)).collect()),
            callers: t
                .callers
                .iter()
                .map(|&s| names.name(s).to_owned())
                .collect(),
        }),
        flags: state
            .flags
            .iter()
            .map(|&s| names.name(s).to_owned())
            .collect(),
        extras: extras_doc(content, &state.extras),
        rng: RngDoc {
            seed: state.rng.seed,
            counter: state.rng.counter,
        },
        without: content.doc.without.clone(),
    }
}

/// The state as state JSON text (compact; the Python side lays it out).
pub fn state_to_json(content: &Content, state: &State) -> String {
    serde_json::to_string(&state_to_doc(content, state)).expect("a state document serialises")
}
