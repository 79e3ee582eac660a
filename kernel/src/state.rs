//! The native game state: one plain value, as `core/state.py`'s `State` is, laid out in
//! small fixed arrays of small integers so that a copy is cheap and allocates little.
//!
//! Names are symbols (`names.rs`), cards and tiles indices into the content's tables, and
//! `NOBODY` is -1 as in Python. What never changes during a game (the layout) is shared
//! between the states of a game.

use std::sync::Arc;

use crate::content::Content;
use crate::geometry::Geometry;
pub use crate::limits::{CardPlace, Count, MAX_DECKS, MAX_DECK_CARDS, MAX_TRACK, NOBODY};
use crate::limits::{MAX_COLOURS, MAX_TOKENS};
use crate::names::Sym;
use crate::rng::Rng;

/// The owner of a tile held by a non-player opponent (the solo mode's Sultan).
pub const NON_PLAYER: i8 = -2;
/// An empty place of a deck's row laid out in fixed places (`""` in the state JSON).
pub const NO_CARD: u8 = u8::MAX;

/// Meeples per colour, by colour index (the bag, a player's meeples, a hand in a move).
pub type Counts = [Count; MAX_COLOURS];
/// Tokens per kind, by token index (the bank).
pub type TokenCounts = [Count; MAX_TOKENS];
/// `n` as a count, the largest there is for more (a parameter of up to 1 000 000 that a
/// rule then bounds by what is there: `min(give, held)`).
pub fn saturating_count(n: i64) -> Count {
    Count::try_from(n.max(0)).unwrap_or(Count::MAX)
}

/// What never changes during a game: the grid, which tile lies where, blocked terrain,
/// and the geometry derived from them (computed once per game).
#[derive(Clone, Debug)]
pub struct Layout {
    pub rows: u8,
    pub cols: u8,
    /// the tile table index of the tile at each position
    pub tiles: Box<[u8]>,
    /// impassable tiles, as a bit mask
    pub blocked: u64,
    /// blocked edges, as sorted pairs, sorted
    pub walls: Box<[(u8, u8)]>,
    pub geometry: Arc<Geometry>,
}

impl Layout {
    /// A layout with the geometry of its shape (`Content::geometry`, built once).
    pub fn new(
        content: &Content,
        rows: u8,
        cols: u8,
        tiles: Box<[u8]>,
        blocked: u64,
        walls: Box<[(u8, u8)]>,
    ) -> Self {
        let geometry = content.geometry(rows, cols, blocked, &walls);
        Layout {
            rows,
            cols,
            tiles,
            blocked,
            walls,
            geometry,
        }
    }

    pub fn size(&self) -> usize {
        self.tiles.len()
    }
}

impl PartialEq for Layout {
    /// The geometry follows from the other fields.
    fn eq(&self, other: &Self) -> bool {
        (self.rows, self.cols, &self.tiles, self.blocked, &self.walls)
            == (
                other.rows,
                other.cols,
                &other.tiles,
                other.blocked,
                &other.walls,
            )
    }
}

impl Eq for Layout {}

/// What lies on the tiles, in one buffer: the meeples of every tile (`colours` counts
/// each), then every tile's owner, then every tile's tokens (`tokens` counts each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// counts, and owners as their `i16` bits
    cells: Box<[Count]>,
    tiles: u8,
    colours: u8,
    tokens: u8,
}

impl Board {
    /// An empty board: no meeples, no owners, no tokens.
    pub fn new(tiles: usize, colours: usize, tokens: usize) -> Board {
        let mut cells: Vec<Count> = vec![0; tiles * (colours + 1 + tokens)];
        for owner in &mut cells[tiles * colours..tiles * (colours + 1)] {
            *owner = owner_cell(NOBODY);
        }
        Board {
            cells: cells.into_boxed_slice(),
            tiles: tiles as u8,
            colours: colours as u8,
            tokens: tokens as u8,
        }
    }

