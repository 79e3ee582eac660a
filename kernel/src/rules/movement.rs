//! Moving the meeples (`plugins/base/movement.py`): the tile picked up, the drops along
//! the path, and the tile taken by the last drop.

use super::events::Event;
use super::{append, turn_here, wait_at, Rules, Step};

use crate::actions::Action;
use crate::content::MAX_COLOURS;
use crate::names::Sym;
use crate::state::{Counts, State, Turn, NOBODY};

/// A pick of each tile of `tiles` (a set as bits) in the canonical order of the tiles'
/// names, column by column and down each column (`a1 a2 … b1`), so that the options'
/// sort finds them in order and leaves them.
pub(super) fn picks_in_name_order(tiles: u64, cols: usize, size: usize) -> Vec<Action> {
    let mut out = Vec::with_capacity(tiles.count_ones() as usize);
    picks_in_name_order_into(tiles, cols, size, &mut out);
    out
}

/// `picks_in_name_order` appended to `out`.
pub(super) fn picks_in_name_order_into(
    tiles: u64,
    cols: usize,
    size: usize,
    out: &mut Vec<Action>,
) {
    for col in 0..cols.min(size) {
        for tile in (col..size).step_by(cols) {
            if tiles >> tile & 1 != 0 {
                out.push(Action::Pick(tile as u8));
            }
        }
    }
}

/// `Turn.previous`: the tile before `here` on the path (the start), or `NOBODY`.
pub(super) fn turn_previous(turn: &Turn) -> i8 {
    match turn.path.len() {
        0 => NOBODY,
        1 => turn.start,
        n => turn.path[n - 2] as i8,
    }
}

