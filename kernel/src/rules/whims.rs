//! The Whims of the Sultan box (`plugins/whims/`, the plugin `djinns`): Fabulous Cities
//! and the Sultan's Whims lying on them, the Great Lake's scoring, and the box's two
//! djinns, Qareen and Dalhan. Its boards (6×6, the lake impassable) are laid by
//! `setup.rs` with `terrain.rs`; its fifth player, extra meeples and turn-order costs
//! are content.
//!
//! Each function names the Python it follows. Every number (a whim's `at_least` and
//! `coins`, `city_vp`, `lake_diagonals`, Qareen's `per_whim`) is read from the content.

use std::sync::Arc;

use super::stages::{Automatic, Stage};
use super::{turn_here, Rules};
use crate::actions::{Action, Pay};
use crate::content::Content;
use crate::extras::{get_extra, set_extra};
use crate::geometry::Geometry;
use crate::names::Sym;
use crate::state::{Deck, State, NOBODY, NO_CARD};
use crate::terrain::LAKE;

/// The tile kind of the Fabulous Cities (`cities.CITY`).
const CITY: &str = "city";
/// The deck of the Sultan's Whims (`cities.WHIMS`).
const WHIMS: &str = "whims";
/// The player counter of the whims fulfilled (`whims.CLAIMED`).
pub(super) const CLAIMED: &str = "whims.claimed";
/// The box's djinn written by hand, by kind (`spirits.py`; Qareen is content).
pub(super) const DALHAN: &str = "dalhan";

/// What a whim counts (`whims.py`: one class per card kind).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Measure {
    /// `Kept`: meeples of a colour in front of the owner
    Kept(usize),
    /// `KeptTotal`: every meeple in front of the owner
    KeptTotal,
    /// `MostKept`: as `Kept`, when strictly more than each opponent has (else 0)
    MostKept(usize),
    /// `TilesOfKind`: owned tiles of a kind
    TilesOfKind(String),
    /// `TilesValued`: owned tiles of a value (blue, red)
    TilesValued(String),
    /// `Tiles`: owned tiles
    Tiles,
    /// `TileKinds`: kinds among the owned tiles
    TileKinds,
    /// `ConnectedTiles`: the largest group of owned tiles joined edge to edge
    ConnectedTiles,
    /// `TokensOnTiles`: tokens of a kind (by index) on owned tiles
    TokensOnTiles(usize),
    /// `MerchandiseKinds`: different merchandise held
    MerchandiseKinds,
    /// `SameMerchandise`: the most cards of one merchandise held
    SameMerchandise,
    /// `Fakirs`: Fakirs held
    Fakirs,
    /// `Djinns`: djinns held
    Djinns,
    /// `PathLength`: tiles dropped on in the owner's move this turn
    PathLength,
    /// `Collected`: meeples collected at the end of the move this turn
    Collected,
    /// `Lakeside`: owned tiles next to the Great Lake
    Lakeside,
}

/// One whim card: what it counts, its threshold (`at_least`) and reward (`coins`).
#[derive(Clone, Debug)]
struct Whim {
    measure: Measure,
    at_least: i64,
    coins: i64,
}

/// The Whims box over one content, resolved once per rules.
#[derive(Clone, Debug, Default)]
pub(super) struct Whims {
    /// whether the plugin is in the rules (its hooks answer only then)
    pub active: bool,
    /// the whims deck's index
    deck: Option<usize>,
    /// by tile table index: whether the tile is a Fabulous City, a Great Lake
    city: Vec<bool>,
    lake: Vec<bool>,
    /// by card index: the whim's power, for the whims the kernel plays
    whims: Vec<Option<Whim>>,
    claimed: Option<Sym>,
}

impl Whims {
    pub fn new(content: &Content) -> Whims {
        let doc = &content.doc;
        // the box is in play when its deck is: recognised by its content, not its name
        let deck = content.deck_index(WHIMS);
        if deck.is_none() {
            return Whims::default();
        }
        let whims = doc
            .cards
            .iter()
            .map(|card| {
                if card.deck != WHIMS {
                    return None;
                }
                let measure = measure_of(content, &card.kind, &card.subject)?;
                Some(Whim {
                    measure,
                    at_least: *card.params.get("at_least")?,
                    coins: *card.params.get("coins")?,
                })
            })
            .collect();
        Whims {
            active: true,
            deck,
            city: doc.tiles.iter().map(|t| t.kind == CITY).collect(),
            lake: doc.tiles.iter().map(|t| t.kind == LAKE).collect(),
            whims,
            claimed: content.names.sym(CLAIMED),
        }
    }

    /// Whether the card (by index) is a whim the kernel plays.
    pub fn is_whim(&self, card: u8) -> bool {
        self.whims
            .get(usize::from(card))
            .is_some_and(Option::is_some)
    }
}