    fn dims(&self) -> (usize, usize, usize) {
        (
            usize::from(self.tiles),
            usize::from(self.colours),
            usize::from(self.tokens),
        )
    }

    /// The meeples on `tile`, per colour.
    pub fn meeples(&self, tile: usize) -> &[Count] {
        let (_, c, _) = self.dims();
        &self.cells[tile * c..(tile + 1) * c]
    }

    pub fn meeples_mut(&mut self, tile: usize) -> &mut [Count] {
        let (_, c, _) = self.dims();
        &mut self.cells[tile * c..(tile + 1) * c]
    }

    /// The owner of `tile`: a player index, `NOBODY` or `NON_PLAYER`.
    pub fn owner(&self, tile: usize) -> i8 {
        let (n, c, _) = self.dims();
        // an owner cell only ever holds what `owner_cell` wrote: a player index,
        // `NOBODY` or `NON_PLAYER`, all within `i8`
        self.cells[n * c + tile].cast_signed() as i8
    }

    pub fn set_owner(&mut self, tile: usize, owner: i8) {
        let (n, c, _) = self.dims();
        self.cells[n * c + tile] = owner_cell(owner);
    }

    /// The tokens on `tile`, per kind.
    pub fn tokens(&self, tile: usize) -> &[Count] {
        let (n, c, k) = self.dims();
        let start = n * (c + 1) + tile * k;
        &self.cells[start..start + k]
    }

    pub fn tokens_mut(&mut self, tile: usize) -> &mut [Count] {
        let (n, c, k) = self.dims();
        let start = n * (c + 1) + tile * k;
        &mut self.cells[start..start + k]
    }

    fn heap_bytes(&self) -> usize {
        boxed_bytes(&self.cells)
    }
}

/// An owner as a board cell: its `i16` bits.
fn owner_cell(owner: i8) -> Count {
    i16::from(owner).cast_unsigned()
}

/// A player's hands, one per deck, in one buffer: `ends[d]` is where deck `d`'s hand ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hands {
    cards: Box<[u8]>,
    ends: [CardPlace; MAX_DECKS],
}

impl Hands {
    /// Hands from one list of card indices per deck. The hands hold no more cards than
    /// the decks, which `Content::new` bounds by `MAX_DECK_CARDS` together.
    pub fn new(hands: &[Vec<u8>]) -> Hands {
        let mut cards = Vec::new();
        let mut ends: [CardPlace; MAX_DECKS] = [0; MAX_DECKS];
        for (deck, end) in ends.iter_mut().enumerate() {
            if let Some(hand) = hands.get(deck) {
                cards.extend_from_slice(hand);
            }
            *end = CardPlace::try_from(cards.len()).expect("hands hold at most MAX_DECK_CARDS");
        }
        Hands {
            cards: cards.into_boxed_slice(),
            ends,
        }
    }

    /// Every card in hand, deck after deck.
    pub fn all(&self) -> &[u8] {
        &self.cards
    }

    /// Where deck number `deck`'s hand starts in the buffer.
    fn start(&self, deck: usize) -> usize {
        deck.checked_sub(1).map_or(0, |d| usize::from(self.ends[d]))
    }

    /// The cards of deck number `deck` in hand, in the order the deck keeps them.
    pub fn hand(&self, deck: usize) -> &[u8] {
        &self.cards[self.start(deck)..usize::from(self.ends[deck])]
    }

