//! What a finished game leaves to the lab, read from the native state as plain data: each
//! seat's score lines (category, source, points), the winners, the end flags, the cards'
//! effect counts, the djinns held and the tiles' worth by kind (`lab/results.py`'s
//! `result_of`), so a study's result needs no Python state.
//!
//! Only the rules whose every score line this module writes are read here: the base
//! game's score sheet (`plugins/base/scoring.py`) and the djinns that change it at the end
//! (`plugins/base/djinns/endgame.py`: `BetterCount`, `AlAmin`), when no other plugin adds,
//! changes or judges the scores (no other deck, no solo mode, every scoring hook the base
//! plugin's). Anything else is `None`, and the caller reads the game through a Python
//! state as before. The lines must also add up to the kernel's own scores
//! (`Rules::scores`, proven the Python engine's by the differential harness), or the
//! reading is refused.

use crate::content::Content;
use crate::rules::{solo, Rules};
use crate::state::State;
use crate::variants::winners;

/// One score line of a seat's sheet (`ScoreLine` without its words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub category: String,
    pub source: String,
    pub points: i64,
}

/// A finished game as the lab reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// the round the game ended in
    pub round: u16,
    /// each seat's score lines, in the order the Python hooks give them
    pub lines: Vec<Vec<Line>>,
    /// each seat's score: its lines summed
    pub scores: Vec<i64>,
    /// the seats with the highest score (`verdict.tie_break` applied)
    pub winners: Vec<usize>,
    /// the state's flags, by name, in the state's order
    pub flags: Vec<String>,
    /// `effects.<card>` extras: how often each card's power changed the game
    pub effects: Vec<(String, i64)>,
    /// the djinn ids each seat holds, sorted
    pub djinns: Vec<Vec<String>>,
    /// the worth of the tiles each seat owns, by tile kind, sorted by kind
    pub tile_points: Vec<Vec<(String, i64)>>,
}

/// The decks of the rules this module reads (any other deck's cards may score).
const DECKS: [&str; 2] = ["resources", "djinns"];
/// The hooks that write, change or judge the scores: the base plugin's alone here.
const SCORING_HOOKS: [&str; 3] = [
    "naqala_score_lines",
    "naqala_adjust_score_lines",
    "naqala_verdict",
];
/// The plugin whose score lines this module writes.
const BASE: &str = "base";
/// `BetterCount` djinns: kind, category, the card's parameter, and what it improves on
/// (`token:<id>` a token's worth, else a setting).
const BETTER_COUNTS: [(&str, &str, &str, &str); 3] = [
    ("haurvatat", "palm-trees", "palm_tree_vp", "token:palm-tree"),
    ("jafaar", "viziers", "vizier_vp", "vizier_vp"),
    ("shamhat", "elders", "elder_vp", "elder_vp"),
];
const AL_AMIN: &str = "al-amin";
const VIZIER: &str = "yellow";
const ELDER: &str = "white";
const MERCHANDISE: &str = "merchandise";
const FAKIR: &str = "fakir";
const EFFECTS: &str = "effects.";

/// Whether this module writes every score line of `content`'s games.
pub fn readable(content: &Content) -> bool {
    let doc = &content.doc;
    let decks_known = doc.decks.len() == DECKS.len()
        && doc.decks.iter().zip(DECKS).all(|(deck, id)| deck.id == id);
    let colours = [VIZIER, ELDER]
        .iter()
        .all(|id| doc.colours.iter().any(|c| c.id == *id));
    let mut scored_by_base = false;
    for spec in &doc.providers {
        let (kind, name) = spec.entry.split_once(':').unwrap_or(("", ""));
        if SCORING_HOOKS.contains(&name) {
            if kind != "hook" || spec.plugin != BASE {
                return false;
            }
            scored_by_base |= name == SCORING_HOOKS[0];
        }
    }
    decks_known && colours && scored_by_base && !solo::in_play(doc)
}

