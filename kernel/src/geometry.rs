//! Board geometry (`core/board.py`): neighbours without impassable tiles and walls, 3×3
//! areas, and the two walk tables as bit masks, computed once per layout.
//!
//! A walk is a sequence of steps between neighbouring tiles that never steps straight back
//! to the tile it just came from. `reach(here, prev, k)` is the mask of tiles where a walk
//! of exactly `k` steps can end; `loop_ends(here, prev, k)` the tiles where such a walk can
//! end having stood there before. `prev` is `NOBODY` at the start of a walk.

use std::sync::{Arc, Mutex, OnceLock};

use crate::limits::NOBODY;

/// The longest walk the fixed tables hold; longer walks (a tile with many meeples) are
/// kept in `Geometry::longer`, built one length at a time as `core/board.py` memoises
/// them per length, so a walk of k steps costs O(k) levels once, never 4^k.
const TABLE_STEPS: usize = 24;
/// `prev` as a slot: a neighbour's position in `neighbours[here]`, or this for none.
const NO_PREV: usize = 4;

#[derive(Clone, Debug)]
pub struct Geometry {
    pub rows: usize,
    pub cols: usize,
    pub size: usize,
    pub impassable: u64,
    /// orthogonal neighbours regardless of terrain (assassins' range, scoring areas)
    pub orthogonal: Vec<Vec<u8>>,
    /// neighbours a meeple may step to
    pub neighbours: Vec<Vec<u8>>,
    /// the 3×3 block centred on each tile, the tile included
    pub area: Vec<Vec<u8>>,
    /// the walk tables by walk length, each built the first time a walk that long is
    /// asked about (a board with terrain is new every game, and most games never walk
    /// far: building every length took longer than the game)
    levels: Vec<OnceLock<Level>>,
    /// the tables of walks longer than `TABLE_STEPS`, behind a lock (rarely asked)
    longer: Arc<Mutex<Longer>>,
}

/// The walk tables of one walk length, by tile and `prev` slot.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Level {
    reach: Box<[u64]>,
    loops: Box<[u64]>,
}

/// The tables of walks longer than `TABLE_STEPS`: `levels[i]` is length
/// `TABLE_STEPS + 1 + i`. Each level follows from the one before alone, so once a level
/// equals one `period` lengths shorter, every longer one repeats them: the tail stops
/// growing there, whatever the length asked.
#[derive(Debug, Default)]
struct Longer {
    levels: Vec<Arc<Level>>,
    /// (the first index of the repeating levels, their period), once found
    cycle: Option<(usize, usize)>,
}

/// The longest period between equal levels looked for (walks on a grid settle into
/// period 2: a tile's colour in a chequerboard alternates with each step).
const MAX_PERIOD: usize = 4;

impl Geometry {
    pub fn new(rows: u8, cols: u8, impassable: u64, walls: &[(u8, u8)]) -> Geometry {
        let (rows, cols) = (usize::from(rows), usize::from(cols));
        let size = rows * cols;
        let orthogonal: Vec<Vec<u8>> = (0..size)
            .map(|i| {
                let (row, col) = (i / cols, i % cols);
                let mut out = Vec::new();
                if row > 0 {
                    out.push((i - cols) as u8);
                }
                if col > 0 {
                    out.push((i - 1) as u8);
                }
                if col + 1 < cols {
                    out.push((i + 1) as u8);
                }
                if row + 1 < rows {
                    out.push((i + cols) as u8);
                }
                out
            })
            .collect();
        let blocked = |t: usize| impassable >> t & 1 == 1;
        let neighbours: Vec<Vec<u8>> = (0..size)
            .map(|i| {
                if blocked(i) {
                    return Vec::new();
                }
                orthogonal[i]
                    .iter()
                    .copied()
                    .filter(|&j| {
                        let edge = ((i as u8).min(j), (i as u8).max(j));
                        !blocked(usize::from(j)) && !walls.contains(&edge)
                    })
                    .collect()
            })
            .collect();
        let area = (0..size)
            .map(|i| {
                let (row, col) = (i / cols, i % cols);
                let mut out = Vec::new();
                for r in row.saturating_sub(1)..(row + 2).min(rows) {
                    for c in col.saturating_sub(1)..(col + 2).min(cols) {
                        out.push((r * cols + c) as u8);
                    }
                }
                out
            })
            .collect();
        Geometry {
            rows,
            cols,
            size,
            impassable,
            orthogonal,
            neighbours,
            area,
            levels: (0..=TABLE_STEPS).map(|_| OnceLock::new()).collect(),
            longer: Arc::default(),
        }
    }

