//! Every distinct way a meeple move can end, built from the walk tables
//! (`agents/move_ends.py`), and the moves left from the middle of one
//! (`agents/greedy_full.py`'s `distinct_moves`): what the greedy and search players look at.
//!
//! A move's effect is almost all in where it starts and ends and which colour it
//! collects, so one concrete plan is built per (start, end, colour): a walk found by
//! descending `Geometry::reach`, the collected colour dropped last (and on every earlier
//! visit of the end tile while one is spare). The order of everything here is the
//! Python order, since the players break ties by it.

use std::collections::{HashMap, HashSet};

use crate::actions::Action;
use crate::content::{Content, MAX_COLOURS};
use crate::geometry::Geometry;
use crate::state::{Board, Count, Counts, State, NOBODY};
use crate::typed_settings::TypedSetting;

/// The tiles on the board, as `meeples(tile)` reads them, and how many colours.
fn counts_of(board: &Board, tile: usize, colours: usize) -> Counts {
    let mut out = [0; MAX_COLOURS];
    out[..colours].copy_from_slice(&board.meeples(tile)[..colours]);
    out
}

fn total(hand: &[Count]) -> usize {
    hand.iter().map(|&n| usize::from(n)).sum()
}

/// `colour_masks`: for each colour, the tiles holding at least one meeple of it.
pub fn colour_masks(meeples: &[Counts], colours: usize) -> [u64; MAX_COLOURS] {
    let mut masks = [0u64; MAX_COLOURS];
    for (tile, counts) in meeples.iter().enumerate() {
        for colour in 0..colours {
            if counts[colour] != 0 {
                masks[colour] |= 1 << tile;
            }
        }
    }
    masks
}

/// `legal_starts`: the tiles from which some legal move exists, in tile order.
pub fn legal_starts(
    geo: &Geometry,
    meeples: &[Counts],
    masks: &[u64; MAX_COLOURS],
    colours: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    for (tile, hand) in meeples.iter().enumerate() {
        let k = total(&hand[..colours]);
        if k == 0 || geo.is_impassable(tile) {
            continue;
        }
        let ends = geo.reach(tile, NOBODY, k) & !(1u64 << tile);
        let direct = (0..colours).any(|c| hand[c] != 0 && ends & masks[c] != 0);
        let max = hand[..colours].iter().copied().max().unwrap_or(0);
        if direct || (max >= 2 && geo.loop_ends(tile, NOBODY, k) != 0) {
            out.push(tile);
        }
    }
    out
}

/// `legal_drops`: the (tile, colour) pairs the next drop may be, each keeping a legal end
/// possible, in the order the Python generator yields them.
pub fn legal_drops(
    geo: &Geometry,
    meeples: &[Counts],
    here: usize,
    prev: i8,
    hand: &Counts,
    colours: usize,
) -> Vec<(usize, usize)> {
    let masks = colour_masks(meeples, colours);
    let k = total(&hand[..colours]) - 1;
    let held: Vec<usize> = (0..colours).filter(|&c| hand[c] != 0).collect();
    let mut out = Vec::new();
    for &nxt in &geo.neighbours[here] {
        let nxt = usize::from(nxt);
        if nxt as i16 == i16::from(prev) {
            continue;
        }
        if k == 0 {
            for &colour in &held {
                if meeples[nxt][colour] != 0 {
                    out.push((nxt, colour));
                }
            }
            continue;
        }
        let ends = geo.reach(nxt, here as i8, k);
        let hits: Vec<usize> = held
            .iter()
            .copied()
            .filter(|&c| ends & masks[c] != 0)
            .collect();
        let back = ends >> nxt & 1 == 1;
        let mut loops: Option<u64> = None;
        for &colour in &held {
            let two = hand[colour] >= 2;
            let hit = hits.contains(&colour);
            if hits.len() > usize::from(hit) || (two && (back || hit)) {
                out.push((nxt, colour));
                continue;
            }
            if hand[colour] >= 3 || held.iter().any(|&c| c != colour && hand[c] >= 2) {
                let found = *loops.get_or_insert_with(|| geo.loop_ends(nxt, here as i8, k));
                if found != 0 {
                    out.push((nxt, colour));
                }
            }
        }
    }
    out
}

/// The setting naming the reading "no loops" when false (`movement.py`'s `REVISIT`).
pub const REVISIT: &str = "movement.revisit";

