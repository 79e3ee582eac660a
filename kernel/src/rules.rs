//! The rules, ported stage by stage from the base plugin (`plugins/base/`).
//!
//! Each function names the Python it follows. What is not ported yet is never guessed:
//! a decision or an entry into a stage the kernel does not implement is `Unported`, with
//! the stage's name, so the differential harness counts it apart from a difference and
//! a later session can port it next. Event triggers (`rules.fire` in Python) change
//! nothing here: the kernel plays only content whose cards react to no event
//! (`unported_content`), and the places where Python fires an event are marked.
//!
//! This module keeps the `Rules` struct, its construction from the content and the
//! dispatch of decisions and stages (`legal_actions`, `apply`, `proceed`, `enter`). The
//! rules themselves are split by rule as `plugins/base/` is, one `impl Rules` block
//! each: `flow`, `bidding`, `movement`, `tribes`, `tiles`, `cards`, `djinns`, `market`,
//! `events`, `programs` (the effects language) and `scoring`; the boxes are `artisans`,
//! `whims`, `solo` and `thieves`.

use std::sync::Arc;

use crate::actions::Action;
use crate::callbacks::HookCalls;
use crate::content::Content;
use crate::effects::{self, At, Scope};
use crate::names::Sym;
use crate::state::{Count, Counts, State, Turn, NOBODY};

/// The Artisans of Naqala (plugins/artisans/), a module of its own.
pub(crate) mod artisans;
mod bidding;
mod cards;
mod djinns;
mod events;
mod flow;
mod market;
mod movement;
mod powers;
mod programs;
mod score_terms;
mod scoring;
mod tiles;
mod tribes;
mod whims;

use djinns::{djinn_ported, REACTING_DJINNS};

/// A rule the kernel does not implement yet, by the name of the stage or power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unported(pub String);

#[path = "solo.rs"]
pub mod solo;
#[path = "thieves.rs"]
pub mod thieves;

pub type Step = Result<State, Unported>;

/// What a stage does, found from its name once per content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bid,
    Pick,
    Drop,
    Kill,
    Sell,
    Over,
    /// viziers and elders: kept in front of the player
    Keep,
    Merchants,
    Builders,
    Assassins,
    /// a village or an oasis: this token (by index) on the final tile
    PlaceToken(usize),
    /// a market: cost, reach, take (content settings `<size>_market_*`)
    Market(i64, usize, usize),
    SacredPlace,
    /// Sibittis's decision: keep one of the djinns drawn
    KeepDjinn,
    /// `placing:<token>`: a token an effect placed, which a card of the player may put
    /// elsewhere (the token, by index)
    Placing(usize),
    /// the Thieves' step after a tribe action, an opponent giving up, the owner keeping
    /// (thieves.rs)
    ThiefStep,
    ThiefGive,
    ThiefKeep,
    /// the solo mode's `bid`: Yazid's roll and the player's outbid (solo.rs)
    SultansRoll,
    /// the Whims box's Fabulous City: take the whim lying on it (`cities.City`)
    City,
    /// a tile action content gives whole (`[[tile_action]] at = "instead"`): its
    /// effects, by index in `Effects::tile_actions` (`crate::effects`)
    EffectsTile(usize),
    /// `choose:…`: the choice ending a whole tile action's effects or a used power's
    /// (`effects.ChoiceStage`)
    Choice(ChoiceOf),
    /// the Artisans' stages (rules/artisans.rs): the artisans' tribe action, the two
    /// tile actions, the item kept, the Enchanting Flute's gathering
    Artisans,
    Workshop,
    SpecializedMarket,
    KeepItem,
    Gather,
    /// a stage the kernel has not ported
    Unported,
}

/// Whose choice a `choose:…` stage is: a whole tile action's (by index in
/// `Effects::tile_actions`), entered as its step, or a card's used power (by card index),
/// which resumes the decision it interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChoiceOf {
    Tile(usize),
    Card(u8),
}

/// Where in a turn a decision is taken (`Rules::decision_needs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// the game is over: nobody decides, no turn
    Over,
    /// between turns (the bids)
    NoTurn,
    /// before the meeples are picked up
    BeforeMove,
    /// while meeples are in hand
    Moving,
    /// after the last meeple was dropped
    AfterMove,
    /// before or after the move, never during it
    NotMoving,
    /// at any point of a turn
    Any,
}

/// The stages and flags the ported rules name, resolved once per content.
#[derive(Clone, Debug)]
struct Known {
    bid: Sym,
    pick: Sym,
    drop: Sym,
    kill: Sym,
    sell: Sym,
    over: Sym,
    empty: Sym,
    no_moves: Sym,
    last_camel: Sym,
}

