//! The effects language run on the state (`crate::effects`, `plugins/base/effects.py`):
//! triggers, tile actions, powers and their choices, and the score lines they add.

use std::sync::Arc;

use super::events::Event;
use super::scoring::Sheet;
use super::stages::Stage;
use super::{wait_at, Phase, Rules, Step, Unported};

use crate::actions::Action;
use crate::content::Content;
use crate::effects::{self, At, Facts, Scope};
use crate::extras::{get_extra, set_extra};
use crate::names::Sym;
use crate::state::{Decision, Deck, State, NOBODY};

impl Rules<'_> {
    /// An event's facts for the effects language (`core/events.py`'s fields).
    pub(super) fn facts(&self, event: Event) -> Facts {
        use crate::effects::Moment;
        let facts = |moment, player| Facts::of(moment, player);
        match event {
            Event::MeepleDropped { player, tile } => Facts {
                tile: Some(tile),
                ..facts(Moment::MeepleDropped, player)
            },
            Event::Kill {
                player,
                colour,
                tile,
                victim,
            } => Facts {
                tile,
                victim: victim.map_or(i64::from(NOBODY), |v| v as i64),
                killed: Some(colour),
                ..facts(Moment::Kill, player)
            },
            Event::KillPrevented { player, victim } => Facts {
                victim: victim as i64,
                ..facts(Moment::KillPrevented, player)
            },
            Event::BuildersPaid {
                player,
                tile,
                count,
            } => Facts {
                tile: Some(tile),
                count,
                ..facts(Moment::BuildersPaid, player)
            },
            Event::TokenPlaced {
                player,
                tile,
                token,
            } => {
                // other tokens' events have no moment: a trigger cannot name them
                let moment = match self.content.doc.tokens[token].id.as_str() {
                    "palace" => Moment::PalacePlaced,
                    "palm-tree" => Moment::PalmTreePlaced,
                    _ => Moment::Scoring,
                };
                Facts {
                    tile: Some(tile),
                    ..facts(moment, player)
                }
            }
            Event::DjinnTaken { player, djinn } => Facts {
                card: Some(djinn),
                ..facts(Moment::DjinnTaken, player)
            },
            Event::TileTaken { player, tile } => Facts {
                tile: Some(tile),
                ..facts(Moment::TileTaken, player)
            },
            Event::TurnEnd { player } => facts(Moment::TurnEnd, player),
            Event::Sold { player, count } => Facts {
                count,
                ..facts(Moment::Sold, player)
            },
            Event::RoundEnd { player } => facts(Moment::RoundEnd, player),
            Event::TurnStart { player } => facts(Moment::TurnStart, player),
            Event::BeforeTribeAction { player, tile } => Facts {
                tile: Some(tile),
                ..facts(Moment::BeforeTribeAction, player)
            },
            Event::AfterTribeAction { player, tile } => Facts {
                tile: Some(tile),
                ..facts(Moment::AfterTribeAction, player)
            },
        }
    }

    /// `ReactingPower.on_event`: a card's content power reacts when the event is its
    /// moment and its `if` holds, and counts as used each time.
    pub(super) fn power_reacts(
        &self,
        state: &State,
        owner: usize,
        card: u8,
        power: &crate::effects::Power,
        facts: Facts,
    ) -> Option<State> {
        if power.on != Some(facts.moment) || facts.moment == crate::effects::Moment::Scoring {
            return None;
        }
        let params = &self.content.doc.cards[usize::from(card)].params;
        let scope = Scope {
            actor: facts.player as i64,
            event: Some(facts),
            card: Some(card),
            mark: self.content.effects.mark_of(Some(card)),
            ..Scope::of(owner, params)
        };
        if !effects::holds(&power.program.test, state, &scope) {
            return None;
        }
        let state = self.run_effects(state.clone(), &power.program.effects, &scope);
        Some(if power.counted {
            self.count_effect(state, card)
        } else {
            state
        })
    }

    /// `effects.on_event`: the triggers of the event's moment, in content order, each
    /// for the event's player.
    pub(super) fn triggers_fire(&self, mut state: State, facts: Facts) -> State {
        for program in &self.content.effects.triggers[facts.moment.index()] {
            state = self.run_program(state, program, Some(facts), None);
        }
        state
    }

    /// A trigger's or a tile action's program for `facts.player` (without an event: for
    /// the player deciding), if its `if` holds.
    pub(super) fn run_program(
        &self,
        state: State,
        program: &effects::Program,
        facts: Option<Facts>,
        card: Option<u8>,
    ) -> State {
        let me = facts.map_or(state.decision.player as usize, |f| f.player);
        let scope = Scope {
            event: facts,
            card,
            mark: self.content.effects.mark_of(card),
            ..Scope::of(me, &program.params)
        };
        if !effects::holds(&program.test, &state, &scope) {
            return state;
        }
        self.run_effects(state, &program.effects, &scope)
    }

    /// `effects._move`: what a `move` names, from `tile` to `to`: the camel, keeping its
    /// owner (not onto a tile with a camel, nor off one a stand-in marks), a token or a
    /// meeple of a colour (none there: nothing). Nothing is placed or taken: no event.
    fn move_piece(&self, mut state: State, verb: effects::Verb, tile: usize, to: usize) -> State {
        match verb {
            effects::Verb::MoveCamel => {
                let owner = state.board.owner(tile);
                let free = owner != NOBODY && state.board.owner(to) == NOBODY;
                if free && !self.marked_by_stand_in(&state, tile) {
                    state.board.set_owner(tile, NOBODY);
                    state.board.set_owner(to, owner);
                }
            }
            effects::Verb::Move(token) if state.board.tokens(tile)[token] > 0 => {
                state.board.tokens_mut(tile)[token] -= 1;
                state.board.tokens_mut(to)[token] += 1;
            }
            effects::Verb::MoveMeeple(colour) if state.board.meeples(tile)[colour] > 0 => {
                state.board.meeples_mut(tile)[colour] -= 1;
                state.board.meeples_mut(to)[colour] += 1;
            }
            _ => {}
        }
        state
    }

    /// `effects.run`: coins (never below 0 nor above `MOST_COINS`) and resource cards
    /// drawn, in order; score lines wait for scoring.
    pub(super) fn run_effects(
        &self,
        mut state: State,
        list: &[effects::Effect],
        scope: &Scope<'_>,
    ) -> State {
        for effect in list {
            if !effects::holds(&effect.test, &state, scope) {
                continue;
            }
            let value = effects::evaluate(&effect.amount, &state, scope);
            match effect.verb {
                effects::Verb::Coins => {
                    let coins = i64::from(state.players[scope.me].coins) + value;
                    let most = effects::MOST_COINS;
                    state.players[scope.me].coins = coins.clamp(0, most) as i32;
                }
                effects::Verb::Draw => {
                    for _ in 0..value.max(0) {
                        let (drawn, after) = self.draw_resource(state.clone());
                        match after {
                            Some(after) => state = self.add_cards(after, scope.me, &[drawn]),
                            None => break,
                        }
                    }
                }
                // the last effect of its list: offered once the list has run
                effects::Verb::Score | effects::Verb::Choose => {}
                effects::Verb::Kills => {
                    if let Some(turn) = state.turn.as_mut() {
                        let kills = (i64::from(turn.kills) + value).max(0);
                        turn.kills = u32::try_from(kills).unwrap_or(u32::MAX);
                    }
                }
                // a power placing the token it redirects places it straight (that
                // placement is the one it replaces)
                effects::Verb::Place(token) => {
                    let card = scope.card.and_then(|c| self.used_power(c));
                    match scope.target {
                        Some(tile) if card.and_then(|p| p.redirects) == Some(token) => {
                            state = self.place_token_on(state, scope.me, token, tile);
                        }
                        Some(tile) => state = self.place_token_for(state, scope.me, token, tile),
                        None => {}
                    }
                }
                effects::Verb::Remove(token) => {
                    if let Some(tile) = scope.target.filter(|&t| state.board.tokens(t)[token] > 0) {
                        state.board.tokens_mut(tile)[token] -= 1;
                        state.pool[token] += 1;
                    }
                }
                effects::Verb::RemoveCamel => {
                    // a tile a tent marks keeps it: the tent stands for the camel
                    if let Some(tile) = scope.target {
                        if !self.marked_by_stand_in(&state, tile) {
                            state = self.release_tile(state, tile);
                        }
                    }
                }
                effects::Verb::RemoveMeeple(colour) => {
                    let here = |t: usize| state.board.meeples(t)[colour] > 0;
                    if let Some(tile) = scope.target.filter(|&t| here(t)) {
                        state.board.meeples_mut(tile)[colour] -= 1;
                        state.bag[colour] += 1;
                    }
                }
                // one no longer there (an effect before took it) stays put
                effects::Verb::RemoveNamed => {
                    if let (Some(tile), Some(group)) = (scope.target, scope.target_group) {
                        for &colour in group.colours() {
                            let colour = usize::from(colour);
                            if state.board.meeples(tile)[colour] > 0 {
                                state.board.meeples_mut(tile)[colour] -= 1;
                                state.bag[colour] += 1;
                            }
                        }
                    }
                }
                effects::Verb::Move(_)
                | effects::Verb::MoveCamel
                | effects::Verb::MoveMeeple(_) => {
                    if let (Some(tile), Some(to)) = (scope.target, scope.target_to) {
                        state = self.move_piece(state, effect.verb, tile, to);
                    }
                }
                effects::Verb::PlaceCamel => {
                    if let Some(tile) = scope.target {
                        state = self.take_tile(state, scope.me, tile);
                    }
                }
                effects::Verb::Meeples => {
                    if let Some(tile) = scope.target {
                        let count = usize::try_from(value.max(0)).unwrap_or(0);
                        state = self.meeples_from_bag(state, tile, count);
                    }
                }
                effects::Verb::Set(holder) => {
                    state = effects::set_counter(state, holder, scope.me, value);
                }
                effects::Verb::DiscardFakirs => {
                    let held = self.fakirs_held(&state, scope.me);
                    let count = usize::try_from(value.max(0)).unwrap_or(0).min(held);
                    state = self.discard_fakirs(state, scope.me, count);
                }
                effects::Verb::DrawDjinns if value > 0 && state.turn.is_some() => {
                    let count = usize::try_from(value).unwrap_or(0);
                    state = self.djinns_to_keep(state, scope.me, count);
                }
                effects::Verb::DrawDjinns => {}
                effects::Verb::TakeDjinn if value > 0 => {
                    state = self.djinn_to_take(state, scope.me)
                }
                effects::Verb::TakeDjinn => {}
                effects::Verb::KeepKilled if value > 0 => state = self.keep_killed(state, scope),
                effects::Verb::KeepKilled => {}
                effects::Verb::DealRow if value > 0 => {
                    state = self.deal_row(state, usize::try_from(value).unwrap_or(0));
                }
                effects::Verb::DealRow => {}
                effects::Verb::TakeCard if value > 0 => {
                    let power = scope.card.and_then(|c| self.used_power(c));
                    if let (Some(pile), Some(card)) =
                        (power.and_then(|p| p.target_card), scope.target_card)
                    {
                        state = self.take_card(state, scope.me, pile, card);
                    }
                }
                effects::Verb::TakeCard | effects::Verb::Fire => {}
                effects::Verb::TakeLying(deck) => {
                    let here = state.turn.as_ref().map(|t| super::turn_here(t));
                    if let Some(tile) = scope.target.or(here) {
                        state = self.take_lying(state, scope.me, deck, tile);
                    }
                }
            }
        }
        state
    }

    /// `effects._deal_row`: the face-up resource cards to the discards, then `count`
    /// dealt from the pile as the new row (the discards, those just discarded included,
    /// reshuffled when the pile runs out).
    fn deal_row(&self, mut state: State, count: usize) -> State {
        let resources = self.content.resources();
        let deck = &state.decks[resources];
        let discard = [deck.discard(), deck.row()].concat();
        state.decks[resources] = Deck::new(deck.draw(), &[], &discard);
        let (mut state, dealt) = self.draw_cards(state, resources, count);
        let deck = &state.decks[resources];
        state.decks[resources] = Deck::new(deck.draw(), &dealt, deck.discard());
        state
    }

    /// `effects._keep_killed`: the meeple a kill sent to the bag goes in front of
    /// `scope.me` instead, if its colour is one players keep.
    fn keep_killed(&self, mut state: State, scope: &Scope<'_>) -> State {
        let Some(colour) = scope.event.and_then(|e| e.killed) else {
            return state;
        };
        if !self.content.doc.colours[colour].kept || state.bag[colour] == 0 {
            return state;
        }
        state.bag[colour] -= 1;
        state.players[scope.me].meeples[colour] += 1;
        state
    }

    /// `effects._meeples_from_bag`: `count` meeples drawn at random from the bag onto
    /// `tile` (all that are left, if fewer).
    pub(super) fn meeples_from_bag(&self, mut state: State, tile: usize, count: usize) -> State {
        let colours = self.content.colours();
        let total: usize = state.bag[..colours].iter().map(|&n| usize::from(n)).sum();
        for _ in 0..count.min(total) {
            let weights: Vec<u64> = state.bag[..colours].iter().map(|&n| u64::from(n)).collect();
            let colour = state.rng.choice_weighted(&weights);
            state.bag[colour] -= 1;
            state.board.meeples_mut(tile)[colour] += 1;
        }
        state
    }

    /// `_djinns_to_keep`: `count` djinns drawn for `me` to keep one (the `keep-djinn`
    /// decision, which then resumes the decision this one interrupted); none drawn:
    /// nothing to decide.
    fn djinns_to_keep(&self, state: State, me: usize, count: usize) -> State {
        let (mut state, drawn) = self.draw_cards(state, self.content.djinns(), count);
        let stage = state.decision.stage;
        let Some(turn) = state.turn.as_mut() else {
            return state;
        };
        if drawn.is_empty() {
            return state;
        }
        turn.revealed = drawn.into_boxed_slice();
        turn.resume = stage;
        state.decision = Decision {
            stage: self.content.names.known(effects::KEEP_DJINN),
            player: me as i8,
        };
        state
    }

    /// `_djinn_to_take`: `me` takes one of the face-up djinns (the `take-djinn` decision,
    /// which then resumes the decision this one interrupted); none face up, or no turn:
    /// nothing to decide.
    fn djinn_to_take(&self, mut state: State, me: usize) -> State {
        let stage = state.decision.stage;
        if state.decks[self.content.djinns()].row().is_empty() {
            return state;
        }
        let Some(turn) = state.turn.as_mut() else {
            return state;
        };
        turn.resume = stage;
        state.decision = Decision {
            stage: self.content.names.known(effects::TAKE_DJINN),
            player: me as i8,
        };
        state
    }

    /// The choice a `choose:…` stage offers (`ChoiceStage.options`).
    pub(super) fn choice(&self, of: ChoiceOf) -> Option<&effects::Effect> {
        let list = match of {
            ChoiceOf::Tile(index) => &self.content.effects.tile_actions[index].program.effects,
            ChoiceOf::Card(card) => &self.used_power(card)?.program.effects,
        };
        effects::final_choice(list)
    }

    /// `ChoiceStage.apply`: option `n` (from 1) runs for the player deciding; then a tile
    /// action's turn goes on, or the decision a used power interrupted comes back.
    pub(super) fn chosen(&self, state: State, of: ChoiceOf, n: u8) -> Step {
        let me = state.decision.player as usize;
        let option = self
            .choice(of)
            .and_then(|c| c.options.get(usize::from(n).wrapping_sub(1)))
            .expect("a legal choice names one of its options");
        let (params, card) = match of {
            ChoiceOf::Tile(index) => (
                &self.content.effects.tile_actions[index].program.params,
                None,
            ),
            ChoiceOf::Card(card) => (
                &self.content.doc.cards[usize::from(card)].params,
                Some(card),
            ),
        };
        let scope = Scope {
            card,
            mark: self.content.effects.mark_of(card),
            ..Scope::of(me, params)
        };
        let mut state = self.run_effects(state, option, &scope);
        if let ChoiceOf::Tile(_) = of {
            return self.return_to_caller(state);
        }
        self.resume_interrupted(&mut state, me);
        Ok(state)
    }

    /// The content power of `card` its owner uses (`on = "use"`: `UsedPower`), if any.
    pub(super) fn used_power(&self, card: u8) -> Option<&effects::Power> {
        (self.content.effects).power_at(card, Some(crate::effects::Moment::Use))
    }

    /// What a card's own power reads: its owner, its numbers, the card itself.
    pub(super) fn card_scope(&self, owner: usize, card: u8) -> Scope<'_> {
        Scope {
            card: Some(card),
            mark: self.content.effects.mark_of(Some(card)),
            ..Scope::of(owner, &self.content.doc.cards[usize::from(card)].params)
        }
    }

    /// `effects.tile_effects`: the `before` or `after` effects of a tile kind's action,
    /// content's then those a called-back `naqala_tile_effects` answers.
    pub(super) fn tile_effects(&self, mut state: State, kind: &str, at: At) -> State {
        for program in self.content.effects.tile_programs(kind, at) {
            state = self.run_program(state, program, None, None);
        }
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::TILE_EFFECTS) => {
                match calls.tile_effects(&state, kind, at) {
                    Some(list) => self.run_answered(state, &list),
                    None => state,
                }
            }
            _ => state,
        }
    }

    /// Effects a hook answered, run for the player deciding, as a tile action's are.
    pub(super) fn run_answered(&self, state: State, list: &[effects::Effect]) -> State {
        let me = state.decision.player as usize;
        let params = std::collections::BTreeMap::new();
        let scope = Scope::of(me, &params);
        self.run_effects(state, list, &scope)
    }

    /// The content's `scoring` triggers' lines for `player`, each named after its
    /// trigger (`effects.scoring_lines`).
    pub(super) fn trigger_lines(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        let scoring = crate::effects::Moment::Scoring;
        for program in &self.content.effects.triggers[scoring.index()] {
            let scope = Scope::of(player, &program.params);
            for (category, points) in effects::scores(program, state, &scope) {
                sheet.line(category, &program.id, points);
            }
        }
    }

    /// The lines of `card`'s content power at final scoring, named after the card.
    pub(super) fn power_lines(
        &self,
        state: &State,
        player: usize,
        card: u8,
        sheet: &mut impl Sheet,
    ) {
        let scoring = Some(crate::effects::Moment::Scoring);
        let Some(power) = self.content.effects.power_at(card, scoring) else {
            return;
        };
        let scope = self.card_scope(player, card);
        let id = &self.content.doc.cards[usize::from(card)].id;
        for (category, points) in effects::scores(&power.program, state, &scope) {
            sheet.line(category, id, points);
        }
    }

    /// Whether a content power of a card `player` holds protects their meeples of
    /// `colour` from the assassins (`[[power]] protects`).
    pub(super) fn effect_protects(&self, state: &State, player: usize, colour: usize) -> bool {
        let effects = &self.content.effects;
        if effects.powers.iter().all(|p| p.protects.is_empty()) {
            return false;
        }
        (0..self.content.decks()).any(|deck| {
            state.players[player]
                .hands
                .hand(deck)
                .iter()
                .any(|&c| effects.powers_of(c).any(|p| p.protects.contains(&colour)))
        })
    }

    /// `count_effect`: the state counter `effects.<card>` goes up by one.
    pub(super) fn count_effect(&self, mut state: State, card: u8) -> State {
        let id = &self.content.doc.cards[usize::from(card)].id;
        let key = self.content.names.known(&format!("effects.{id}"));
        state.extras = set_extra(&state.extras, key, get_extra(&state.extras, key) + 1);
        state
    }

    /// `Activated.apply`'s discard: a card of a deck that discards used cards goes from
    /// the hand to its deck's discard pile (the thieves).
    pub(super) fn discard_used(&self, mut state: State, player: usize, card: u8) -> State {
        let spec = &self.content.doc.cards[usize::from(card)];
        let Some(deck) = self.content.deck_index(&spec.deck) else {
            return state;
        };
        if !self.content.doc.decks[deck].discard {
            return state;
        }
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(deck).to_vec();
        if let Some(at) = hand.iter().position(|&c| c == card) {
            hand.remove(at);
        }
        state.players[player].hands = hands.with_hand(deck, &hand);
        let pile = &state.decks[deck];
        let mut discard = pile.discard().to_vec();
        discard.push(card);
        state.decks[deck] = Deck::new(pile.draw(), pile.row(), &discard);
        state
    }
}