/// The measure of a whim of `kind` counting `subject`; None for a kind without a power
/// or a subject that is not what the kind counts (Python refuses those with a
/// `ContentError` when asked; the kernel leaves such cards unported).
fn measure_of(content: &Content, kind: &str, subject: &str) -> Option<Measure> {
    let doc = &content.doc;
    let colour = || doc.colours.iter().position(|c| c.id == subject);
    Some(match kind {
        "kept" => Measure::Kept(colour()?),
        "kept-total" => Measure::KeptTotal,
        "most-kept" => Measure::MostKept(colour()?),
        "tiles-of-kind" => {
            doc.tiles.iter().find(|t| t.kind == subject)?;
            Measure::TilesOfKind(subject.to_owned())
        }
        "tiles-valued" if subject == "blue" || subject == "red" => {
            Measure::TilesValued(subject.to_owned())
        }
        "tiles" => Measure::Tiles,
        "tile-kinds" => Measure::TileKinds,
        "connected-tiles" => Measure::ConnectedTiles,
        "tokens-on-tiles" => {
            Measure::TokensOnTiles(doc.tokens.iter().position(|t| t.id == subject)?)
        }
        "merchandise-kinds" => Measure::MerchandiseKinds,
        "same-merchandise" => Measure::SameMerchandise,
        "fakirs" => Measure::Fakirs,
        "djinns" => Measure::Djinns,
        "path-length" => Measure::PathLength,
        "collected" => Measure::Collected,
        "lakeside" => Measure::Lakeside,
        _ => return None,
    })
}

