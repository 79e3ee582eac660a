//! Final scoring (`plugins/base/scoring.py`): every player's score sheet summed, the
//! merchandise suits, and the djinns' points.

use super::Rules;

use crate::state::State;

impl Rules<'_> {
    /// Every player's final score: the base game's score lines summed (no card the
    /// kernel plays adjusts them).
    pub fn scores(&self, state: &State) -> Vec<i64> {
        (0..state.players.len())
            .map(|p| self.score(state, p))
            .collect()
    }

    /// One player's score (`own_score`: the score lines summed), read by the players.
    pub fn score(&self, state: &State, player: usize) -> i64 {
        let doc = &self.content.doc;
        let terms = &self.score_terms;
        let me = &state.players[player];
        let mut total = i64::from(me.coins);
        if let Some(vizier) = terms.vizier {
            let viziers = me.meeples[vizier];
            let beaten = state
                .players
                .iter()
                .enumerate()
                .filter(|&(other, p)| other != player && p.meeples[vizier] < viziers)
                .count() as i64;
            total += i64::from(viziers) * terms.vizier_vp + beaten * terms.vizier_bonus;
        }
        if let Some(elder) = terms.elder {
            total += i64::from(me.meeples[elder]) * terms.elder_vp;
        }
        total += me
            .hands
            .hand(self.content.djinns())
            .iter()
            .map(|&d| doc.cards[usize::from(d)].vp)
            .sum::<i64>();
        let owned: Vec<usize> = state.owned_by(player).collect();
        for (index, token) in doc.tokens.iter().enumerate() {
            let count: i64 = owned
                .iter()
                .map(|&t| i64::from(state.board.tokens(t)[index]))
                .sum();
            total += count * token.vp;
        }
        total += owned
            .iter()
            .map(|&t| doc.tiles[usize::from(state.layout.tiles[t])].vp)
            .sum::<i64>();
        let resources = state.players[player].hands.hand(self.content.resources());
        total += self.content.suits.score(resources, 0);
        total
            + self.thief_points(state, player)
            + self.solo_points(state, player)
            + self.whims_score(state, player)
            + self.artisan_score(state, player)
            + self.effects_score(state, player)
            + self.called_back_points(state, player)
            + self.called_back_adjustment(state, player)
    }

    /// The points of a called-back `naqala_adjust_score_lines` for `player`, given the
    /// lines before adjustments (`crate::results::frozen_lines`; 0 without one).
    pub(super) fn called_back_adjustment(&self, state: &State, player: usize) -> i64 {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::ADJUST_SCORE_LINES) => {
                crate::results::frozen_lines(self.content, Some(calls.as_ref()), state, player)
                    .map_or(0, |lines| calls.adjusted_points(state, player, &lines))
            }
            _ => 0,
        }
    }

    /// The points of a called-back `naqala_score_lines` for `player` (0 without one).
    pub(super) fn called_back_points(&self, state: &State, player: usize) -> i64 {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::SCORE_LINES) => {
                calls.score_points(state, player)
            }
            _ => 0,
        }
    }
}