/// `revisits`: whether a meeple move may enter a tile twice (the default).
pub fn revisits(content: &Content) -> bool {
    !matches!(
        content.typed_setting(REVISIT),
        Some(TypedSetting::Flag(false))
    )
}

/// The tiles holding at least one meeple of a colour the hand holds.
fn hand_targets(masks: &[u64; MAX_COLOURS], hand: &[Count]) -> u64 {
    hand.iter()
        .zip(masks)
        .filter(|(&n, _)| n != 0)
        .fold(0, |target, (_, &mask)| target | mask)
}

/// The answers of the self-avoiding search (`self_avoiding_end`), by (here, visited,
/// steps, target): one memo per question asked of a position, as `lru_cache` is in Python.
pub type PathMemo = HashMap<(u8, u64, usize, u64), bool>;

/// `self_avoiding_end`: whether a path of `steps` more steps from `here` through tiles
/// not in `visited` can end on a tile of `target` ("no loops": `movement.revisit = false`).
pub fn self_avoiding_end(
    geo: &Geometry,
    here: usize,
    visited: u64,
    steps: usize,
    target: u64,
    memo: &mut PathMemo,
) -> bool {
    // a path enters each of its tiles once, so it is never longer than the tiles left;
    // and it never turns straight back: if no such walk reaches a target, no path does
    let left = geo.size - (visited.count_ones() as usize);
    if steps > left || geo.reach(here, NOBODY, steps) & target & !visited == 0 {
        return false;
    }
    let key = (here as u8, visited, steps, target);
    if let Some(&found) = memo.get(&key) {
        return found;
    }
    let found = geo.neighbours[here].iter().any(|&next| {
        let bit = 1u64 << next;
        if visited & bit != 0 {
            false
        } else if steps == 1 {
            target & bit != 0
        } else {
            self_avoiding_end(
                geo,
                usize::from(next),
                visited | bit,
                steps - 1,
                target,
                memo,
            )
        }
    });
    memo.insert(key, found);
    found
}

/// `legal_starts` with `revisit` off: the tiles from which a self-avoiding move exists,
/// in tile order; only the first when `first`.
pub fn self_avoiding_starts(
    geo: &Geometry,
    board: &Board,
    masks: &[u64; MAX_COLOURS],
    first: bool,
) -> Vec<usize> {
    let found = self_avoiding_start_mask(geo, board, masks, first);
    (0..geo.size).filter(|&t| found >> t & 1 != 0).collect()
}

/// `self_avoiding_starts` as a mask of tiles, with no list.
pub fn self_avoiding_start_mask(
    geo: &Geometry,
    board: &Board,
    masks: &[u64; MAX_COLOURS],
    first: bool,
) -> u64 {
    let mut memo = PathMemo::new();
    let mut out = 0u64;
    for tile in 0..geo.size {
        let hand = board.meeples(tile);
        let k = total(hand);
        if k == 0 || geo.is_impassable(tile) {
            continue;
        }
        let bit = 1u64 << tile;
        let target = hand_targets(masks, hand) & !bit;
        if self_avoiding_end(geo, tile, bit, k, target, &mut memo) {
            out |= bit;
            if first {
                break;
            }
        }
    }
    out
}

/// `self_avoiding_drops`: `legal_drops` when no tile may be entered twice (`visited`:
/// the tiles the move stood on), in the Python order.
pub fn self_avoiding_drops(
    geo: &Geometry,
    board: &Board,
    here: usize,
    hand: &[Count],
    masks: &[u64; MAX_COLOURS],
    visited: u64,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    each_self_avoiding_drop(geo, board, here, hand, masks, visited, |t, c| {
        out.push((t, c));
    });
    out
}

/// `self_avoiding_drops` handed one by one to `found`, in the same order, with no list.
pub fn each_self_avoiding_drop(
    geo: &Geometry,
    board: &Board,
    here: usize,
    hand: &[Count],
    masks: &[u64; MAX_COLOURS],
    visited: u64,
    mut found: impl FnMut(usize, usize),
) {
    let k = total(hand) - 1;
    let mut memo = PathMemo::new();
    for &next in &geo.neighbours[here] {
        let next = usize::from(next);
        let bit = 1u64 << next;
        if visited & bit != 0 {
            continue;
        }
        for colour in (0..hand.len()).filter(|&c| hand[c] != 0) {
            let legal = if k == 0 {
                board.meeples(next)[colour] != 0
            } else {
                let mut rest: Counts = [0; MAX_COLOURS];
                rest[..hand.len()].copy_from_slice(hand);
                rest[colour] -= 1;
                let target = hand_targets(masks, &rest[..hand.len()]);
                self_avoiding_end(geo, next, visited | bit, k, target, &mut memo)
            };
            if legal {
                found(next, colour);
            }
        }
    }
}