    fn slot(&self, here: usize, prev: i8) -> usize {
        if prev == NOBODY {
            return NO_PREV;
        }
        self.neighbours[here]
            .iter()
            .position(|&n| i16::from(n) == i16::from(prev))
            .unwrap_or(NO_PREV + 1)
    }

    fn index(&self, here: usize, slot: usize) -> usize {
        here * (NO_PREV + 2) + slot
    }

    /// The tables for walks of `steps` steps (at most `TABLE_STEPS`), built from those
    /// one step shorter when first needed (`step`'s recursion, one level at a time).
    fn level(&self, steps: usize) -> &Level {
        self.levels[steps].get_or_init(|| {
            let below = (steps > 0).then(|| self.level(steps - 1));
            self.next_level(below, steps)
        })
    }

    /// The tables for walks of `steps` steps from those of `steps - 1` (`below`; None
    /// for no step at all).
    fn next_level(&self, below: Option<&Level>, steps: usize) -> Level {
        let cells = self.size * (NO_PREV + 2);
        let (mut reach, mut loops) = (vec![0; cells], vec![0; cells]);
        for here in 0..self.size {
            let next = &self.neighbours[here];
            // each neighbour's walks of one step fewer, arriving there from here
            let mut from = [(0u64, 0u64); NO_PREV];
            if let Some(below) = below {
                for (i, &nxt) in next.iter().enumerate() {
                    let nxt = usize::from(nxt);
                    let back = self.slot(nxt, here as i8);
                    let at = self.index(nxt, back);
                    let ends = below.reach[at];
                    let mut again = 0;
                    if steps >= 2 {
                        again = below.loops[at] | (ends & 1 << nxt);
                    }
                    from[i] = (ends, again);
                }
            }
            for slot in 0..NO_PREV + 2 {
                let at = self.index(here, slot);
                if below.is_none() {
                    reach[at] = 1 << here;
                    continue;
                }
                // slot i came from neighbour i: the walk may not step straight back
                for (i, &(ends, again)) in from[..next.len()].iter().enumerate() {
                    if i != slot {
                        reach[at] |= ends;
                        loops[at] |= again;
                    }
                }
            }
        }
        Level {
            reach: reach.into_boxed_slice(),
            loops: loops.into_boxed_slice(),
        }
    }

    /// The tables for walks of `steps` steps, more than `TABLE_STEPS`: kept levels, built
    /// on from the last one when first needed, and read from the cycle once the levels
    /// repeat.
    fn longer_level(&self, steps: usize) -> Arc<Level> {
        let mut longer = self.longer.lock().unwrap_or_else(|e| e.into_inner());
        let wanted = steps - TABLE_STEPS - 1;
        loop {
            if let Some((first, period)) = longer.cycle {
                let at = if wanted < first {
                    wanted
                } else {
                    first + (wanted - first) % period
                };
                return Arc::clone(&longer.levels[at]);
            }
            if let Some(level) = longer.levels.get(wanted) {
                return Arc::clone(level);
            }
            let built = longer.levels.len();
            let level = match longer.levels.last() {
                Some(last) => self.next_level(Some(last), TABLE_STEPS + 1 + built),
                None => self.next_level(Some(self.level(TABLE_STEPS)), TABLE_STEPS + 1),
            };
            let period = (1..=MAX_PERIOD.min(built)).find(|&p| *longer.levels[built - p] == level);
            match period {
                Some(period) => longer.cycle = Some((built - period, period)),
                None => longer.levels.push(Arc::new(level)),
            }
        }
    }

