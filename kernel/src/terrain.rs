//! Boards with terrain: which tiles a new board makes impassable, and whether a layout
//! leaves some tile shut in.
//!
//! Python reads terrain from content and asks the plugins for more (`Rules.with_terrain`:
//! a tile kind with `impassable = true`, hooks `naqala_impassable_tiles` and
//! `naqala_blocked_edges`). The kernel reads the content's flag; a plugin answering those
//! hooks is one it does not play. `setup.rs` lays a board again while a tile is cut off,
//! as `plugins/base/setup.py`'s `lay_out` does.

use crate::content::Content;
use crate::geometry::Geometry;

/// The tile kind of the Great Lake (`lake.LAKE`).
pub const LAKE: &str = "great-lake";

/// `Rules.with_terrain`: the impassable tiles of a board laid with `tiles` (tile table
/// indices by position), as a bit mask: the tiles whose kind content makes impassable
/// (`impassable = true`: the Artisans' chasm, the Whims box's Great Lake).
pub fn impassable(content: &Content, tiles: &[u8]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .filter(|&(_, &t)| content.doc.tiles[usize::from(t)].impassable)
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