/// What a card's kind asks of the decision it is offered at: its hand-written used
/// power, if any (`powers`), the stages that power is offered at and those its content
/// power names, as symbols; `None` is every stage. A stage name the content does not
/// have is left out, as no decision can be at it.
#[derive(Clone, Debug)]
struct CardGate {
    power: Option<Arc<dyn powers::Power>>,
    stages: Option<Vec<Sym>>,
    power_stages: Option<Vec<Sym>>,
}

impl CardGate {
    fn new(content: &Content, card: usize) -> CardGate {
        let names = &content.names;
        let syms = |stages: &[String]| -> Vec<Sym> {
            stages.iter().filter_map(|s| names.sym(s)).collect()
        };
        let power = powers::power_of(content, &content.doc.cards[card].kind);
        let stages = power
            .as_ref()
            .and_then(|p| p.stages(content))
            .map(|s| syms(&s));
        let used = Some(crate::effects::Moment::Use);
        let power_stages = content
            .effects
            .power_of(card as u8)
            .filter(|p| p.on == used && !p.stages.is_empty())
            .map(|p| syms(&p.stages));
        CardGate {
            power,
            stages,
            power_stages,
        }
    }
}

/// The stages the players ask about by kind (`Rules::at_stage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownStage {
    Bid,
    Pick,
    Drop,
    Over,
}

/// The base game's rules over one content.
#[derive(Clone, Debug)]
pub struct Rules<'c> {
    pub content: &'c Content,
    known: Known,
    /// `tribe:<colour>` by colour index, as a symbol if the rules have that stage
    tribes: Vec<Option<Sym>>,
    /// the token index of each `piece.<token>` counter, by its symbol
    pieces: Vec<(Sym, Option<usize>)>,
    /// what each stage does, by symbol
    kinds: Vec<Kind>,
    /// the tile action's stage of each tile of the tile table (`tile:<kind>`), if any
    tile_stages: Vec<Option<Sym>>,
    /// the turn-order costs by player count (index = players)
    costs: Vec<Vec<i64>>,
    /// by card index: whether the card reacts to events, and whether it is used in its
    /// owner's turn (found from its kind once, not at every event and decision)
    reacts: Vec<bool>,
    activated: Vec<bool>,
    /// by card index, its names interned once (no string look-up in the game loop): the
    /// mark its use leaves in the turn (`use_mark`), and the round-used key of a paid
    /// djinn limited to once a round at two players (`round_limited`)
    use_marks: Vec<Option<Sym>>,
    round_keys: Vec<Option<Sym>>,
    /// by card index, what its kind asks of a decision, found once (`activated_options`
    /// compares no kind or stage names in the game loop)
    gates: Vec<CardGate>,
    /// the colour of the elders (`white`), if the content has it
    elder: Option<usize>,
    /// what scoring reads of the content, found once
    score_terms: score_terms::ScoreTerms,
    /// the Thieves' rules, when their deck is in the content
    thieves: Option<thieves::Thieves>,
    /// solo mode's rules, in a solo game
    solo: Option<solo::Solo>,
    /// the Whims box, when its plugin is in the rules (`rules/whims.rs`)
    whims: whims::Whims,
    /// what the Artisans add, when they are in play
    pub(crate) artisans: Option<artisans::Artisans>,
    /// why the kernel refuses these rules (a kept older edition), found once
    refused: Option<Unported>,
    /// `movement.revisit`: whether a meeple move may enter a tile twice (false: no loops)
    revisit: bool,
    /// a plugin's hooks the kernel calls back (`crate::callbacks`), if any is loaded
    callbacks: Option<Arc<dyn HookCalls>>,
}

/// The mark a card's use leaves in the turn: its id under a `card` limit, its deck's
/// under a `deck` limit, none otherwise.
fn use_mark_of(content: &Content, card: usize) -> Option<Sym> {
    let spec = &content.doc.cards[card];
    let deck = content.deck_index(&spec.deck)?;
    match content.doc.decks[deck].limit.as_str() {
        "card" => content.names.sym(&spec.id),
        "deck" => content.names.sym(&spec.deck),
        _ => None,
    }
}

/// The `round-used:<id>` key of a paid djinn when `djinn_limit_round_2p` limits it to
/// once a round at two players; None for any other card.
fn round_key_of(content: &Content, card: usize) -> Option<Sym> {
    let spec = &content.doc.cards[card];
    let limited = !spec.cost.is_empty()
        && spec.deck == crate::content::DJINNS
        && content.setting("djinn_limit_round_2p").unwrap_or(0) != 0;
    limited.then(|| content.names.known(&format!("round-used:{}", spec.id)))
}