/// Whose choice a `choose:…` stage is: a whole tile action's (by index in
/// `Effects::tile_actions`), entered as its step, or a card's used power (by card index),
/// which resumes the decision it interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChoiceOf {
    Tile(usize),
    Card(u8),
}

/// The effects language's stages: a tile action content gives whole
/// (`[[tile_action]] at = "instead"`, replacing the tile's own) and the `choose:…`
/// choices ending a whole tile action's effects or a used power's.
pub(super) fn stage_named(content: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    let effects = &content.effects;
    if let Some(id) = name.strip_prefix("choose:tile:") {
        let index = effects
            .tile_actions
            .iter()
            .position(|a| a.at == At::Instead && a.program.id == id)
            .filter(|&i| {
                effects::final_choice(&effects.tile_actions[i].program.effects).is_some()
            })?;
        return Some(Arc::new(Choice(ChoiceOf::Tile(index))));
    }
    if let Some(id) = name.strip_prefix("choose:card:") {
        let used = Some(effects::Moment::Use);
        let card = content.doc.cards.iter().position(|c| c.id == id)?;
        let power = effects.power_at(card as u8, used)?;
        let chooses = effects::final_choice(&power.program.effects).is_some();
        return chooses.then(|| Arc::new(Choice(ChoiceOf::Card(card as u8))) as Arc<dyn Stage>);
    }
    let kind = name.strip_prefix("tile:")?;
    let index = effects
        .tile_actions
        .iter()
        .position(|a| a.at == At::Instead && a.tile == kind)?;
    let program = &effects.tile_actions[index].program;
    // a choice ends the effects: its stage must be in the names (else no stage, loudly)
    let choice = match effects::final_choice(&program.effects) {
        Some(_) => Some(content.names.sym(&format!("choose:tile:{}", program.id))?),
        None => None,
    };
    Some(Arc::new(WholeTileAction { index, choice }))
}

