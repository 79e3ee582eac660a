//! The flow of a round (`plugins/base/flow.py`): the bids in turn, each marker's turn,
//! the end of a turn and the end of a round with its rows refilled.

use super::events::Event;
use super::{has_flag, new_turn, turn_here, with_flag, Rules, Step, Unported};

use crate::state::{Decision, Deck, State, NOBODY};

/// `refill`: slide the row to the front and fill it to `size` from the draw pile,
/// reshuffling the discards when the pile runs out; stop when both are empty.
pub(super) fn refill(deck: &Deck, size: usize, rng: &mut crate::rng::Rng) -> Deck {
    let mut row = deck.row().to_vec();
    let mut draw = deck.draw().to_vec();
    let mut discard = deck.discard().to_vec();
    let mut next = 0;
    while row.len() < size {
        if next == draw.len() {
            if discard.is_empty() {
                break;
            }
            rng.shuffle(&mut discard);
            draw = std::mem::take(&mut discard);
            next = 0;
        }
        row.push(draw[next]);
        next += 1;
    }
    Deck::new(&draw[next..], &row, &discard)
}

impl Rules<'_> {
    /// `before-tribe-action` (`before`) or `after-tribe-action`, for the turn's owner on
    /// the turn's tile (`BaseFlow._after_move`, `BaseFlow.proceed`).
    pub(super) fn tribe_event(&self, state: State, before: bool) -> State {
        let Some(turn) = state.turn.as_ref() else {
            return state;
        };
        let owner = state.markers.as_slice().get(usize::from(turn.marker));
        let Some(player) = owner.and_then(|&p| usize::try_from(p).ok()) else {
            return state;
        };
        let tile = turn_here(turn);
        let event = if before {
            Event::BeforeTribeAction { player, tile }
        } else {
            Event::AfterTribeAction { player, tile }
        };
        self.fire(state, event)
    }

    /// `BaseFlow._next_bid`: the next marker on the bid track bids, or the turns begin.
    pub(super) fn next_bid(&self, state: State) -> Step {
        if crate::variants::bidding_off(self.content)
            && state.bid_track.as_slice().iter().any(|&m| m != NOBODY)
        {
            return self.start_turn(crate::variants::seated_without_bids(state)?);
        }
        let marker = state.bid_track.as_slice().iter().find(|&&m| m != NOBODY);
        if let Some(&marker) = marker {
            let player = state.markers.as_slice()[marker as usize];
            let mut state = state;
            state.decision = Decision {
                stage: self.known.bid,
                player,
            };
            return self.enter(state, self.known.bid);
        }
        self.start_turn(state)
    }

    /// `BaseFlow._start_turn`: the next marker of the turn track plays its turn.
    pub(super) fn start_turn(&self, mut state: State) -> Step {
        let spot = state
            .turn_track
            .as_slice()
            .iter()
            .position(|&m| m != NOBODY);
        let Some(spot) = spot else {
            return self.end_round(state);
        };
        let marker = state.turn_track.as_slice()[spot];
        let free = state
            .bid_track
            .as_slice()
            .iter()
            .position(|&m| m == NOBODY)
            .expect("a free bid spot for the marker that plays");
        let player = state.markers.as_slice()[marker as usize];
        state.turn_track.as_mut_slice()[spot] = NOBODY;
        state.bid_track.as_mut_slice()[free] = marker;
        state.turn = Some(Box::new(new_turn(marker as u8, self.known.empty)));
        state.decision = Decision {
            stage: self.known.pick,
            player,
        };
        // a marker on the track is a player's (`statecheck` holds every marker's owner)
        if let Ok(seat) = usize::try_from(player) {
            state = self.fire(state, Event::TurnStart { player: seat });
        }
        let no_moves = self.known.no_moves;
        if !has_flag(&state, no_moves) && self.starts(&state, true).is_empty() {
            state = with_flag(state, no_moves);
        }
        if has_flag(&state, no_moves) {
            return self.enter(state, self.known.sell);
        }
        Ok(state)
    }

    /// `BaseFlow._end_turn`: a player with no piece left to place triggers the end.
    pub(super) fn end_turn(&self, state: State) -> Step {
        // `SoloFlow`: Yazid's deferred turn once an outbidding player's turn is over
        let state = match self.solo_after_turn(state) {
            std::ops::ControlFlow::Continue(state) => state,
            std::ops::ControlFlow::Break(over) => return Ok(over),
        };
        let player = state.decision.player as usize;
        let mut state = self.fire(state, Event::TurnEnd { player });
        let p = &state.players[player];
        let pieces: i64 = i64::from(p.camels)
            + p.extras
                .iter()
                .filter(|&&(k, _)| self.pieces.iter().any(|&(piece, _)| piece == k))
                .map(|&(_, v)| v)
                .sum::<i64>();
        if pieces == 0 {
            state = with_flag(state, self.known.last_camel);
        }
        state.turn = None;
        self.start_turn(state)
    }

    /// `BaseFlow._end_round`: refill the rows; the game ends after the round in which an
    /// end trigger fired, else the next round's bids.
    pub(super) fn end_round(&self, mut state: State) -> Step {
        let rows = [
            (
                self.content.resources(),
                self.content.setting("resource_row"),
            ),
            (self.content.djinns(), self.content.setting("djinn_row")),
        ];
        for (deck, size) in rows {
            let size = size.ok_or_else(|| Unported("a row without its size".to_owned()))?;
            state.decks[deck] = refill(&state.decks[deck], size as usize, &mut state.rng);
        }
        state.turn = None;
        for player in 0..state.players.len() {
            state = self.fire(state, Event::RoundEnd { player });
        }
        // Python fires `clean-up` here: no card the kernel plays reacts to it; the rows
        // lying on tiles fill their empty places (the whims on the cities), then the
        // Thieves refill their row
        let mut state = self.thieves_clean_up(self.fill_lying(state));
        let round_cap = self.content.names.known(crate::variants::ROUND_CAP_FLAG);
        if crate::variants::round_cap_reached(self.content, &state) {
            state = with_flag(state, round_cap);
        }
        let k = &self.known;
        if has_flag(&state, k.last_camel)
            || has_flag(&state, k.no_moves)
            || self.solo_game_ends(&state)
            || has_flag(&state, round_cap)
            || self.called_back_game_ends(&state)
        {
            state.decision = Decision {
                stage: k.over,
                player: NOBODY,
            };
            return Ok(state);
        }
        state.round += 1;
        state.decision = Decision {
            stage: k.bid,
            player: NOBODY,
        };
        self.next_bid(state)
    }
}
