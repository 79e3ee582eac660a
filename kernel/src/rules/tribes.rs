//! The tribe actions (`plugins/base/tribes.py`): viziers and elders kept, merchants'
//! cards, builders' pay and the assassins' kills, with the Fakirs they discard.

use super::events::Event;
use super::{fakir_count, turn_here, wait_at, Rules, Step};

use crate::actions::{Action, Victim};
use crate::names::Sym;
use crate::state::{Count, State, Target};

impl Rules<'_> {
    /// `KeepTribe`: viziers and elders go in front of the player.
    pub(super) fn keep_tribe(&self, mut state: State, stage: Sym) -> Step {
        let turn = state.turn.as_ref().expect("a tribe action is in a turn");
        let (colour, taken) = (turn.colour as usize, turn.taken);
        let player = state.decision.player as usize;
        state.players[player].meeples[colour] += taken;
        self.proceed(state, stage)
    }

    /// The collected meeples go back to the bag (merchants, builders, assassins).
    pub(super) fn return_to_bag(mut state: State) -> State {
        let turn = state.turn.as_ref().expect("a tribe action is in a turn");
        state.bag[turn.colour as usize] += turn.taken;
        state
    }

    /// `Merchants`: as many cards from the front of the resource row as merchants taken.
    pub(super) fn merchants(&self, state: State, stage: Sym) -> Step {
        let mut state = Self::return_to_bag(state);
        let taken = usize::from(state.turn.as_ref().expect("in a turn").taken);
        let deck = &state.decks[self.content.resources()];
        let row = deck.row();
        let n = taken.min(row.len());
        let drawn = row[..n].to_vec();
        state.decks[self.content.resources()] =
            crate::state::Deck::new(deck.draw(), &row[n..], deck.discard());
        let player = state.decision.player as usize;
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(self.content.resources()).to_vec();
        hand.extend_from_slice(&drawn);
        self.sort_hand(&mut hand);
        state.players[player].hands = hands.with_hand(self.content.resources(), &hand);
        self.proceed(state, stage)
    }

    /// A sorted hand in the order of the Python hand: card ids as strings.
    pub(super) fn sort_hand(&self, hand: &mut [u8]) {
        let cards = &self.content.doc.cards;
        hand.sort_by(|&a, &b| cards[usize::from(a)].id.cmp(&cards[usize::from(b)].id));
    }

    pub(super) fn fakir(&self) -> Option<u8> {
        self.content.card_index("fakir")
    }

    pub(super) fn fakirs_held(&self, state: &State, player: usize) -> usize {
        let fakir = self.fakir();
        state.players[player]
            .hands
            .hand(self.content.resources())
            .iter()
            .filter(|&&c| Some(c) == fakir)
            .count()
    }

    /// Blue-valued tiles in the 3×3 block around the final tile.
    pub(super) fn blue_around(&self, state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        self.blue_tiles_around(state, turn_here(turn))
    }

    /// `blue_tiles_around`: blue-valued tiles in the 3×3 block around `tile`.
    pub(super) fn blue_tiles_around(&self, state: &State, tile: usize) -> usize {
        let geo = &state.layout.geometry;
        geo.area[tile]
            .iter()
            .filter(|&&t| {
                let tile = usize::from(state.layout.tiles[usize::from(t)]);
                self.content.doc.tiles[tile].value == "blue"
            })
            .count()
    }

    /// `Builders.enter`: ask how many Fakirs to discard if that can earn anything.
    pub(super) fn builders(&self, state: State, stage: Sym) -> Step {
        let state = Self::return_to_bag(state);
        let player = state.decision.player as usize;
        if self.blue_around(&state) > 0 && self.fakirs_held(&state, player) > 0 {
            return Ok(wait_at(state, stage));
        }
        self.builders_paid(state, stage, 0)
    }

    pub(super) fn builder_options(&self, state: &State) -> Vec<Action> {
        let held = self.fakirs_held(state, state.decision.player as usize);
        (0..=held).map(|n| Action::Fakirs(fakir_count(n))).collect()
    }

    /// `Builders._pay`: (builders + Fakirs discarded) × blue tiles around.
    pub(super) fn builders_paid(&self, mut state: State, stage: Sym, fakirs: Count) -> Step {
        let player = state.decision.player as usize;
        state = self.discard_fakirs(state, player, usize::from(fakirs));
        let taken = state.turn.as_ref().expect("in a turn").taken;
        let amount = (usize::from(taken) + usize::from(fakirs)) * self.blue_around(&state);
        state.players[player].coins += amount as i32;
        let tile = turn_here(state.turn.as_ref().expect("in a turn"));
        let state = self.fire(
            state,
            Event::BuildersPaid {
                player,
                tile,
                count: amount as i64,
            },
        );
        self.proceed(state, stage)
    }

    /// `discard_cards`: cards from a player's resource hand to the discard pile.
    /// Discard `count` Fakirs from `player`'s resources (nothing at all when `count` is 0).
    pub(super) fn discard_fakirs(&self, state: State, player: usize, count: usize) -> State {
        if count == 0 {
            return state;
        }
        let fakir = self.fakir().expect("Fakirs are in the content");
        self.discard_cards(state, player, &vec![fakir; count])
    }

    pub(super) fn discard_cards(&self, mut state: State, player: usize, cards: &[u8]) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(self.content.resources()).to_vec();
        for card in cards {
            let at = hand
                .iter()
                .position(|c| c == card)
                .expect("the card is in hand");
            hand.remove(at);
        }
        state.players[player].hands = hands.with_hand(self.content.resources(), &hand);
        let deck = &state.decks[self.content.resources()];
        let mut discard = deck.discard().to_vec();
        discard.extend_from_slice(cards);
        state.decks[self.content.resources()] =
            crate::state::Deck::new(deck.draw(), deck.row(), &discard);
        state
    }

    /// `Assassins.enter`: ask for Fakirs when more range could matter.
    pub(super) fn assassins(&self, state: State, stage: Sym) -> Step {
        let state = Self::return_to_bag(state);
        let player = state.decision.player as usize;
        if self.fakirs_held(&state, player) > 0 && self.useful_fakirs(&state) > 0 {
            return Ok(wait_at(state, stage));
        }
        self.to_kill(state, stage, 0)
    }

    /// `_useful_fakirs`: Fakirs beyond this many cannot reach any further tile.
    pub(super) fn useful_fakirs(&self, state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        let geo = &state.layout.geometry;
        let here = turn_here(turn);
        let farthest = (0..geo.size)
            .map(|t| geo.distance(here, t))
            .max()
            .unwrap_or(0);
        farthest.saturating_sub(usize::from(turn.taken))
    }

    pub(super) fn assassin_options(&self, state: &State) -> Vec<Action> {
        let held = self.fakirs_held(state, state.decision.player as usize);
        let top = held.min(self.useful_fakirs(state));
        (0..=top).map(|n| Action::Fakirs(fakir_count(n))).collect()
    }

    /// `Assassins._to_kill`: the range is the assassins plus the Fakirs discarded; the
    /// kill is a step of the tribe action (`rules.call`).
    pub(super) fn to_kill(&self, mut state: State, stage: Sym, fakirs: Count) -> Step {
        let player = state.decision.player as usize;
        state = self.discard_fakirs(state, player, usize::from(fakirs));
        let turn = state.turn.as_mut().expect("in a turn");
        turn.reach = turn.taken.saturating_add(fakirs);
        state = self.report_protection(state);
        if self.kill_targets(&state).is_empty() {
            return self.proceed(state, stage);
        }
        let turn = state.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        callers.push(stage);
        turn.callers = callers.into_boxed_slice();
        self.enter(state, self.known.kill)
    }

    /// `kill_targets`: meeples on tiles in range, and kept meeples in front of opponents;
    /// after a first kill of several, only the same tile or the same opponent.
    pub(super) fn kill_targets(&self, state: &State) -> Vec<Action> {
        let turn = state.turn.as_ref().expect("in a turn");
        let geo = &state.layout.geometry;
        let here = turn_here(turn);
        let reach = usize::from(turn.reach);
        let tiles: Vec<usize> = match turn.target {
            Target::Player(_) => Vec::new(),
            Target::Tile(t) => {
                let t = usize::from(t);
                if geo.distance(here, t) <= reach {
                    vec![t]
                } else {
                    Vec::new()
                }
            }
            Target::None => (0..geo.size)
                .filter(|&t| geo.distance(here, t) <= reach)
                .collect(),
        };
        let mut options = Vec::new();
        for tile in tiles {
            for (colour, &n) in state.board.meeples(tile).iter().enumerate() {
                if n != 0 {
                    options.push(Action::Kill(Victim::Tile(tile as u8), colour as u8));
                }
            }
        }
        let player = state.decision.player as usize;
        for (other, holdings) in state.players.iter().enumerate() {
            let elsewhere = match turn.target {
                Target::None => false,
                Target::Player(p) => usize::from(p) != other,
                Target::Tile(_) => true,
            };
            if other == player || elsewhere {
                continue;
            }
            let called_back = self.called_back_protected(state, other, &holdings.meeples);
            for (colour, spec) in self.content.doc.colours.iter().enumerate() {
                let safe = crate::variants::protects(self.content, colour)
                    || self.effect_protects(state, other, colour)
                    || called_back & (1 << colour) != 0;
                if spec.kept && !safe && holdings.meeples[colour] != 0 {
                    options.push(Action::Kill(Victim::Player(other as u8), colour as u8));
                }
            }
        }
        options
    }

    /// `KillStage.apply`: the victim goes to the bag; an emptied unowned tile is taken.
    pub(super) fn kill(&self, mut state: State, victim: Victim, colour: usize) -> Step {
        let player = state.decision.player as usize;
        match victim {
            Victim::Player(p) => {
                state.players[usize::from(p)].meeples[colour] -= 1;
                state.bag[colour] += 1;
                let event = Event::Kill {
                    player,
                    colour,
                    tile: None,
                    victim: Some(usize::from(p)),
                };
                state = self.fire(state, event);
            }
            Victim::Tile(t) => {
                let tile = usize::from(t);
                state.board.meeples_mut(tile)[colour] -= 1;
                state.bag[colour] += 1;
                let event = Event::Kill {
                    player,
                    colour,
                    tile: Some(tile),
                    victim: None,
                };
                state = self.fire(state, event);
                if state.board.meeples(tile).iter().all(|&n| n == 0) {
                    state = self.take_tile(state, player, tile);
                }
            }
        }
        let turn = state.turn.as_mut().expect("in a turn");
        turn.kills = turn.kills.saturating_sub(1); // an effect may have left none to kill
        turn.target = match victim {
            Victim::Player(p) => Target::Player(p),
            Victim::Tile(t) => Target::Tile(t),
        };
        if state.turn.as_ref().is_some_and(|t| t.kills > 0) && !self.kill_targets(&state).is_empty()
        {
            return Ok(state);
        }
        self.return_to_caller(state)
    }

    /// `Rules.return_to_caller`: the stage that entered this step has finished.
    pub(super) fn return_to_caller(&self, mut state: State) -> Step {
        let turn = state.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        let caller = callers.pop().expect("a step was entered by a stage");
        turn.callers = callers.into_boxed_slice();
        self.proceed(state, caller)
    }
}
