//! Boards with terrain: which tiles a new board makes impassable, and whether a layout
//! leaves some tile shut in.
//!
//! Python asks the plugins for terrain (`Rules.with_terrain`, hooks
//! `naqala_impassable_tiles` and `naqala_blocked_edges`). Of the plugins the kernel
//! plays, only the Whims box declares any: its Great Lake is impassable wherever it lies
//! (`plugins/whims/lake.py`'s `lakes`). `setup.rs` lays a board again while a tile is cut
//! off, as `plugins/base/setup.py`'s `lay_out` does.

use crate::content::Content;
use crate::geometry::Geometry;

/// The tile kind of the Great Lake (`lake.LAKE`).
pub const LAKE: &str = "great-lake";

/// The names the Whims box's plugin goes by in a ruleset: `djinns` today, `whims` its
/// alias (the plugin's `NAME` and `ALIASES`).
pub const WHIMS_PLUGIN: &[&str] = &["djinns", "whims"];

/// Whether the Whims box's plugin is in the rules (its code hooks then apply).
pub fn whims_in_play(content: &Content) -> bool {
    content
        .doc
        .ruleset
        .iter()
        .any(|name| WHIMS_PLUGIN.contains(&name.as_str()))
}

/// `Rules.with_terrain`: the impassable tiles of a board laid with `tiles` (tile table
/// indices by position), as a bit mask: its Great Lakes when the Whims box is in play.
pub fn impassable(content: &Content, tiles: &[u8]) -> u64 {
    if !whims_in_play(content) {
        return 0;
    }
    tiles
        .iter()
        .enumerate()
        .filter(|&(_, &t)| content.doc.tiles[usize::from(t)].kind == LAKE)
        .fold(0u64, |mask, (at, _)| mask | 1 << at)
}

/// `Geometry.is_connected`: whether a meeple could get from every passable tile to every
/// other one.
pub fn is_connected(geo: &Geometry) -> bool {
    let Some(first) = (0..geo.size).find(|&t| !geo.is_impassable(t)) else {
        return true;
    };
    let mut seen = 1u64 << first;
    let mut todo = vec![first];
    while let Some(here) = todo.pop() {
        for &next in &geo.neighbours[here] {
            if seen >> next & 1 == 0 {
                seen |= 1 << next;
                todo.push(usize::from(next));
            }
        }
    }
    let passable = (0..geo.size).filter(|&t| !geo.is_impassable(t)).count();
    seen.count_ones() as usize == passable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_of_lakes_cuts_the_board() {
        // a 3×3 board with its middle column impassable: the left column is shut off
        let cut = Geometry::new(3, 3, 1 << 1 | 1 << 4 | 1 << 7, &[]);
        assert!(!is_connected(&cut));
        // one lake in the middle leaves every tile reachable
        assert!(is_connected(&Geometry::new(3, 3, 1 << 4, &[])));
        // a corner cut by walls
        assert!(!is_connected(&Geometry::new(2, 2, 0, &[(0, 1), (0, 2)])));
    }
}
