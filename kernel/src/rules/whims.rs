//! The Whims of the Sultan box (`plugins/whims/`, the plugin `djinns`): the Sultan's
//! Whims laid on the Fabulous Cities at setup and clean-up, and the scoring of the cities
//! and of the Great Lake. Its boards (6×6, the lake impassable) are laid by `setup.rs`
//! with `terrain.rs`; its fifth player, extra meeples and turn-order costs are content,
//! and so are the rest: the whims themselves (each a used power, `claim <whim>`), the
//! city's action and Dalhan (`take_lying`: the whims' row lies on the cities) and Qareen.
//!
//! Each function names the Python it follows. Every number (`city_vp`, `lake_diagonals`)
//! is read from the content.

use super::Rules;
use crate::content::Content;
use crate::geometry::Geometry;
use crate::state::{Deck, State, NO_CARD};
use crate::terrain::LAKE;

/// The tile kind of the Fabulous Cities (`cities.CITY`).
const CITY: &str = "city";
/// The deck of the Sultan's Whims (`cities.WHIMS`).
pub(super) const WHIMS: &str = "whims";

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
}

impl Whims {
    pub fn new(content: &Content) -> Whims {
        let doc = &content.doc;
        // the box is in play when its deck is: recognised by its content, not its name
        let deck = content.deck_index(WHIMS);
        if deck.is_none() {
            return Whims::default();
        }
        Whims {
            active: true,
            deck,
            city: doc.tiles.iter().map(|t| t.kind == CITY).collect(),
            lake: doc.tiles.iter().map(|t| t.kind == LAKE).collect(),
        }
    }
}

impl Rules<'_> {
    fn owned(state: &State, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..state.layout.size()).filter(move |&t| state.board.owner(t) == player as i8)
    }

    // -- cities (plugins/whims/cities.py) -----------------------------------------------

    /// `city_tiles`: the cities' positions in board order (the order of the whim slots).
    fn city_tiles(&self, state: &State) -> Vec<usize> {
        (0..state.layout.size())
            .filter(|&t| self.whims.city[usize::from(state.layout.tiles[t])])
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

    /// Whether the kernel plays whim `card` (by index): its power in content is used
    /// without a target, so its action is `claim <whim>`.
    pub(super) fn whim_ported(&self, card: u8) -> bool {
        self.used_power(card)
            .is_some_and(|p| !p.targeted() && p.target_card.is_none())
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
