//! Actions as the kernel lists them, in the notation and the canonical order of
//! `core/actions.py`: by kind, then arguments with numbers compared as numbers.

use crate::content::programs::MOST_TARGET_MEEPLES;
use crate::content::Content;
use crate::state::{tile_name, Count};

pub use crate::limits::MAX_ACTION_CARDS;
pub use crate::pay::{Pay, Payment};

/// What one thing given up, kept or placed is: the argument of `give`, `keep`, `take`
/// and `place` in a theft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loot {
    /// a tile, by index (`give c3`, `take c3`)
    Tile(u8),
    /// a token (by index) on a tile (`give palm-tree c3`, `place palace c3`)
    Token(u8, u8),
    /// meeples of the thief's colour (`give`, `keep`)
    Meeples,
    /// cards, by card index in the order of their ids (`give fish+gold`, `keep fish`)
    Cards(Cards),
}

impl Loot {
    /// The arguments after the verb, each led by a space (none for meeples).
    pub fn arguments(&self, content: &Content, cols: usize) -> String {
        let tile = |t: u8| tile_name(usize::from(t), cols);
        match self {
            Loot::Tile(t) => format!(" {}", tile(*t)),
            Loot::Token(k, t) => {
                format!(" {} {}", content.doc.tokens[usize::from(*k)].id, tile(*t))
            }
            Loot::Meeples => String::new(),
            Loot::Cards(cards) => {
                let ids: Vec<&str> = cards
                    .as_slice()
                    .iter()
                    .map(|&c| content.doc.cards[usize::from(c)].id.as_str())
                    .collect();
                format!(" {}", ids.join("+"))
            }
        }
    }

    /// The owner's verb for keeping this (`Theft.keep_verb`: `take` a tile, `place` a
    /// token, else `keep`).
    pub fn keep_verb(&self) -> &'static str {
        match self {
            Loot::Tile(_) => "take",
            Loot::Token(..) => "place",
            Loot::Meeples | Loot::Cards(_) => "keep",
        }
    }
}

/// Cards an action names, by card index, in the order of their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cards {
    items: [u8; MAX_ACTION_CARDS],
    len: u8,
}

impl Cards {
    /// None when there are more than the kernel's actions hold.
    pub fn new(cards: &[u8]) -> Option<Cards> {
        if cards.len() > MAX_ACTION_CARDS {
            return None;
        }
        let mut items = [0; MAX_ACTION_CARDS];
        items[..cards.len()].copy_from_slice(cards);
        Some(Cards {
            items,
            len: cards.len() as u8,
        })
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }
}

/// Where the assassins kill: a tile, or in front of a player (by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Victim {
    Tile(u8),
    Player(u8),
}

/// One option of a pending decision (the kinds the ported stages offer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `bid <cost>`: take the free turn-order spot of that cost
    Bid(u32),
    /// `pick <tile>`: take every meeple of a tile
    Pick(u8),
    /// `drop <tile> <colour letter>`: drop the next meeple
    Drop(u8, u8),
    /// `fakirs <n>`: discard that many Fakirs for the tribe action
    Fakirs(Count),
    /// `kill <tile|p<seat>> <colour letter>`
    Kill(Victim, u8),
    /// `place <tile>`: the token goes on that tile
    Place(u8),
    /// `buy <card>+<card>`: at a market
    Buy(Cards),
    /// `sell <card>+<card>…`: one suit of different merchandise
    Sell(Cards),
    /// `djinn <id> <EE|EF>`: take a face-up djinn at a sacred place, paying so
    Djinn(u8, Payment),
    /// `<card> [tile] [payment]`: a card used in its owner's turn (`Activated`)
    Card(u8, Option<u8>, Pay),
    /// `<card> <card id> [payment]`: a card used on a card of a pile (`target_card`:
    /// the Fabulous Lamp's djinn, the Rebirth Ring's item)
    CardOnCard(u8, u8, Pay),
    /// `<card> <tile> <tile> [payment]`: a card used on a tile and a second tile
    /// (`target_to`: the Tempest Talisman's camel and where it goes)
    CardOnTiles(u8, u8, u8, Pay),
    /// `<card> <tile> <letters> [payment]`: a card used on meeples of a tile
    /// (`target_meeples`: those the Burning Scimitar kills)
    CardOnMeeples(u8, u8, Group, Pay),
    /// `<kumarbi> <cost> <F…>`: a bid for the spot of that cost, Fakirs discarded
    Discounted(u8, u32, Count),
    /// `<verb> <card> [payment]`: a card used by its deck's verb (`claim <whim>`)
    Claim(u8, Pay),
    /// `keep <djinn>`: the djinn kept of those drawn (Sibittis)
    Keep(u8),
    /// `choose <n>`: option n (from 1) of a choice an effect offers (`ChoiceStage`)
    Choose(u8),
    /// `skip`: an optional tile action not taken
    Skip,
    /// `end`: the turn ends
    End,
    /// `thief <card> <EE|EF>`: the face-up thief taken at a sacred place (thieves.rs)
    Thief(u8, Payment),
    /// `give [what]`: what an opponent gives up to a thief (thieves.rs)
    Give(Loot),
    /// `keep [cards]`, `take <tile>`, `place <token> <tile>`: what the thief's owner
    /// keeps of it (thieves.rs)
    Loot(Loot),
    /// `tent <tile>`: the Artisans' tent on a tile taken this turn
    Tent(u8),
    /// `workshop <P…|F…>`: the top item, paid with that many artisans (or Fakirs)
    Workshop(Way, Count),
    /// `gather <tile> <colour letter>`: the Enchanting Flute moves one meeple
    Gather(u8, u8),
    /// `done`: the Enchanting Flute gathers no more
    Done,
    /// `<item> [target…]`: a magic item used in its owner's turn
    Item(u8, ItemTarget),
}