impl<'c> Rules<'c> {
    pub fn new(content: &'c Content) -> Rules<'c> {
        let names = &content.names;
        let known = Known {
            bid: names.known("bid"),
            pick: names.known("pick"),
            drop: names.known("drop"),
            kill: names.known("kill"),
            sell: names.known("sell"),
            over: names.known("over"),
            empty: names.known(""),
            no_moves: names.known("no-moves"),
            last_camel: names.known("last-camel"),
        };
        let tribes = content
            .doc
            .colours
            .iter()
            .map(|c| names.sym(&format!("tribe:{}", c.id)))
            .collect();
        let pieces = content
            .doc
            .tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (names.known(&format!("piece.{}", t.id)), Some(i)))
            .collect();
        let artisans = artisans::Artisans::new(content);
        let kinds = (0..names.len())
            .map(|i| {
                let name = names.name(Sym(i as u16));
                match artisans::kind_of(name) {
                    Some(kind) if artisans.is_some() => kind,
                    _ => kind_of(content, name),
                }
            })
            .collect();
        let tile_stages = content
            .doc
            .tiles
            .iter()
            .map(|tile| names.sym(&format!("tile:{}", tile.kind)))
            .collect();
        let tables = &content.doc.tables;
        let costs = (0..=crate::content::MAX_PLAYERS)
            .map(|players| {
                tables
                    .get(&format!("turn_order_costs_{players}"))
                    .filter(|t| !t.is_empty())
                    .or_else(|| tables.get("turn_order_costs"))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let whims = whims::Whims::new(content);
        let mut rules = Rules {
            content,
            known,
            tribes,
            pieces,
            kinds,
            tile_stages,
            costs,
            reacts: content
                .doc
                .cards
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    REACTING_DJINNS.contains(&c.kind.as_str())
                        || content.effects.power_of(i as u8).is_some_and(|p| {
                            p.on.is_some_and(|m| m != crate::effects::Moment::Scoring)
                        })
                })
                .collect(),
            activated: content
                .doc
                .cards
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    powers::kinds().any(|kind| kind == c.kind)
                        || content
                            .effects
                            .power_of(i as u8)
                            .is_some_and(|p| p.on == Some(crate::effects::Moment::Use))
                        || thieves::is_thief(&c.deck, &c.kind)
                        || whims.is_whim(i as u8)
                        || artisans.as_ref().is_some_and(|a| a.activated(i as u8))
                })
                .collect(),
            use_marks: (0..content.doc.cards.len())
                .map(|card| use_mark_of(content, card))
                .collect(),
            round_keys: (0..content.doc.cards.len())
                .map(|card| round_key_of(content, card))
                .collect(),
            gates: (0..content.doc.cards.len())
                .map(|card| CardGate::new(content, card))
                .collect(),
            elder: content.doc.colours.iter().position(|c| c.id == "white"),
            score_terms: score_terms::ScoreTerms::new(content),
            thieves: thieves::Thieves::new(content),
            solo: solo::Solo::new(content),
            whims,
            artisans,
            refused: None,
            revisit: crate::moves::revisits(content),
            callbacks: None,
        };
        rules.refused = rules.refused_edition();
        rules
    }

    /// These rules with a plugin's hooks called back at the kernel's hook points.
    pub fn with_callbacks(mut self, callbacks: Arc<dyn HookCalls>) -> Rules<'c> {
        self.callbacks = Some(callbacks);
        self
    }

    /// The plugin hooks these rules call back, if any.
    pub fn callbacks(&self) -> Option<&dyn HookCalls> {
        self.callbacks.as_deref()
    }

    /// The colours in front of `player` (who keeps `meeples`) that a called-back
    /// `naqala_protected_meeples` protects, as a bit set: none without such a hook, and
    /// the hook is not asked about a player with no meeple an assassin could kill.
    fn called_back_protected(&self, state: &State, player: usize, meeples: &Counts) -> u64 {
        let exposed = self
            .content
            .doc
            .colours
            .iter()
            .zip(meeples)
            .any(|(spec, &n)| spec.kept && n != 0);
        match &self.callbacks {
            Some(calls) if exposed && calls.answers(crate::callbacks::PROTECTED_MEEPLES) => {
                calls.protected(state, player)
            }
            _ => 0,
        }
    }

    /// The seats who won the finished game `state` with `scores`: a called-back
    /// `naqala_verdict`'s winners when it answers, else solo mode's verdict or the
    /// highest scores (`crate::verdict`), as `rules.winners` in Python.
    pub fn winners(&self, state: &State, scores: &[i64]) -> Vec<usize> {
        self.called_back_verdict(state)
            .map(|v| v.winners)
            .unwrap_or_else(|| {
                crate::verdict::Verdict::of(self.content).winners(self.content, state, scores)
            })
    }

    /// The new game `state` as a called-back `naqala_adjust_new_game` changes it (as it
    /// is without one), after the kernel's own adjustments: plugins the kernel does not
    /// implement come after the boxes in registration order.
    pub(crate) fn called_back_new_game(&self, state: State) -> State {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::ADJUST_NEW_GAME) => {
                calls.adjust_new_game(&state).unwrap_or(state)
            }
            _ => state,
        }
    }

    /// A called-back `naqala_verdict`'s answer about the finished game `state`, if any.
    pub fn called_back_verdict(&self, state: &State) -> Option<crate::callbacks::Verdict> {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::VERDICT) => calls.verdict(state),
            _ => None,
        }
    }

    /// Whether a called-back `naqala_game_ends` ends the game (false without one).
    fn called_back_game_ends(&self, state: &State) -> bool {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::GAME_ENDS) => calls.game_ends(state),
            _ => false,
        }
    }

    /// Where in a turn a decision of `stage` is taken (`statecheck.rs` holds a state read
    /// from JSON to it); None for a stage the kernel has not ported.
    pub(crate) fn decision_needs(&self, stage: Sym) -> Option<Phase> {
        Some(match self.kind(stage) {
            Kind::Over => Phase::Over,
            Kind::Bid | Kind::SultansRoll => Phase::NoTurn,
            Kind::Pick => Phase::BeforeMove,
            Kind::Drop => Phase::Moving,
            Kind::Sell => Phase::NotMoving,
            // a djinn used at any point of the turn can ask these
            Kind::KeepDjinn
            | Kind::Placing(_)
            | Kind::ThiefGive
            | Kind::ThiefKeep
            | Kind::Choice(ChoiceOf::Card(_)) => Phase::Any,
            Kind::Keep
            | Kind::Merchants
            | Kind::Builders
            | Kind::Assassins
            | Kind::Kill
            | Kind::PlaceToken(_)
            | Kind::Market(..)
            | Kind::SacredPlace
            | Kind::City
            | Kind::EffectsTile(_)
            | Kind::Choice(ChoiceOf::Tile(_))
            | Kind::ThiefStep
            | Kind::Artisans
            | Kind::Workshop
            | Kind::SpecializedMarket
            | Kind::KeepItem => Phase::AfterMove,
            // the Enchanting Flute is played at the pick too, never during the move
            Kind::Gather => Phase::NotMoving,
            Kind::Unported => return None,
        })
    }

    /// Whether a decision of `stage` is a step another stage entered, which hands back
    /// to it when done (`Rules.return_to_caller`): the turn names that caller.
    pub(crate) fn is_step(&self, stage: Sym) -> bool {
        matches!(
            self.kind(stage),
            Kind::Kill
                | Kind::Placing(_)
                | Kind::Choice(ChoiceOf::Tile(_))
                | Kind::ThiefStep
                | Kind::ThiefGive
                | Kind::ThiefKeep
                | Kind::KeepItem
        )
    }

    /// The turn-order track's spots for `players` players, one per cost.
    pub(crate) fn turn_track_spots(&self, players: usize) -> usize {
        self.costs.get(players).map_or(0, Vec::len)
    }

    /// The colour whose tribe action `stage` is (`tribe:<colour>`), if it is one.
    pub(crate) fn tribe_colour(&self, stage: Sym) -> Option<usize> {
        self.tribes.iter().position(|&t| t == Some(stage))
    }

    /// Whether the owner of the turn in progress takes a decision of `stage` (an opponent
    /// gives up what a thief takes).
    pub(crate) fn owner_decides(&self, stage: Sym) -> bool {
        self.kind(stage) != Kind::ThiefGive
    }

    fn kind(&self, stage: Sym) -> Kind {
        self.kinds[usize::from(stage.0)]
    }

    /// Whether the decision waits at the stage of that kind: a comparison of symbols
    /// interned once (the players' loops ask it at every state they look at).
    pub fn at_stage(&self, state: &State, stage: KnownStage) -> bool {
        let k = &self.known;
        state.decision.stage
            == match stage {
                KnownStage::Bid => k.bid,
                KnownStage::Pick => k.pick,
                KnownStage::Drop => k.drop,
                KnownStage::Over => k.over,
            }
    }

    fn stage_name(&self, sym: Sym) -> &str {
        self.content.names.name(sym)
    }

    // -- legal actions ----------------------------------------------------------------

    /// The options of the pending decision in canonical order (`Rules.legal_actions`).
    pub fn legal_actions(&self, state: &State) -> Result<Vec<Action>, Unported> {
        let mut options = Vec::new();
        self.legal_actions_into(state, &mut options)?;
        Ok(options)
    }

    /// `legal_actions` written into `options` (cleared first): a loop that keeps one list
    /// from decision to decision allocates no option list once it has held the longest.
    pub fn legal_actions_into(
        &self,
        state: &State,
        options: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        options.clear();
        if let Some(refused) = &self.refused {
            return Err(refused.clone());
        }
        let stage = state.decision.stage;
        let generated = match self.kind(stage) {
            Kind::Over => Vec::new(),
            Kind::Pick if !self.revisit => {
                self.self_avoiding_picks(state, options);
                Vec::new()
            }
            Kind::Drop if !self.revisit => {
                self.self_avoiding_drops(state, options);
                Vec::new()
            }
            Kind::Bid => {
                self.bid_options(state, options);
                Vec::new()
            }
            kind @ (Kind::KeepItem | Kind::Workshop | Kind::SpecializedMarket | Kind::Gather) => {
                self.artisan_options(state, kind)
            }
            Kind::Pick => self.pick_options(state),
            Kind::Drop => self.drop_options(state),
            Kind::Builders => self.builder_options(state),
            Kind::Assassins => self.assassin_options(state),
            Kind::Kill => self.kill_targets(state),
            Kind::Market(cost, reach, take) => {
                let player = state.decision.player as usize;
                if i64::from(state.players[player].coins) < cost {
                    vec![Action::Skip] // an effect took coins since the market was entered
                } else {
                    self.market_options(state, reach, take)?
                }
            }
            Kind::Sell => self.sell_options(state)?,
            Kind::SacredPlace => self.sacred_place_options(state),
            Kind::KeepDjinn => {
                let turn = state.turn.as_ref().expect("in a turn");
                turn.revealed.iter().map(|&c| Action::Keep(c)).collect()
            }
            Kind::Placing(token) => vec![Action::Place(self.pending_tile(state, token) as u8)],
            Kind::PlaceToken(_) => {
                let turn = state.turn.as_ref().expect("in a turn");
                vec![Action::Place(turn_here(turn) as u8)]
            }
            Kind::ThiefStep => vec![Action::Skip],
            Kind::ThiefGive | Kind::ThiefKeep => self.theft_options(state, self.kind(stage)),
            Kind::SultansRoll => self.sultans_roll_options(state),
            Kind::Choice(of) => {
                let options = self.choice(of).map_or(0, |c| c.options.len());
                (1..=options).map(|n| Action::Choose(n as u8)).collect()
            }
            _ => return Err(Unported(self.stage_name(stage).to_owned())),
        };
        options.extend(generated);
        // what the deciding player's cards offer (`naqala_extra_options`)
        if self.kind(stage) != Kind::Over {
            for option in self.card_options(state) {
                if !options.contains(&option) {
                    options.push(option);
                }
            }
            options.extend(self.thief_take_options(state));
        }
        // the engine sorts every decision's options canonically
        crate::actions::sort_options(options, self.content, usize::from(state.layout.cols));
        Ok(())
    }

    /// The state after `action`, which must be one of the legal actions (the state is
    /// consumed: a playout steps one value, a caller keeping the old state clones it).
    pub fn apply(&self, state: State, action: &Action) -> Step {
        let k = &self.known;
        let stage = state.decision.stage;
        if let Some(refused) = &self.refused {
            return Err(refused.clone());
        }
        match (self.kind(stage), action) {
            (_, &Action::Tent(tile)) => Ok(self.pitch_tent(state, usize::from(tile))),
            (_, &Action::Item(card, target)) => self.use_item(state, card, target),
            (Kind::Bid, &Action::Bid(cost)) => {
                let placed = self.place_bid(state, cost, cost);
                self.proceed(placed, k.bid)
            }
            (Kind::Pick, &Action::Pick(tile)) => Ok(self.pick(state, usize::from(tile))),
            (Kind::Drop, &Action::Drop(tile, colour)) => {
                self.drop(state, usize::from(tile), usize::from(colour))
            }
            (Kind::Builders, &Action::Fakirs(n)) => self.builders_paid(state, stage, n),
            (Kind::Assassins, &Action::Fakirs(n)) => self.to_kill(state, stage, n),
            (Kind::Kill, &Action::Kill(victim, colour)) => {
                self.kill(state, victim, usize::from(colour))
            }
            (Kind::Market(..), Action::Skip) => self.proceed(state, stage),
            (Kind::Market(cost, reach, _), Action::Buy(cards)) => {
                self.buy(state, stage, cost, reach, cards)
            }
            (_, &Action::Card(card, target, pay)) => self.use_card(state, card, target, pay),
            (_, &Action::Claim(card, pay)) => self.use_card(state, card, None, pay),
            (
                kind @ (Kind::KeepItem | Kind::Workshop | Kind::SpecializedMarket | Kind::Gather),
                _,
            ) => self.artisan_apply(state, kind, action),
            (Kind::Bid, &Action::Discounted(card, cost, fakirs)) => {
                self.kumarbi(state, card, cost, fakirs)
            }
            (Kind::KeepDjinn, &Action::Keep(djinn)) => self.keep_djinn(state, djinn),
            (Kind::Placing(token), &Action::Place(tile)) => {
                Ok(self.placed(state, token, usize::from(tile)))
            }
            (Kind::PlaceToken(token), Action::Place(_)) => {
                let player = state.decision.player as usize;
                let state = self.place_token(state, player, token);
                self.proceed(state, stage)
            }
            (Kind::SacredPlace, Action::Skip) => self.proceed(state, stage),
            (Kind::SacredPlace, &Action::Djinn(djinn, payment)) => {
                self.take_djinn(state, stage, djinn, payment)
            }
            (Kind::Sell, Action::Sell(suit)) => Ok(self.sell(state, suit)),
            (Kind::Sell, Action::End) => self.end_turn(state),
            (Kind::SacredPlace, &Action::Thief(card, payment)) => {
                self.take_thief(state, card, payment)
            }
            (Kind::ThiefStep, Action::Skip) => self.return_to_caller(state),
            (Kind::ThiefGive, &Action::Give(loot)) => self.given_up(state, loot),
            (Kind::ThiefKeep, &Action::Loot(loot)) => self.kept_loot(state, loot),
            (Kind::SultansRoll, &Action::Bid(cost)) => self.sultans_bid(state, cost),
            (Kind::Choice(of), &Action::Choose(n)) => self.chosen(state, of, n),
            _ => Err(Unported(format!(
                "{} at {}",
                action.notation(self.content, usize::from(state.layout.cols)),
                self.stage_name(stage)
            ))),
        }
    }

    // -- the dispatch of stages (plugins/base/flow.py) --------------------------------

    /// `BaseFlow.proceed`: enter whatever follows the stage `finished`.
    fn proceed(&self, state: State, finished: Sym) -> Step {
        // `ThiefFlow` wraps the flow: the thief step after a tribe action
        let state = match self.thief_flow(state, finished) {
            std::ops::ControlFlow::Continue(state) => state,
            std::ops::ControlFlow::Break(step) => return step,
        };
        let k = &self.known;
        if finished == k.bid {
            return self.next_bid(state);
        }
        if finished == k.drop || finished == k.pick {
            let colour = state.turn.as_ref().map_or(NOBODY, |t| t.colour);
            let tribe = self.tribes[colour as usize]
                .ok_or_else(|| Unported(format!("tribe of colour {colour}")))?;
            return self.enter(state, tribe);
        }
        match self.kind(finished) {
            Kind::Keep | Kind::Merchants | Kind::Builders | Kind::Assassins | Kind::Artisans => {
                let turn = state.turn.as_ref().expect("a tribe action is in a turn");
                let here = turn_here(turn);
                let tile = usize::from(state.layout.tiles[here]);
                match self.tile_stages[tile] {
                    Some(stage) => {
                        let kind = &self.content.doc.tiles[tile].kind;
                        let state = self.tile_effects(state, kind, At::Before);
                        self.enter(state, stage)
                    }
                    None => self.enter(state, k.sell),
                }
            }
            Kind::PlaceToken(_)
            | Kind::Market(..)
            | Kind::SacredPlace
            | Kind::City
            | Kind::EffectsTile(_)
            | Kind::Workshop
            | Kind::SpecializedMarket => {
                let name = self.stage_name(finished);
                let kind = name.strip_prefix("tile:").unwrap_or(name);
                let state = self.tile_effects(state, kind, At::After);
                self.enter(state, k.sell)
            }
            Kind::Sell => self.end_turn(state),
            _ => Err(Unported(format!(
                "what follows {}",
                self.stage_name(finished)
            ))),
        }
    }

    /// `Rules.enter`: a stage does its automatic work, then waits or hands on.
    fn enter(&self, state: State, stage: Sym) -> Step {
        match self.kind(stage) {
            Kind::Bid | Kind::Pick | Kind::Drop | Kind::Kill | Kind::Sell | Kind::ThiefStep => {
                Ok(wait_at(state, stage))
            }
            Kind::SultansRoll => self.sultans_roll(state),
            Kind::Keep => self.keep_tribe(state, stage),
            Kind::Merchants => self.merchants(state, stage),
            Kind::Builders => self.builders(state, stage),
            Kind::Assassins => self.assassins(state, stage),
            Kind::PlaceToken(token) => self.place_token_tile(state, stage, token),
            Kind::City => self.city(state, stage),
            Kind::EffectsTile(index) => {
                let program = &self.content.effects.tile_actions[index].program;
                let me = state.decision.player as usize;
                let scope = Scope {
                    me,
                    actor: me as i64,
                    event: None,
                    params: &program.params,
                    card: None,
                    target: None,
                };
                if !effects::holds(&program.test, &state, &scope) {
                    return self.proceed(state, stage);
                }
                let mut state = self.run_effects(state, &program.effects, &scope);
                let choice = effects::final_choice(&program.effects);
                if !choice.is_some_and(|c| effects::holds(&c.test, &state, &scope)) {
                    return self.proceed(state, stage);
                }
                let turn = state.turn.as_mut().expect("a tile action is in a turn");
                let mut callers = turn.callers.to_vec();
                callers.push(stage);
                turn.callers = callers.into_boxed_slice();
                let name = format!("choose:tile:{}", program.id);
                Ok(wait_at(state, self.content.names.known(&name)))
            }
            Kind::Choice(_) => Ok(wait_at(state, stage)),
            Kind::Market(cost, ..) => {
                let player = state.decision.player as usize;
                let coins = i64::from(state.players[player].coins);
                if coins < cost || state.decks[self.content.resources()].row().is_empty() {
                    return self.proceed(state, stage);
                }
                Ok(wait_at(state, stage))
            }
            Kind::SacredPlace => {
                let djinns = state
                    .decks
                    .get(self.content.djinns())
                    .map_or(0, |d| d.row().len());
                if djinns == 0 || self.djinn_payments(&state).is_empty() {
                    return self.proceed(state, stage);
                }
                Ok(wait_at(state, stage))
            }
            kind @ (Kind::Artisans | Kind::Workshop | Kind::SpecializedMarket) => {
                self.artisan_enter(state, stage, kind)
            }
            Kind::Over
            | Kind::KeepDjinn
            | Kind::Placing(_)
            | Kind::ThiefGive
            | Kind::ThiefKeep
            | Kind::KeepItem
            | Kind::Gather
            | Kind::Unported => Err(Unported(self.stage_name(stage).to_owned())),
        }
    }

    /// What the kernel cannot play of this content yet: cards in play whose powers are
    /// not ported and decks beyond the base game's (the harness leaves such cards out).
    pub fn unported_content(&self) -> Vec<String> {
        let mut out = Vec::new();
        let in_play = &self.content.doc.in_play;
        for card in self
            .content
            .doc
            .cards
            .iter()
            .filter(|c| in_play.contains(&c.id))
        {
            let index = self.content.card_index(&card.id).unwrap_or(u8::MAX);
            let ported = card.deck == crate::content::RESOURCES
                || (card.deck == crate::content::DJINNS
                    && (djinn_ported(self.content, &card.kind)
                        || (card.kind == thieves::HAFIZ && self.thieves.is_some())))
                || (self.thieves.is_some() && thieves::is_thief(&card.deck, &card.kind))
                || self.whims.is_whim(index)
                || (self.artisans.is_some()
                    && card.deck == "items"
                    && artisans::item_ported(&card.kind));
            if !ported {
                out.push(format!("{}:{}", card.deck, card.kind));
            }
        }
        out.extend(self.refused.clone().map(|e| e.0));
        out.sort();
        out.dedup();
        out
    }
}

