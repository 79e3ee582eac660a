//! The tile actions (`plugins/base/tiles.py`): palm trees and palaces placed, and the
//! sacred places' djinns offered.

use super::events::Event;
use super::{turn_here, wait_at, Rules, Step};

use crate::actions::Action;
use crate::names::Sym;
use crate::state::State;

impl Rules<'_> {
    /// `PlaceToken.enter`: a palace or a palm tree on the final tile, at once (no card
    /// the kernel plays offers to put it elsewhere); nothing when the bank has none.
    pub(super) fn place_token_tile(&self, state: State, stage: Sym, token: usize) -> Step {
        if state.pool[token] == 0 {
            return self.proceed(state, stage);
        }
        let waiting = wait_at(state, stage);
        if !self.card_options(&waiting).is_empty() {
            return Ok(waiting); // `place <tile>`, or a card first
        }
        let player = waiting.decision.player as usize;
        let state = self.place_token(waiting, player, token);
        self.proceed(state, stage)
    }

    /// `place_token`: a token from the bank on the final tile (nothing if none is left).
    pub(super) fn place_token(&self, state: State, player: usize, token: usize) -> State {
        let turn = state.turn.as_ref().expect("in a turn");
        let here = turn_here(turn);
        self.place_token_on(state, player, token, here)
    }

    pub(super) fn place_token_on(
        &self,
        mut state: State,
        player: usize,
        token: usize,
        tile: usize,
    ) -> State {
        if state.pool[token] == 0 {
            return state;
        }
        state.board.tokens_mut(tile)[token] += 1;
        state.pool[token] -= 1;
        self.fire(
            state,
            Event::TokenPlaced {
                player,
                tile,
                token,
            },
        )
    }

    /// `SacredPlace.legal`: skip, or each face-up djinn with each payment possible.
    pub(super) fn sacred_place_options(&self, state: &State) -> Vec<Action> {
        let payments = self.djinn_payments(state);
        let mut options = vec![Action::Skip];
        for &djinn in state.decks[self.content.djinns()].row() {
            for &pay in &payments {
                options.push(Action::Djinn(djinn, pay));
            }
        }
        options
    }
}