/// How a workshop is paid: artisans (`P`) or Fakirs (`F`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Way {
    Artisans,
    Fakirs,
}

/// Meeples an action names on a tile (`target_meeples`): their colours in colour
/// order, one entry per meeple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    colours: [u8; MOST_TARGET_MEEPLES],
    len: u8,
}

impl Group {
    /// The group of these colours, None for more than an action names.
    pub fn new(colours: &[u8]) -> Option<Group> {
        let mut group = Group {
            colours: [0; MOST_TARGET_MEEPLES],
            len: u8::try_from(colours.len()).ok()?,
        };
        group
            .colours
            .get_mut(..colours.len())?
            .copy_from_slice(colours);
        Some(group)
    }

    pub fn colours(&self) -> &[u8] {
        &self.colours[..usize::from(self.len)]
    }
}

/// What a magic item acts on (`Activated.targets` of plugins/artisans/board_items.py),
/// as its action's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemTarget {
    /// a tile (the Enchanting Flute)
    Tile(u8),
    /// a tile and a colour (the Flying Carpet)
    TileColour(u8, u8),
}

fn joined(content: &Content, cards: &Cards) -> String {
    let ids: Vec<&str> = cards
        .as_slice()
        .iter()
        .map(|&c| content.doc.cards[usize::from(c)].id.as_str())
        .collect();
    ids.join("+")
}