    /// These hands with deck `deck`'s hand replaced by `cards`: the buffer spliced once,
    /// the later hands' ends moved by the difference.
    pub fn with_hand(&self, deck: usize, cards: &[u8]) -> Hands {
        let (start, end) = (self.start(deck), usize::from(self.ends[deck]));
        let mut all = Vec::with_capacity(self.cards.len() - (end - start) + cards.len());
        all.extend_from_slice(&self.cards[..start]);
        all.extend_from_slice(cards);
        all.extend_from_slice(&self.cards[end..]);
        let mut ends = self.ends;
        for later in &mut ends[deck..] {
            let moved = usize::from(*later) - (end - start) + cards.len();
            *later = CardPlace::try_from(moved).expect("hands hold at most MAX_DECK_CARDS");
        }
        Hands {
            cards: all.into_boxed_slice(),
            ends,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub coins: i32,
    pub camels: Count,
    pub meeples: Counts,
    pub hands: Hands,
    /// plugin counters, sorted by name
    pub extras: Box<[(Sym, i64)]>,
}

/// A deck of cards in one buffer: the draw pile (top first), the face-up row (`NO_CARD`
/// for an empty place), then the discard pile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deck {
    cards: Box<[u8]>,
    draw_end: CardPlace,
    row_end: CardPlace,
}

impl Deck {
    pub fn new(draw: &[u8], row: &[u8], discard: &[u8]) -> Deck {
        let cards: Vec<u8> = [draw, row, discard].concat();
        let place = |n: usize| CardPlace::try_from(n).expect("a deck holds at most MAX_DECK_CARDS");
        Deck {
            cards: cards.into_boxed_slice(),
            draw_end: place(draw.len()),
            row_end: place(draw.len() + row.len()),
        }
    }

    pub fn draw(&self) -> &[u8] {
        &self.cards[..usize::from(self.draw_end)]
    }

    pub fn row(&self) -> &[u8] {
        &self.cards[usize::from(self.draw_end)..usize::from(self.row_end)]
    }

    pub fn discard(&self) -> &[u8] {
        &self.cards[usize::from(self.row_end)..]
    }
}

/// A short list kept inline (turn markers, the bid and turn-order tracks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Track {
    items: [i8; MAX_TRACK],
    len: u8,
}

impl Track {
    /// The track of `items`; None when it is longer than the kernel holds.
    pub fn new(items: &[i8]) -> Option<Track> {
        if items.len() > MAX_TRACK {
            return None;
        }
        let mut track = Track {
            items: [0; MAX_TRACK],
            len: items.len() as u8,
        };
        track.items[..items.len()].copy_from_slice(items);
        Some(track)
    }

    pub fn as_slice(&self) -> &[i8] {
        &self.items[..usize::from(self.len)]
    }

    pub fn as_mut_slice(&mut self) -> &mut [i8] {
        &mut self.items[..usize::from(self.len)]
    }
}

/// Where the assassins' first kill was: later kills of the turn go to the same place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    None,
    Tile(u8),
    /// an opponent, by player index (`p2` is player 1)
    Player(u8),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub marker: u8,
    pub start: i8,
    pub path: Box<[u8]>,
    /// meeples still in hand during the move; None before the pick (Python's `()`)
    pub hand: Option<Counts>,
    pub colour: i8,
    pub taken: Count,
    pub reach: Count,
    pub kills: u32,
    pub target: Target,
    pub used: Box<[Sym]>,
    pub revealed: Box<[u8]>,
    pub resume: Sym,
    pub claimed: Box<[u8]>,
    pub callers: Box<[Sym]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub stage: Sym,
    pub player: i8,
}

/// A whole game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub layout: Arc<Layout>,
    pub board: Board,
    pub players: Box<[Player]>,
    pub bag: Counts,
    pub pool: TokenCounts,
    pub decks: Box<[Deck]>,
    /// the owner (player index) of each turn marker
    pub markers: Track,
    /// the marker on each bid-order spot, `NOBODY` if empty
    pub bid_track: Track,
    /// the marker on each turn-order spot, `NOBODY` if empty
    pub turn_track: Track,
    pub decision: Decision,
    pub rng: Rng,
    pub round: u16,
    pub turn: Option<Box<Turn>>,
    /// game-wide flags, sorted
    pub flags: Box<[Sym]>,
    /// plugin counters, sorted by name
    pub extras: Box<[(Sym, i64)]>,
}

