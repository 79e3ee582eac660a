//! A finished game as the lab reads it from the native state, as plain data: each seat's
//! score lines (`crate::results`), the winners, the end flags, the cards' effect counts,
//! the djinns held and the tiles' worth by kind (`lab/results.py`'s `result_of`), so a
//! study's result needs no Python state. The lines are the very sheet the kernel's
//! scores sum (`Rules::score_sheet`), proven the Python engine's by the differential
//! harness.

use crate::content::Content;
use crate::results::{readable, score_lines, Line};
use crate::rules::Rules;
use crate::state::State;
use crate::variants::winners;

/// The prefix of the extras counting a card's effects (`effects.<card>`).
const EFFECTS: &str = "effects.";

/// A finished game as the lab reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// the round the game ended in
    pub round: u16,
    /// each seat's score lines, in the order the Python hooks give them
    pub lines: Vec<Vec<Line>>,
    /// each seat's score: its lines summed
    pub scores: Vec<i64>,
    /// the seats with the highest score (`verdict.tie_break` applied), or a called-back
    /// `naqala_verdict`'s winners
    pub winners: Vec<usize>,
    /// the short name of a called-back verdict's outcome (`Verdict.kind`), else empty
    pub verdict: String,
    /// the state's flags, by name, in the state's order
    pub flags: Vec<String>,
    /// `effects.<card>` extras: how often each card's power changed the game
    pub effects: Vec<(String, i64)>,
    /// the djinn ids each seat holds, sorted
    pub djinns: Vec<Vec<String>>,
    /// the worth of the tiles each seat owns, by tile kind, sorted by kind
    pub tile_points: Vec<Vec<(String, i64)>>,
}

/// The finished game `state` as the lab reads it, or `None` when its rules score lines
/// the kernel does not write as Python does (`readable`).
pub fn read(rules: &Rules, state: &State) -> Option<Reading> {
    let content = rules.content;
    let verdict = rules.called_back_verdict(state);
    let calls = rules.callbacks();
    if !readable(content, |hook| calls.is_some_and(|c| c.answers(hook))) {
        return None;
    }
    let lines: Vec<Vec<Line>> = (0..state.players.len())
        .map(|p| score_lines(rules, state, p))
        .collect();
    let scores: Vec<i64> = lines
        .iter()
        .map(|sheet| sheet.iter().map(|l| l.points).sum())
        .collect();
    let names = &content.names;
    let doc = &content.doc;
    let effects = state
        .extras
        .iter()
        .filter_map(|&(key, value)| {
            let name = names.name(key).strip_prefix(EFFECTS)?;
            Some((name.to_owned(), value))
        })
        .collect();
    let djinns = state
        .players
        .iter()
        .map(|player| {
            let mut ids: Vec<String> = player
                .hands
                .hand(1)
                .iter()
                .map(|&c| doc.cards[usize::from(c)].id.clone())
                .collect();
            ids.sort();
            ids
        })
        .collect();
    Some(Reading {
        round: state.round,
        winners: match &verdict {
            Some(v) => v.winners.clone(),
            None => winners(content, state, &scores),
        },
        verdict: verdict.map(|v| v.kind).unwrap_or_default(),
        lines,
        scores,
        flags: state
            .flags
            .iter()
            .map(|&f| names.name(f).to_owned())
            .collect(),
        effects,
        djinns,
        tile_points: tile_points(content, state),
    })
}

/// `tile_points`: the worth of the tiles each seat owns, by tile kind.
fn tile_points(content: &Content, state: &State) -> Vec<Vec<(String, i64)>> {
    let mut per_seat: Vec<Vec<(String, i64)>> = vec![Vec::new(); state.players.len()];
    for tile in 0..state.layout.size() {
        let Ok(owner) = usize::try_from(state.board.owner(tile)) else {
            continue;
        };
        let Some(seat) = per_seat.get_mut(owner) else {
            continue;
        };
        let spec = &content.doc.tiles[usize::from(state.layout.tiles[tile])];
        match seat.iter_mut().find(|(kind, _)| *kind == spec.kind) {
            Some((_, points)) => *points += spec.vp,
            None => seat.push((spec.kind.clone(), spec.vp)),
        }
    }
    for seat in &mut per_seat {
        seat.sort();
    }
    per_seat
}

/// `start_order`: the players in the order their first marker lies on the bid track, then
/// on the turn-order track (without bids, round 1's order is already on that track, its
/// first marker moved to the bid track as it plays).
pub fn first_bidders(state: &State) -> Vec<usize> {
    let markers = state.markers.as_slice();
    let mut order: Vec<usize> = Vec::new();
    let tracks = state.bid_track.as_slice().iter();
    for &marker in tracks.chain(state.turn_track.as_slice()) {
        let Some(&owner) = usize::try_from(marker).ok().and_then(|m| markers.get(m)) else {
            continue;
        };
        if let Ok(owner) = usize::try_from(owner) {
            if !order.contains(&owner) {
                order.push(owner);
            }
        }
    }
    order
}