impl Action {
    /// The action's notation (`drop c3 W`).
    pub fn notation(&self, content: &Content, cols: usize) -> String {
        let tile = |t: u8| tile_name(usize::from(t), cols);
        let letter = |c: u8| content.letters[usize::from(c)];
        match self {
            Action::Bid(cost) => format!("bid {cost}"),
            Action::Pick(t) => format!("pick {}", tile(*t)),
            Action::Drop(t, c) => format!("drop {} {}", tile(*t), letter(*c)),
            Action::Fakirs(n) => format!("fakirs {n}"),
            Action::Kill(Victim::Tile(t), c) => format!("kill {} {}", tile(*t), letter(*c)),
            Action::Kill(Victim::Player(p), c) => format!("kill p{} {}", p + 1, letter(*c)),
            Action::Place(t) => format!("place {}", tile(*t)),
            Action::Buy(cards) => format!("buy {}", joined(content, cards)),
            Action::Sell(cards) => format!("sell {}", joined(content, cards)),
            Action::Djinn(card, pay) => format!(
                "djinn {} {}",
                content.doc.cards[usize::from(*card)].id,
                pay.code()
            ),
            Action::Card(card, target, pay) => {
                let mut text = content.doc.cards[usize::from(*card)].id.clone();
                if let Some(t) = target {
                    text.push(' ');
                    text.push_str(&tile(*t));
                }
                if *pay != Pay::Free {
                    text.push(' ');
                    text.push_str(pay.code());
                }
                text
            }
            Action::CardOnCard(card, target, pay) => {
                let cards = &content.doc.cards;
                let mut text = format!(
                    "{} {}",
                    cards[usize::from(*card)].id,
                    cards[usize::from(*target)].id
                );
                if *pay != Pay::Free {
                    text.push(' ');
                    text.push_str(pay.code());
                }
                text
            }
            Action::CardOnTiles(card, from, to, pay) => {
                let id = &content.doc.cards[usize::from(*card)].id;
                let mut text = format!("{id} {} {}", tile(*from), tile(*to));
                if *pay != Pay::Free {
                    text.push(' ');
                    text.push_str(pay.code());
                }
                text
            }
            Action::CardOnMeeples(card, t, group, pay) => {
                let id = &content.doc.cards[usize::from(*card)].id;
                let letters: String = group.colours().iter().map(|&c| letter(c)).collect();
                let mut text = format!("{id} {} {letters}", tile(*t));
                if *pay != Pay::Free {
                    text.push(' ');
                    text.push_str(pay.code());
                }
                text
            }
            Action::Discounted(card, cost, fakirs) => format!(
                "{} {cost} {}",
                content.doc.cards[usize::from(*card)].id,
                "F".repeat(usize::from(*fakirs))
            ),
            Action::Claim(card, pay) => {
                let spec = &content.doc.cards[usize::from(*card)];
                let verb = content
                    .deck_index(&spec.deck)
                    .map_or("", |d| content.doc.decks[d].verb.as_str());
                let mut text = format!("{verb} {}", spec.id);
                if *pay != Pay::Free {
                    text.push(' ');
                    text.push_str(pay.code());
                }
                text
            }
            Action::Keep(card) => format!("keep {}", content.doc.cards[usize::from(*card)].id),
            Action::Choose(n) => format!("choose {n}"),
            Action::Skip => "skip".to_owned(),
            Action::End => "end".to_owned(),
            Action::Thief(card, pay) => format!(
                "thief {} {}",
                content.doc.cards[usize::from(*card)].id,
                pay.code()
            ),
            Action::Give(loot) => format!("give{}", loot.arguments(content, cols)),
            Action::Loot(loot) => format!("{}{}", loot.keep_verb(), loot.arguments(content, cols)),
            Action::Tent(t) => format!("tent {}", tile(*t)),
            Action::Workshop(way, n) => {
                let code = if *way == Way::Artisans { "P" } else { "F" };
                format!("workshop {}", code.repeat(usize::from(*n)))
            }
            Action::Gather(t, c) => format!("gather {} {}", tile(*t), letter(*c)),
            Action::Done => "done".to_owned(),
            Action::Item(card, target) => {
                let id = &content.doc.cards[usize::from(*card)].id;
                match target {
                    ItemTarget::Tile(t) => format!("{id} {}", tile(*t)),
                    ItemTarget::TileColour(t, c) => format!("{id} {} {}", tile(*t), letter(*c)),
                }
            }
        }
    }
}

