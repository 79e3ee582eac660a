//! The djinns written by hand (`plugins/base/djinns/`): which kinds the kernel plays,
//! djinns kept and taken, Kumarbi's discount and the tokens placed nearby; the djinns
//! that react to events are content (`[[power]]`, `crate::effects`).

use super::events::Event;
use super::{fakir_count, turn_here, Rules, Step};

use crate::actions::{Action, Payment};
use crate::content::Content;
use crate::effects::{self, Scope};
use crate::extras::set_extra;
use crate::names::Sym;
use crate::state::{Count, Decision, Deck, State, Target};

/// Whether the kernel plays the djinns of kind `kind`: those content gives (`[[power]]`,
/// `crate::effects`) and Kumarbi, ported by hand.
pub(super) fn djinn_ported(content: &Content, kind: &str) -> bool {
    content.doc.effects.powers.iter().any(|p| p.kind == kind) || kind == KUMARBI
}

/// Kumarbi: a discount on the bid, paid in Fakirs (offered while its owner bids).
pub(super) const KUMARBI: &str = "kumarbi";

impl Rules<'_> {
    /// `KeepDjinn.apply`: the djinn kept joins the hand, the others go to the discards,
    /// and the interrupted decision goes on.
    pub(super) fn keep_djinn(&self, mut state: State, djinn: u8) -> Step {
        let player = state.decision.player as usize;
        let turn = state.turn.as_mut().expect("in a turn");
        let mut others = turn.revealed.to_vec();
        let at = others
            .iter()
            .position(|&c| c == djinn)
            .expect("a djinn drawn");
        others.remove(at);
        turn.revealed = Box::new([]);
        self.resume_interrupted(&mut state, player);
        let deck = &state.decks[self.content.djinns()];
        let mut discard = deck.discard().to_vec();
        discard.extend_from_slice(&others);
        state.decks[self.content.djinns()] = Deck::new(deck.draw(), deck.row(), &discard);
        Ok(self.give_djinn(state, player, djinn))
    }

    /// `take_djinn_card`: the djinn joins the hand as its deck orders it; fires
    /// `djinn-taken`.
    pub(super) fn give_djinn(&self, state: State, player: usize, djinn: u8) -> State {
        let state = self.give_cards(state, player, self.content.djinns(), &[djinn]);
        self.fire(state, Event::DjinnTaken { player, djinn })
    }

    /// `discounted`: the price of the spot costing `cost` with `fakirs` discarded, each
    /// a step down the distinct costs (never below the cheapest).
    pub(super) fn discounted(costs: &[i64], cost: i64, fakirs: usize) -> i64 {
        let mut steps = costs.to_vec();
        steps.sort_unstable_by(|a, b| b.cmp(a));
        steps.dedup();
        let at = steps.iter().position(|&c| c == cost).unwrap_or(0);
        steps[(at + fakirs).min(steps.len() - 1)]
    }

    /// `Kumarbi.options`: while its owner bids, each free spot that costs something
    /// with one Fakir, two… as long as the discounted price is affordable.
    pub(super) fn kumarbi_options(&self, state: &State, player: usize) -> Vec<Action> {
        let doc = &self.content.doc;
        let mut seen: Vec<u8> = Vec::new();
        let mut options = Vec::new();
        for deck in 0..self.content.decks() {
            for &card in state.players[player].hands.hand(deck) {
                if doc.cards[usize::from(card)].kind != KUMARBI || seen.contains(&card) {
                    continue;
                }
                seen.push(card);
                if self.round_limited(state, card) {
                    let key = self.round_key(card);
                    let round = i64::from(state.round);
                    let extras = &state.players[player].extras;
                    if extras.iter().any(|&(k, v)| k == key && v == round) {
                        continue;
                    }
                }
                let fakirs = self.fakirs_held(state, player);
                let costs = self.costs(state);
                let coins = i64::from(state.players[player].coins);
                for spot in self.free_spots(state) {
                    if costs[spot] == 0 {
                        continue;
                    }
                    for used in 1..=fakirs {
                        let price = Self::discounted(costs, costs[spot], used);
                        if price <= coins {
                            options.push(Action::Discounted(
                                card,
                                costs[spot] as u32,
                                fakir_count(used),
                            ));
                        }
                        if price == 0 {
                            break;
                        }
                    }
                }
            }
        }
        options
    }

    /// `Kumarbi.apply`: discard the Fakirs, bid at the discounted price.
    pub(super) fn kumarbi(&self, state: State, card: u8, cost: u32, fakirs: Count) -> Step {
        let player = state.decision.player as usize;
        let price = Self::discounted(self.costs(&state), i64::from(cost), usize::from(fakirs));
        let mut state = self.discard_fakirs(state, player, usize::from(fakirs));
        if self.round_limited(&state, card) {
            let key = self.round_key(card);
            let round = i64::from(state.round);
            state.players[player].extras = set_extra(&state.players[player].extras, key, round);
        }
        let state = self.place_bid(state, cost, price as u32);
        let state = self.count_effect(state, card);
        self.proceed(state, self.known.bid)
    }

    pub(super) fn placing_key(&self, token: usize) -> Sym {
        let id = &self.content.doc.tokens[token].id;
        self.content.names.known(&format!("placing:{id}"))
    }

    /// `pending_tile`: where a token waiting at its `placing:<token>` decision would go.
    pub(super) fn pending_tile(&self, state: &State, token: usize) -> usize {
        let key = self.placing_key(token);
        let found = state.extras.iter().find(|&&(k, _)| k == key);
        found.map_or(0, |&(_, v)| v.max(0) as usize)
    }

    /// `UsedPower._origin`: where a token a power redirects would go: the effect's tile,
    /// or the village's (oasis's) action's.
    pub(super) fn origin(&self, state: &State, token: usize) -> usize {
        if self.placing_now(state) == Some(token) {
            return self.pending_tile(state, token);
        }
        turn_here(state.turn.as_ref().expect("in a turn"))
    }

    /// `place_token_for`: a token an effect places; when a card of the player may put it
    /// elsewhere, the player decides first (the `placing:<token>` step).
    pub(super) fn place_token_for(
        &self,
        state: State,
        player: usize,
        token: usize,
        tile: usize,
    ) -> State {
        if state.pool[token] == 0 || state.turn.is_none() {
            return self.place_token_on(state, player, token, tile);
        }
        let caller = state.decision.stage;
        let mut waiting = state.clone();
        let key = self.placing_key(token);
        waiting.extras = set_extra(&waiting.extras, key, tile as i64);
        let turn = waiting.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        callers.push(caller);
        turn.callers = callers.into_boxed_slice();
        waiting.decision = Decision {
            stage: self
                .content
                .names
                .known(&format!("placing:{}", self.content.doc.tokens[token].id)),
            player: player as i8,
        };
        if self.redirects(&waiting, player, token) {
            return waiting;
        }
        self.place_token_on(state, player, token, tile)
    }

    /// `redirect_options`: whether a card of the player that redirects this token offers
    /// something at the pending decision.
    pub(super) fn redirects(&self, state: &State, player: usize, token: usize) -> bool {
        if !self.own_turn(state, player) {
            return false;
        }
        (0..self.content.decks()).any(|deck| {
            state.players[player].hands.hand(deck).iter().any(|&card| {
                self.used_power(card).and_then(|p| p.redirects) == Some(token)
                    && !self.activated_options(state, player, card).is_empty()
            })
        })
    }

    /// `placed`: end the `placing:<token>` step with the token on `tile`; play returns to
    /// the decision the effect was used at.
    pub(super) fn placed(&self, state: State, token: usize, tile: usize) -> State {
        let player = state.decision.player as usize;
        let state = self.leave_placing(state, token);
        self.place_token_on(state, player, token, tile)
    }

    /// `UsedPower._redirect`: a power's effects are the placement of `token` it
    /// redirects: an effect's (the `placing:<token>` step ends first, and play returns to
    /// the decision the effect was used at) or its stage's own (the tile's action is done).
    pub(super) fn redirect(
        &self,
        state: State,
        token: usize,
        list: &[effects::Effect],
        scope: &Scope<'_>,
    ) -> Step {
        if self.placing_now(&state) == Some(token) {
            let state = self.leave_placing(state, token);
            return Ok(self.run_effects(state, list, scope));
        }
        let stage = state.decision.stage;
        let state = self.run_effects(state, list, scope);
        self.proceed(state, stage)
    }

    /// `leave_placing`: end the `placing:<token>` step without placing the token; play
    /// returns to the decision the effect was used at.
    fn leave_placing(&self, mut state: State, token: usize) -> State {
        let player = state.decision.player as usize;
        let key = self.placing_key(token);
        state.extras = state
            .extras
            .iter()
            .copied()
            .filter(|&(k, _)| k != key)
            .collect::<Vec<_>>()
            .into_boxed_slice();
        let turn = state.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        let caller = callers.pop().expect("a placing step has a caller");
        turn.callers = callers.into_boxed_slice();
        state.decision = Decision {
            stage: caller,
            player: player as i8,
        };
        state
    }

    /// `djinn_payments`: 2 elders, or an elder and a Fakir.
    pub(super) fn djinn_payments(&self, state: &State) -> Vec<Payment> {
        let player = state.decision.player as usize;
        let elders = self
            .elder
            .map_or(0, |e| i64::from(state.players[player].meeples[e]));
        let mut payments = Vec::new();
        if elders
            >= self
                .content
                .setting("sacred_place_elders")
                .unwrap_or(i64::MAX)
        {
            payments.push(Payment::ElderElder);
        }
        if elders >= 1 && self.fakirs_held(state, player) >= 1 {
            payments.push(Payment::ElderFakir);
        }
        payments
    }

    /// `SacredPlace.apply`: pay the elders (to the bag) and Fakirs (discarded), take the
    /// djinn from the row into the hand, in the order taken.
    pub(super) fn take_djinn(
        &self,
        mut state: State,
        stage: Sym,
        djinn: u8,
        payment: Payment,
    ) -> Step {
        let player = state.decision.player as usize;
        let elder = self.elder.expect("a sacred place is paid in elders");
        let elders = match payment {
            Payment::ElderElder => 2,
            Payment::ElderFakir => 1,
        };
        state.players[player].meeples[elder] -= elders;
        state.bag[elder] += elders;
        if payment == Payment::ElderFakir {
            state = self.discard_fakirs(state, player, 1);
        }
        let state = self.off_the_row(state, djinn);
        let state = self.give_djinn(state, player, djinn);
        self.proceed(state, stage)
    }

    /// The face-up djinn `djinn` taken off the row (`take_from_row`).
    pub(super) fn off_the_row(&self, mut state: State, djinn: u8) -> State {
        let deck = &state.decks[self.content.djinns()];
        let mut row = deck.row().to_vec();
        let at = row
            .iter()
            .position(|&c| c == djinn)
            .expect("the djinn is face up");
        row.remove(at);
        state.decks[self.content.djinns()] = Deck::new(deck.draw(), &row, deck.discard());
        state
    }

    /// `TakeDjinn.apply`: the face-up djinn taken, free, and the interrupted decision
    /// goes on.
    pub(super) fn take_face_up(&self, mut state: State, djinn: u8) -> Step {
        let player = state.decision.player as usize;
        self.resume_interrupted(&mut state, player);
        let state = self.off_the_row(state, djinn);
        Ok(self.give_djinn(state, player, djinn))
    }

    /// One card's reaction: its content power's (`ReactingPower`), or None.
    pub(super) fn react(
        &self,
        state: &State,
        owner: usize,
        card: u8,
        event: Event,
    ) -> Option<State> {
        let facts = self.facts(event);
        let power = (self.content.effects).power_at(card, Some(facts.moment))?;
        self.power_reacts(state, owner, card, power, facts)
    }

    /// `draw_cards(state, RESOURCES, 1)`: the top card of the pile, reshuffling the
    /// discards when the pile is empty; None when there is no card at all.
    pub(super) fn draw_resource(&self, mut state: State) -> (u8, Option<State>) {
        let deck = &state.decks[self.content.resources()];
        let mut draw = deck.draw().to_vec();
        let mut discard = deck.discard().to_vec();
        if draw.is_empty() && !discard.is_empty() {
            state.rng.shuffle(&mut discard);
            draw = std::mem::take(&mut discard);
        }
        if draw.is_empty() {
            return (0, None);
        }
        let top = draw.remove(0);
        let row = state.decks[self.content.resources()].row().to_vec();
        state.decks[self.content.resources()] = Deck::new(&draw, &row, &discard);
        (top, Some(state))
    }

    /// `report_protection`: `kill-prevented` for each opponent whose protection hides a
    /// target now, in seat order.
    pub(super) fn report_protection(&self, mut state: State) -> State {
        let turn = state.turn.as_ref().expect("in a turn");
        if turn.target != Target::None {
            return state;
        }
        let player = state.decision.player as usize;
        let doc = &self.content.doc;
        let hidden: Vec<usize> = (0..state.players.len())
            .filter(|&other| other != player)
            .filter(|&other| {
                let called_back =
                    self.called_back_protected(&state, other, &state.players[other].meeples);
                doc.colours.iter().enumerate().any(|(c, spec)| {
                    spec.kept
                        && (crate::variants::protects(self.content, c)
                            || self.effect_protects(&state, other, c)
                            || called_back & (1 << c) != 0)
                        && state.players[other].meeples[c] != 0
                })
            })
            .collect();
        for victim in hidden {
            state = self.fire(state, Event::KillPrevented { player, victim });
        }
        state
    }
}