/// `Stage.enter` by default: wait for the current player to decide at `stage`.
fn wait_at(mut state: State, stage: Sym) -> State {
    state.decision.stage = stage;
    state
}

/// `Turn(marker=marker)`: a turn with every other field at its default.
pub(crate) fn new_turn(marker: u8, empty: Sym) -> Turn {
    Turn {
        marker,
        start: NOBODY,
        path: Box::new([]),
        hand: None,
        colour: NOBODY,
        taken: 0,
        reach: 0,
        kills: 1,
        target: crate::state::Target::None,
        used: Box::new([]),
        revealed: Box::new([]),
        resume: empty,
        claimed: Box::new([]),
        callers: Box::new([]),
    }
}

/// `Turn.here`: the last tile dropped on, or the start.
/// A number of Fakirs held, as an action's count: a hand holds no more cards than its
/// deck, which `Content::new` bounds by `MAX_DECK_CARDS` (a `Count`).
fn fakir_count(n: usize) -> Count {
    Count::try_from(n).expect("a hand holds at most MAX_DECK_CARDS cards")
}

fn turn_here(turn: &Turn) -> usize {
    usize::from(*turn.path.last().unwrap_or(&(turn.start as u8)))
}

fn append(items: &[u8], item: u8) -> Box<[u8]> {
    let mut out = items.to_vec();
    out.push(item);
    out.into_boxed_slice()
}