/// One way to end a move: where it starts and ends, the colour collected, how many and
/// whether the end tile is left empty (as the walk tables promise it, before the plan).
#[derive(Clone, Debug)]
pub struct MoveEnd {
    pub start: usize,
    pub end: usize,
    pub colour: usize,
    pub looped: bool,
    pub taken: Count,
    pub emptied: bool,
}

/// The board a set of move ends comes from, with the loop walks found so far (the
/// Python caches `loop_to` too; the walk found is the same either way).
pub struct MoveSource<'g> {
    geo: &'g Geometry,
    meeples: Vec<Counts>,
    colours: usize,
    loops: HashMap<(usize, usize, usize), Option<Vec<usize>>>,
}

impl<'g> MoveSource<'g> {
    pub fn new(geo: &'g Geometry, board: &Board, tiles: usize, colours: usize) -> MoveSource<'g> {
        MoveSource {
            geo,
            meeples: (0..tiles).map(|t| counts_of(board, t, colours)).collect(),
            colours,
            loops: HashMap::new(),
        }
    }

    fn loop_to(&mut self, start: usize, end: usize, steps: usize) -> Option<Vec<usize>> {
        let geo = self.geo;
        self.loops
            .entry((start, end, steps))
            .or_insert_with(|| loop_to(geo, start, end, steps))
            .clone()
    }

    /// `move_ends`: one move end for each distinct (start, end, colour) of a move, in
    /// canonical order (start, end, colour).
    pub fn move_ends(&mut self) -> Vec<MoveEnd> {
        let colours = self.colours;
        let masks = colour_masks(&self.meeples, colours);
        let mut found = Vec::new();
        for start in legal_starts(self.geo, &self.meeples, &masks, colours) {
            let hand = self.meeples[start];
            let steps = total(&hand[..colours]);
            let plain = self.geo.reach(start, NOBODY, steps) & !(1u64 << start);
            let max = hand[..colours].iter().copied().max().unwrap_or(0);
            let loops = if max >= 2 {
                self.geo.loop_ends(start, NOBODY, steps)
            } else {
                0
            };
            let mut ends = plain | loops;
            while ends != 0 {
                let end = ends.trailing_zeros() as usize;
                let bit = 1u64 << end;
                ends ^= bit;
                let here = (end != start).then(|| self.meeples[end]);
                for colour in (0..colours).filter(|&c| hand[c] != 0) {
                    if here.is_some_and(|h| h[colour] != 0) && plain & bit != 0 {
                        found.push(self.end(start, end, colour, false));
                    } else if loops & bit != 0
                        && hand[colour] >= 2
                        && here.is_none_or(|h| h[colour] == 0)
                        && self.loop_to(start, end, steps).is_some()
                    {
                        found.push(self.end(start, end, colour, true));
                    }
                }
            }
        }
        found
    }

    fn end(&self, start: usize, end: usize, colour: usize, looped: bool) -> MoveEnd {
        let (mine, others) = if end != start {
            let at_end = &self.meeples[end][..self.colours];
            (at_end[colour], total(at_end) - usize::from(at_end[colour]))
        } else {
            (0, 0)
        };
        MoveEnd {
            start,
            end,
            colour,
            looped,
            taken: mine + if looped { 2 } else { 1 },
            emptied: others == 0,
        }
    }

    /// `_Source.build`: the pick and drops of a move end.
    pub fn plan(&mut self, end: &MoveEnd) -> Vec<Action> {
        let hand = self.meeples[end.start];
        let steps = total(&hand[..self.colours]);
        let path = if end.looped {
            self.loop_to(end.start, end.end, steps)
        } else {
            walk_to(self.geo, end.start, end.end, steps)
        }
        .expect("the walk tables promised a walk");
        let order = drops(&path, end.end, end.colour, &hand, self.colours, end.looped);
        let mut plan = Vec::with_capacity(path.len() + 1);
        plan.push(Action::Pick(end.start as u8));
        for (&tile, &colour) in path.iter().zip(&order) {
            plan.push(Action::Drop(tile as u8, colour as u8));
        }
        plan
    }
}

/// `walk_to`: the tiles of a walk of exactly `steps` steps from `start` to `end`.
pub fn walk_to(geo: &Geometry, start: usize, end: usize, steps: usize) -> Option<Vec<usize>> {
    if geo.reach(start, NOBODY, steps) >> end & 1 == 0 {
        return None;
    }
    let mut path = Vec::with_capacity(steps);
    let (mut here, mut prev) = (start, NOBODY);
    for left in (1..=steps).rev() {
        let next = geo.neighbours[here]
            .iter()
            .map(|&n| usize::from(n))
            .find(|&n| {
                n as i16 != i16::from(prev) && geo.reach(n, here as i8, left - 1) >> end & 1 == 1
            })?;
        path.push(next);
        prev = here as i8;
        here = next;
    }
    Some(path)
}

/// `loop_to`: like `walk_to`, but the walk also stands on `end` after at least one and
/// fewer than `steps` steps (a depth-first search remembering dead ends).
pub fn loop_to(geo: &Geometry, start: usize, end: usize, steps: usize) -> Option<Vec<usize>> {
    let mut search = LoopSearch {
        geo,
        end,
        dead: HashSet::new(),
        path: Vec::with_capacity(steps),
    };
    search
        .search(start, NOBODY, steps, false)
        .then_some(search.path)
}

/// The depth-first search of `loop_to`: the walk so far and the dead ends met.
struct LoopSearch<'g> {
    geo: &'g Geometry,
    end: usize,
    dead: HashSet<(usize, i8, usize, bool)>,
    path: Vec<usize>,
}

