//! Final scoring (`Rules.score_lines` and the plugins' score hooks): one player's score
//! sheet, written once. The players read its sum (`Rules::score`, thousands of times a
//! greedy decision: no line is kept), the lab and the hooks that read lines read it whole
//! (`Rules::score_sheet`), so the two can never differ.
//!
//! The lines come in the order Python's hooks give them: the plugins' lines (the base
//! game's, the Artisans', the Whims box's, solo mode's, then a called-back
//! `naqala_score_lines`'), then their adjustments (the cards' lines deck by deck, the
//! content's `scoring` triggers, the Artisans' shared majority, the Great Lake's, then a
//! called-back `naqala_adjust_score_lines`').

use super::Rules;

use crate::limits::MAX_TOKENS;
use crate::score_line::Line;
use crate::state::State;

/// Where a player's score lines are written: summed (`i64`), or kept whole (`Vec<Line>`).
pub(crate) trait Sheet {
    fn line(&mut self, category: &str, source: &str, points: i64);

    /// Whether it reads a line's category and source, or its points alone: a hook called
    /// back is then asked for its points, summed in Python, not for its lines.
    fn reads_lines(&self) -> bool {
        true
    }
}

impl Sheet for i64 {
    fn line(&mut self, _: &str, _: &str, points: i64) {
        *self += points;
    }

    fn reads_lines(&self) -> bool {
        false
    }
}

impl Sheet for Vec<Line> {
    fn line(&mut self, category: &str, source: &str, points: i64) {
        self.push(Line {
            category: category.to_owned(),
            source: source.to_owned(),
            points,
        });
    }
}

/// A sheet that also sums, as lines are written to it, the points of each scoring
/// token's category (`palm-trees`): what the Great Lake reads a token's worth from.
struct TokenWorth<'a, S> {
    categories: &'a [(usize, String, i64)],
    /// by the categories' order (at most one per token)
    points: [i64; MAX_TOKENS],
    sheet: &'a mut S,
}

impl<'a, S: Sheet> TokenWorth<'a, S> {
    fn new(categories: &'a [(usize, String, i64)], sheet: &'a mut S) -> Self {
        TokenWorth {
            categories,
            points: [0; MAX_TOKENS],
            sheet,
        }
    }
}

impl<S: Sheet> Sheet for TokenWorth<'_, S> {
    fn line(&mut self, category: &str, source: &str, points: i64) {
        if let Some(at) = self.categories.iter().position(|(_, c, _)| c == category) {
            self.points[at] += points;
        }
        self.sheet.line(category, source, points);
    }

    /// The lines themselves when it sums a category (the Great Lake's worth of a token),
    /// else as the sheet it writes to reads them.
    fn reads_lines(&self) -> bool {
        !self.categories.is_empty() || self.sheet.reads_lines()
    }
}

/// A sheet that keeps a copy of the lines written through it: the plugins' lines, as a
/// called-back `naqala_adjust_score_lines` reads them (`frozen`). It reads lines, so a
/// called-back `naqala_score_lines` gives its lines here, whatever the sheet behind.
struct Keeping<'a, S> {
    kept: Vec<Line>,
    sheet: &'a mut S,
}

impl<S: Sheet> Sheet for Keeping<'_, S> {
    fn line(&mut self, category: &str, source: &str, points: i64) {
        self.kept.line(category, source, points);
        self.sheet.line(category, source, points);
    }
}

/// A called-back hook's answer on the sheet: its lines when the sheet reads them, else
/// their points alone (summed in Python, no line handed over).
fn write_called_back(
    sheet: &mut impl Sheet,
    lines: impl FnOnce() -> Vec<Line>,
    points: impl FnOnce() -> i64,
) {
    if sheet.reads_lines() {
        for line in lines() {
            sheet.line(&line.category, &line.source, line.points);
        }
    } else {
        sheet.line("", "", points());
    }
}

/// The source of the base game's lines (`scoring.SOURCE`).
const BASE: &str = "base";

