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
//! dispatch of decisions and stages (`legal_actions`, `apply`, `proceed`, `enter`) to the
//! table of stages by name (`stages`: each box names the stages it adds or replaces). The
//! rules themselves are split by rule as `plugins/base/` is, one `impl Rules` block
//! each: `flow`, `bidding`, `movement`, `tribes`, `tiles`, `cards`, `djinns`, `market`,
//! `events`, `programs` (the effects language) and `scoring`; the boxes are `artisans`,
//! `whims`, `solo` and `thieves`.

use std::sync::Arc;

use crate::actions::Action;
use crate::callbacks::HookCalls;
use crate::content::Content;
use crate::effects::At;
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
mod programs;
mod score_terms;
mod scoring;
mod stages;
mod tiles;
mod tribes;
mod used_powers;
pub(crate) mod whims;

use djinns::djinn_ported;
use used_powers::Aim;

pub use crate::unported::Unported;

#[path = "solo.rs"]
pub mod solo;
#[path = "thieves.rs"]
pub mod thieves;

pub type Step = Result<State, Unported>;

/// What a stage is in the turn, by its name as the base flow reads it
/// (`BaseFlow.proceed`): a tribe action is followed by the final tile's action, a tile
/// action by the sale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    TribeAction,
    TileAction,
    Other,
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

/// What a card's kind asks of the decision it is offered at: the stages its content
/// power names, as symbols; `None` is every stage. A stage name the content does not have
/// is left out, as no decision can be at it.
#[derive(Clone, Debug)]
struct CardGate {
    power_stages: Option<Vec<Sym>>,
}