impl LoopSearch<'_> {
    fn search(&mut self, here: usize, prev: i8, left: usize, seen: bool) -> bool {
        if left == 0 {
            return seen && here == self.end;
        }
        let key = (here, prev, left, seen);
        if self.dead.contains(&key) || self.geo.reach(here, prev, left) >> self.end & 1 == 0 {
            return false;
        }
        let geo = self.geo;
        for &next in &geo.neighbours[here] {
            let next = usize::from(next);
            if next as i16 == i16::from(prev) {
                continue;
            }
            self.path.push(next);
            let now_seen = seen || (next == self.end && left > 1);
            if self.search(next, here as i8, left - 1, now_seen) {
                return true;
            }
            self.path.pop();
        }
        self.dead.insert(key);
        false
    }
}

/// `_drops`: the colour dropped at each step: `colour` last and on earlier visits of
/// `end` while one is spare, the others in colour order.
fn drops(
    path: &[usize],
    end: usize,
    colour: usize,
    hand: &Counts,
    colours: usize,
    looped: bool,
) -> Vec<usize> {
    const UNSET: usize = usize::MAX;
    let mut rest = *hand;
    rest[colour] -= 1;
    let mut order = vec![UNSET; path.len()];
    let last = path.len() - 1;
    order[last] = colour;
    for i in 0..last {
        if path[i] == end && rest[colour] > 0 {
            order[i] = colour;
            rest[colour] -= 1;
        }
    }
    assert!(
        !looped || order[..last].contains(&colour),
        "a loop visits its end tile before the last step"
    );
    let mut others = (0..colours).flat_map(|c| std::iter::repeat_n(c, usize::from(rest[c])));
    for slot in order.iter_mut().take(last) {
        if *slot == UNSET {
            *slot = others.next().expect("one meeple a step");
        }
    }
    order
}

/// `distinct_moves`: one action sequence for each distinct (start, final tile, colour) a
/// move can end on, at most `limit` complete moves walked, in the order found: from the
/// pick (every legal start) or, at a drop (`at_drop`), the rest of the move in progress.
pub fn distinct_moves(
    state: &State,
    geo: &Geometry,
    colours: usize,
    limit: usize,
    at_drop: bool,
) -> Vec<Vec<Action>> {
    let mut board: Vec<Counts> = (0..state.layout.size())
        .map(|t| counts_of(&state.board, t, colours))
        .collect();
    let mut walker = Walker {
        geo,
        colours,
        limit,
        count: 0,
        start: NOBODY,
        found: Vec::new(),
    };
    match state.turn.as_ref().filter(|_| at_drop) {
        Some(turn) => {
            let hand = turn.hand.expect("a move in progress has meeples in hand");
            let here = usize::from(*turn.path.last().unwrap_or(&(turn.start as u8)));
            let prev = match turn.path.len() {
                0 => NOBODY,
                1 => turn.start,
                n => turn.path[n - 2] as i8,
            };
            walker.start = turn.start;
            walker.walk(&mut board, here, prev, hand, &mut Vec::new());
        }
        None => {
            let masks = colour_masks(&board, colours);
            for start in legal_starts(geo, &board, &masks, colours) {
                let hand = board[start];
                board[start] = [0; MAX_COLOURS];
                walker.start = start as i8;
                let mut path = vec![Action::Pick(start as u8)];
                walker.walk(&mut board, start, NOBODY, hand, &mut path);
                board[start] = hand;
            }
        }
    }
    walker.found.into_iter().map(|(_, plan)| plan).collect()
}

