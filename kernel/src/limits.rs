//! What a native state can hold, as numbers every module reads: the sizes of its fixed
//! arrays and the widths of its counts. A leaf module, so that the content (which checks
//! a document against these limits) and the state (which is laid out by them) need not
//! read each other.

/// The most tiles of a board (tiles are bits of a `u64` mask).
pub const MAX_TILES: usize = 64;
pub const MAX_COLOURS: usize = 6;
pub const MAX_TOKENS: usize = 3;
pub const MAX_PLAYERS: usize = 5;
/// The most decks a native state holds: the boxes' five (resources, djinns, items,
/// thieves, whims) and three of house rules' own (a deck lying on tiles, say).
pub const MAX_DECKS: usize = 8;
pub const MAX_TRACK: usize = 16;
/// The most cards one action names (a purchase, a suit sold).
pub const MAX_ACTION_CARDS: usize = 12;

/// The most coins a player may hold (`core/validate.py`'s `MAX_COINS`).
pub const MAX_COINS: i64 = 1_000_000;

/// No player: an unowned tile, the start of a walk.
pub const NOBODY: i8 = -1;

/// A count of meeples of one colour, or of tokens of one kind: content may have 1 000 of
/// a colour, with 1 000 extra meeples (docs/formats.md), so a byte does not hold it.
pub type Count = u16;
/// A place in a deck's or a hand's buffer of cards: a deck may hold far more than 255
/// cards (1 000 copies of a card), up to `MAX_DECK_CARDS`.
pub type CardPlace = u16;
/// The most cards of one deck a native state holds (`Content::new` refuses more).
pub const MAX_DECK_CARDS: usize = CardPlace::MAX as usize;