impl Rules<'_> {
    /// For each colour, a mask of the tiles holding at least one meeple of it.
    pub(super) fn colour_masks(&self, state: &State) -> [u64; MAX_COLOURS] {
        let mut masks = [0u64; MAX_COLOURS];
        for tile in 0..state.layout.size() {
            let bit = 1u64 << tile;
            for (mask, &n) in masks.iter_mut().zip(state.board.meeples(tile)) {
                if n != 0 {
                    *mask |= bit;
                }
            }
        }
        masks
    }

    /// `pick_options` when no tile may be entered twice, written into `out` (empty).
    pub(super) fn self_avoiding_picks(&self, state: &State, out: &mut Vec<Action>) {
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let found = crate::moves::self_avoiding_start_mask(geo, &state.board, &masks, false);
        picks_in_name_order_into(found, usize::from(state.layout.cols), geo.size, out);
    }

    /// `drop_options` when no tile may be entered twice, written into `out` (empty).
    pub(super) fn self_avoiding_drops(&self, state: &State, out: &mut Vec<Action>) {
        let turn = state.turn.as_ref().expect("a drop is in a turn");
        let hand = turn.hand.expect("a drop has meeples in hand");
        let masks = self.colour_masks(state);
        let colours = self.content.colours();
        let visited = turn
            .path
            .iter()
            .fold(1u64 << turn.start, |mask, &tile| mask | 1u64 << tile);
        crate::moves::each_self_avoiding_drop(
            &state.layout.geometry,
            &state.board,
            turn_here(turn),
            &hand[..colours],
            &masks,
            visited,
            |t, c| out.push(Action::Drop(t as u8, c as u8)),
        );
    }

    /// `legal_starts`: tiles from which some legal move exists.
    pub(super) fn pick_options(&self, state: &State) -> Vec<Action> {
        self.starts(state, false)
    }

    /// `cards.leaves_a_pick`: at the pick, whether some move can still start (a power
    /// used there may not leave the player without one); at any other decision, yes.
    pub(super) fn leaves_a_pick(&self, state: &State) -> bool {
        state.decision.stage != self.known.pick || !self.starts(state, true).is_empty()
    }

    /// `cards.MEEPLES_SETTLED`: a drop and the assassins' kill, whose options were worked
    /// out for the meeples as they stand, so nothing takes meeples off a tile there.
    pub(super) fn meeples_settled(&self, stage: Sym) -> bool {
        stage == self.known.drop || stage == self.known.kill
    }

    /// The legal starts; only the first when `first` (is there any move at all?).
    pub(super) fn starts(&self, state: &State, first: bool) -> Vec<Action> {
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let cols = usize::from(state.layout.cols);
        if !self.revisit {
            let starts = crate::moves::self_avoiding_starts(geo, &state.board, &masks, first);
            let found = starts.iter().fold(0u64, |mask, &t| mask | 1u64 << t);
            return picks_in_name_order(found, cols, geo.size);
        }
        let mut out = Vec::new();
        for tile in 0..state.layout.size() {
            let hand = state.board.meeples(tile);
            let k: usize = hand.iter().map(|&n| usize::from(n)).sum();
            if k == 0 || geo.is_impassable(tile) {
                continue;
            }
            let ends = geo.reach(tile, NOBODY, k) & !(1u64 << tile);
            let direct = hand
                .iter()
                .enumerate()
                .any(|(c, &n)| n != 0 && ends & masks[c] != 0);
            let max = hand.iter().copied().max().unwrap_or(0);
            if direct || (max >= 2 && geo.loop_ends(tile, NOBODY, k) != 0) {
                out.push(Action::Pick(tile as u8));
                if first {
                    break;
                }
            }
        }
        if first {
            return out;
        }
        let found = out.iter().fold(0u64, |mask, a| match a {
            Action::Pick(t) => mask | 1u64 << t,
            _ => mask,
        });
        picks_in_name_order(found, cols, geo.size)
    }

    /// `legal_drops`: (tile, colour) pairs the next drop may be, each keeping a legal
    /// end possible.
    pub(super) fn drop_options(&self, state: &State) -> Vec<Action> {
        let turn = state.turn.as_ref().expect("a drop is in a turn");
        let hand = turn.hand.expect("a drop has meeples in hand");
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let colours = self.content.colours();
        let here = turn_here(turn);
        if !self.revisit {
            let visited = turn
                .path
                .iter()
                .fold(1u64 << turn.start, |mask, &tile| mask | 1u64 << tile);
            let drops = crate::moves::self_avoiding_drops(
                geo,
                &state.board,
                here,
                &hand[..colours],
                &masks,
                visited,
            );
            return drops
                .into_iter()
                .map(|(t, c)| Action::Drop(t as u8, c as u8))
                .collect();
        }
        let prev = turn_previous(turn);
        let k = hand[..colours]
            .iter()
            .map(|&n| usize::from(n))
            .sum::<usize>()
            - 1;
        let mut held = [0usize; MAX_COLOURS];
        let mut held_count = 0;
        for (c, &n) in hand[..colours].iter().enumerate() {
            if n != 0 {
                held[held_count] = c;
                held_count += 1;
            }
        }
        let held = &held[..held_count];
        let mut out = Vec::new();
        for &nxt in &geo.neighbours[here] {
            let nxt_tile = usize::from(nxt);
            if i16::from(nxt) == i16::from(prev) {
                continue;
            }
            if k == 0 {
                let counts = state.board.meeples(nxt_tile);
                for &colour in held {
                    if counts[colour] != 0 {
                        out.push(Action::Drop(nxt, colour as u8));
                    }
                }
                continue;
            }
            let ends = geo.reach(nxt_tile, here as i8, k);
            // colours of the hand some k-step walk can end on, as a bit set
            let mut hits = 0u32;
            for &c in held {
                if ends & masks[c] != 0 {
                    hits |= 1 << c;
                }
            }
            let back = ends >> nxt_tile & 1 == 1;
            let mut loops: Option<u64> = None;
            for &colour in held {
                let two = hand[colour] >= 2;
                let in_hits = hits >> colour & 1 == 1;
                if hits.count_ones() > u32::from(in_hits) || (two && (back || in_hits)) {
                    out.push(Action::Drop(nxt, colour as u8));
                    continue;
                }
                if hand[colour] >= 3 || held.iter().any(|&c| c != colour && hand[c] >= 2) {
                    let found =
                        *loops.get_or_insert_with(|| geo.loop_ends(nxt_tile, here as i8, k));
                    if found != 0 {
                        out.push(Action::Drop(nxt, colour as u8));
                    }
                }
            }
        }
        out
    }

    /// `PickStage.apply`: every meeple of the tile goes into the hand.
    pub(super) fn pick(&self, state: State, tile: usize) -> State {
        let mut state = state;
        let mut hand: Counts = [0; crate::content::MAX_COLOURS];
        let meeples = state.board.meeples_mut(tile);
        hand[..meeples.len()].copy_from_slice(meeples);
        meeples.fill(0);
        let turn = state.turn.as_mut().expect("a pick is in a turn");
        turn.start = tile as i8;
        turn.hand = Some(hand);
        wait_at(state, self.known.drop)
    }

    /// `DropStage.apply`: one meeple from the hand onto the next tile; the last one
    /// ends the move with the control check.
    pub(super) fn drop(&self, state: State, tile: usize, colour: usize) -> Step {
        let mut state = state;
        state.board.meeples_mut(tile)[colour] += 1;
        let turn = state.turn.as_mut().expect("a drop is in a turn");
        turn.path = append(&turn.path, tile as u8);
        let hand = turn.hand.as_mut().expect("a drop has meeples in hand");
        hand[colour] -= 1;
        let empty = hand.iter().all(|&n| n == 0);
        let player = state.decision.player as usize;
        let state = self.fire(state, Event::MeepleDropped { player, tile });
        if !empty {
            return Ok(state);
        }
        let state = self.control_check(state, tile, colour);
        self.proceed(state, self.known.drop)
    }

    /// `control_check` (rulebook 2.3): take back the meeples of the last colour from the
    /// final tile; an emptied unowned tile gets a camel.
    pub(super) fn control_check(&self, mut state: State, tile: usize, colour: usize) -> State {
        let taken = std::mem::take(&mut state.board.meeples_mut(tile)[colour]);
        let turn = state.turn.as_mut().expect("a control check is in a turn");
        turn.colour = colour as i8;
        turn.taken = taken;
        if state.board.meeples(tile).iter().all(|&n| n == 0) {
            let player = state.decision.player as usize;
            state = self.take_tile(state, player, tile);
        }
        state
    }

    /// `marked_by_stand_in`: whether a token standing in for a camel (the Artisans'
    /// tent) marks `tile`.
    pub(crate) fn marked_by_stand_in(&self, state: &State, tile: usize) -> bool {
        let here = state.board.tokens(tile);
        (self.content.doc.tokens.iter().zip(here)).any(|(token, &n)| token.replaces_camel && n > 0)
    }

    /// `release_tile`: the camel on `tile` goes back to its owner, and the tile is no
    /// one's (a tile no player holds: nothing).
    pub(crate) fn release_tile(&self, mut state: State, tile: usize) -> State {
        let Ok(owner) = usize::try_from(state.board.owner(tile)) else {
            return state;
        };
        state.board.set_owner(tile, NOBODY);
        state.players[owner].camels += 1;
        state
    }

    /// `take_tile`: a camel on an unowned tile, or out of camels a piece still to place
    /// (a `piece.<token>` counter) as a token of that name.
    pub(super) fn take_tile(&self, mut state: State, player: usize, tile: usize) -> State {
        if state.board.owner(tile) != NOBODY {
            return state;
        }
        if state.players[player].camels > 0 {
            state.players[player].camels -= 1;
        } else {
            let extras = &state.players[player].extras;
            let piece = extras
                .iter()
                .position(|&(k, v)| v > 0 && self.pieces.iter().any(|&(p, _)| p == k));
            let Some(at) = piece else {
                return state;
            };
            let key = extras[at].0;
            let mut changed = extras.to_vec();
            changed[at].1 -= 1;
            state.players[player].extras = changed.into_boxed_slice();
            let token = self
                .pieces
                .iter()
                .find(|&&(p, _)| p == key)
                .and_then(|p| p.1);
            if let Some(token) = token {
                state.board.tokens_mut(tile)[token] += 1;
                state.pool[token] -= 1;
            }
        }
        state.board.set_owner(tile, player as i8);
        if let Some(turn) = state.turn.as_mut() {
            if state.markers.as_slice()[usize::from(turn.marker)] == player as i8 {
                turn.claimed = append(&turn.claimed, tile as u8);
            }
        }
        self.fire(state, Event::TileTaken { player, tile })
    }
}