fn boxed_bytes<T>(items: &[T]) -> usize {
    std::mem::size_of_val(items)
}

impl State {
    /// The tiles `player` controls, in board order.
    pub fn owned_by(&self, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.layout.size()).filter(move |&t| self.board.owner(t) == player as i8)
    }

    /// The bytes this state takes: the value itself and what it owns on the heap (the
    /// layout is shared by every state of a game, so it is not counted here).
    pub fn size_bytes(&self) -> usize {
        let mut total = std::mem::size_of::<State>() + self.board.heap_bytes();
        total += boxed_bytes(&self.players);
        for p in self.players.iter() {
            total += p.hands.cards.len() + boxed_bytes(&p.extras);
        }
        total += boxed_bytes(&self.decks);
        total += self.decks.iter().map(|d| d.cards.len()).sum::<usize>();
        total += boxed_bytes(&self.flags) + boxed_bytes(&self.extras);
        if let Some(t) = &self.turn {
            total += std::mem::size_of::<Turn>();
            total += t.path.len() + boxed_bytes(&t.used) + t.revealed.len();
            total += t.claimed.len() + boxed_bytes(&t.callers);
        }
        total
    }
}

/// The `a1`-style name of tile `index` on a board `cols` wide.
pub fn tile_name(index: usize, cols: usize) -> String {
    let (row, col) = (index / cols, index % cols);
    format!("{}{}", char::from(b'a' + col as u8), row + 1)
}

/// The index of the tile called `name`, as `core/board.py`'s `parse_tile` reads it.
pub fn parse_tile(name: &str, rows: usize, cols: usize) -> Result<usize, String> {
    let name = name.trim().to_lowercase();
    let mut chars = name.chars();
    let first = chars.next();
    let digits = chars.as_str();
    let col = match first {
        Some(c) if c.is_ascii_lowercase() && !digits.is_empty() => (c as u8 - b'a') as usize,
        _ => {
            return Err(format!(
                "{name:?} is not a tile name (column letter + row number)"
            ))
        }
    };
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "{name:?} is not a tile name (column letter + row number)"
        ));
    }
    let row: usize = digits
        .parse()
        .map_err(|_| format!("tile {name} is off the {rows}x{cols} board"))?;
    if col >= cols || row == 0 || row > rows {
        return Err(format!("tile {name} is off the {rows}x{cols} board"));
    }
    Ok((row - 1) * cols + col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_names_round_trip() {
        assert_eq!(tile_name(0, 6), "a1");
        assert_eq!(tile_name(7, 6), "b2");
        assert_eq!(parse_tile("b2", 5, 6), Ok(7));
        assert_eq!(parse_tile("F5", 5, 6), Ok(29));
        assert!(parse_tile("g1", 5, 6).is_err());
        assert!(parse_tile("a0", 5, 6).is_err());
        assert!(parse_tile("a", 5, 6).is_err());
    }

    #[test]
    fn a_hand_replaced_moves_only_the_later_hands() {
        let hands = Hands::new(&[vec![1, 2], vec![], vec![3, 4, 5], vec![6]]);
        let grown = hands.with_hand(1, &[7, 8, 9]);
        assert_eq!(grown.all(), &[1, 2, 7, 8, 9, 3, 4, 5, 6]);
        assert_eq!(
            (grown.hand(0), grown.hand(2), grown.hand(3)),
            (&[1, 2][..], &[3, 4, 5][..], &[6][..])
        );
        let shrunk = grown.with_hand(2, &[]);
        assert_eq!(shrunk.all(), &[1, 2, 7, 8, 9, 6]);
        assert!(shrunk.hand(2).is_empty() && shrunk.hand(MAX_DECKS - 1).is_empty());
        assert_eq!(shrunk.with_hand(0, &[]).hand(1), &[7, 8, 9]);
        assert_eq!(
            shrunk,
            Hands::new(&[vec![1, 2], vec![7, 8, 9], vec![], vec![6]])
        );
    }
}