impl Rules<'_> {
    fn owned(state: &State, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..state.layout.size()).filter(move |&t| state.board.owner(t) == player as i8)
    }

    fn tile_spec(&self, state: &State, at: usize) -> &crate::content::TileSpec {
        &self.content.doc.tiles[usize::from(state.layout.tiles[at])]
    }

    // -- cities (plugins/whims/cities.py) -----------------------------------------------

    /// `city_tiles`: the cities' positions in board order (the order of the whim slots).
    fn city_tiles(&self, state: &State) -> Vec<usize> {
        (0..state.layout.size())
            .filter(|&t| self.whims.city[usize::from(state.layout.tiles[t])])
            .collect()
    }

    /// `offered`: each city's position with the whim lying on it (`NO_CARD`: none).
    fn offered(&self, state: &State) -> Vec<(usize, u8)> {
        let Some(deck) = self.whims.deck else {
            return Vec::new();
        };
        let row = state.decks[deck].row();
        self.city_tiles(state)
            .into_iter()
            .zip(row.iter().copied())
            .collect()
    }

    /// `fill_slots`: the top whim of the draw pile on every city without one (setup,
    /// clean-up); claimed whims are never shuffled back.
    fn fill_slots(&self, mut state: State) -> State {
        let Some(index) = self.whims.deck else {
            return state;
        };
        let deck = &state.decks[index];
        let mut slots = deck.row().to_vec();
        slots.resize(slots.len().max(self.city_tiles(&state).len()), NO_CARD);
        let mut draw = deck.draw();
        for slot in &mut slots {
            if *slot == NO_CARD {
                if let Some((&top, rest)) = draw.split_first() {
                    *slot = top;
                    draw = rest;
                }
            }
        }
        state.decks[index] = Deck::new(draw, &slots, deck.discard());
        state
    }

    /// `naqala_adjust_new_game`: a whim on every city of a new game.
    pub(crate) fn whims_new_game(&self, state: State) -> State {
        if !self.whims.active {
            return state;
        }
        self.fill_slots(state)
    }

    /// `naqala_event` at `clean-up`: the empty cities get a whim again.
    pub(super) fn whims_clean_up(&self, state: State) -> State {
        if !self.whims.active {
            return state;
        }
        self.fill_slots(state)
    }

    /// `take_whim`: `player` takes the whim on the city at `tile` into their hand
    /// (nothing if none lies there).
    fn take_whim(&self, mut state: State, player: usize, tile: usize) -> State {
        let Some(index) = self.whims.deck else {
            return state;
        };
        let Some(slot) = self.city_tiles(&state).iter().position(|&t| t == tile) else {
            return state;
        };
        let deck = &state.decks[index];
        let mut row = deck.row().to_vec();
        let Some(&card) = row.get(slot).filter(|&&c| c != NO_CARD) else {
            return state;
        };
        row[slot] = NO_CARD;
        state.decks[index] = Deck::new(deck.draw(), &row, deck.discard());
        state = self.give_cards(state, player, index, &[card]);
        // Python fires `whim-taken` here: no card the kernel plays reacts to it
        state
    }

    /// `City.enter`: the city tile action takes the whim lying on it, then hands on.
    pub(super) fn city(&self, state: State, stage: Sym) -> super::Step {
        let player = state.decision.player as usize;
        let here = turn_here(state.turn.as_ref().expect("a tile action is in a turn"));
        let state = self.take_whim(state, player, here);
        self.proceed(state, stage)
    }

    // -- the whims (plugins/whims/whims.py) ---------------------------------------------

    /// `Whim.targets`: one use (no target) once the condition holds, else none.
    pub(super) fn whim_fulfilled(&self, state: &State, owner: usize, card: u8) -> Option<bool> {
        let whim = self.whims.whims.get(usize::from(card))?.as_ref()?;
        Some(self.measure(state, owner, &whim.measure) >= whim.at_least)
    }

    /// `Whim.measure`: the quantity the whim counts for `owner`.
    fn measure(&self, state: &State, owner: usize, measure: &Measure) -> i64 {
        let me = &state.players[owner];
        let count = |n: usize| n as i64;
        match measure {
            Measure::Kept(colour) => i64::from(me.meeples[*colour]),
            Measure::KeptTotal => me.meeples.iter().map(|&n| i64::from(n)).sum(),
            Measure::MostKept(colour) => {
                let mine = me.meeples[*colour];
                let beaten = state
                    .players
                    .iter()
                    .enumerate()
                    .all(|(i, p)| i == owner || mine > p.meeples[*colour]);
                if beaten {
                    i64::from(mine)
                } else {
                    0
                }
            }
            Measure::TilesOfKind(kind) => count(
                Self::owned(state, owner)
                    .filter(|&t| self.tile_spec(state, t).kind == *kind)
                    .count(),
            ),
            Measure::TilesValued(value) => count(
                Self::owned(state, owner)
                    .filter(|&t| self.tile_spec(state, t).value == *value)
                    .count(),
            ),
            Measure::Tiles => count(Self::owned(state, owner).count()),
            Measure::TileKinds => {
                let mut kinds: Vec<&str> = Self::owned(state, owner)
                    .map(|t| self.tile_spec(state, t).kind.as_str())
                    .collect();
                kinds.sort_unstable();
                kinds.dedup();
                count(kinds.len())
            }
            Measure::ConnectedTiles => {
                let mine = Self::owned(state, owner).fold(0u64, |m, t| m | 1 << t);
                count(state.layout.geometry.largest_group(mine))
            }
            Measure::TokensOnTiles(token) => Self::owned(state, owner)
                .map(|t| i64::from(state.board.tokens(t)[*token]))
                .sum(),
            Measure::MerchandiseKinds => {
                let mut held = self.merchandise_held(state, owner);
                held.dedup();
                count(held.len())
            }
            Measure::SameMerchandise => {
                let held = self.merchandise_held(state, owner);
                let most = held
                    .chunk_by(|a, b| a == b)
                    .map(<[u8]>::len)
                    .max()
                    .unwrap_or(0);
                count(most)
            }
            Measure::Fakirs => count(self.fakirs_held(state, owner)),
            Measure::Djinns => count(me.hands.hand(self.content.djinns()).len()),
            Measure::PathLength => state.turn.as_ref().map_or(0, |t| count(t.path.len())),
            Measure::Collected => state
                .turn
                .as_ref()
                .filter(|t| t.colour != NOBODY)
                .map_or(0, |t| i64::from(t.taken)),
            Measure::Lakeside => {
                let near = self.lakeside_tiles(state);
                count(
                    Self::owned(state, owner)
                        .filter(|&t| near >> t & 1 == 1)
                        .count(),
                )
            }
        }
    }

    /// The merchandise in `owner`'s resources hand (`merchandise_types`), grouped.
    fn merchandise_held(&self, state: &State, owner: usize) -> Vec<u8> {
        let mut held = self.merchandise_in_hand(state, owner);
        held.sort_unstable();
        held
    }

    /// `Whim.act`: the whims fulfilled counter goes up, the whim pays its coins.
    pub(super) fn claim_whim(&self, mut state: State, owner: usize, card: u8) -> State {
        let Some(whim) = self
            .whims
            .whims
            .get(usize::from(card))
            .and_then(Option::as_ref)
        else {
            return state;
        };
        if let Some(key) = self.whims.claimed {
            let extras = &state.players[owner].extras;
            state.players[owner].extras = set_extra(extras, key, get_extra(extras, key) + 1);
        }
        state.players[owner].coins += whim.coins as i32;
        // Python fires `whim-claimed` here: no card the kernel plays reacts to it
        state
    }

    // -- the box's djinns (plugins/whims/spirits.py) ------------------------------------

    /// `Dalhan.targets`: every city with a whim lying on it, in board order.
    pub(super) fn dalhan_targets(&self, state: &State) -> Vec<u8> {
        self.offered(state)
            .into_iter()
            .filter(|&(_, card)| card != NO_CARD)
            .map(|(tile, _)| tile as u8)
            .collect()
    }

    /// `Dalhan.act`: take the whim on that city into the hand.
    pub(super) fn dalhan(&self, state: State, owner: usize, tile: usize) -> State {
        self.take_whim(state, owner, tile)
    }

    // -- the lake (plugins/whims/lake.py) -----------------------------------------------

    /// `lakeside_tiles`: the tiles next to a Great Lake (the 8 around it, or the 4 when
    /// `lake_diagonals` is 0), not lakes themselves, as a mask.
    fn lakeside_tiles(&self, state: &State) -> u64 {
        let diagonals = self.content.setting("lake_diagonals").unwrap_or(0) != 0;
        let water = (0..state.layout.size())
            .filter(|&t| self.whims.lake[usize::from(state.layout.tiles[t])])
            .fold(0u64, |m, t| m | 1 << t);
        lakeside(&state.layout.geometry, water, diagonals)
    }

    // -- scoring -------------------------------------------------------------------------

    /// The box's score lines, summed: the cities (`city_score_lines`) and the Great Lake
    /// (`lake_score_lines`).
    pub(super) fn whims_score(&self, state: &State, player: usize) -> i64 {
        if !self.whims.active {
            return 0;
        }
        let cities = self
            .city_tiles(state)
            .into_iter()
            .filter(|&t| state.board.owner(t) == player as i8)
            .count() as i64;
        self.content.setting("city_vp").unwrap_or(0) * cities * cities
            + self.lake_score(state, player)
    }

    /// `lake_score_lines`: each palm tree and palace on the player's tiles next to the
    /// lake scores its worth once more, its worth being what its category's lines (the
    /// djinns' included) give per token of that kind the player has.
    fn lake_score(&self, state: &State, player: usize) -> i64 {
        let near = self.lakeside_tiles(state);
        let owned: Vec<usize> = Self::owned(state, player).collect();
        if !owned.iter().any(|&t| near >> t & 1 == 1) {
            return 0;
        }
        let doc = &self.content.doc;
        let mut total = 0;
        for (index, token) in doc.tokens.iter().enumerate() {
            let on = |t: &usize| i64::from(state.board.tokens(*t)[index]);
            let count: i64 = owned.iter().filter(|&&t| near >> t & 1 == 1).map(on).sum();
            if token.vp == 0 || count == 0 {
                continue;
            }
            let held: i64 = owned.iter().map(on).sum();
            let points = held * token.vp + self.better_count_points(state, player, index, held);
            total += count * points.div_euclid(held);
        }
        total
    }

    /// The points of the djinns' lines in token `token`'s category (`<token>s`: a
    /// content power's score lines, such as Haurvatat's palm trees).
    fn better_count_points(&self, state: &State, player: usize, token: usize, _held: i64) -> i64 {
        let category = format!("{}s", self.content.doc.tokens[token].id);
        self.power_points_in(state, player, &category)
    }

    /// The action using whim `card` by its deck's verb (`claim <whim>`), each payment.
    pub(super) fn whim_options(
        &self,
        state: &State,
        player: usize,
        card: u8,
        ways: &[Pay],
    ) -> Vec<Action> {
        if self.whim_fulfilled(state, player, card) != Some(true) {
            return Vec::new();
        }
        ways.iter().map(|&way| Action::Claim(card, way)).collect()
    }
}