    /// The tile a slot stands for: a neighbour, none (`NOBODY`), or a tile that is not
    /// a neighbour (a walk may start after a jump; it then excludes nothing).
    #[cfg(test)]
    fn prev_of(&self, here: usize, slot: usize) -> i8 {
        match self.neighbours[here].get(slot) {
            Some(&n) => n as i8,
            None if slot == NO_PREV => NOBODY,
            None => -3,
        }
    }

    /// One step of the walk's recursion over the tables of one step fewer (the tests
    /// check the tables against it).
    #[cfg(test)]
    fn step(&self, here: usize, prev: i8, steps: usize) -> (u64, u64) {
        if steps == 0 {
            return (1 << here, 0);
        }
        let (mut reach, mut loops) = (0u64, 0u64);
        for &nxt in &self.neighbours[here] {
            if i16::from(nxt) == i16::from(prev) {
                continue;
            }
            let nxt_reach = self.reach(usize::from(nxt), here as i8, steps - 1);
            reach |= nxt_reach;
            if steps >= 2 {
                loops |= self.loop_ends(usize::from(nxt), here as i8, steps - 1);
                if nxt_reach >> nxt & 1 == 1 {
                    loops |= 1 << nxt;
                }
            }
        }
        (reach, loops)
    }

    /// Tiles where a walk of exactly `steps` steps from `here` (arrived from `prev`) ends.
    pub fn reach(&self, here: usize, prev: i8, steps: usize) -> u64 {
        let at = self.index(here, self.slot(here, prev));
        if steps <= TABLE_STEPS {
            return self.level(steps).reach[at];
        }
        self.longer_level(steps).reach[at]
    }

    /// Tiles T where some walk of `steps` steps ends on T having stood on T after at least
    /// one and fewer than `steps` steps.
    pub fn loop_ends(&self, here: usize, prev: i8, steps: usize) -> u64 {
        let at = self.index(here, self.slot(here, prev));
        if steps <= TABLE_STEPS {
            return self.level(steps).loops[at];
        }
        self.longer_level(steps).loops[at]
    }