/// The finished game `state` as the lab reads it, or `None` when its rules score lines
/// this module does not write (`readable`) or its lines miss the kernel's scores.
pub fn read(rules: &Rules, state: &State) -> Option<Reading> {
    let content = rules.content;
    if !readable(content) {
        return None;
    }
    let lines: Vec<Vec<Line>> = (0..state.players.len())
        .map(|p| score_lines(content, state, p))
        .collect();
    let scores: Vec<i64> = lines
        .iter()
        .map(|sheet| sheet.iter().map(|l| l.points).sum())
        .collect();
    if scores != rules.scores(state) {
        return None;
    }
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
        winners: winners(content, state, &scores),
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

/// `start_order`: the players in the order their first marker lies on the bid track.
pub fn first_bidders(state: &State) -> Vec<usize> {
    let markers = state.markers.as_slice();
    let mut order: Vec<usize> = Vec::new();
    for &marker in state.bid_track.as_slice() {
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

fn line(category: &str, source: &str, points: i64) -> Line {
    Line {
        category: category.to_owned(),
        source: source.to_owned(),
        points,
    }
}

/// The base game's score lines of `player` (`scoring.score_lines`), then those of the
/// djinns held (`cards.score_lines`).
fn score_lines(content: &Content, state: &State, player: usize) -> Vec<Line> {
    let doc = &content.doc;
    let setting = |key: &str| content.setting(key).unwrap_or(0);
    let colour = |id: &str| doc.colours.iter().position(|c| c.id == id).unwrap_or(0);
    let me = &state.players[player];
    let viziers = i64::from(me.meeples[colour(VIZIER)]);
    let elders = i64::from(me.meeples[colour(ELDER)]);
    let beaten = state
        .players
        .iter()
        .enumerate()
        .filter(|&(other, p)| other != player && i64::from(p.meeples[colour(VIZIER)]) < viziers)
        .count() as i64;
    let owned: Vec<usize> = (0..state.layout.size())
        .filter(|&t| state.board.owner(t) == player as i8)
        .collect();
    let held = me.hands.hand(1);
    let mut lines = vec![
        line("coins", BASE, i64::from(me.coins)),
        line("viziers", BASE, viziers * setting("vizier_vp")),
        line("vizier-majority", BASE, beaten * setting("vizier_bonus")),
        line("elders", BASE, elders * setting("elder_vp")),
        line(
            "djinns",
            BASE,
            held.iter().map(|&d| doc.cards[usize::from(d)].vp).sum(),
        ),
    ];
    let on_owned = |index: usize| -> i64 {
        owned
            .iter()
            .map(|&t| i64::from(state.board.tokens(t)[index]))
            .sum()
    };
    for (index, token) in doc.tokens.iter().enumerate() {
        if token.vp != 0 {
            lines.push(line(
                &format!("{}s", token.id),
                BASE,
                on_owned(index) * token.vp,
            ));
        }
    }
    let tiles: i64 = owned
        .iter()
        .map(|&t| doc.tiles[usize::from(state.layout.tiles[t])].vp)
        .sum();
    lines.push(line("tiles", BASE, tiles));
    let goods = Goods::of(content, state, player);
    let suits = goods.suits();
    let plain: i64 = suits.iter().map(|&n| goods.value(n)).sum();
    lines.push(line(MERCHANDISE, BASE, plain));
    for &card in held {
        let spec = &doc.cards[usize::from(card)];
        let param = |key: &str| spec.params.get(key).copied().unwrap_or(0);
        if spec.kind == AL_AMIN {
            let per_wild = param("fakirs_per_wild");
            let wilds = if per_wild > 0 {
                goods.fakirs / per_wild as usize
            } else {
                0
            };
            let gain = goods.best_with_wilds(&suits, wilds) - plain;
            lines.push(line(MERCHANDISE, &spec.id, gain));
        } else if let Some(&(_, category, key, improves)) =
            BETTER_COUNTS.iter().find(|b| b.0 == spec.kind)
        {
            let (count, base) = match improves.strip_prefix("token:") {
                Some(token) => {
                    let index = doc.tokens.iter().position(|t| t.id == token);
                    (
                        index.map_or(0, on_owned),
                        index.map_or(0, |i| doc.tokens[i].vp),
                    )
                }
                None if category == "viziers" => (viziers, setting(improves)),
                None => (elders, setting(improves)),
            };
            lines.push(line(category, &spec.id, count * (param(key) - base)));
        }
    }
    lines
}

/// A seat's merchandise (`plugins/base/merchandise.py`): copies held by type, the
/// number of merchandise types, the suits' values, and the Fakirs held.
struct Goods<'c> {
    held: Vec<(u8, usize)>,
    types: usize,
    values: &'c [i64],
    fakirs: usize,
}

impl<'c> Goods<'c> {
    fn of(content: &'c Content, state: &State, player: usize) -> Goods<'c> {
        let doc = &content.doc;
        let merchandise =
            |c: &crate::content::CardSpec| c.deck == DECKS[0] && c.kind == MERCHANDISE;
        let mut held: Vec<(u8, usize)> = Vec::new();
        let mut fakirs = 0;
        for &card in state.players[player].hands.hand(0) {
            let spec = &doc.cards[usize::from(card)];
            if spec.id == FAKIR {
                fakirs += 1;
            }
            if !merchandise(spec) {
                continue;
            }
            match held.iter_mut().find(|(c, _)| *c == card) {
                Some((_, n)) => *n += 1,
                None => held.push((card, 1)),
            }
        }
        let mut types: Vec<&str> = doc
            .cards
            .iter()
            .filter(|c| merchandise(c))
            .map(|c| c.id.as_str())
            .collect();
        types.sort_unstable();
        types.dedup();
        Goods {
            held,
            types: types.len(),
            values: content.table("suit_values").unwrap_or(&[]),
            fakirs,
        }
    }

    /// `suit_value`
    fn value(&self, size: usize) -> i64 {
        if size == 0 {
            return 0;
        }
        self.values.get(size - 1).copied().unwrap_or(0)
    }

    /// `best_suits`: one of every type held, again and again.
    fn suits(&self) -> Vec<usize> {
        let mut left = self.held.clone();
        let mut sizes = Vec::new();
        while !left.is_empty() {
            sizes.push(left.len());
            left = left
                .into_iter()
                .filter(|&(_, n)| n > 1)
                .map(|(c, n)| (c, n - 1))
                .collect();
        }
        sizes
    }

    /// `best_with_wilds`: the best merchandise score with `wilds` jokers, added to the
    /// suits held or made into suits of their own.
    fn best_with_wilds(&self, suits: &[usize], wilds: usize) -> i64 {
        let mut alone = vec![0i64; wilds + 1];
        for n in 1..=wilds {
            alone[n] = (1..=n.min(self.types))
                .map(|k| self.value(k) + alone[n - k])
                .max()
                .unwrap_or(0);
        }
        let mut best: Vec<i64> = vec![-1; wilds + 1];
        best[0] = 0;
        for &size in suits {
            let mut next = vec![-1i64; wilds + 1];
            for (used, &score) in best.iter().enumerate() {
                if score < 0 {
                    continue;
                }
                for extra in 0..=self.types.saturating_sub(size).min(wilds - used) {
                    let total = score + self.value(size + extra);
                    if total > next[used + extra] {
                        next[used + extra] = total;
                    }
                }
            }
            best = next;
        }
        best.iter()
            .enumerate()
            .filter(|&(_, &score)| score >= 0)
            .map(|(used, &score)| score + alone[wilds - used])
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goods(held: &[(u8, usize)], types: usize, values: &'static [i64]) -> Goods<'static> {
        Goods {
            held: held.to_vec(),
            types,
            values,
            fakirs: 0,
        }
    }

    const VALUES: &[i64] = &[1, 3, 7, 13, 21, 30, 40, 50, 60];

    #[test]
    fn suits_take_one_of_every_type_again_and_again() {
        let held = goods(&[(1, 3), (2, 1), (3, 2)], 9, VALUES);
        assert_eq!(held.suits(), vec![3, 2, 1]);
        assert_eq!(held.value(0), 0);
        assert_eq!(held.value(3), 7);
    }

    #[test]
    fn wilds_join_the_suits_or_make_their_own() {
        let held = goods(&[(1, 1), (2, 1)], 3, VALUES);
        // a pair and one joker: a suit of three (7) beats a pair and a single (3 + 1)
        assert_eq!(held.best_with_wilds(&held.suits(), 1), 7);
        // no cards, two jokers: a suit of two (3)
        let none = goods(&[], 3, VALUES);
        assert_eq!(none.best_with_wilds(&[], 2), 3);
        // a full suit cannot grow: the joker makes a suit of one
        let full = goods(&[(1, 1), (2, 1), (3, 1)], 3, VALUES);
        assert_eq!(full.best_with_wilds(&full.suits(), 1), 8);
    }
}
