//! The Whims of the Sultan box (`plugins/whims/`, the plugin `djinns`): the scoring of
//! the Fabulous Cities and of the Great Lake. Its boards (6×6, the lake impassable) are
//! laid by `setup.rs` with `terrain.rs`; its fifth player, extra meeples and turn-order
//! costs are content, and so are the rest: the whims themselves (each a used power,
//! `claim <whim>`), their row lying on the cities (`lies_on`, filled by the base rules'
//! `fill_lying`), the city's action and Dalhan (`take_lying`) and Qareen.
//!
//! Each function names the Python it follows. Every number (`city_vp`, `lake_diagonals`)
//! is read from the content.

use super::scoring::Sheet;
use super::Rules;
use crate::content::Content;
use crate::effects::places;
use crate::geometry::Geometry;
use crate::state::State;
use crate::terrain::LAKE;

/// The deck of the Sultan's Whims (`cities.WHIMS`): the box is in play when it is.
pub(crate) const WHIMS: &str = "whims";
/// The source of the cities' line: the box's plugin as the rules name it
/// (`cities.SOURCE`).
const CITY_SOURCE: &str = "djinns";

/// The Whims box over one content, resolved once per rules.
#[derive(Clone, Debug, Default)]
pub(super) struct Whims {
    /// whether the plugin is in the rules (its hooks answer only then)
    pub active: bool,
    /// the whims deck, whose row lies on the Fabulous Cities (`cities.city_tiles`)
    deck: usize,
    /// by tile table index: whether the tile is a Great Lake
    lake: Vec<bool>,
    /// `lake_diagonals`: whether the 4 diagonal tiles are by the lake too
    diagonals: bool,
    /// `city_vp`: what n cities score, times n²
    city_vp: i64,
}

impl Whims {
    pub fn new(content: &Content) -> Whims {
        let doc = &content.doc;
        // the box is in play when its deck is: recognised by its content, not its name
        let Some(deck) = content.deck_index(WHIMS) else {
            return Whims::default();
        };
        Whims {
            active: true,
            deck,
            lake: doc.tiles.iter().map(|t| t.kind == LAKE).collect(),
            diagonals: content.setting("lake_diagonals").unwrap_or(0) != 0,
            city_vp: content.setting("city_vp").unwrap_or(0),
        }
    }
}

impl Rules<'_> {
    // -- the lake (plugins/whims/lake.py) -----------------------------------------------

    /// `lakeside_tiles`: the tiles next to a Great Lake (the 8 around it, or the 4 when
    /// `lake_diagonals` is 0), not lakes themselves, as a mask.
    fn lakeside_tiles(&self, state: &State) -> u64 {
        let water = (0..state.layout.size())
            .filter(|&t| self.whims.lake[usize::from(state.layout.tiles[t])])
            .fold(0u64, |m, t| m | 1 << t);
        lakeside(&state.layout.geometry, water, self.whims.diagonals)
    }

    // -- scoring -------------------------------------------------------------------------

    /// `city_score_lines`: the cities the player owns, squared, times `city_vp`; the
    /// cities are the tiles the whims' row lies on.
    pub(super) fn city_line(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        if !self.whims.active {
            return;
        }
        let owned = |on: &[bool]| {
            places(state, on)
                .filter(|&t| state.board.owner(t) == player as i8)
                .count()
        };
        let cities = self.lying[self.whims.deck].as_deref().map_or(0, owned) as i64;
        sheet.line("cities", CITY_SOURCE, self.whims.city_vp * cities * cities);
    }

    /// The player's tiles next to a Great Lake (`lakeside_tiles` they own), as a mask: 0
    /// without the box.
    pub(super) fn by_the_lake(&self, state: &State, player: usize) -> u64 {
        if !self.whims.active {
            return 0;
        }
        let owned = state.owned_by(player).fold(0u64, |mask, t| mask | 1 << t);
        self.lakeside_tiles(state) & owned
    }

    /// `lake_score_lines`: each palm tree and palace on the player's tiles next to the
    /// lake (`near`, a mask of the player's tiles) scores its worth once more, its worth
    /// being what its category's lines give per token of that kind the player has:
    /// `worth`, by scoring token, the points of the plugins' lines (a called-back
    /// `naqala_score_lines`' too) and the cards' (Haurvatat's palm trees).
    pub(super) fn lake_lines(
        &self,
        state: &State,
        player: usize,
        near: u64,
        worth: &[i64],
        sheet: &mut impl Sheet,
    ) {
        for (at, (index, category, _)) in self.score_terms.token_lines.iter().enumerate() {
            let on = |t: usize| i64::from(state.board.tokens(t)[*index]);
            let count: i64 = (0..state.layout.size())
                .filter(|&t| near >> t & 1 == 1)
                .map(on)
                .sum();
            if count == 0 {
                continue;
            }
            let held: i64 = state.owned_by(player).map(on).sum();
            sheet.line(category, LAKE, count * worth[at].div_euclid(held));
        }
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
