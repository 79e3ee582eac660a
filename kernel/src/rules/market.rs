//! The market and the sale (`plugins/base/merchandise.py`): cards bought from the row and
//! suits sold for coins.

use super::{combinations, Rules, Step, Unported};

use crate::actions::{Action, Cards};
use crate::names::Sym;
use crate::state::{Deck, State};

impl Rules<'_> {
    /// `Market.legal`: skip, or each distinct choice of `take` among the first `reach`.
    pub(super) fn market_options(
        &self,
        state: &State,
        reach: usize,
        take: usize,
    ) -> Result<Vec<Action>, Unported> {
        let row = state.decks[self.content.resources()].row();
        let visible = &row[..reach.min(row.len())];
        let count = take.min(visible.len());
        let mut options = vec![Action::Skip];
        for combination in combinations(visible.len(), count) {
            let mut cards: Vec<u8> = combination.iter().map(|&i| visible[i]).collect();
            self.sort_hand(&mut cards);
            let cards = Cards::new(&cards)
                .ok_or_else(|| Unported("a purchase of many cards".to_owned()))?;
            options.push(Action::Buy(cards));
        }
        Ok(options)
    }

    /// `Market.apply`: pay, then take each card from the front `reach` of the row.
    pub(super) fn buy(
        &self,
        mut state: State,
        stage: Sym,
        cost: i64,
        reach: usize,
        cards: &Cards,
    ) -> Step {
        let player = state.decision.player as usize;
        state.players[player].coins -= cost as i32;
        let mut bought = Vec::new();
        for &card in cards.as_slice() {
            let deck = &state.decks[self.content.resources()];
            let row = deck.row();
            let position = row[..reach.min(row.len())]
                .iter()
                .position(|&c| c == card)
                .expect("the card bought is in reach");
            let mut left = row.to_vec();
            bought.push(left.remove(position));
            state.decks[self.content.resources()] = Deck::new(deck.draw(), &left, deck.discard());
        }
        state = self.add_cards(state, player, &bought);
        self.proceed(state, stage)
    }

    /// `SellStage.legal`: end, or one suit of the different merchandise held.
    pub(super) fn sell_options(&self, state: &State) -> Result<Vec<Action>, Unported> {
        let mut held = self.merchandise_in_hand(state, state.decision.player as usize);
        self.sort_hand(&mut held);
        held.dedup();
        let mut options = vec![Action::End];
        for size in 1..=held.len() {
            for combination in combinations(held.len(), size) {
                let suit: Vec<u8> = combination.iter().map(|&i| held[i]).collect();
                let suit =
                    Cards::new(&suit).ok_or_else(|| Unported("a suit of many cards".to_owned()))?;
                options.push(Action::Sell(suit));
            }
        }
        Ok(options)
    }

    /// `SellStage.apply`: the suit is discarded for its value in coins; the sale goes on.
    pub(super) fn sell(&self, state: State, suit: &Cards) -> State {
        let player = state.decision.player as usize;
        let mut state = self.discard_cards(state, player, suit.as_slice());
        let value = crate::suits::suit_value(&self.content.suits.values, suit.as_slice().len());
        state.players[player].coins += value as i32;
        self.fire(
            state,
            super::events::Event::Sold {
                player,
                count: value,
            },
        )
    }

    /// The merchandise cards of `player`'s resource hand (no Fakir), as the hand holds
    /// them.
    pub(super) fn merchandise_in_hand(&self, state: &State, player: usize) -> Vec<u8> {
        let goods = &self.content.suits.goods;
        let hand = state.players[player].hands.hand(self.content.resources());
        hand.iter()
            .copied()
            .filter(|&c| goods[usize::from(c)])
            .collect()
    }

    /// `add_cards`: resource cards into a player's hand, kept sorted.
    pub(super) fn add_cards(&self, mut state: State, player: usize, cards: &[u8]) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(self.content.resources()).to_vec();
        hand.extend_from_slice(cards);
        self.sort_hand(&mut hand);
        state.players[player].hands = hands.with_hand(self.content.resources(), &hand);
        state
    }
}