/// The canonical order of one decision's options as one number, without writing their
/// notation: the kind (ranked as its name sorts among every kind, card ids included),
/// then the arguments as the natural key orders them (a tile `c3` by its column letter,
/// then its row as a number; a colour by its letter; a number as a number; a card id by
/// where it sorts among card ids; a payment as its code sorts; the cards of a purchase or
/// a sale as the list of their ids' ranks). None where the key cannot hold an action's
/// arguments, whose options are then ordered by `sort_key` instead.
pub fn fast_key(action: &Action, content: &Content, cols: usize) -> Option<u64> {
    let ranks = &content.kind_ranks;
    if !ranks.usable {
        return None;
    }
    // FIXED_KINDS: bid buy djinn drop end fakirs keep kill pick place sell skip
    let fixed = |i: usize| ranks.fixed[i];
    let tile = |t: u8| {
        let t = usize::from(t);
        (u64::from(b'a') + (t % cols) as u64, (t / cols + 1) as u64)
    };
    let letter = |c: u8| u64::from(u32::from(content.letters[usize::from(c)]));
    // a payment's code as text: "" < "E" < "EE" < "EF" < "F"
    let pay = |p: Pay| match p {
        Pay::Free => 0,
        Pay::E => 1,
        Pay::EE => 2,
        Pay::EF => 3,
        Pay::F => 4,
    };
    let card_kind = |c: u8| ranks.card_kind[usize::from(c)];
    let card_id = |c: u8| ranks.card_id[usize::from(c)];
    let key = |rank: u64, a: u64, b: u64, c: u64| rank << 56 | a << 38 | b << 20 | c;
    Some(match *action {
        Action::Bid(cost) => key(fixed(0), u64::from(cost), 0, 0),
        Action::Djinn(card, p) => {
            let p = match p {
                Payment::ElderElder => Pay::EE,
                Payment::ElderFakir => Pay::EF,
            };
            key(fixed(2), card_id(card), pay(p), 0)
        }
        Action::Drop(t, c) => {
            let (col, row) = tile(t);
            key(fixed(3), col, row, letter(c))
        }
        Action::End => key(fixed(4), 0, 0, 0),
        Action::Fakirs(n) => key(fixed(5), u64::from(n), 0, 0),
        Action::Keep(card) => key(fixed(6), card_id(card), 0, 0),
        Action::Kill(Victim::Tile(t), c) => {
            let (col, row) = tile(t);
            key(fixed(7), col, row, letter(c))
        }
        Action::Kill(Victim::Player(p), c) => {
            key(fixed(7), u64::from(b'p'), u64::from(p) + 1, letter(c))
        }
        Action::Pick(t) => {
            let (col, row) = tile(t);
            key(fixed(8), col, row, 0)
        }
        Action::Place(t) => {
            let (col, row) = tile(t);
            key(fixed(9), col, row, 0)
        }
        Action::Skip => key(fixed(11), 0, 0, 0),
        Action::Card(card, Some(t), p) => {
            let (col, row) = tile(t);
            key(card_kind(card), col, row, pay(p))
        }
        Action::Card(card, None, p) => key(card_kind(card), pay(p), 0, 0),
        Action::CardOnCard(card, target, p) => key(card_kind(card), card_id(target), pay(p), 0),
        Action::CardOnTiles(card, from, to, p) => {
            let (col, row) = tile(from);
            let (col2, row2) = tile(to);
            // the second tile, then the payment: within the key's 20 low bits (a board
            // has at most 64 tiles, so a row fits in 7 of its 9)
            key(card_kind(card), col, row, (col2 << 9 | row2) << 3 | pay(p))
        }
        Action::Discounted(card, cost, fakirs) => {
            key(card_kind(card), u64::from(cost), u64::from(fakirs), 0)
        }
        Action::CardOnMeeples(card, t, group, p) => {
            let colours = group.colours();
            if colours.len() > 2 {
                return None; // more letters than the key holds
            }
            let (col, row) = tile(t);
            // two letters, the second 0 when there is one ("R" < "RR" < "RW"), then the
            // payment: 19 of the key's 20 low bits (a letter is ASCII)
            let letters = (0..2).fold(0, |acc, i| {
                acc << 8 | colours.get(i).map_or(0, |&c| letter(c))
            });
            key(card_kind(card), col, row, letters << 3 | pay(p))
        }
        Action::Claim(card, p) => key(ranks.card_verb[usize::from(card)], card_id(card), pay(p), 0),
        // the thieves' kinds and a choice's are not among the fixed kinds: sorted by their
        // notation
        Action::Thief(..) | Action::Give(_) | Action::Loot(_) | Action::Choose(_) => return None,
        // the Artisans' kinds, ranked after the base game's (FIXED_KINDS)
        Action::Done => key(fixed(12), 0, 0, 0),
        Action::Gather(t, c) => {
            let (col, row) = tile(t);
            key(fixed(13), col, row, letter(c))
        }
        Action::Tent(t) => {
            let (col, row) = tile(t);
            key(fixed(14), col, row, 0)
        }
        Action::Workshop(way, n) => {
            let code = if way == Way::Artisans { b'P' } else { b'F' };
            key(fixed(15), u64::from(code), u64::from(n), 0)
        }
        Action::Item(card, target) => {
            let rank = card_kind(card);
            match target {
                ItemTarget::Tile(t) => {
                    let (col, row) = tile(t);
                    key(rank, col, row, 0)
                }
                ItemTarget::TileColour(t, c) => {
                    let (col, row) = tile(t);
                    key(rank, col, row, letter(c))
                }
            }
        }
        Action::Buy(cards) => cards_key(fixed(1), &cards, ranks)?,
        Action::Sell(cards) => cards_key(fixed(10), &cards, ranks)?,
    })
}