/// `lakeside_tiles`: the tiles around the lakes of `water` (a mask), the diagonals
/// included when `diagonals`, without the lakes.
fn lakeside(geo: &Geometry, water: u64, diagonals: bool) -> u64 {
    let mut near = 0u64;
    for lake in (0..geo.size).filter(|&t| water >> t & 1 == 1) {
        let around = if diagonals {
            &geo.area[lake]
        } else {
            &geo.orthogonal[lake]
        };
        for &t in around {
            near |= 1 << t;
        }
    }
    near & !water
}

/// The Whims box's stage: the Fabulous City's tile action (`cities.City`), which takes
/// the whim lying on it.
pub(super) fn stage_named(_: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    (name == "tile:city").then(|| {
        Arc::new(Automatic(|rules, state, stage| rules.city(state, stage))) as Arc<dyn Stage>
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lake_touches_eight_tiles_or_four() {
        let geo = Geometry::new(3, 3, 1 << 4, &[]);
        assert_eq!(lakeside(&geo, 1 << 4, true), 0b1_1110_1111);
        assert_eq!(
            lakeside(&geo, 1 << 4, false),
            1 << 1 | 1 << 3 | 1 << 5 | 1 << 7
        );
        // a lake in the corner: its neighbours, never the lakes themselves
        assert_eq!(lakeside(&geo, 1 | 1 << 1, false), 1 << 2 | 1 << 3 | 1 << 4);
    }
}
