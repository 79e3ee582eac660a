//! The stages of a turn as a table of trait objects, registered by name
//! (`naqala_stages`, `naqala_tribe_actions` and `naqala_tile_actions` in Python).
//!
//! Each provider names the stages it adds or replaces: solo mode, the Artisans, the
//! effects language (the Whims box's city among them), the Thieves and the base game, in
//! that order; the
//! first to name a stage wins (solo mode's `bid` replaces the base game's, a whole tile
//! action in content replaces the tile's own). The table is built once per content, so
//! the game loop finds a stage by its symbol and never compares names. A name no provider
//! names is a stage the kernel has not ported: a decision or an entry there is
//! `Unported`, with the stage's name.

use std::fmt::Debug;
use std::sync::Arc;

use super::{turn_here, wait_at, Phase, Rules, Step, Unported};

use crate::actions::Action;
use crate::content::Content;
use crate::names::Sym;
use crate::state::{Count, State};

/// A stage: where its decision is taken, its options, what its actions do, and its
/// automatic work on entering it. What follows a finished stage is the flow's, by the
/// stage's name, as in Python (`Rules::proceed`).
pub(super) trait Stage: Debug + Send + Sync {
    /// Where in a turn its decision is taken (`statecheck.rs` holds a state read from
    /// JSON to it).
    fn needs(&self) -> Phase;

    /// Whether it is a step another stage entered, which hands back to it when done
    /// (`Rules.return_to_caller`): the turn names that caller.
    fn is_step(&self) -> bool {
        false
    }

    /// Whether the owner of the turn in progress takes its decision (false: an opponent
    /// does, giving up what a thief takes).
    fn owner_decides(&self) -> bool {
        true
    }

    /// Whether it is the bids' stage (`BidStage`), where Kumarbi's discount is offered
    /// (solo mode's `bid` replaces it and is none).
    fn takes_bids(&self) -> bool {
        false
    }

    /// The token a `placing:<token>` step places elsewhere, if it is one.
    fn placing(&self) -> Option<usize> {
        None
    }

    /// Its decision's own options, written into `out` (the cards' options and the
    /// canonical order are the rules'). A stage with no decision of its own refuses.
    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        _out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        Err(rules.not_here(state.decision.stage))
    }

    /// One of its own options carried out (`Stage.apply`); the cards' and the items'
    /// actions are the rules', whatever the stage. A stage with no decision of its own
    /// takes none.
    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        Err(rules.not_taken_here(&state, action))
    }

    /// `Stage.enter`: its automatic work, then wait for the decision or hand on.
    fn enter(&self, _rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        Ok(wait_at(state, stage))
    }
}

/// A stage looked up by name: the provider's stage of that name, if it has one.
type Provider = fn(&Content, &str) -> Option<Arc<dyn Stage>>;

/// The stage of every name in the content's name table, by symbol.
pub(super) fn table(content: &Content, artisans: bool) -> Vec<Option<Arc<dyn Stage>>> {
    let solo: Provider = super::solo::stage_named;
    let artisans: Provider = if artisans {
        super::artisans::stage_named
    } else {
        |_, _| None
    };
    let effects: Provider = super::programs::stage_named;
    let thieves: Provider = super::thieves::stage_named;
    let providers = [solo, artisans, effects, thieves, stage_named];
    let names = &content.names;
    (0..names.len())
        .map(|i| {
            let name = names.name(Sym(i as u16));
            providers
                .iter()
                .find_map(|provider| provider(content, name))
        })
        .collect()
}

/// The base game's stages (`plugins/base/`), reading the numbers they need from the
/// content.
fn stage_named(content: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    let token = |id: &str| content.doc.tokens.iter().position(|t| t.id == id);
    let market = |size: &str| -> Option<Arc<dyn Stage>> {
        let setting = |what: &str| content.setting(&format!("{size}_market_{what}"));
        Some(Arc::new(Market {
            cost: setting("cost")?,
            reach: setting("reach")?.max(0) as usize,
            take: setting("take")?.max(0) as usize,
        }))
    };
    if let Some(id) = name.strip_prefix("placing:") {
        return Some(Arc::new(Placing { token: token(id)? }));
    }
    Some(match name {
        "bid" => Arc::new(Bid),
        "pick" => Arc::new(Pick),
        "drop" => Arc::new(Drop),
        "kill" => Arc::new(Kill),
        "sell" => Arc::new(Sell),
        "over" => Arc::new(Over),
        "keep-djinn" => Arc::new(ChooseDjinn { face_up: false }),
        "take-djinn" => Arc::new(ChooseDjinn { face_up: true }),
        // the viziers and the elders are kept in front of the player
        "tribe:yellow" | "tribe:white" => Arc::new(Automatic(|rules, state, stage| {
            rules.keep_tribe(state, stage)
        })),
        "tribe:green" => Arc::new(Automatic(|rules, state, stage| {
            rules.merchants(state, stage)
        })),
        "tribe:blue" => Arc::new(BUILDERS),
        "tribe:red" => Arc::new(ASSASSINS),
        "tile:village" => Arc::new(PlaceToken {
            token: token("palace")?,
        }),
        "tile:oasis" => Arc::new(PlaceToken {
            token: token("palm-tree")?,
        }),
        "tile:small-market" => return market("small"),
        "tile:large-market" => return market("large"),
        "tile:sacred-place" => Arc::new(SacredPlace),
        _ => return None,
    })
}

