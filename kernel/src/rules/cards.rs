//! Cards used in the owner's turn (`plugins/base/cards.py`, `djinns/activated.py`): which
//! card may be used when and how it is paid, and the cards drawn, given and lying on
//! tiles. What a power written in the language aims at and runs is `used_powers.rs`.

use super::used_powers::Aim;
use super::{Rules, Step, Unported};

use crate::actions::{Action, Pay};
use crate::effects;
use crate::extras::set_extra;
use crate::names::Sym;
use crate::state::{Count, Decision, Deck, State, Turn, NO_CARD};

impl Rules<'_> {
    /// `own_turn`: the deciding player's own turn, outside any power's own decision.
    pub(super) fn own_turn(&self, state: &State, player: usize) -> bool {
        match state.turn.as_ref() {
            None => false,
            Some(turn) => {
                turn.resume == self.known.empty
                    && turn.revealed.is_empty()
                    && state.decision.player == player as i8
                    && state.markers.as_slice()[usize::from(turn.marker)] == player as i8
            }
        }
    }

    /// `cards.resume_interrupted`: the decision a power's own decision interrupted (the
    /// turn's `resume`) goes on, `player` deciding, and no power is deciding any more.
    pub(super) fn resume_interrupted(&self, state: &mut State, player: usize) {
        let turn = state
            .turn
            .as_mut()
            .expect("a power is used in its owner's turn");
        let resume = turn.resume;
        turn.resume = self.known.empty;
        state.decision = Decision {
            stage: resume,
            player: player as i8,
        };
    }

    /// The `Turn.used` mark of a use of `card`: the card, its deck, or none (the deck's
    /// `limit`).
    pub(super) fn use_mark(&self, card: u8) -> Option<Sym> {
        self.use_marks[usize::from(card)]
    }

    /// Whether `card`'s use mark is in the turn already (used up this turn).
    pub(super) fn used_this_turn(&self, turn: &Turn, card: u8) -> bool {
        self.use_mark(card)
            .is_some_and(|mark| turn.used.contains(&mark))
    }

    /// `mark_used`: a use of `card` leaves its mark in the turn, kept sorted.
    pub(super) fn mark_used(&self, state: &mut State, card: u8) {
        if let Some(mark) = self.use_mark(card) {
            let turn = state.turn.as_mut().expect("a card is used in a turn");
            let mut used = turn.used.to_vec();
            used.push(mark);
            used.sort();
            turn.used = used.into_boxed_slice();
        }
    }

    /// `round_limited`: a paid djinn at two players under `djinn_limit_round_2p`.
    pub(super) fn round_limited(&self, state: &State, card: u8) -> bool {
        state.players.len() == 2 && self.round_keys[usize::from(card)].is_some()
    }

    pub(super) fn round_key(&self, card: u8) -> Sym {
        self.round_keys[usize::from(card)].expect("a round-limited card")
    }

    /// `cards.options`: what the deciding player's activated cards offer, each distinct
    /// card once, deck by deck in hand order.
    pub(super) fn card_options(&self, state: &State) -> Vec<Action> {
        let player = state.decision.player;
        if player >= 0 && self.takes_bids(state) {
            return self.kumarbi_options(state, player as usize);
        }
        if player < 0 || !self.own_turn(state, player as usize) {
            return Vec::new();
        }
        let player = player as usize;
        let mut seen: Vec<u8> = Vec::new();
        let mut options = Vec::new();
        for deck in 0..self.content.decks() {
            for &card in state.players[player].hands.hand(deck) {
                if !self.activated[usize::from(card)] || seen.contains(&card) {
                    continue;
                }
                seen.push(card);
                options.extend(self.activated_options(state, player, card));
            }
        }
        options.extend(self.tent_options(state, player));
        options
    }

    /// `Activated.options`: not when used already (this turn, or this round when round
    /// limited), nor at a placing step it does not redirect; each target with each
    /// payment the owner can make.
    pub(super) fn activated_options(&self, state: &State, player: usize, card: u8) -> Vec<Action> {
        // a `placing:<token>` step asks where one placement goes: only the powers that put
        // that token elsewhere are offered, so no other power starts a placement meanwhile
        if let Some(token) = self.placing_now(state) {
            if self.used_power(card).and_then(|p| p.redirects) != Some(token) {
                return Vec::new();
            }
        }
        if self.is_thief(card) {
            return self.thief_options(state, player, card);
        }
        if self.artisans.as_ref().is_some_and(|a| a.activated(card)) {
            return self.item_options(state, card);
        }
        let turn = state.turn.as_ref().expect("in a turn");
        if self.used_this_turn(turn, card) {
            return Vec::new();
        }
        if self.round_limited(state, card) {
            let key = self.round_key(card);
            let round = i64::from(state.round);
            if state.players[player]
                .extras
                .iter()
                .any(|&(k, v)| k == key && v == round)
            {
                return Vec::new();
            }
        }
        let Some(ways) = self.content.cost_ways(card) else {
            return Vec::new();
        };
        let elders = self.elders(state, player);
        let fakirs = self.fakirs_held(state, player);
        let ways: Vec<Pay> = ways
            .iter()
            .copied()
            .filter(|w| {
                let (e, f) = w.counts();
                elders >= e && fakirs >= f
            })
            .collect();
        if let Some(power) = self.used_power(card) {
            return self.used_power_options(state, player, card, power, &ways);
        }
        Vec::new() // a card without a used power (Kumarbi's is offered while bidding)
    }

    pub(super) fn elders(&self, state: &State, player: usize) -> Count {
        self.elder.map_or(0, |e| state.players[player].meeples[e])
    }

    /// `give_cards`: cards of deck `deck` into a player's hand, sorted or after the others
    /// in the order taken, as the deck's policy says.
    pub(crate) fn give_cards(
        &self,
        mut state: State,
        player: usize,
        deck: usize,
        cards: &[u8],
    ) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(deck).to_vec();
        hand.extend_from_slice(cards);
        if self.content.doc.decks[deck].order == "sorted" {
            self.sort_hand(&mut hand);
        }
        state.players[player].hands = hands.with_hand(deck, &hand);
        state
    }

    /// `lying.fill_places`: the top card of the draw pile on every empty place of each
    /// deck lying on tiles, in board order (at setup and clean-up); a place stays empty
    /// when the pile runs out.
    pub(crate) fn fill_lying(&self, mut state: State) -> State {
        for (index, on) in self.lying.iter().enumerate() {
            let Some(on) = on else { continue };
            let deck = &state.decks[index];
            let mut row = deck.row().to_vec();
            row.resize(row.len().max(effects::places(&state, on).count()), NO_CARD);
            let mut draw = deck.draw();
            for place in row.iter_mut().filter(|c| **c == NO_CARD) {
                let Some((&top, rest)) = draw.split_first() else {
                    break;
                };
                (*place, draw) = (top, rest);
            }
            state.decks[index] = Deck::new(draw, &row, deck.discard());
        }
        state
    }

    /// `lying.take_lying`: `me` takes the card of `deck` lying on `tile` into their hand
    /// (nothing if none lies there); the deck's `taken_event` is a plugin's, which no rule
    /// the kernel plays hears.
    pub(super) fn take_lying(
        &self,
        mut state: State,
        me: usize,
        deck: usize,
        tile: usize,
    ) -> State {
        let on = self.lying[deck].as_deref();
        let Some((place, card)) = on.and_then(|on| effects::lying_on(&state, deck, on, tile))
        else {
            return state; // no card lies there
        };
        let pile = &state.decks[deck];
        let mut row = pile.row().to_vec();
        row[place] = NO_CARD;
        state.decks[deck] = Deck::new(pile.draw(), &row, pile.discard());
        self.give_cards(state, me, deck, &[card])
    }

    /// `draw_cards`: the top `n` cards of a deck's pile, reshuffling its discards when
    /// the pile runs out; fewer when both run out.
    pub(super) fn draw_cards(&self, mut state: State, deck: usize, n: usize) -> (State, Vec<u8>) {
        let pile = &state.decks[deck];
        let mut draw = pile.draw().to_vec();
        let row = pile.row().to_vec();
        let mut discard = pile.discard().to_vec();
        let mut drawn = Vec::new();
        for _ in 0..n {
            if draw.is_empty() && !discard.is_empty() {
                state.rng.shuffle(&mut discard);
                draw = std::mem::take(&mut discard);
            }
            if draw.is_empty() {
                break;
            }
            drawn.push(draw.remove(0));
        }
        state.decks[deck] = Deck::new(&draw, &row, &discard);
        (state, drawn)
    }

    /// `Activated.apply`: pay, mark the use, count the effect, then act.
    pub(super) fn use_card(&self, mut state: State, card: u8, aim: Aim, pay: Pay) -> Step {
        let player = state.decision.player as usize;
        let (elders, fakirs) = pay.counts();
        if elders > 0 {
            let elder = self.elder.expect("elders pay");
            state.players[player].meeples[elder] -= elders;
            state.bag[elder] += elders;
        }
        state = self.discard_fakirs(state, player, fakirs);
        self.mark_used(&mut state, card);
        if self.round_limited(&state, card) {
            let key = self.round_key(card);
            let round = i64::from(state.round);
            state.players[player].extras = set_extra(&state.players[player].extras, key, round);
        }
        state = self.discard_used(state, player, card);
        state = self.count_effect(state, card);
        if let Some(power) = self.used_power(card) {
            return self.run_used_power(state, player, card, power, aim);
        }
        if self.is_thief(card) {
            return self.use_thief(state, player, card);
        }
        let kind = &self.content.doc.cards[usize::from(card)].kind;
        Err(Unported(format!("djinns:{kind}")))
    }
}