    /// Orthogonal (Manhattan) distance, ignoring terrain.
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (ra, ca) = (a / self.cols, a % self.cols);
        let (rb, cb) = (b / self.cols, b % self.cols);
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }

    pub fn is_impassable(&self, tile: usize) -> bool {
        self.impassable >> tile & 1 == 1
    }

    /// The size of the largest group of the tiles of `mine` (a mask) joined edge to edge;
    /// terrain does not split a group (`largest_group()` in the effects language).
    pub fn largest_group(&self, mut mine: u64) -> usize {
        let mut best = 0;
        while mine != 0 {
            let first = mine.trailing_zeros() as usize;
            mine &= !(1 << first);
            let mut todo = vec![first];
            let mut size = 0;
            while let Some(here) = todo.pop() {
                size += 1;
                for &next in &self.orthogonal[here] {
                    if mine >> next & 1 == 1 {
                        mine &= !(1u64 << next);
                        todo.push(usize::from(next));
                    }
                }
            }
            best = best.max(size);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_join_edge_to_edge_across_terrain() {
        // 3×3: a1 b1 c1 / a2 b2 c2 / a3 b3 c3, the lake at b2
        let geo = Geometry::new(3, 3, 1 << 4, &[]);
        // a1 b1 and a3: a diagonal does not join, so the largest group has 2 tiles
        assert_eq!(geo.largest_group(1 << 0 | 1 << 1 | 1 << 6), 2);
        // b1 b2 b3 through the lake: terrain does not split a group
        assert_eq!(geo.largest_group(1 << 1 | 1 << 4 | 1 << 7), 3);
        assert_eq!(geo.largest_group(0), 0);
    }

    fn open_board(rows: u8, cols: u8) -> Geometry {
        Geometry::new(rows, cols, 0, &[])
    }

    #[test]
    fn neighbours_and_areas() {
        let geo = open_board(5, 6);
        assert_eq!(geo.neighbours[0], vec![1, 6]);
        assert_eq!(geo.neighbours[7], vec![1, 6, 8, 13]);
        assert_eq!(geo.area[0], vec![0, 1, 6, 7]);
        assert_eq!(geo.area[7].len(), 9);
        assert_eq!(geo.distance(0, 29), 9);
    }

    #[test]
    fn walks_never_step_straight_back() {
        let geo = open_board(5, 6);
        // one step from a1: b1 or a2; two steps: never back to a1
        assert_eq!(geo.reach(0, NOBODY, 1), 1 << 1 | 1 << 6);
        assert_eq!(geo.reach(0, NOBODY, 2) & 1, 0);
        // four steps round the square a1 b1 b2 a2 come back to a1
        assert_eq!(geo.reach(0, NOBODY, 4) & 1, 1);
        // values printed by core/board.py's Geometry for the same board
        assert_eq!(geo.reach(0, NOBODY, 4), 17_322_645);
        assert_eq!(geo.loop_ends(0, NOBODY, 4), 0);
        assert_eq!(geo.loop_ends(0, NOBODY, 5), 66);
        assert_eq!(geo.reach(7, 1, 3), 34_907_466);
        assert_eq!(geo.loop_ends(7, 1, 6), 545_285);
        // the tables agree with the recursion, for every tile, arrival and length
        for here in 0..geo.size {
            for slot in 0..NO_PREV + 2 {
                let prev = geo.prev_of(here, slot);
                for steps in 0..=8 {
                    let found = (
                        geo.reach(here, prev, steps),
                        geo.loop_ends(here, prev, steps),
                    );
                    assert_eq!(found, geo.step(here, prev, steps), "{here} {prev} {steps}");
                }
            }
        }
    }

    #[test]
    fn long_walks_are_memoised_and_agree_with_the_recursion() {
        // walks longer than the fixed tables, on an open board and on one with walls
        // and a blocked tile: each length agrees with one step over the length below
        for geo in [
            open_board(5, 6),
            Geometry::new(4, 5, 1 << 7, &[(1, 2), (11, 16), (13, 14)]),
        ] {
            for steps in TABLE_STEPS + 1..=TABLE_STEPS + 40 {
                for here in 0..geo.size {
                    for slot in 0..NO_PREV + 2 {
                        let prev = geo.prev_of(here, slot);
                        let found = (
                            geo.reach(here, prev, steps),
                            geo.loop_ends(here, prev, steps),
                        );
                        assert_eq!(found, geo.step(here, prev, steps), "{here} {prev} {steps}");
                    }
                }
            }
            // the levels settle into a cycle: a walk of thousands of steps keeps a few
            assert_ne!(geo.reach(0, NOBODY, 5_000), 0);
            let longer = geo.longer.lock().unwrap();
            assert!(longer.cycle.is_some());
            assert!(
                longer.levels.len() < 40,
                "{} levels kept",
                longer.levels.len()
            );
        }
    }

    #[test]
    fn walls_and_impassable_tiles_cut_neighbours() {
        let geo = Geometry::new(2, 2, 1 << 3, &[(0, 1)]);
        assert_eq!(geo.neighbours[0], vec![2]);
        assert!(geo.neighbours[3].is_empty());
        assert_eq!(geo.orthogonal[0], vec![1, 2]);
        // a board with a chasm and mountains: the tables built level by level agree
        // with one step of the recursion over the level below, everywhere
        let geo = Geometry::new(4, 5, 1 << 7, &[(1, 2), (11, 16), (13, 14)]);
        for here in 0..geo.size {
            for slot in 0..NO_PREV + 2 {
                let prev = geo.prev_of(here, slot);
                for steps in 0..=10 {
                    let found = (
                        geo.reach(here, prev, steps),
                        geo.loop_ends(here, prev, steps),
                    );
                    assert_eq!(found, geo.step(here, prev, steps), "{here} {prev} {steps}");
                }
            }
        }
    }
}