impl Rules<'_> {
    /// The refusal of an action its stage does not take.
    pub(super) fn not_taken_here(&self, state: &State, action: &Action) -> Unported {
        Unported(format!(
            "{} at {}",
            action.notation(self.content, usize::from(state.layout.cols)),
            self.stage_name(state.decision.stage)
        ))
    }

    /// The refusal of a stage with no decision of its own, or one no rule enters.
    pub(super) fn not_here(&self, stage: Sym) -> Unported {
        Unported(self.stage_name(stage).to_owned())
    }
}

/// `BidStage`: the turn-order bids.
#[derive(Debug)]
struct Bid;

impl Stage for Bid {
    fn needs(&self) -> Phase {
        Phase::NoTurn
    }

    fn takes_bids(&self) -> bool {
        true
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        rules.bid_options(state, out);
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Bid(cost) => {
                let placed = rules.place_bid(state, cost, cost);
                rules.proceed(placed, rules.known.bid)
            }
            Action::Discounted(card, cost, fakirs) => rules.kumarbi(state, card, cost, fakirs),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// `PickStage`: the meeples picked up to start a move.
#[derive(Debug)]
struct Pick;

impl Stage for Pick {
    fn needs(&self) -> Phase {
        Phase::BeforeMove
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        if rules.revisit {
            out.extend(rules.pick_options(state));
        } else {
            rules.self_avoiding_picks(state, out);
        }
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Pick(tile) => Ok(rules.pick(state, usize::from(tile))),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// `DropStage`: one meeple in hand dropped on the next tile.
#[derive(Debug)]
struct Drop;

impl Stage for Drop {
    fn needs(&self) -> Phase {
        Phase::Moving
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        if rules.revisit {
            out.extend(rules.drop_options(state));
        } else {
            rules.self_avoiding_drops(state, out);
        }
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Drop(tile, colour) => rules.drop(state, usize::from(tile), usize::from(colour)),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// `KillStage`: the assassins' victim, a step of their tribe action (or a djinn's).
#[derive(Debug)]
struct Kill;

impl Stage for Kill {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn is_step(&self) -> bool {
        true
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend(rules.kill_targets(state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Kill(victim, colour) => rules.kill(state, victim, usize::from(colour)),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// `SellStage`: suits of resources sold, until the turn is ended.
#[derive(Debug)]
struct Sell;

impl Stage for Sell {
    fn needs(&self) -> Phase {
        Phase::NotMoving
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend(rules.sell_options(state)?);
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match action {
            Action::Sell(suit) => Ok(rules.sell(state, suit)),
            Action::End => rules.end_turn(state),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// The game is over: nobody decides.
#[derive(Debug)]
struct Over;

impl Stage for Over {
    fn needs(&self) -> Phase {
        Phase::Over
    }

    fn options(&self, _: &Rules<'_>, _: &State, _: &mut Vec<Action>) -> Result<(), Unported> {
        Ok(())
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}

/// A djinn an effect asks its player to choose: one of those drawn, the others then
/// discarded (`keep-djinn`: `draw_djinns`, Sibittis), or one of the face-up row, free
/// (`take-djinn`: `take_djinn`).
#[derive(Debug)]
struct ChooseDjinn {
    /// from the face-up row, not from the djinns drawn
    face_up: bool,
}

impl Stage for ChooseDjinn {
    fn needs(&self) -> Phase {
        Phase::Any // a djinn used at any point of the turn asks it
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        let djinns = if self.face_up {
            state.decks[rules.content.djinns()].row()
        } else {
            &state.turn.as_ref().expect("in a turn").revealed
        };
        out.extend(djinns.iter().map(|&c| Action::Keep(c)));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Keep(djinn) if self.face_up => rules.take_face_up(state, djinn),
            Action::Keep(djinn) => rules.keep_djinn(state, djinn),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}

/// `placing:<token>`: a token an effect placed, which a card of the player may put
/// elsewhere first (Hagis, Lamia).
#[derive(Debug)]
struct Placing {
    token: usize,
}

impl Stage for Placing {
    fn needs(&self) -> Phase {
        Phase::Any
    }

    fn is_step(&self) -> bool {
        true
    }

    fn placing(&self) -> Option<usize> {
        Some(self.token)
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.push(Action::Place(rules.pending_tile(state, self.token) as u8));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Place(tile) => Ok(rules.placed(state, self.token, usize::from(tile))),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}

/// A stage with no decision of its own (a tribe or tile action done at once): entered,
/// it does its work and hands on.
#[derive(Debug)]
pub(super) struct Automatic(pub(super) fn(&Rules<'_>, State, Sym) -> Step);

impl Stage for Automatic {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        (self.0)(rules, state, stage)
    }
}

/// A tribe action that asks how many Fakirs to discard (`fakirs <n>`): the builders
/// (coins for the blue tiles around, more per Fakir) and the assassins (a victim in
/// reach, further per Fakir; then `kill`).
#[derive(Debug)]
struct WithFakirs {
    /// the tribe's work on entering: paid at once, or the question asked
    enter: fn(&Rules<'_>, State, Sym) -> Step,
    /// the Fakirs it may be paid
    options: fn(&Rules<'_>, &State) -> Vec<Action>,
    /// the answer carried out
    paid: fn(&Rules<'_>, State, Sym, Count) -> Step,
}

const BUILDERS: WithFakirs = WithFakirs {
    enter: |rules, state, stage| rules.builders(state, stage),
    options: |rules, state| rules.builder_options(state),
    paid: |rules, state, stage, n| rules.builders_paid(state, stage, n),
};

const ASSASSINS: WithFakirs = WithFakirs {
    enter: |rules, state, stage| rules.assassins(state, stage),
    options: |rules, state| rules.assassin_options(state),
    paid: |rules, state, stage, n| rules.to_kill(state, stage, n),
};

impl Stage for WithFakirs {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend((self.options)(rules, state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Fakirs(n) => {
                let stage = state.decision.stage;
                (self.paid)(rules, state, stage, n)
            }
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        (self.enter)(rules, state, stage)
    }
}

/// A village or an oasis: this token (by index) on the final tile.
#[derive(Debug)]
struct PlaceToken {
    token: usize,
}

impl Stage for PlaceToken {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn options(&self, _: &Rules<'_>, state: &State, out: &mut Vec<Action>) -> Result<(), Unported> {
        let turn = state.turn.as_ref().expect("in a turn");
        out.push(Action::Place(turn_here(turn) as u8));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match action {
            Action::Place(_) => {
                let (stage, player) = (state.decision.stage, state.decision.player as usize);
                let state = rules.place_token(state, player, self.token);
                rules.proceed(state, stage)
            }
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        rules.place_token_tile(state, stage, self.token)
    }
}

/// A market: its cost, how far into the row it reaches and how many it takes (content
/// settings `<size>_market_*`; the Artisans' specialized market reaches the whole row and
/// takes one card, `Market::whole_row`).
#[derive(Debug)]
pub(super) struct Market {
    cost: i64,
    reach: usize,
    take: usize,
}

impl Market {
    /// A market offering any one face-up card for `cost` coins.
    pub(super) fn whole_row(cost: i64) -> Market {
        Market {
            cost,
            reach: usize::MAX,
            take: 1,
        }
    }
}

impl Stage for Market {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        let player = state.decision.player as usize;
        if i64::from(state.players[player].coins) < self.cost {
            out.push(Action::Skip); // an effect took coins since the market was entered
        } else {
            out.extend(rules.market_options(state, self.reach, self.take)?);
        }
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        let stage = state.decision.stage;
        match action {
            Action::Skip => rules.proceed(state, stage),
            Action::Buy(cards) => rules.buy(state, stage, self.cost, self.reach, cards),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        let player = state.decision.player as usize;
        let coins = i64::from(state.players[player].coins);
        if coins < self.cost || state.decks[rules.content.resources()].row().is_empty() {
            return rules.proceed(state, stage);
        }
        Ok(wait_at(state, stage))
    }
}

/// A sacred place: a djinn of the row for elders and Fakirs (or a thief, with the
/// Thieves).
#[derive(Debug)]
struct SacredPlace;

impl Stage for SacredPlace {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend(rules.sacred_place_options(state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        let stage = state.decision.stage;
        match *action {
            Action::Skip => rules.proceed(state, stage),
            Action::Djinn(djinn, payment) => rules.take_djinn(state, stage, djinn, payment),
            Action::Thief(card, payment) => rules.take_thief(state, card, payment),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, stage: Sym) -> Step {
        let djinns = state
            .decks
            .get(rules.content.djinns())
            .map_or(0, |d| d.row().len());
        if djinns == 0 || rules.djinn_payments(&state).is_empty() {
            return rules.proceed(state, stage);
        }
        Ok(wait_at(state, stage))
    }
}