impl Rules<'_> {
    /// Every player's final score: their score lines summed.
    pub fn scores(&self, state: &State) -> Vec<i64> {
        (0..state.players.len())
            .map(|p| self.score(state, p))
            .collect()
    }

    /// One player's score (`own_score`: the score lines summed), read by the players.
    pub fn score(&self, state: &State, player: usize) -> i64 {
        let mut total = 0;
        self.score_sheet(state, player, &mut total);
        total
    }

    /// `player`'s score lines (`Rules.score_lines`): the plugins' lines, then their
    /// adjustments.
    pub(crate) fn score_sheet(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        // the Great Lake reads the worth of a token from these lines, as they are written,
        // when the player has tiles by it
        let by_lake = self.by_the_lake(state, player);
        let tokens = if by_lake != 0 {
            &self.score_terms.token_lines[..]
        } else {
            &[]
        };
        // a called-back `naqala_adjust_score_lines` reads the plugins' lines: kept as
        // they are written, not written twice
        let adjusts = self
            .callbacks()
            .filter(|calls| calls.answers(crate::callbacks::ADJUST_SCORE_LINES));
        let mut worth = TokenWorth::new(tokens, sheet);
        let frozen = if adjusts.is_some() {
            let mut keeping = Keeping {
                kept: Vec::new(),
                sheet: &mut worth,
            };
            self.plugin_lines(state, player, &mut keeping);
            keeping.kept
        } else {
            self.plugin_lines(state, player, &mut worth);
            Vec::new()
        };
        self.card_lines(state, player, &mut worth);
        let (points, sheet) = (worth.points, worth.sheet);
        self.trigger_lines(state, player, sheet);
        self.tied_share_line(state, player, sheet);
        if by_lake != 0 {
            self.lake_lines(state, player, by_lake, &points, sheet);
        }
        if let Some(calls) = adjusts {
            write_called_back(
                sheet,
                || calls.adjusted_lines(state, player, &frozen),
                || calls.adjusted_points(state, player, &frozen),
            );
        }
    }

    /// The plugins' lines (`naqala_score_lines`), before any adjustment: what
    /// `naqala_adjust_score_lines` reads (`frozen`).
    fn plugin_lines(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        self.base_lines(state, player, sheet);
        self.artisan_lines(state, player, sheet);
        self.city_line(state, player, sheet);
        self.solo_line(state, player, sheet);
        match self.callbacks() {
            Some(calls) if calls.answers(crate::callbacks::SCORE_LINES) => {
                write_called_back(
                    sheet,
                    || calls.score_lines(state, player),
                    || calls.score_points(state, player),
                );
            }
            _ => {}
        }
    }

    /// The base game's score sheet (`scoring.score_lines`): coins, viziers and their
    /// majority, elders, djinns, the tokens on the player's tiles, the tiles, the
    /// merchandise.
    fn base_lines(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        let doc = &self.content.doc;
        let terms = &self.score_terms;
        let me = &state.players[player];
        sheet.line("coins", BASE, i64::from(me.coins));
        let held = |colour: Option<usize>| colour.map_or(0, |c| i64::from(me.meeples[c]));
        let viziers = held(terms.vizier);
        let beaten = terms.vizier.map_or(0, |vizier| {
            (state.players.iter().enumerate())
                .filter(|&(other, p)| other != player && i64::from(p.meeples[vizier]) < viziers)
                .count() as i64
        });
        sheet.line("viziers", BASE, viziers * terms.vizier_vp);
        sheet.line("vizier-majority", BASE, beaten * terms.vizier_bonus);
        sheet.line("elders", BASE, held(terms.elder) * terms.elder_vp);
        let djinns = (me.hands.hand(self.content.djinns()).iter())
            .map(|&d| doc.cards[usize::from(d)].vp)
            .sum();
        sheet.line("djinns", BASE, djinns);
        let owned = || state.owned_by(player);
        for (index, category, vp) in &terms.token_lines {
            let count: i64 = owned()
                .map(|t| i64::from(state.board.tokens(t)[*index]))
                .sum();
            sheet.line(category, BASE, count * vp);
        }
        let tiles = owned()
            .map(|t| doc.tiles[usize::from(state.layout.tiles[t])].vp)
            .sum();
        sheet.line("tiles", BASE, tiles);
        let resources = me.hands.hand(self.content.resources());
        sheet.line("merchandise", BASE, self.content.suits.score(resources, 0));
    }

    /// `cards.score_lines`: the lines of the cards `player` holds in the decks scored
    /// after every plugin, deck by deck: an unused thief's worth, a content power's lines.
    fn card_lines(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        for &deck in &self.score_terms.after_decks {
            for &card in state.players[player].hands.hand(deck) {
                self.card_line(state, player, card, sheet);
            }
        }
    }

    /// One card's score lines: a thief's worth, or its content power's lines.
    fn card_line(&self, state: &State, player: usize, card: u8, sheet: &mut impl Sheet) {
        if self.thieves.is_some() && self.is_thief(card) {
            let vp = self.content.doc.cards[usize::from(card)].vp;
            sheet.line("thieves", "thieves", vp);
        } else {
            self.power_lines(state, player, card, sheet);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_sums_its_lines_or_keeps_them_and_the_lake_reads_its_categories() {
        let tokens = [
            (0, "palaces".to_owned(), 5),
            (1, "palm-trees".to_owned(), 3),
        ];
        let mut total = 0i64;
        let mut worth = TokenWorth::new(&tokens, &mut total);
        assert!(worth.reads_lines()); // the lake needs the categories
        worth.line("coins", BASE, 7);
        worth.line("palm-trees", BASE, 6);
        worth.line("palm-trees", "haurvatat", 6);
        assert_eq!(worth.points, [0, 12, 0]);
        assert_eq!(total, 19);

        let mut lines: Vec<Line> = Vec::new();
        let mut plain = TokenWorth::new(&[], &mut lines);
        plain.line("palm-trees", BASE, 6);
        assert_eq!(plain.points, [0; MAX_TOKENS]);
        assert_eq!(lines.len(), 1);
        assert_eq!(
            (lines[0].category.as_str(), lines[0].points),
            ("palm-trees", 6)
        );
        let sum = 0i64;
        assert!(!sum.reads_lines()); // points alone: a hook is asked for its sum
    }

    #[test]
    fn a_keeping_sheet_copies_the_lines_it_passes_on_and_reads_them() {
        let mut total = 0i64;
        let mut keeping = Keeping {
            kept: Vec::new(),
            sheet: &mut total,
        };
        assert!(keeping.reads_lines()); // a called-back hook gives it lines, not a sum
        keeping.line("coins", BASE, 7);
        keeping.line("extra", "house", 3);
        let kept: Vec<_> = (keeping.kept.iter())
            .map(|l| (l.category.as_str(), l.source.as_str(), l.points))
            .collect();
        assert_eq!(kept, [("coins", BASE, 7), ("extra", "house", 3)]);
        assert_eq!(total, 10);
    }
}