fn has_flag(state: &State, flag: Sym) -> bool {
    state.flags.contains(&flag)
}

fn with_flag(mut state: State, flag: Sym) -> State {
    if !has_flag(&state, flag) {
        let mut flags = state.flags.to_vec();
        flags.push(flag);
        flags.sort();
        state.flags = flags.into_boxed_slice();
    }
    state
}

/// What the stage called `name` does (`tile_actions`, `tribe_actions` and the base
/// plugin's stages), reading the numbers it needs from the content.
fn kind_of(content: &Content, name: &str) -> Kind {
    match name {
        "bid" if solo::in_play(&content.doc) => return Kind::SultansRoll,
        "bid" => return Kind::Bid,
        "pick" => return Kind::Pick,
        "drop" => return Kind::Drop,
        "kill" => return Kind::Kill,
        "sell" => return Kind::Sell,
        "over" => return Kind::Over,
        "keep-djinn" => return Kind::KeepDjinn,
        "thief" => return Kind::ThiefStep,
        "thief-give" => return Kind::ThiefGive,
        "thief-keep" => return Kind::ThiefKeep,
        _ => {}
    }
    if let Some(colour) = name.strip_prefix("tribe:") {
        return match colour {
            "yellow" | "white" => Kind::Keep,
            "green" => Kind::Merchants,
            "blue" => Kind::Builders,
            "red" => Kind::Assassins,
            _ => Kind::Unported,
        };
    }
    let token = |id: &str| {
        content
            .doc
            .tokens
            .iter()
            .position(|t| t.id == id)
            .map_or(Kind::Unported, Kind::PlaceToken)
    };
    let market = |size: &str| {
        let setting = |what: &str| content.setting(&format!("{size}_market_{what}"));
        match (setting("cost"), setting("reach"), setting("take")) {
            (Some(cost), Some(reach), Some(take)) => {
                Kind::Market(cost, reach.max(0) as usize, take.max(0) as usize)
            }
            _ => Kind::Unported,
        }
    };
    if let Some(id) = name.strip_prefix("choose:tile:") {
        let effects = &content.effects;
        return effects
            .tile_actions
            .iter()
            .position(|a| a.at == At::Instead && a.program.id == id)
            .filter(|&i| effects::final_choice(&effects.tile_actions[i].program.effects).is_some())
            .map_or(Kind::Unported, |i| Kind::Choice(ChoiceOf::Tile(i)));
    }
    if let Some(id) = name.strip_prefix("choose:card:") {
        let used = Some(effects::Moment::Use);
        return content
            .doc
            .cards
            .iter()
            .position(|c| c.id == id)
            .filter(|&c| {
                let power = content.effects.power_of(c as u8);
                power.is_some_and(|p| {
                    p.on == used && effects::final_choice(&p.program.effects).is_some()
                })
            })
            .map_or(Kind::Unported, |c| Kind::Choice(ChoiceOf::Card(c as u8)));
    }
    if let Some(id) = name.strip_prefix("placing:") {
        return match token(id) {
            Kind::PlaceToken(index) => Kind::Placing(index),
            other => other,
        };
    }
    if let Some(kind) = name.strip_prefix("tile:") {
        let whole = content
            .effects
            .tile_actions
            .iter()
            .position(|a| a.at == At::Instead && a.tile == kind);
        if let Some(index) = whole {
            return Kind::EffectsTile(index);
        }
    }
    match name {
        "tile:village" => token("palace"),
        "tile:oasis" => token("palm-tree"),
        "tile:small-market" => market("small"),
        "tile:large-market" => market("large"),
        "tile:sacred-place" => Kind::SacredPlace,
        "tile:city" => Kind::City,
        _ => Kind::Unported,
    }
}

/// The index combinations of `k` of `n` items, in `itertools.combinations` order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut indices: Vec<usize> = (0..k).collect();
    loop {
        out.push(indices.clone());
        let Some(i) = (0..k).rev().find(|&i| indices[i] != i + n - k) else {
            return out;
        };
        indices[i] += 1;
        for j in i + 1..k {
            indices[j] = indices[j - 1] + 1;
        }
    }
}