struct Walker<'g> {
    geo: &'g Geometry,
    colours: usize,
    limit: usize,
    count: usize,
    start: i8,
    found: Vec<((i8, usize, usize), Vec<Action>)>,
}

impl Walker<'_> {
    fn walk(
        &mut self,
        board: &mut [Counts],
        here: usize,
        prev: i8,
        hand: Counts,
        path: &mut Vec<Action>,
    ) {
        for (next, colour) in legal_drops(self.geo, board, here, prev, &hand, self.colours) {
            if self.count >= self.limit {
                return;
            }
            path.push(Action::Drop(next as u8, colour as u8));
            let mut rest = hand;
            rest[colour] -= 1;
            if rest.iter().any(|&n| n != 0) {
                board[next][colour] += 1;
                self.walk(board, next, here as i8, rest, path);
                board[next][colour] -= 1;
            } else {
                self.count += 1;
                let key = (self.start, next, colour);
                if !self.found.iter().any(|(k, _)| *k == key) {
                    self.found.push((key, path.clone()));
                }
            }
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_avoiding_path_never_closes_a_loop() {
        // a 2x2 board, a1 b1 / a2 b2: the walk a1 b1 b2 a2 a1 b1 ends on b1 in 5 steps,
        // but every path that long enters a tile twice
        let geo = Geometry::new(2, 2, 0, &[]);
        let mut memo = PathMemo::new();
        assert_ne!(geo.reach(0, NOBODY, 5) & 0b10, 0);
        assert!(!self_avoiding_end(&geo, 0, 1, 5, 0b10, &mut memo));
        // a1 a2 b2 b1: three steps through new tiles end on b1
        assert!(self_avoiding_end(&geo, 0, 1, 3, 0b10, &mut memo));
        // b1 already entered: no path may end there
        assert!(!self_avoiding_end(&geo, 0, 0b11, 3, 0b10, &mut memo));
        // a hand longer than the board (259 = 3 + 256 meeples) is no 3-step path
        assert!(!self_avoiding_end(&geo, 0, 1, 259, 0b10, &mut memo));
    }

    #[test]
    fn walks_have_their_length_and_end() {
        let geo = Geometry::new(5, 6, 0, &[]);
        let path = walk_to(&geo, 0, 2, 4).expect("a walk of 4 from a1 to c1");
        assert_eq!(path.len(), 4);
        assert_eq!(*path.last().unwrap(), 2);
        // no step goes straight back
        let mut prev = NOBODY;
        let mut here = 0usize;
        for &tile in &path {
            assert!(geo.neighbours[here].contains(&(tile as u8)));
            assert_ne!(tile as i16, i16::from(prev));
            prev = here as i8;
            here = tile;
        }
        assert!(
            walk_to(&geo, 0, 1, 2).is_none(),
            "two steps cannot end next door"
        );
    }

    #[test]
    fn a_loop_stands_on_its_end_before_the_last_step() {
        let geo = Geometry::new(5, 6, 0, &[]);
        let path = loop_to(&geo, 0, 1, 5).expect("a loop of 5 through b1");
        assert_eq!(path.len(), 5);
        assert_eq!(path[4], 1);
        assert!(path[..4].contains(&1));
    }

    #[test]
    fn drops_put_the_collected_colour_last_and_on_earlier_visits() {
        let mut hand = [0; MAX_COLOURS];
        hand[0] = 2;
        hand[2] = 1;
        let order = drops(&[1, 2, 1], 1, 0, &hand, 5, true);
        assert_eq!(order, vec![0, 2, 0]);
    }
}