/// The key of `buy a+b` or `sell a+b+c`: the kind, then each card id's rank among card
/// ids, one byte each (a shorter list first, as a shorter joined text sorts first); None
/// for more cards than the key holds or ids whose joined text sorts otherwise.
fn cards_key(rank: u64, cards: &Cards, ranks: &crate::content::KindRanks) -> Option<u64> {
    let ids = cards.as_slice();
    if !ranks.joins || ids.len() > 7 {
        return None;
    }
    let mut key = rank << 56;
    for (i, &card) in ids.iter().enumerate() {
        key |= (ranks.card_id[usize::from(card)] + 1) << (8 * (6 - i));
    }
    Some(key)
}

thread_local! {
    /// The keyed options of one decision being sorted, kept from decision to decision so
    /// that sorting allocates nothing once it has held the longest list.
    static KEYED: std::cell::RefCell<Vec<(u64, Action)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One decision's options in canonical order, duplicates removed (`Rules.legal_actions`
/// sorts by `SORT_KEY`). Each option's cheap key is computed once into a reused buffer;
/// a list the generators made in canonical order is left as it is, any other is sorted
/// there and written back, with no allocation per decision.
pub fn sort_options(options: &mut Vec<Action>, content: &Content, cols: usize) {
    if options.len() < 2 {
        return;
    }
    let sorted = KEYED.with(|keyed| {
        let Ok(mut keyed) = keyed.try_borrow_mut() else {
            return false; // only a re-entrant call finds it taken: the slow path then
        };
        keyed.clear();
        let mut rising = true;
        for option in options.iter() {
            let Some(k) = fast_key(option, content, cols) else {
                return false;
            };
            rising &= keyed.last().is_none_or(|&(last, _)| last < k);
            keyed.push((k, *option));
        }
        if !rising {
            keyed.sort_unstable_by_key(|&(k, _)| k);
            keyed.dedup_by_key(|&mut (k, _)| k);
            options.clear();
            options.extend(keyed.iter().map(|&(_, a)| a));
        }
        true
    });
    if !sorted {
        options.sort_by_cached_key(|a| sort_key(&a.notation(content, cols)));
        options.dedup();
    }
}

/// The canonical sort key of an action's notation, the very string `_sort_key` builds:
/// the kind, then each argument's parts (a number as `\x01`, its digit count and its
/// digits; text as `\x02` and the text), each argument closed by `\x00`.
pub fn sort_key(notation: &str) -> String {
    let mut tokens = notation.split(' ');
    let mut out = String::with_capacity(notation.len() + 8);
    out.push_str(tokens.next().unwrap_or(""));
    out.push('\0');
    for arg in tokens {
        let bytes = arg.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let digit = bytes[i].is_ascii_digit();
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() == digit {
                i += 1;
            }
            let part = &arg[start..i];
            if digit {
                let trimmed = part.trim_start_matches('0');
                let digits = if trimmed.is_empty() { "0" } else { trimmed };
                out.push('\x01');
                out.push(char::from(0x20 + digits.len() as u8));
                out.push_str(digits);
            } else {
                out.push('\x02');
                out.push_str(part);
            }
        }
        out.push('\0');
    }
    out
}

/// Notations in canonical order, duplicates removed.
pub fn sorted_notations(mut notations: Vec<String>) -> Vec<String> {
    notations.sort_by_cached_key(|n| sort_key(n));
    notations.dedup();
    notations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_as_numbers() {
        let sorted = sorted_notations(vec![
            "bid 12".to_owned(),
            "bid 3".to_owned(),
            "bid 0".to_owned(),
            "pick a10".to_owned(),
            "pick a2".to_owned(),
            "bid 3".to_owned(),
        ]);
        assert_eq!(sorted, ["bid 0", "bid 3", "bid 12", "pick a2", "pick a10"]);
    }

    #[test]
    fn keys_are_the_python_keys() {
        // _sort_key("drop", ("c3", "W")) in core/actions.py
        assert_eq!(sort_key("drop c3 W"), "drop\0\x02c\x01!3\0\x02W\0");
        assert_eq!(sort_key("bid 012"), "bid\0\x01\"12\0");
    }
}
