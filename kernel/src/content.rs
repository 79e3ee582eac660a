//! The content the Python `Rules` merged, handed to the kernel as data.
//!
//! Every number, tile kind, deck and card parameter the kernel uses is read from here,
//! never written into the Rust code, so a content-only house rule (`[[override]]`,
//! `big-viziers`, `generous-jafaar`) runs native without a change to the kernel. The
//! document is made by `naqala.native.content.content_data` from a `Rules`.

use std::collections::BTreeMap;

use serde::Deserialize;

use std::sync::{Arc, Mutex};

pub mod box_names;
mod check;
pub mod programs;
pub mod variant_settings;

use crate::geometry::Geometry;
use crate::limits::{Count, MAX_ACTION_CARDS, MAX_DECK_CARDS};
use crate::names::Names;
use crate::pay::Pay;

/// The most of each component a native state can hold (fixed arrays keep a state
/// small and its copies free of allocations).
pub use crate::limits::{MAX_COLOURS, MAX_PLAYERS, MAX_TILES, MAX_TOKENS};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColourSpec {
    pub id: String,
    pub letter: String,
    pub name: String,
    pub count: u32,
    pub kept: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSpec {
    pub id: String,
    pub name: String,
    pub count: u32,
    pub vp: i64,
    pub replaces_camel: bool,
}

/// One tile of the tile table (`rules.tile_specs`): its id (`oasis-3`) and its spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSpec {
    pub id: String,
    pub kind: String,
    pub vp: i64,
    pub value: String,
    /// how many tiles of this spec the content has (the table lists each once)
    pub count: u32,
    pub holds_meeples: bool,
    /// every tile of this kind is impassable wherever it lies (`TileSpec.impassable`)
    #[serde(default)]
    pub impassable: bool,
    /// the value printed on the tile, for pictures
    pub printed: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSpec {
    pub deck: String,
    pub id: String,
    pub kind: String,
    pub count: u32,
    pub vp: i64,
    pub cost: String,
    pub name: String,
    pub text: String,
    pub params: BTreeMap<String, i64>,
    pub subject: String,
    pub needs: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckSpec {
    pub id: String,
    pub noun: String,
    pub order: String,
    pub limit: String,
    pub verb: String,
    pub discard: bool,
    pub scored: String,
    /// the tile kind its face-up row lies on, one place per tile in board order ("": none)
    pub lies_on: String,
    /// the event a card taken off its tile fires (a plugin's: no rule the kernel plays
    /// hears it)
    pub taken_event: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerCountSpec {
    pub players: u32,
    pub camels: u32,
    pub markers: u32,
}

/// The content document, as `content_data` writes it. Every record has every field
/// of its Python class (unknown fields are refused), so a field added to the content in
/// Python cannot be ignored here unnoticed; display-only fields are read and unused.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentDoc {
    pub ruleset: Vec<String>,
    pub without: Vec<String>,
    pub colours: Vec<ColourSpec>,
    pub tokens: Vec<TokenSpec>,
    pub tiles: Vec<TileSpec>,
    pub cards: Vec<CardSpec>,
    pub decks: Vec<DeckSpec>,
    pub player_counts: Vec<PlayerCountSpec>,
    pub settings: BTreeMap<String, i64>,
    pub tables: BTreeMap<String, Vec<i64>>,
    /// the settings that are no number (`verdict.tie_break`, `start.cards`), by dotted
    /// name, read by shape in `Content::new` (`crate::typed_settings`)
    #[serde(default)]
    pub typed_settings: BTreeMap<String, serde_json::Value>,
    pub stages: Vec<String>,
    /// the ids of the cards in play, in content order (the cards left out with
    /// `--without` are in `cards`, so that states naming them can be read, but not here)
    pub in_play: Vec<String>,
    /// the plugins played at a kept older version (`name version`), which the kernel
    /// refuses rather than play as today's version
    #[serde(default)]
    pub editions: Vec<String>,
    /// the turn fields the plugins declare (`Rules.turn_fields`: the base game's `reach`,
    /// `kills`, `target`, the Artisans' `claimed`): the state JSON holds those alone
    #[serde(default)]
    pub turn_fields: Vec<String>,
    /// every rule with the plugin module that provides it (`crate::providers`): the
    /// kernel sets up no game with a rule whose provider it does not implement
    #[serde(default)]
    pub providers: Vec<crate::providers::ProviderSpec>,
    /// the effects language's triggers, tile actions and powers (`programs`)
    #[serde(default)]
    pub effects: programs::EffectsDoc,
    /// the decks whose cards in hand only their holder sees (hook `naqala_hidden_decks`)
    #[serde(default)]
    pub hidden_decks: Vec<String>,
    /// the cost codes a card may name, with the payments each allows in the order
    /// offered (`Rules.cost_codes`: what a cost means is data, not kernel code)
    #[serde(default)]
    pub costs: BTreeMap<String, Vec<String>>,
}

/// The rule that makes a game a solo game: solo mode's plugin provides the `bid` stage
/// (`SultansRoll`), as the providers table says (`crate::providers`). The box is
/// recognised by what its module provides, not by a name in the ruleset.
const SOLO_BID: (&str, &str) = ("stage:bid", crate::providers::SOLO);

impl ContentDoc {
    /// The merchandise of the resource deck (found by name; the content check holds it
    /// first), for final scoring and `merchandise(n)` (`crate::suits`).
    pub fn suits(&self) -> crate::suits::Suits {
        let goods: Box<[bool]> = (self.cards.iter())
            .map(|c| c.deck == RESOURCES && c.kind == "merchandise")
            .collect();
        let mut types: Vec<&str> = (self.cards.iter().zip(goods.iter()))
            .filter(|&(_, &good)| good)
            .map(|(c, _)| c.id.as_str())
            .collect();
        types.sort_unstable();
        types.dedup();
        crate::suits::Suits {
            deck: self
                .decks
                .iter()
                .position(|d| d.id == RESOURCES)
                .unwrap_or(0),
            goods,
            types: types.len(),
            values: self
                .tables
                .get("suit_values")
                .cloned()
                .unwrap_or_default()
                .into(),
        }
    }

    /// The index of colour `id` (`VIZIER`) in the colours, meeples and bags.
    pub fn colour_index(&self, id: &str) -> Option<usize> {
        self.colours.iter().position(|c| c.id == id)
    }

    /// The tiles deck `deck`'s row lies on (`[[deck]] lies_on`), by the tile table's
    /// index; None for a deck whose row lies on none.
    pub fn lying_places(&self, deck: usize) -> Option<Box<[bool]>> {
        let kind = &self.decks.get(deck)?.lies_on;
        (!kind.is_empty()).then(|| self.tiles.iter().map(|t| t.kind == *kind).collect())
    }

    /// Whether these are a solo game's rules: their bid stage is solo mode's.
    pub fn is_solo(&self) -> bool {
        let (entry, module) = SOLO_BID;
        self.providers
            .iter()
            .any(|p| p.entry == entry && p.module == module)
    }
}

/// The content with its lookups built once: what every rule and conversion reads.
#[derive(Debug)]
pub struct Content {
    pub doc: ContentDoc,
    /// the colour letters, in colour order (`YWGBR`)
    pub letters: Vec<char>,
    pub names: Names,
    /// the geometry of each board shape met, shared by its games (`core/board.py`
    /// caches it per shape too): its walk tables take longer to build than a game
    geometries: Mutex<Vec<(GeometryKey, Arc<Geometry>)>>,
    /// where each action kind's name sorts among every kind an action can have (the
    /// stages' kinds and the card ids, which name a card's own actions)
    pub kind_ranks: KindRanks,
    /// `doc.typed_settings` read by shape
    typed_settings: BTreeMap<String, crate::typed_settings::TypedSetting>,
    /// the common variants' settings, read once (`variant_settings`)
    variants: variant_settings::Variants,
    /// the effects language's entries, resolved once (`programs`)
    pub effects: programs::Effects,
    /// the merchandise and its `suit_values`, found once: sales, final scoring, the
    /// results reading and the Whims read this one copy (`crate::suits`)
    pub suits: crate::suits::Suits,
    /// the index of the deck named `RESOURCES`, found by name once
    resources: usize,
    /// the index of the deck named `DJINNS`, found by name once
    djinns: usize,
    /// by card index: the payments its cost code allows, in the order offered (None: a
    /// code the cost table lacks)
    card_ways: Vec<Option<Box<[Pay]>>>,
}

/// The decks every game has, by name (`core/content.py`'s `RESOURCES` and `DJINNS`): the
/// rules find them by these names (`Content::resources`, `Content::djinns`), never by a
/// number of their own.
pub const RESOURCES: &str = "resources";
pub const DJINNS: &str = "djinns";

/// The colours whose tribes the rules play by hand, by id (`tribes.py`'s `VIZIER`,
/// `ELDER`…, the Artisans' `ARTISAN`): each is found in the content by this id
/// (`ContentDoc::colour_index`), and a game without it has no such tribe.
pub const VIZIER: &str = "yellow";
pub const ELDER: &str = "white";
pub const MERCHANT: &str = "green";
pub const BUILDER: &str = "blue";
pub const ASSASSIN: &str = "red";
pub const ARTISAN: &str = "purple";

/// The order of action kinds' names, and of card ids, as numbers: the canonical order of
/// actions compares kinds, and card ids as arguments, as strings.
#[derive(Debug, Clone)]
pub struct KindRanks {
    /// the rank of each fixed kind, in `FIXED_KINDS` order
    pub fixed: Vec<u64>,
    /// the rank of each card id (by card index) as an action's kind
    pub card_kind: Vec<u64>,
    /// the rank of each card id (by card index) among card ids, as an argument
    pub card_id: Vec<u64>,
    /// the rank of the verb of each card's deck (by card index) as an action's kind
    /// (`claim`: a card used by its deck's verb)
    pub card_verb: Vec<u64>,
    /// whether the ranks fit a sort key (fewer than 256 kinds) and card ids as arguments
    /// sort as plain strings (no digits, which the natural order reads as numbers)
    pub usable: bool,
    /// whether card ids joined by `+` (a purchase, a suit sold) sort as the lists of
    /// their ids do: no id holds a character sorting before `+`
    pub joins: bool,
}

/// The kinds of the stages' actions (`actions.rs`): their ranks are in this order in
/// `KindRanks::fixed`.
pub const FIXED_KINDS: &[&str] = &[
    "bid", "buy", "djinn", "drop", "end", "fakirs", "keep", "kill", "pick", "place", "sell",
    "skip", // the Artisans' (rules/artisans.rs)
    "done", "gather", "tent", "workshop",
];

impl KindRanks {
    fn new(doc: &ContentDoc) -> KindRanks {
        let mut kinds: Vec<&str> = FIXED_KINDS.to_vec();
        kinds.extend(doc.cards.iter().map(|c| c.id.as_str()));
        kinds.extend(doc.decks.iter().map(|d| d.verb.as_str()));
        kinds.sort_unstable();
        kinds.dedup();
        let rank = |name: &str| kinds.binary_search(&name).map_or(0, |i| i as u64);
        let mut ids: Vec<&str> = doc.cards.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        let usable = kinds.len() < 256
            && doc
                .cards
                .iter()
                .all(|c| !c.id.bytes().any(|b| b.is_ascii_digit()));
        let joins = doc.cards.iter().all(|c| c.id.bytes().all(|b| b > b'+'));
        KindRanks {
            usable,
            joins,
            fixed: FIXED_KINDS.iter().map(|k| rank(k)).collect(),
            card_kind: doc.cards.iter().map(|c| rank(&c.id)).collect(),
            card_verb: doc
                .cards
                .iter()
                .map(|c| {
                    let deck = doc.decks.iter().find(|d| d.id == c.deck);
                    rank(deck.map_or("", |d| d.verb.as_str()))
                })
                .collect(),
            card_id: doc
                .cards
                .iter()
                .map(|c| ids.binary_search(&c.id.as_str()).map_or(0, |i| i as u64))
                .collect(),
        }
    }
}

/// Every count of `doc` fits the state's fields, or an error naming its content path and
/// the kernel's limit (`Count` for meeples, tokens and camels, `MAX_DECK_CARDS` for the
/// cards of every deck, which one player's hands may all hold).
fn check_counts(doc: &ContentDoc) -> Result<(), String> {
    let most = u32::from(Count::MAX);
    let mut counts: Vec<(String, u32)> = Vec::new();
    for colour in &doc.colours {
        counts.push((format!("colour {}: count", colour.id), colour.count));
    }
    for token in &doc.tokens {
        counts.push((format!("token {}: count", token.id), token.count));
    }
    for pc in &doc.player_counts {
        counts.push((format!("player_count {}: camels", pc.players), pc.camels));
    }
    for (what, found) in counts {
        if found > most {
            return Err(format!(
                "kernel content: {what} {found}, the kernel holds at most {most}"
            ));
        }
    }
    // every card of every deck may end in one player's hands
    let cards: u64 = doc.cards.iter().map(|c| u64::from(c.count)).sum();
    if cards > MAX_DECK_CARDS as u64 {
        return Err(format!(
            "kernel content: card counts: {cards} cards in the decks, the kernel holds at \
             most {MAX_DECK_CARDS}"
        ));
    }
    Ok(())
}

/// No action the content allows names more cards than an action holds
/// (`MAX_ACTION_CARDS`): a purchase (`take` of the first `reach` of the resource row), a
/// suit sold (one card of each kind of merchandise), what a card thief takes (`give`,
/// `keep` of a hand).
fn check_action_cards(doc: &ContentDoc) -> Result<(), String> {
    let most = MAX_ACTION_CARDS as i64;
    let setting = |key: &str| doc.settings.get(key).copied();
    let row = setting("resource_row").unwrap_or(0);
    for size in ["small", "large"] {
        let reach = setting(&format!("{size}_market_reach"));
        let take = setting(&format!("{size}_market_take"));
        if let (Some(reach), Some(take)) = (reach, take) {
            let bought = take.min(reach).min(row);
            if bought > most {
                return Err(format!(
                    "kernel content: settings.{size}_market_take: a purchase of {bought} cards, \
                     the kernel's actions hold at most {most}"
                ));
            }
        }
    }
    let resources = doc.decks.first().map(|d| d.id.as_str());
    let kinds = doc
        .cards
        .iter()
        .filter(|c| Some(c.deck.as_str()) == resources && c.kind == "merchandise")
        .count();
    if kinds > MAX_ACTION_CARDS {
        return Err(format!(
            "kernel content: resources: {kinds} kinds of merchandise (a suit sold), the \
             kernel's actions hold at most {most} cards"
        ));
    }
    for card in &doc.cards {
        if !doc.decks.iter().any(|d| d.id == card.kind) {
            continue; // only a card thief takes cards of a deck its kind names
        }
        for param in ["give", "keep"] {
            if let Some(&n) = card.params.get(param).filter(|&&n| n > most) {
                return Err(format!(
                    "kernel content: card {}: params.{param}: {n} cards, the kernel's \
                     actions hold at most {most}",
                    card.id
                ));
            }
        }
    }
    Ok(())
}

/// The bag covers every tile that holds meeples `meeples_per_tile` times, as the base
/// game's content check requires (`plugins/base/checks.py`): the setup draws from it.
fn check_bag(doc: &ContentDoc) -> Result<(), String> {
    let per_tile = doc.settings.get("meeples_per_tile").copied().unwrap_or(0);
    let tiles = doc.tiles.iter().filter(|t| t.holds_meeples).count() as i64;
    let meeples: i64 = doc.colours.iter().map(|c| i64::from(c.count)).sum();
    let need = tiles.saturating_mul(per_tile);
    if meeples < need {
        return Err(format!(
            "kernel content: settings.meeples_per_tile: {tiles} tiles hold meeples, \
             {per_tile} each need {need}, but the colours have {meeples}"
        ));
    }
    Ok(())
}

/// Each card's payments (`Content::cost_ways`) from the content's cost table; a code
/// offering a payment the kernel does not pay is refused in one line, so such rules play
/// on the Python engine rather than without that card.
fn card_ways(doc: &ContentDoc) -> Result<Vec<Option<Box<[Pay]>>>, String> {
    let mut ways = BTreeMap::new();
    for (code, payments) in &doc.costs {
        let paid = payments
            .iter()
            .map(|p| {
                Pay::of(p).ok_or_else(|| {
                    format!("kernel content: cost code {code:?} offers the payment {p:?}, which the kernel does not pay")
                })
            })
            .collect::<Result<Box<[Pay]>, String>>()?;
        ways.insert(code.as_str(), paid);
    }
    Ok(doc
        .cards
        .iter()
        .map(|card| ways.get(card.cost.as_str()).cloned())
        .collect())
}

/// How many board shapes' geometries a content keeps (`core/state.py` keeps 64 too): a
/// board with terrain (the Artisans' chasm and mountains) has a shape of its own per game.
const GEOMETRIES_KEPT: usize = 64;

/// A board shape: rows, columns, impassable tiles, walls.
type GeometryKey = (u8, u8, u64, Box<[(u8, u8)]>);

/// The names a content makes from its ids, for its `Names` table: its stages, decks and
/// cards, each card's counter and once-a-round mark, each token's placing mark and piece
/// counter, and the names the Thieves and the solo game write.
fn names_of(doc: &ContentDoc) -> Vec<String> {
    let mut all: Vec<String> = doc.stages.clone();
    for deck in &doc.decks {
        all.push(deck.id.clone());
    }
    for card in &doc.cards {
        all.push(card.id.clone());
        all.push(format!("effects.{}", card.id));
        all.push(format!("round-used:{}", card.id));
    }
    for token in &doc.tokens {
        all.push(format!("placing:{}", token.id));
        all.push(format!("piece.{}", token.id));
    }
    for counter in &doc.effects.counters {
        all.push(counter.key());
    }
    all.extend(box_names::thieves(doc));
    all.extend(box_names::solo(doc));
    all
}

impl Content {
    /// Whether a plugin of these rules declares the turn field `name` (hook
    /// `naqala_turn_fields`), so the state JSON holds it.
    pub fn declares_turn_field(&self, name: &str) -> bool {
        self.doc.turn_fields.iter().any(|f| f == name)
    }

    /// The content from its JSON document; an error names what does not fit the kernel.
    pub fn from_json(text: &str) -> Result<Content, String> {
        let doc: ContentDoc =
            serde_json::from_str(text).map_err(|e| format!("kernel content: {e}"))?;
        Content::new(doc)
    }

    pub fn new(doc: ContentDoc) -> Result<Content, String> {
        check::check_content(&doc)?;
        let limits = [
            ("colours", doc.colours.len(), MAX_COLOURS),
            ("token kinds", doc.tokens.len(), MAX_TOKENS),
        ];
        for (what, found, most) in limits {
            if found > most {
                return Err(format!(
                    "kernel content: {found} {what}, the kernel holds at most {most}"
                ));
            }
        }
        check_counts(&doc)?;
        check_action_cards(&doc)?;
        if doc.cards.len() >= usize::from(u8::MAX) {
            return Err(format!(
                "kernel content: {} cards, the kernel holds at most 254",
                doc.cards.len()
            ));
        }
        if doc.tiles.len() > MAX_TILES {
            return Err(format!(
                "kernel content: tiles: {} tiles, the kernel holds at most {MAX_TILES} \
                 (a board is a 64-bit mask)",
                doc.tiles.len()
            ));
        }
        check_bag(&doc)?;
        let mut letters = Vec::with_capacity(doc.colours.len());
        for colour in &doc.colours {
            let mut chars = colour.letter.chars();
            match (chars.next(), chars.next()) {
                (Some(letter), None) => letters.push(letter),
                _ => {
                    return Err(format!(
                        "kernel content: colour {} has the letter {:?}, not one character",
                        colour.id, colour.letter
                    ))
                }
            }
        }
        let names = Names::new(names_of(&doc));
        let kind_ranks = KindRanks::new(&doc);
        let typed_settings = crate::typed_settings::read_all(&doc.typed_settings)?;
        let effects = programs::Effects::read(&doc, &doc.effects, &names)?;
        let deck = |name: &str| {
            doc.decks
                .iter()
                .position(|d| d.id == name)
                .ok_or_else(|| format!("kernel content: no deck named {name}"))
        };
        let (resources, djinns) = (deck(RESOURCES)?, deck(DJINNS)?);
        let card_ways = card_ways(&doc)?;
        let suits = doc.suits();
        let content = Content {
            doc,
            letters,
            names,
            geometries: Mutex::new(Vec::new()),
            kind_ranks,
            typed_settings,
            variants: variant_settings::Variants::default(),
            effects,
            suits,
            resources,
            djinns,
            card_ways,
        };
        let variants = variant_settings::Variants::read(&content)?;
        Ok(Content {
            variants,
            ..content
        })
    }

    /// The payments card `card`'s cost code allows, in the order offered; None when the
    /// cost table has no such code.
    pub fn cost_ways(&self, card: u8) -> Option<&[Pay]> {
        self.card_ways.get(usize::from(card))?.as_deref()
    }

    /// The geometry of a board shape, built once per content.
    pub fn geometry(&self, rows: u8, cols: u8, blocked: u64, walls: &[(u8, u8)]) -> Arc<Geometry> {
        let mut known = self.geometries.lock().unwrap_or_else(|e| e.into_inner());
        let found = known.iter().find(|(key, _)| {
            key.0 == rows && key.1 == cols && key.2 == blocked && *key.3 == *walls
        });
        if let Some((_, geometry)) = found {
            return Arc::clone(geometry);
        }
        let geometry = Arc::new(Geometry::new(rows, cols, blocked, walls));
        if known.len() >= GEOMETRIES_KEPT {
            known.remove(0); // boards with terrain differ game by game: keep the latest
        }
        known.push(((rows, cols, blocked, walls.into()), Arc::clone(&geometry)));
        geometry
    }

    /// A count of the content (meeples of a colour, tokens of a kind, camels) as the
    /// state holds it: `Content::new` refused any that does not fit.
    pub fn count(&self, n: u32) -> Count {
        Count::try_from(n).expect("Content::new refuses a count the state cannot hold")
    }

    pub fn colours(&self) -> usize {
        self.doc.colours.len()
    }

    pub fn tokens(&self) -> usize {
        self.doc.tokens.len()
    }

    pub fn decks(&self) -> usize {
        self.doc.decks.len()
    }

    /// The index of card `id` in the card table.
    pub fn card_index(&self, id: &str) -> Option<u8> {
        self.doc
            .cards
            .iter()
            .position(|c| c.id == id)
            .map(|i| i as u8)
    }

    /// The index of tile id `id` (`oasis-3`) in the tile table.
    pub fn tile_index(&self, id: &str) -> Option<u8> {
        self.doc
            .tiles
            .iter()
            .position(|t| t.id == id)
            .map(|i| i as u8)
    }

    /// The index of the deck of resource cards (`RESOURCES`) in the decks and hands.
    pub fn resources(&self) -> usize {
        self.resources
    }

    /// The index of the deck of djinns (`DJINNS`) in the decks and hands.
    pub fn djinns(&self) -> usize {
        self.djinns
    }

    pub fn deck_index(&self, name: &str) -> Option<usize> {
        self.doc.decks.iter().position(|d| d.id == name)
    }

    pub fn setting(&self, key: &str) -> Option<i64> {
        self.doc.settings.get(key).copied()
    }

    /// The common variants' settings (`variant_settings`).
    pub fn variants(&self) -> &variant_settings::Variants {
        &self.variants
    }

    /// A setting that is no number (`crate::typed_settings` reads it by type).
    pub fn typed_setting(&self, key: &str) -> Option<&crate::typed_settings::TypedSetting> {
        self.typed_settings.get(key)
    }

    /// A text setting, `default` when the content has none; an error names a value of
    /// another shape.
    pub fn text_setting<'a>(&'a self, key: &str, default: &'a str) -> Result<&'a str, String> {
        match self.typed_setting(key) {
            None => Ok(default),
            Some(value) => value
                .text()
                .ok_or_else(|| format!("kernel content: settings.{key}: expected a string")),
        }
    }

    /// An array-of-texts setting, empty when the content has none.
    pub fn texts_setting(&self, key: &str) -> Result<&[String], String> {
        match self.typed_setting(key) {
            None => Ok(&[]),
            Some(value) => value.texts().ok_or_else(|| {
                format!("kernel content: settings.{key}: expected an array of strings")
            }),
        }
    }

    pub fn table(&self, key: &str) -> Option<&[i64]> {
        self.doc.tables.get(key).map(Vec::as_slice)
    }
}