/// A tile action content gives whole: its effects, by index in `Effects::tile_actions`,
/// and the stage of the choice that ends them, if any (found once, by name).
#[derive(Debug)]
struct WholeTileAction {
    index: usize,
    choice: Option<Sym>,
}

impl Stage for WholeTileAction {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        let program = &rules.content.effects.tile_actions[self.index].program;
        let me = state.decision.player as usize;
        let scope = Scope::of(me, &program.params);
        if !effects::holds(&program.test, &state, &scope) {
            return rules.proceed(state, stage);
        }
        let mut state = rules.run_effects(state, &program.effects, &scope);
        let choice = effects::final_choice(&program.effects);
        let asked = self
            .choice
            .filter(|_| choice.is_some_and(|c| effects::holds(&c.test, &state, &scope)));
        let Some(asked) = asked else {
            return rules.proceed(state, stage);
        };
        let turn = state.turn.as_mut().expect("a tile action is in a turn");
        let mut callers = turn.callers.to_vec();
        callers.push(stage);
        turn.callers = callers.into_boxed_slice();
        Ok(wait_at(state, asked))
    }
}

/// `ChoiceStage`: the options of a choice, offered with their words.
#[derive(Debug)]
struct Choice(ChoiceOf);

impl Stage for Choice {
    fn needs(&self) -> Phase {
        match self.0 {
            ChoiceOf::Tile(_) => Phase::AfterMove,
            ChoiceOf::Card(_) => Phase::Any, // a power used at any point of the turn
        }
    }

    fn is_step(&self) -> bool {
        matches!(self.0, ChoiceOf::Tile(_))
    }

    fn options(&self, rules: &Rules<'_>, _: &State, out: &mut Vec<Action>) -> Result<(), Unported> {
        let options = rules.choice(self.0).map_or(0, |c| c.options.len());
        out.extend((1..=options).map(|n| Action::Choose(n as u8)));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Choose(n) => rules.chosen(state, self.0, n),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}