impl CardGate {
    fn new(content: &Content, card: usize) -> CardGate {
        let names = &content.names;
        let syms = |stages: &[String]| -> Vec<Sym> {
            stages.iter().filter_map(|s| names.sym(s)).collect()
        };
        let used = Some(crate::effects::Moment::Use);
        let power_stages = content
            .effects
            .power_at(card as u8, used)
            .filter(|p| !p.stages.is_empty())
            .map(|p| syms(&p.stages));
        CardGate { power_stages }
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
    /// each stage by its symbol, as its provider registered it (`stages`); None for a
    /// name that is no stage the kernel plays
    stages: Vec<Option<Arc<dyn stages::Stage>>>,
    /// whether each symbol names a tribe action (`tribe:…`) or a tile action (`tile:…`)
    /// the kernel plays: what follows it when finished (`proceed`)
    parts: Vec<Part>,
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
    /// by card index, whether its deck names its use by a verb (`claim <whim>`): a used
    /// power without a target is then `Action::Claim`
    claimed_by_verb: Vec<bool>,
    round_keys: Vec<Option<Sym>>,
    /// by deck index, the tile kinds its row lies on (`lies_on`), by tile table index: a
    /// mask found once for `fill_lying` and `take_lying`
    lying: Vec<Option<Box<[bool]>>>,
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

/// The decks whose cards the boxes' rules read by kind; a card of any other deck (a
/// house rule's own) is played when its power is content.
const BOX_DECKS: [&str; 5] = [
    crate::content::RESOURCES,
    crate::content::DJINNS,
    crate::content::box_names::THIEVES,
    "items",
    whims::WHIMS,
];

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
        let stages = stages::table(content, artisans.is_some());
        let parts = stages
            .iter()
            .enumerate()
            .map(|(i, stage)| {
                let name = names.name(Sym(i as u16));
                match stage {
                    Some(_) if name.starts_with("tribe:") => Part::TribeAction,
                    Some(_) if name.starts_with("tile:") => Part::TileAction,
                    _ => Part::Other,
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
            stages,
            parts,
            tile_stages,
            costs,
            reacts: content
                .doc
                .cards
                .iter()
                .enumerate()
                .map(|(i, _)| {
                    (content.effects.powers_of(i as u8))
                        .any(|p| p.on.is_some_and(|m| m != crate::effects::Moment::Scoring))
                })
                .collect(),
            activated: content
                .doc
                .cards
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    content
                        .effects
                        .power_at(i as u8, Some(crate::effects::Moment::Use))
                        .is_some()
                        || thieves::is_thief(&c.deck, &c.kind)
                        || artisans.as_ref().is_some_and(|a| a.activated(i as u8))
                })
                .collect(),
            claimed_by_verb: (content.doc.cards.iter())
                .map(|c| {
                    (content.deck_index(&c.deck))
                        .is_some_and(|d| !content.doc.decks[d].verb.is_empty())
                })
                .collect(),
            use_marks: (0..content.doc.cards.len())
                .map(|card| use_mark_of(content, card))
                .collect(),
            round_keys: (0..content.doc.cards.len())
                .map(|card| round_key_of(content, card))
                .collect(),
            lying: (0..content.doc.decks.len())
                .map(|deck| content.doc.lying_places(deck))
                .collect(),
            gates: (0..content.doc.cards.len())
                .map(|card| CardGate::new(content, card))
                .collect(),
            elder: content.doc.colour_index(crate::content::ELDER),
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
        self.stage(stage).map(|s| s.needs())
    }

    /// Whether a decision of `stage` is a step another stage entered, which hands back
    /// to it when done (`Rules.return_to_caller`): the turn names that caller.
    pub(crate) fn is_step(&self, stage: Sym) -> bool {
        self.stage(stage).is_some_and(|s| s.is_step())
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
        self.stage(stage).is_none_or(|s| s.owner_decides())
    }

    /// The stage registered under `stage`, if the kernel plays one of that name.
    fn stage(&self, stage: Sym) -> Option<&dyn stages::Stage> {
        self.stages[usize::from(stage.0)].as_deref()
    }

    /// Whether the decision waiting in `state` is at the bids' stage (`BidStage`).
    pub(super) fn takes_bids(&self, state: &State) -> bool {
        self.stage(state.decision.stage)
            .is_some_and(|s| s.takes_bids())
    }

    /// The token the decision waiting in `state` places elsewhere, if it is a
    /// `placing:<token>` step.
    pub(super) fn placing_now(&self, state: &State) -> Option<usize> {
        self.stage(state.decision.stage).and_then(|s| s.placing())
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
        let Some(kind) = self.stage(stage) else {
            return Err(self.not_here(stage));
        };
        kind.options(self, state, options)?;
        // what the deciding player's cards offer (`naqala_extra_options`)
        if stage != self.known.over {
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
        if let Some(refused) = &self.refused {
            return Err(refused.clone());
        }
        match *action {
            Action::Tent(tile) => Ok(self.pitch_tent(state, usize::from(tile))),
            Action::Item(card, target) => self.use_item(state, card, target),
            Action::Card(card, target, pay) => {
                self.use_card(state, card, target.map_or(Aim::Nothing, Aim::Tile), pay)
            }
            Action::CardOnCard(card, target, pay) => {
                self.use_card(state, card, Aim::Card(target), pay)
            }
            Action::CardOnTiles(card, from, to, pay) => {
                self.use_card(state, card, Aim::Tiles(from, to), pay)
            }
            Action::CardOnMeeples(card, tile, group, pay) => {
                self.use_card(state, card, Aim::Meeples(tile, group), pay)
            }
            Action::Claim(card, pay) => self.use_card(state, card, Aim::Nothing, pay),
            _ => match self.stage(state.decision.stage) {
                Some(stage) => stage.apply(self, state, action),
                None => Err(self.not_taken_here(&state, action)),
            },
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
            let state = self.tribe_event(state, true);
            return self.enter(state, tribe);
        }
        if finished == k.sell {
            return self.end_turn(state);
        }
        match self.parts[usize::from(finished.0)] {
            Part::TribeAction => {
                let state = self.tribe_event(state, false);
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
            Part::TileAction => {
                let name = self.stage_name(finished);
                let kind = name.strip_prefix("tile:").unwrap_or(name);
                let state = self.tile_effects(state, kind, At::After);
                self.enter(state, k.sell)
            }
            Part::Other => Err(Unported(format!(
                "what follows {}",
                self.stage_name(finished)
            ))),
        }
    }

    /// `Rules.enter`: a stage does its automatic work, then waits or hands on.
    fn enter(&self, state: State, stage: Sym) -> Step {
        match self.stage(stage) {
            Some(kind) => kind.enter(self, state, stage),
            None => Err(self.not_here(stage)),
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
                || (card.deck == whims::WHIMS && self.whim_ported(index))
                || (!BOX_DECKS.contains(&card.deck.as_str())
                    && self.content.effects.has_power(index))
                || (self.artisans.is_some()
                    && card.deck == "items"
                    && (artisans::item_ported(&card.kind)
                        || self.content.effects.has_power(index)));
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
