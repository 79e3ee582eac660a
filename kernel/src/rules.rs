//! The rules, ported stage by stage from the base plugin (`plugins/base/`).
//!
//! Each function names the Python it follows. What is not ported yet is never guessed:
//! a decision or an entry into a stage the kernel does not implement is `Unported`, with
//! the stage's name, so the differential harness counts it apart from a difference and
//! a later session can port it next. Event triggers (`rules.fire` in Python) change
//! nothing here: the kernel plays only content whose cards react to no event
//! (`unported_content`), and the places where Python fires an event are marked.

use std::sync::Arc;

use crate::actions::{Action, Cards, Pay, Payment, Victim};
use crate::callbacks::HookCalls;
use crate::content::{Content, MAX_COLOURS};
use crate::effects::{self, At, Facts, Scope};
use crate::extras::{get_extra, set_extra};
use crate::names::Sym;
use crate::state::{Count, Counts, Decision, Deck, State, Target, Turn, NOBODY};

/// The Artisans of Naqala (plugins/artisans/), a module of its own.
pub(crate) mod artisans;
mod score_terms;
mod whims;

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

/// The djinns the kernel has ported by hand besides those content gives (`[[power]]`,
/// `crate::effects`): Al-Amin (Fakirs as wild merchandise at final
/// scoring, `AlAmin`).
const AL_AMIN: &str = "al-amin";

/// Whether the kernel plays the djinns of kind `kind`.
fn djinn_ported(content: &Content, kind: &str) -> bool {
    content.doc.effects.powers.iter().any(|p| p.kind == kind)
        || kind == AL_AMIN
        || REACTING_DJINNS.contains(&kind)
        || ACTIVATED_DJINNS.contains(&kind)
        || kind == KUMARBI
        || whims::BOX_DJINNS.contains(&kind)
        || artisans::SCORING_DJINNS.contains(&kind)
}

/// The djinns that react to events in their own way: Kandicha (what the owner's
/// assassins kill), Boaz (its protection counted when it hides a target).
const REACTING_DJINNS: &[&str] = &["kandicha", "boaz", "echidna"];

/// The activated djinns written in Rust (`Activated` powers used in the owner's turn):
/// Leta and Utug take a tile (`TakeTile`), Anun-Nak fills an empty tile from the bag,
/// Echidna multiplies the builders' pay (with its `builders-paid` reaction), Sibittis,
/// Hagis and Lamia. Sloar, Bouraq, Enki and Iblis are content (`on = "use"`).
const ACTIVATED_DJINNS: &[&str] = &[
    "leta", "utug", "anun-nak", "echidna", "sibittis", "hagis", "lamia",
];

/// Kumarbi: a discount on the bid, paid in Fakirs (offered while its owner bids).
const KUMARBI: &str = "kumarbi";

/// Boaz: assassins cannot kill the viziers and elders in front of its owner.
const BOAZ: &str = "boaz";
const BOAZ_PROTECTS: &[&str] = &["yellow", "white"];

/// What happened, for the djinns that react (`core/events.py`'s `Event`, the fields the
/// ported reactions read).
#[derive(Clone, Copy, Debug)]
enum Event {
    /// `meeple-dropped`: the mover, the tile dropped on
    MeepleDropped { player: usize, tile: usize },
    /// `kill`: the assassins' owner, the colour killed, the tile (None: in front of
    /// `victim`)
    Kill {
        player: usize,
        colour: usize,
        tile: Option<usize>,
        victim: Option<usize>,
    },
    /// `kill-prevented`: a protection of `victim` hid a target from `player`'s assassins
    KillPrevented { player: usize, victim: usize },
    /// `builders-paid`: who, where, and how many coins
    BuildersPaid {
        player: usize,
        tile: usize,
        count: i64,
    },
    /// `<token>-placed`: who placed a token of which kind (by index) where
    TokenPlaced {
        player: usize,
        tile: usize,
        token: usize,
    },
    /// `djinn-taken`: who took which djinn
    DjinnTaken { player: usize, djinn: u8 },
    /// `tile-taken`: who put a camel (or a piece) on which tile
    TileTaken { player: usize, tile: usize },
    /// `turn-end`: whose turn ended, once the sale is done
    TurnEnd { player: usize },
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

/// The kinds of activated card whose options the kernel finds by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CardKind {
    Echidna,
    Sibittis,
    Leta,
    Utug,
    AnunNak,
    /// a card placing this token near its own (`PlaceNearby`: hagis, lamia)
    Nearby(usize),
    Dalhan,
    Other,
}

/// What a card's kind asks of the decision it is offered at, as symbols: its kind, the
/// stages its kind is offered at (`Echidna.stages`, `PlaceNearby.stages`) and those its
/// used power names; `None` is every stage. A stage name the content does not have is
/// left out, as no decision can be at it.
#[derive(Clone, Debug)]
struct CardGate {
    kind: CardKind,
    stages: Option<Vec<Sym>>,
    power_stages: Option<Vec<Sym>>,
}

impl CardGate {
    fn new(content: &Content, card: usize) -> CardGate {
        let names = &content.names;
        let syms = |stages: &[String]| -> Vec<Sym> {
            stages.iter().filter_map(|s| names.sym(s)).collect()
        };
        let kind_name = content.doc.cards[card].kind.as_str();
        let nearby = match kind_name {
            "hagis" => Some(("palace", "village")),
            "lamia" => Some(("palm-tree", "oasis")),
            _ => None,
        }
        .and_then(|(token, tile_kind)| {
            let index = content.doc.tokens.iter().position(|t| t.id == token)?;
            Some((index, tile_kind))
        });
        let (kind, stages) = match (kind_name, nearby) {
            (_, Some((token, tile_kind))) => {
                let id = &content.doc.tokens[token].id;
                let stages = [format!("tile:{tile_kind}"), format!("placing:{id}")];
                (CardKind::Nearby(token), Some(syms(&stages)))
            }
            ("echidna", _) => {
                let stages = ["pick", "drop", "tribe:blue"].map(String::from);
                (CardKind::Echidna, Some(syms(&stages)))
            }
            ("sibittis", _) => (CardKind::Sibittis, None),
            ("leta", _) => (CardKind::Leta, None),
            ("utug", _) => (CardKind::Utug, None),
            ("anun-nak", _) => (CardKind::AnunNak, None),
            (whims::DALHAN, _) => (CardKind::Dalhan, None),
            _ => (CardKind::Other, None),
        };
        let used = Some(crate::effects::Moment::Use);
        let power_stages = content
            .effects
            .power_of(card as u8)
            .filter(|p| p.on == used && !p.stages.is_empty())
            .map(|p| syms(&p.stages));
        CardGate {
            kind,
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
        && content.deck_index(&spec.deck) == Some(DJINNS)
        && content.setting("djinn_limit_round_2p").unwrap_or(0) != 0;
    limited.then(|| content.names.known(&format!("round-used:{}", spec.id)))
}

/// A pick of each tile of `tiles` (a set as bits) in the canonical order of the tiles'
/// names, column by column and down each column (`a1 a2 … b1`), so that the options'
/// sort finds them in order and leaves them.
fn picks_in_name_order(tiles: u64, cols: usize, size: usize) -> Vec<Action> {
    let mut out = Vec::with_capacity(tiles.count_ones() as usize);
    picks_in_name_order_into(tiles, cols, size, &mut out);
    out
}

/// `picks_in_name_order` appended to `out`.
fn picks_in_name_order_into(tiles: u64, cols: usize, size: usize, out: &mut Vec<Action>) {
    for col in 0..cols.min(size) {
        for tile in (col..size).step_by(cols) {
            if tiles >> tile & 1 != 0 {
                out.push(Action::Pick(tile as u8));
            }
        }
    }
}

/// The decks every game has, by index (`core/engine.py`).
pub(crate) const RESOURCES: usize = 0;
const DJINNS: usize = 1;

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
                    ACTIVATED_DJINNS.contains(&c.kind.as_str())
                        || content
                            .effects
                            .power_of(i as u8)
                            .is_some_and(|p| p.on == Some(crate::effects::Moment::Use))
                        || thieves::is_thief(&c.deck, &c.kind)
                        || c.kind == whims::DALHAN
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

    // -- the flow (plugins/base/flow.py) ----------------------------------------------

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
                if coins < cost || state.decks[RESOURCES].row().is_empty() {
                    return self.proceed(state, stage);
                }
                Ok(wait_at(state, stage))
            }
            Kind::SacredPlace => {
                let djinns = state.decks.get(DJINNS).map_or(0, |d| d.row().len());
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

    /// `BaseFlow._next_bid`: the next marker on the bid track bids, or the turns begin.
    fn next_bid(&self, state: State) -> Step {
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
    fn start_turn(&self, mut state: State) -> Step {
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
        let no_moves = self.known.no_moves;
        if !has_flag(&state, no_moves) && self.starts(&state, true).is_empty() {
            state = with_flag(state, no_moves);
        }
        if has_flag(&state, no_moves) {
            return self.enter(state, self.known.sell);
        }
        Ok(state)
    }

    // -- bidding (plugins/base/bidding.py) --------------------------------------------

    /// The turn-order costs in play: `turn_order_costs_<players>` if the content has
    /// one, else `turn_order_costs`.
    fn costs(&self, state: &State) -> &[i64] {
        self.turn_order_costs(state.players.len())
    }

    /// The turn-order costs for `players` players (`turn_order_costs`).
    pub fn turn_order_costs(&self, players: usize) -> &[i64] {
        &self.costs[players]
    }

    /// `BaseFlow.start`: the first decision of a freshly set-up game.
    pub fn start(&self, state: State) -> Step {
        self.next_bid(state)
    }

    /// The spots of each distinct cost, dearest cost first (`_cost_groups`).
    fn cost_groups(costs: &[i64]) -> Vec<Vec<usize>> {
        let mut distinct: Vec<i64> = costs.to_vec();
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        distinct
            .iter()
            .map(|&cost| (0..costs.len()).filter(|&i| costs[i] == cost).collect())
            .collect()
    }

    /// `free_spots`: the front spot of each cost while any spot of that cost is free.
    fn free_spots(&self, state: &State) -> Vec<usize> {
        let track = state.turn_track.as_slice();
        Self::cost_groups(self.costs(state))
            .into_iter()
            .filter(|group| group.iter().any(|&i| track[i] == NOBODY))
            .map(|group| group[0])
            .collect()
    }

    /// `BidStage.legal`: the affordable free spots, or the cheapest when none is.
    /// Written into `out` (empty), with no list of its own: the free spots are each
    /// distinct cost, dearest first, that has a free spot (`free_spots`).
    fn bid_options(&self, state: &State, out: &mut Vec<Action>) {
        let costs = self.costs(state);
        let coins = i64::from(state.players[state.decision.player as usize].coins);
        let track = state.turn_track.as_slice();
        let mut cheapest: Option<i64> = None;
        let mut below = i64::MAX;
        // each time the dearest cost under the last one looked at
        while let Some(cost) = costs.iter().copied().filter(|&c| c < below).max() {
            below = cost;
            let free = (0..costs.len()).any(|i| costs[i] == cost && track[i] == NOBODY);
            if !free {
                continue;
            }
            if cost <= coins {
                out.push(Action::Bid(cost as u32));
            }
            cheapest = Some(cost);
        }
        if out.is_empty() {
            // min(spots, key=cost): the lowest cost of a free spot
            if let Some(cost) = cheapest {
                out.push(Action::Bid(cost as u32));
            }
        }
    }

    /// `place_bid`: the bidding marker takes the front spot of `cost`, pushing markers
    /// already on spots of that cost back; its owner pays `price` (all coins if less).
    fn place_bid(&self, state: State, cost: u32, price: u32) -> State {
        let costs = self.costs(&state).to_vec();
        let mut state = state;
        let marker = *state
            .bid_track
            .as_slice()
            .iter()
            .find(|&&m| m != NOBODY)
            .expect("a marker is bidding");
        let player = state.decision.player as usize;
        let group: Vec<usize> = (0..costs.len())
            .filter(|&i| costs[i] == i64::from(cost))
            .collect();
        let track = state.turn_track.as_mut_slice();
        let mut queue = vec![marker];
        queue.extend(group.iter().map(|&i| track[i]).filter(|&m| m != NOBODY));
        for (i, &spot) in group.iter().enumerate() {
            track[spot] = queue.get(i).copied().unwrap_or(NOBODY);
        }
        let coins = &mut state.players[player].coins;
        *coins -= (price as i32).min(*coins);
        let bids = state.bid_track.as_mut_slice();
        let at = bids
            .iter()
            .position(|&m| m == marker)
            .expect("the marker bids");
        bids[at] = NOBODY;
        state
    }

    // -- movement (plugins/base/movement.py) ------------------------------------------

    /// For each colour, a mask of the tiles holding at least one meeple of it.
    fn colour_masks(&self, state: &State) -> [u64; MAX_COLOURS] {
        let mut masks = [0u64; MAX_COLOURS];
        for tile in 0..state.layout.size() {
            let bit = 1u64 << tile;
            for (mask, &n) in masks.iter_mut().zip(state.board.meeples(tile)) {
                if n != 0 {
                    *mask |= bit;
                }
            }
        }
        masks
    }

    /// `pick_options` when no tile may be entered twice, written into `out` (empty).
    fn self_avoiding_picks(&self, state: &State, out: &mut Vec<Action>) {
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let found = crate::moves::self_avoiding_start_mask(geo, &state.board, &masks, false);
        picks_in_name_order_into(found, usize::from(state.layout.cols), geo.size, out);
    }

    /// `drop_options` when no tile may be entered twice, written into `out` (empty).
    fn self_avoiding_drops(&self, state: &State, out: &mut Vec<Action>) {
        let turn = state.turn.as_ref().expect("a drop is in a turn");
        let hand = turn.hand.expect("a drop has meeples in hand");
        let masks = self.colour_masks(state);
        let colours = self.content.colours();
        let visited = turn
            .path
            .iter()
            .fold(1u64 << turn.start, |mask, &tile| mask | 1u64 << tile);
        crate::moves::each_self_avoiding_drop(
            &state.layout.geometry,
            &state.board,
            turn_here(turn),
            &hand[..colours],
            &masks,
            visited,
            |t, c| out.push(Action::Drop(t as u8, c as u8)),
        );
    }

    /// `legal_starts`: tiles from which some legal move exists.
    fn pick_options(&self, state: &State) -> Vec<Action> {
        self.starts(state, false)
    }

    /// The legal starts; only the first when `first` (is there any move at all?).
    fn starts(&self, state: &State, first: bool) -> Vec<Action> {
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let cols = usize::from(state.layout.cols);
        if !self.revisit {
            let starts = crate::moves::self_avoiding_starts(geo, &state.board, &masks, first);
            let found = starts.iter().fold(0u64, |mask, &t| mask | 1u64 << t);
            return picks_in_name_order(found, cols, geo.size);
        }
        let mut out = Vec::new();
        for tile in 0..state.layout.size() {
            let hand = state.board.meeples(tile);
            let k: usize = hand.iter().map(|&n| usize::from(n)).sum();
            if k == 0 || geo.is_impassable(tile) {
                continue;
            }
            let ends = geo.reach(tile, NOBODY, k) & !(1u64 << tile);
            let direct = hand
                .iter()
                .enumerate()
                .any(|(c, &n)| n != 0 && ends & masks[c] != 0);
            let max = hand.iter().copied().max().unwrap_or(0);
            if direct || (max >= 2 && geo.loop_ends(tile, NOBODY, k) != 0) {
                out.push(Action::Pick(tile as u8));
                if first {
                    break;
                }
            }
        }
        if first {
            return out;
        }
        let found = out.iter().fold(0u64, |mask, a| match a {
            Action::Pick(t) => mask | 1u64 << t,
            _ => mask,
        });
        picks_in_name_order(found, cols, geo.size)
    }

    /// `legal_drops`: (tile, colour) pairs the next drop may be, each keeping a legal
    /// end possible.
    fn drop_options(&self, state: &State) -> Vec<Action> {
        let turn = state.turn.as_ref().expect("a drop is in a turn");
        let hand = turn.hand.expect("a drop has meeples in hand");
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
        let colours = self.content.colours();
        let here = turn_here(turn);
        if !self.revisit {
            let visited = turn
                .path
                .iter()
                .fold(1u64 << turn.start, |mask, &tile| mask | 1u64 << tile);
            let drops = crate::moves::self_avoiding_drops(
                geo,
                &state.board,
                here,
                &hand[..colours],
                &masks,
                visited,
            );
            return drops
                .into_iter()
                .map(|(t, c)| Action::Drop(t as u8, c as u8))
                .collect();
        }
        let prev = turn_previous(turn);
        let k = hand[..colours]
            .iter()
            .map(|&n| usize::from(n))
            .sum::<usize>()
            - 1;
        let mut held = [0usize; MAX_COLOURS];
        let mut held_count = 0;
        for (c, &n) in hand[..colours].iter().enumerate() {
            if n != 0 {
                held[held_count] = c;
                held_count += 1;
            }
        }
        let held = &held[..held_count];
        let mut out = Vec::new();
        for &nxt in &geo.neighbours[here] {
            let nxt_tile = usize::from(nxt);
            if i16::from(nxt) == i16::from(prev) {
                continue;
            }
            if k == 0 {
                let counts = state.board.meeples(nxt_tile);
                for &colour in held {
                    if counts[colour] != 0 {
                        out.push(Action::Drop(nxt, colour as u8));
                    }
                }
                continue;
            }
            let ends = geo.reach(nxt_tile, here as i8, k);
            // colours of the hand some k-step walk can end on, as a bit set
            let mut hits = 0u32;
            for &c in held {
                if ends & masks[c] != 0 {
                    hits |= 1 << c;
                }
            }
            let back = ends >> nxt_tile & 1 == 1;
            let mut loops: Option<u64> = None;
            for &colour in held {
                let two = hand[colour] >= 2;
                let in_hits = hits >> colour & 1 == 1;
                if hits.count_ones() > u32::from(in_hits) || (two && (back || in_hits)) {
                    out.push(Action::Drop(nxt, colour as u8));
                    continue;
                }
                if hand[colour] >= 3 || held.iter().any(|&c| c != colour && hand[c] >= 2) {
                    let found =
                        *loops.get_or_insert_with(|| geo.loop_ends(nxt_tile, here as i8, k));
                    if found != 0 {
                        out.push(Action::Drop(nxt, colour as u8));
                    }
                }
            }
        }
        out
    }

    /// `PickStage.apply`: every meeple of the tile goes into the hand.
    fn pick(&self, state: State, tile: usize) -> State {
        let mut state = state;
        let mut hand: Counts = [0; crate::content::MAX_COLOURS];
        let meeples = state.board.meeples_mut(tile);
        hand[..meeples.len()].copy_from_slice(meeples);
        meeples.fill(0);
        let turn = state.turn.as_mut().expect("a pick is in a turn");
        turn.start = tile as i8;
        turn.hand = Some(hand);
        wait_at(state, self.known.drop)
    }

    /// `DropStage.apply`: one meeple from the hand onto the next tile; the last one
    /// ends the move with the control check.
    fn drop(&self, state: State, tile: usize, colour: usize) -> Step {
        let mut state = state;
        state.board.meeples_mut(tile)[colour] += 1;
        let turn = state.turn.as_mut().expect("a drop is in a turn");
        turn.path = append(&turn.path, tile as u8);
        let hand = turn.hand.as_mut().expect("a drop has meeples in hand");
        hand[colour] -= 1;
        let empty = hand.iter().all(|&n| n == 0);
        let player = state.decision.player as usize;
        let state = self.fire(state, Event::MeepleDropped { player, tile });
        if !empty {
            return Ok(state);
        }
        let state = self.control_check(state, tile, colour);
        self.proceed(state, self.known.drop)
    }

    /// `control_check` (rulebook 2.3): take back the meeples of the last colour from the
    /// final tile; an emptied unowned tile gets a camel.
    fn control_check(&self, mut state: State, tile: usize, colour: usize) -> State {
        let taken = std::mem::take(&mut state.board.meeples_mut(tile)[colour]);
        let turn = state.turn.as_mut().expect("a control check is in a turn");
        turn.colour = colour as i8;
        turn.taken = taken;
        if state.board.meeples(tile).iter().all(|&n| n == 0) {
            let player = state.decision.player as usize;
            state = self.take_tile(state, player, tile);
        }
        state
    }

    /// `take_tile`: a camel on an unowned tile, or out of camels a piece still to place
    /// (a `piece.<token>` counter) as a token of that name.
    fn take_tile(&self, mut state: State, player: usize, tile: usize) -> State {
        if state.board.owner(tile) != NOBODY {
            return state;
        }
        if state.players[player].camels > 0 {
            state.players[player].camels -= 1;
        } else {
            let extras = &state.players[player].extras;
            let piece = extras
                .iter()
                .position(|&(k, v)| v > 0 && self.pieces.iter().any(|&(p, _)| p == k));
            let Some(at) = piece else {
                return state;
            };
            let key = extras[at].0;
            let mut changed = extras.to_vec();
            changed[at].1 -= 1;
            state.players[player].extras = changed.into_boxed_slice();
            let token = self
                .pieces
                .iter()
                .find(|&&(p, _)| p == key)
                .and_then(|p| p.1);
            if let Some(token) = token {
                state.board.tokens_mut(tile)[token] += 1;
                state.pool[token] -= 1;
            }
        }
        state.board.set_owner(tile, player as i8);
        if let Some(turn) = state.turn.as_mut() {
            if state.markers.as_slice()[usize::from(turn.marker)] == player as i8 {
                turn.claimed = append(&turn.claimed, tile as u8);
            }
        }
        self.fire(state, Event::TileTaken { player, tile })
    }

    // -- tribe actions (plugins/base/tribes.py) ---------------------------------------

    /// `KeepTribe`: viziers and elders go in front of the player.
    fn keep_tribe(&self, mut state: State, stage: Sym) -> Step {
        let turn = state.turn.as_ref().expect("a tribe action is in a turn");
        let (colour, taken) = (turn.colour as usize, turn.taken);
        let player = state.decision.player as usize;
        state.players[player].meeples[colour] += taken;
        self.proceed(state, stage)
    }

    /// The collected meeples go back to the bag (merchants, builders, assassins).
    fn return_to_bag(mut state: State) -> State {
        let turn = state.turn.as_ref().expect("a tribe action is in a turn");
        state.bag[turn.colour as usize] += turn.taken;
        state
    }

    /// `Merchants`: as many cards from the front of the resource row as merchants taken.
    fn merchants(&self, state: State, stage: Sym) -> Step {
        let mut state = Self::return_to_bag(state);
        let taken = usize::from(state.turn.as_ref().expect("in a turn").taken);
        let deck = &state.decks[RESOURCES];
        let row = deck.row();
        let n = taken.min(row.len());
        let drawn = row[..n].to_vec();
        state.decks[RESOURCES] = crate::state::Deck::new(deck.draw(), &row[n..], deck.discard());
        let player = state.decision.player as usize;
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(RESOURCES).to_vec();
        hand.extend_from_slice(&drawn);
        self.sort_hand(&mut hand);
        state.players[player].hands = hands.with_hand(RESOURCES, &hand);
        self.proceed(state, stage)
    }

    /// A sorted hand in the order of the Python hand: card ids as strings.
    fn sort_hand(&self, hand: &mut [u8]) {
        let cards = &self.content.doc.cards;
        hand.sort_by(|&a, &b| cards[usize::from(a)].id.cmp(&cards[usize::from(b)].id));
    }

    fn fakir(&self) -> Option<u8> {
        self.content.card_index("fakir")
    }

    fn fakirs_held(&self, state: &State, player: usize) -> usize {
        let fakir = self.fakir();
        state.players[player]
            .hands
            .hand(RESOURCES)
            .iter()
            .filter(|&&c| Some(c) == fakir)
            .count()
    }

    /// Blue-valued tiles in the 3×3 block around the final tile.
    fn blue_around(&self, state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        self.blue_tiles_around(state, turn_here(turn))
    }

    /// `blue_tiles_around`: blue-valued tiles in the 3×3 block around `tile`.
    fn blue_tiles_around(&self, state: &State, tile: usize) -> usize {
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
    fn builders(&self, state: State, stage: Sym) -> Step {
        let state = Self::return_to_bag(state);
        let player = state.decision.player as usize;
        if self.blue_around(&state) > 0 && self.fakirs_held(&state, player) > 0 {
            return Ok(wait_at(state, stage));
        }
        self.builders_paid(state, stage, 0)
    }

    fn builder_options(&self, state: &State) -> Vec<Action> {
        let held = self.fakirs_held(state, state.decision.player as usize);
        (0..=held).map(|n| Action::Fakirs(fakir_count(n))).collect()
    }

    /// `Builders._pay`: (builders + Fakirs discarded) × blue tiles around.
    fn builders_paid(&self, mut state: State, stage: Sym, fakirs: Count) -> Step {
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
    fn discard_fakirs(&self, state: State, player: usize, count: usize) -> State {
        if count == 0 {
            return state;
        }
        let fakir = self.fakir().expect("Fakirs are in the content");
        self.discard_cards(state, player, &vec![fakir; count])
    }

    fn discard_cards(&self, mut state: State, player: usize, cards: &[u8]) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(RESOURCES).to_vec();
        for card in cards {
            let at = hand
                .iter()
                .position(|c| c == card)
                .expect("the card is in hand");
            hand.remove(at);
        }
        state.players[player].hands = hands.with_hand(RESOURCES, &hand);
        let deck = &state.decks[RESOURCES];
        let mut discard = deck.discard().to_vec();
        discard.extend_from_slice(cards);
        state.decks[RESOURCES] = crate::state::Deck::new(deck.draw(), deck.row(), &discard);
        state
    }

    /// `Assassins.enter`: ask for Fakirs when more range could matter.
    fn assassins(&self, state: State, stage: Sym) -> Step {
        let state = Self::return_to_bag(state);
        let player = state.decision.player as usize;
        if self.fakirs_held(&state, player) > 0 && self.useful_fakirs(&state) > 0 {
            return Ok(wait_at(state, stage));
        }
        self.to_kill(state, stage, 0)
    }

    /// `_useful_fakirs`: Fakirs beyond this many cannot reach any further tile.
    fn useful_fakirs(&self, state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        let geo = &state.layout.geometry;
        let here = turn_here(turn);
        let farthest = (0..geo.size)
            .map(|t| geo.distance(here, t))
            .max()
            .unwrap_or(0);
        farthest.saturating_sub(usize::from(turn.taken))
    }

    fn assassin_options(&self, state: &State) -> Vec<Action> {
        let held = self.fakirs_held(state, state.decision.player as usize);
        let top = held.min(self.useful_fakirs(state));
        (0..=top).map(|n| Action::Fakirs(fakir_count(n))).collect()
    }

    /// `Assassins._to_kill`: the range is the assassins plus the Fakirs discarded; the
    /// kill is a step of the tribe action (`rules.call`).
    fn to_kill(&self, mut state: State, stage: Sym, fakirs: Count) -> Step {
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
    fn kill_targets(&self, state: &State) -> Vec<Action> {
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
            let protected = self.protected(state, other);
            let called_back = self.called_back_protected(state, other, &holdings.meeples);
            for (colour, spec) in self.content.doc.colours.iter().enumerate() {
                let safe = protected
                    && (BOAZ_PROTECTS.contains(&spec.id.as_str())
                        || self.boaz_protects_artisans(colour))
                    || crate::variants::protects(self.content, colour)
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
    fn kill(&self, mut state: State, victim: Victim, colour: usize) -> Step {
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
    fn return_to_caller(&self, mut state: State) -> Step {
        let turn = state.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        let caller = callers.pop().expect("a step was entered by a stage");
        turn.callers = callers.into_boxed_slice();
        self.proceed(state, caller)
    }

    // -- tile actions (plugins/base/tiles.py) -----------------------------------------

    /// `PlaceToken.enter`: a palace or a palm tree on the final tile, at once (no card
    /// the kernel plays offers to put it elsewhere); nothing when the bank has none.
    fn place_token_tile(&self, state: State, stage: Sym, token: usize) -> Step {
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
    fn place_token(&self, state: State, player: usize, token: usize) -> State {
        let turn = state.turn.as_ref().expect("in a turn");
        let here = turn_here(turn);
        self.place_token_on(state, player, token, here)
    }

    fn place_token_on(&self, mut state: State, player: usize, token: usize, tile: usize) -> State {
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

    // -- cards used in the owner's turn (plugins/base/cards.py, djinns/activated.py) ---

    /// `own_turn`: the deciding player's own turn, outside any power's own decision.
    fn own_turn(&self, state: &State, player: usize) -> bool {
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

    /// The `Turn.used` mark of a use of `card`: the card, its deck, or none (the deck's
    /// `limit`).
    fn use_mark(&self, card: u8) -> Option<Sym> {
        self.use_marks[usize::from(card)]
    }

    /// `round_limited`: a paid djinn at two players under `djinn_limit_round_2p`.
    fn round_limited(&self, state: &State, card: u8) -> bool {
        state.players.len() == 2 && self.round_keys[usize::from(card)].is_some()
    }

    fn round_key(&self, card: u8) -> Sym {
        self.round_keys[usize::from(card)].expect("a round-limited card")
    }

    /// `cards.options`: what the deciding player's activated cards offer, each distinct
    /// card once, deck by deck in hand order.
    fn card_options(&self, state: &State) -> Vec<Action> {
        let player = state.decision.player;
        if player >= 0 && self.kind(state.decision.stage) == Kind::Bid {
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
    /// limited), each target with each payment the owner can make.
    fn activated_options(&self, state: &State, player: usize, card: u8) -> Vec<Action> {
        if self.is_thief(card) {
            return self.thief_options(state, player, card);
        }
        if self.artisans.as_ref().is_some_and(|a| a.activated(card)) {
            return self.item_options(state, player, card);
        }
        let turn = state.turn.as_ref().expect("in a turn");
        let gate = &self.gates[usize::from(card)];
        let stage = state.decision.stage;
        // `Echidna.stages`: before the builders are paid; `PlaceNearby.stages`: the
        // village's (oasis's) placement, or an effect's
        if gate.stages.as_ref().is_some_and(|s| !s.contains(&stage)) {
            return Vec::new();
        }
        if let Some(mark) = self.use_mark(card) {
            if turn.used.contains(&mark) {
                return Vec::new();
            }
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
        let spec = &self.content.doc.cards[usize::from(card)];
        let Some(ways) = Pay::ways(&spec.cost) else {
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
        if self.whims.is_whim(card) {
            return self.whim_options(state, player, card, &ways);
        }
        if let Some(power) = self.used_power(card) {
            let scope = self.card_scope(player, card);
            let offered = gate
                .power_stages
                .as_ref()
                .is_none_or(|s| s.contains(&stage));
            if !offered || !effects::holds(&power.program.test, state, &scope) {
                return Vec::new();
            }
            let targets: Vec<Option<u8>> = if power.target_kind.is_empty() {
                vec![None]
            } else {
                let doc = &self.content.doc;
                (0..state.layout.size())
                    .filter(|&t| {
                        doc.tiles[usize::from(state.layout.tiles[t])].kind == power.target_kind
                    })
                    .map(|t| Some(t as u8))
                    .collect()
            };
            return targets
                .into_iter()
                .flat_map(|target| ways.iter().map(move |&way| Action::Card(card, target, way)))
                .collect();
        }
        let targets: Vec<Option<u8>> = match gate.kind {
            CardKind::Echidna => vec![None],
            // `_if_cards_left`: one use without a target while the pile or discards hold one
            CardKind::Sibittis => {
                let deck = &state.decks[DJINNS];
                if deck.draw().is_empty() && deck.discard().is_empty() {
                    Vec::new()
                } else {
                    vec![None]
                }
            }
            _ => self
                .card_targets(state, player, card)
                .into_iter()
                .map(Some)
                .collect(),
        };
        let mut options = Vec::new();
        for target in targets {
            for &way in &ways {
                options.push(Action::Card(card, target, way));
            }
        }
        options
    }

    fn elders(&self, state: &State, player: usize) -> Count {
        self.elder.map_or(0, |e| state.players[player].meeples[e])
    }

    /// The tiles a ported activated djinn can act on (`TakeTile.targets`,
    /// `PlaceOnKind.targets`).
    fn card_targets(&self, state: &State, player: usize, card: u8) -> Vec<u8> {
        let doc = &self.content.doc;
        let kind = self.gates[usize::from(card)].kind;
        let geo = &state.layout.geometry;
        match kind {
            CardKind::Leta | CardKind::Utug => {
                if state.players[player].camels == 0 {
                    return Vec::new();
                }
                let with_meeples = kind == CardKind::Utug;
                (0..geo.size)
                    .filter(|&t| {
                        !geo.is_impassable(t)
                            && state.board.owner(t) == NOBODY
                            && state.board.tokens(t).iter().all(|&n| n == 0)
                            && state.board.meeples(t).iter().any(|&n| n != 0) == with_meeples
                    })
                    .map(|t| t as u8)
                    .collect()
            }
            CardKind::AnunNak => {
                if state.bag.iter().all(|&n| n == 0) {
                    return Vec::new();
                }
                (0..geo.size)
                    .filter(|&t| {
                        !geo.is_impassable(t)
                            && state.board.owner(t) == NOBODY
                            && state.board.meeples(t).iter().all(|&n| n == 0)
                            && state.board.tokens(t).iter().all(|&n| n == 0)
                            && doc.tiles[usize::from(state.layout.tiles[t])].holds_meeples
                    })
                    .map(|t| t as u8)
                    .collect()
            }
            CardKind::Nearby(token) => {
                if state.pool[token] == 0 {
                    return Vec::new();
                }
                let here = self.origin(state, token);
                geo.area[here]
                    .iter()
                    .copied()
                    .filter(|&t| usize::from(t) != here && !geo.is_impassable(usize::from(t)))
                    .collect()
            }
            CardKind::Dalhan => self.dalhan_targets(state),
            _ => Vec::new(),
        }
    }

    /// `draw_cards`: the top `n` cards of a deck's pile, reshuffling its discards when
    /// the pile runs out; fewer when both run out.
    fn draw_cards(&self, mut state: State, deck: usize, n: usize) -> (State, Vec<u8>) {
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

    /// `KeepDjinn.apply`: the djinn kept joins the hand, the others go to the discards,
    /// and the interrupted decision goes on.
    fn keep_djinn(&self, mut state: State, djinn: u8) -> Step {
        let player = state.decision.player as usize;
        let turn = state.turn.as_mut().expect("in a turn");
        let mut others = turn.revealed.to_vec();
        let at = others
            .iter()
            .position(|&c| c == djinn)
            .expect("a djinn drawn");
        others.remove(at);
        let resume = turn.resume;
        turn.revealed = Box::new([]);
        turn.resume = self.known.empty;
        let deck = &state.decks[DJINNS];
        let mut discard = deck.discard().to_vec();
        discard.extend_from_slice(&others);
        state.decks[DJINNS] = Deck::new(deck.draw(), deck.row(), &discard);
        state.decision = Decision {
            stage: resume,
            player: player as i8,
        };
        Ok(self.give_djinn(state, player, djinn))
    }

    /// `take_djinn_card`: the djinn joins the hand as its deck orders it; fires
    /// `djinn-taken`.
    fn give_djinn(&self, mut state: State, player: usize, djinn: u8) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(DJINNS).to_vec();
        hand.push(djinn);
        if self.content.doc.decks[DJINNS].order == "sorted" {
            self.sort_hand(&mut hand);
        }
        state.players[player].hands = hands.with_hand(DJINNS, &hand);
        self.fire(state, Event::DjinnTaken { player, djinn })
    }

    /// `discounted`: the price of the spot costing `cost` with `fakirs` discarded, each
    /// a step down the distinct costs (never below the cheapest).
    fn discounted(costs: &[i64], cost: i64, fakirs: usize) -> i64 {
        let mut steps = costs.to_vec();
        steps.sort_unstable_by(|a, b| b.cmp(a));
        steps.dedup();
        let at = steps.iter().position(|&c| c == cost).unwrap_or(0);
        steps[(at + fakirs).min(steps.len() - 1)]
    }

    /// `Kumarbi.options`: while its owner bids, each free spot that costs something
    /// with one Fakir, two… as long as the discounted price is affordable.
    fn kumarbi_options(&self, state: &State, player: usize) -> Vec<Action> {
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
    fn kumarbi(&self, state: State, card: u8, cost: u32, fakirs: Count) -> Step {
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

    /// Hagis: a palace placed goes to a neighbour of a village; Lamia: a palm tree, of an
    /// oasis (`PlaceNearby`).
    fn place_nearby(&self, kind: &str) -> Option<(usize, &'static str)> {
        let (token, tile_kind) = match kind {
            "hagis" => ("palace", "village"),
            "lamia" => ("palm-tree", "oasis"),
            _ => return None,
        };
        let index = self.content.doc.tokens.iter().position(|t| t.id == token)?;
        Some((index, tile_kind))
    }

    fn placing_key(&self, token: usize) -> Sym {
        let id = &self.content.doc.tokens[token].id;
        self.content.names.known(&format!("placing:{id}"))
    }

    /// `pending_tile`: where a token waiting at its `placing:<token>` decision would go.
    fn pending_tile(&self, state: &State, token: usize) -> usize {
        let key = self.placing_key(token);
        let found = state.extras.iter().find(|&&(k, _)| k == key);
        found.map_or(0, |&(_, v)| v.max(0) as usize)
    }

    /// `PlaceNearby._origin`: the effect's tile, or the village's (oasis's) action's.
    fn origin(&self, state: &State, token: usize) -> usize {
        if self.kind(state.decision.stage) == Kind::Placing(token) {
            return self.pending_tile(state, token);
        }
        turn_here(state.turn.as_ref().expect("in a turn"))
    }

    /// `place_token_for`: a token an effect places; when a card of the player may put it
    /// elsewhere, the player decides first (the `placing:<token>` step).
    fn place_token_for(&self, state: State, player: usize, token: usize, tile: usize) -> State {
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
    fn redirects(&self, state: &State, player: usize, token: usize) -> bool {
        if !self.own_turn(state, player) {
            return false;
        }
        (0..self.content.decks()).any(|deck| {
            state.players[player].hands.hand(deck).iter().any(|&card| {
                self.gates[usize::from(card)].kind == CardKind::Nearby(token)
                    && !self.activated_options(state, player, card).is_empty()
            })
        })
    }

    /// `placed`: end the `placing:<token>` step with the token on `tile`; play returns to
    /// the decision the effect was used at.
    fn placed(&self, mut state: State, token: usize, tile: usize) -> State {
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
        self.place_token_on(state, player, token, tile)
    }

    /// `Activated.apply`: pay, mark the use, count the effect, then act.
    fn use_card(&self, mut state: State, card: u8, target: Option<u8>, pay: Pay) -> Step {
        let player = state.decision.player as usize;
        let (elders, fakirs) = pay.counts();
        if elders > 0 {
            let elder = self
                .content
                .doc
                .colours
                .iter()
                .position(|c| c.id == "white")
                .expect("elders pay");
            state.players[player].meeples[elder] -= elders;
            state.bag[elder] += elders;
        }
        state = self.discard_fakirs(state, player, fakirs);
        if let Some(mark) = self.use_mark(card) {
            let turn = state.turn.as_mut().expect("in a turn");
            let mut used = turn.used.to_vec();
            used.push(mark);
            used.sort();
            turn.used = used.into_boxed_slice();
        }
        if self.round_limited(&state, card) {
            let key = self.round_key(card);
            let round = i64::from(state.round);
            state.players[player].extras = set_extra(&state.players[player].extras, key, round);
        }
        state = self.discard_used(state, player, card);
        state = self.count_effect(state, card);
        if self.whims.is_whim(card) {
            return Ok(self.claim_whim(state, player, card));
        }
        if let Some(power) = self.used_power(card) {
            let scope = Scope {
                target: target.map(usize::from),
                ..self.card_scope(player, card)
            };
            let mut state = self.run_effects(state, &power.program.effects, &scope);
            let choice = effects::final_choice(&power.program.effects);
            if choice.is_some_and(|c| effects::holds(&c.test, &state, &scope)) {
                let turn = state
                    .turn
                    .as_mut()
                    .expect("a power is used in its owner's turn");
                turn.resume = state.decision.stage;
                let id = &self.content.doc.cards[usize::from(card)].id;
                state.decision = Decision {
                    stage: self.content.names.known(&format!("choose:card:{id}")),
                    player: player as i8,
                };
            }
            return Ok(state);
        }
        let spec = &self.content.doc.cards[usize::from(card)];
        let kind = spec.kind.as_str();
        match kind {
            _ if self.is_thief(card) => return self.use_thief(state, player, card),
            // marked used: its builders-paid reaction pays the rest
            "echidna" => return Ok(state),
            "sibittis" => {
                let draw = spec.params.get("draw").copied().unwrap_or(0).max(0) as usize;
                let (mut state, drawn) = self.draw_cards(state, DJINNS, draw);
                let stage = state.decision.stage;
                let turn = state.turn.as_mut().expect("in a turn");
                turn.revealed = drawn.into_boxed_slice();
                turn.resume = stage;
                state.decision = Decision {
                    stage: self.content.names.known("keep-djinn"),
                    player: player as i8,
                };
                return Ok(state);
            }
            _ => {}
        }
        let tile = usize::from(target.expect("these djinns act on a tile"));
        Ok(match kind {
            "anun-nak" => {
                let total: usize = state.bag.iter().map(|&n| usize::from(n)).sum();
                let meeples = spec.params.get("meeples").copied().unwrap_or(0).max(0) as usize;
                let colours = self.content.colours();
                for _ in 0..meeples.min(total) {
                    let weights: Vec<u64> =
                        state.bag[..colours].iter().map(|&n| u64::from(n)).collect();
                    let colour = state.rng.choice_weighted(&weights);
                    state.bag[colour] -= 1;
                    state.board.meeples_mut(tile)[colour] += 1;
                }
                state
            }
            "leta" | "utug" => self.take_tile(state, player, tile),
            whims::DALHAN => self.dalhan(state, player, tile),
            "hagis" | "lamia" => {
                let (token, _) = self.place_nearby(kind).expect("a token to place");
                if self.kind(state.decision.stage) == Kind::Placing(token) {
                    self.placed(state, token, tile)
                } else {
                    let state = self.place_token_on(state, player, token, tile);
                    let stage = state.decision.stage;
                    return self.proceed(state, stage);
                }
            }
            _ => return Err(Unported(format!("djinns:{kind}"))),
        })
    }

    /// `Market.legal`: skip, or each distinct choice of `take` among the first `reach`.
    fn market_options(
        &self,
        state: &State,
        reach: usize,
        take: usize,
    ) -> Result<Vec<Action>, Unported> {
        let row = state.decks[RESOURCES].row();
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
    fn buy(&self, mut state: State, stage: Sym, cost: i64, reach: usize, cards: &Cards) -> Step {
        let player = state.decision.player as usize;
        state.players[player].coins -= cost as i32;
        let mut bought = Vec::new();
        for &card in cards.as_slice() {
            let deck = &state.decks[RESOURCES];
            let row = deck.row();
            let position = row[..reach.min(row.len())]
                .iter()
                .position(|&c| c == card)
                .expect("the card bought is in reach");
            let mut left = row.to_vec();
            bought.push(left.remove(position));
            state.decks[RESOURCES] = Deck::new(deck.draw(), &left, deck.discard());
        }
        state = self.add_cards(state, player, &bought);
        self.proceed(state, stage)
    }

    /// `djinn_payments`: 2 elders, or an elder and a Fakir.
    fn djinn_payments(&self, state: &State) -> Vec<Payment> {
        let player = state.decision.player as usize;
        let elder = self
            .content
            .doc
            .colours
            .iter()
            .position(|c| c.id == "white");
        let elders = elder.map_or(0, |e| i64::from(state.players[player].meeples[e]));
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

    /// `SacredPlace.legal`: skip, or each face-up djinn with each payment possible.
    fn sacred_place_options(&self, state: &State) -> Vec<Action> {
        let payments = self.djinn_payments(state);
        let mut options = vec![Action::Skip];
        for &djinn in state.decks[DJINNS].row() {
            for &pay in &payments {
                options.push(Action::Djinn(djinn, pay));
            }
        }
        options
    }

    /// `SacredPlace.apply`: pay the elders (to the bag) and Fakirs (discarded), take the
    /// djinn from the row into the hand, in the order taken.
    fn take_djinn(&self, mut state: State, stage: Sym, djinn: u8, payment: Payment) -> Step {
        let player = state.decision.player as usize;
        let elder = self
            .content
            .doc
            .colours
            .iter()
            .position(|c| c.id == "white")
            .expect("a sacred place is paid in elders");
        let elders = match payment {
            Payment::ElderElder => 2,
            Payment::ElderFakir => 1,
        };
        state.players[player].meeples[elder] -= elders;
        state.bag[elder] += elders;
        if payment == Payment::ElderFakir {
            state = self.discard_fakirs(state, player, 1);
        }
        let deck = &state.decks[DJINNS];
        let mut row = deck.row().to_vec();
        let at = row
            .iter()
            .position(|&c| c == djinn)
            .expect("the djinn is face up");
        row.remove(at);
        state.decks[DJINNS] = Deck::new(deck.draw(), &row, deck.discard());
        let state = self.give_djinn(state, player, djinn);
        self.proceed(state, stage)
    }

    // -- the sale (plugins/base/merchandise.py) ---------------------------------------

    /// `SellStage.legal`: end, or one suit of the different merchandise held.
    fn sell_options(&self, state: &State) -> Result<Vec<Action>, Unported> {
        let cards = &self.content.doc.cards;
        let resources = &self.content.doc.decks[RESOURCES].id;
        let player = state.decision.player as usize;
        let mut held: Vec<u8> = state.players[player]
            .hands
            .hand(RESOURCES)
            .iter()
            .copied()
            .filter(|&c| {
                let spec = &cards[usize::from(c)];
                spec.kind == "merchandise" && &spec.deck == resources
            })
            .collect();
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
    fn sell(&self, state: State, suit: &Cards) -> State {
        let player = state.decision.player as usize;
        let mut state = self.discard_cards(state, player, suit.as_slice());
        let values = self.content.table("suit_values").unwrap_or(&[]);
        let value = crate::suits::suit_value(values, suit.as_slice().len());
        state.players[player].coins += value as i32;
        state
    }

    /// `add_cards`: resource cards into a player's hand, kept sorted.
    fn add_cards(&self, mut state: State, player: usize, cards: &[u8]) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(RESOURCES).to_vec();
        hand.extend_from_slice(cards);
        self.sort_hand(&mut hand);
        state.players[player].hands = hands.with_hand(RESOURCES, &hand);
        state
    }

    // -- the end of a turn, clean-up and the end (plugins/base/flow.py) ---------------

    /// `BaseFlow._end_turn`: a player with no piece left to place triggers the end.
    fn end_turn(&self, state: State) -> Step {
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
    fn end_round(&self, mut state: State) -> Step {
        let rows = [
            (RESOURCES, self.content.setting("resource_row")),
            (DJINNS, self.content.setting("djinn_row")),
        ];
        for (deck, size) in rows {
            let size = size.ok_or_else(|| Unported("a row without its size".to_owned()))?;
            state.decks[deck] = refill(&state.decks[deck], size as usize, &mut state.rng);
        }
        state.turn = None;
        // Python fires `clean-up` here: no card the kernel plays reacts to it; the
        // Thieves refill their row and the Whims box lays whims on the empty cities
        let mut state = self.thieves_clean_up(state);
        state = self.whims_clean_up(state);
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

    // -- events (plugins/base/cards.py's on_event, djinns/triggered.py) --------------

    /// `Rules.fire`: every card held that reacts to events reacts, players in seat order,
    /// each player's hands deck by deck in hand order, as the state is at its turn.
    fn fire(&self, mut state: State, event: Event) -> State {
        let facts = self.facts(event);
        let heard = self.content.effects.heard[facts.moment.index()];
        // no hand-written card reacts to these: only content might
        let cards_deaf = match event {
            Event::TileTaken { .. } | Event::TurnEnd { .. } => true,
            Event::TokenPlaced { .. } => facts.moment != crate::effects::Moment::PalacePlaced,
            _ => false,
        };
        if cards_deaf && !heard {
            return state;
        }
        state = self.cards_react(state, event);
        if heard {
            state = self.triggers_fire(state, facts);
        }
        state
    }

    /// The cards held that react, players in seat order (`cards.on_event`).
    fn cards_react(&self, mut state: State, event: Event) -> State {
        for owner in 0..state.players.len() {
            let hands = &state.players[owner].hands;
            if !(0..self.content.decks()).any(|deck| {
                hands
                    .hand(deck)
                    .iter()
                    .any(|&c| self.reacts[usize::from(c)])
            }) {
                continue;
            }
            let reacting: Vec<u8> = (0..self.content.decks())
                .flat_map(|deck| hands.hand(deck).to_vec())
                .filter(|&c| self.reacts[usize::from(c)])
                .collect();
            for card in reacting {
                if let Some(changed) = self.react(&state, owner, card, event) {
                    state = changed;
                }
            }
        }
        state
    }

    /// One card's reaction (`Baal`, `Marid`, `Monkir`, `Nekir`, `Kandicha`, `Boaz`),
    /// or None.
    fn react(&self, state: &State, owner: usize, card: u8, event: Event) -> Option<State> {
        if let Some(power) = self.content.effects.power_of(card) {
            return self.power_reacts(state, owner, card, power, self.facts(event));
        }
        let spec = &self.content.doc.cards[usize::from(card)];
        match (spec.kind.as_str(), event) {
            (
                "kandicha",
                Event::Kill {
                    player,
                    colour,
                    tile,
                    ..
                },
            ) if player == owner => return self.kandicha(state, owner, card, colour, tile),
            ("boaz", Event::KillPrevented { victim, .. }) if victim == owner => {
                return Some(self.count_effect(state.clone(), card));
            }
            ("echidna", Event::BuildersPaid { player, count, .. }) if player == owner => {
                let used = state.turn.as_ref().is_some_and(|t| {
                    self.content
                        .names
                        .sym(&spec.id)
                        .is_some_and(|s| t.used.contains(&s))
                });
                let multiplier = spec.params.get("multiplier").copied().unwrap_or(1);
                let extra = count * (multiplier - 1);
                if !used || extra == 0 {
                    return None;
                }
                let mut state = state.clone();
                state.players[owner].coins += extra as i32;
                return Some(state);
            }
            _ => {}
        }
        None
    }

    /// `Kandicha.on_event`: the owner's assassins killed a merchant (the top resource
    /// card), a builder on a tile (its coins), a vizier or an elder (kept, out of the bag).
    fn kandicha(
        &self,
        state: &State,
        owner: usize,
        card: u8,
        colour: usize,
        tile: Option<usize>,
    ) -> Option<State> {
        let spec = &self.content.doc.cards[usize::from(card)];
        let mut state = state.clone();
        match self.content.doc.colours[colour].id.as_str() {
            "green" => {
                let (drawn, after) = self.draw_resource(state);
                state = after?;
                state = self.add_cards(state, owner, &[drawn]);
            }
            "blue" => {
                let tile = tile?;
                let per_tile = spec.params.get("coins_per_blue_tile").copied().unwrap_or(0);
                let coins = per_tile * self.blue_tiles_around(&state, tile) as i64;
                if coins == 0 {
                    return None;
                }
                state.players[owner].coins += coins as i32;
            }
            "yellow" | "white" => {
                state.players[owner].meeples[colour] += 1;
                state.bag[colour] -= 1;
            }
            _ if self.kandicha_takes_artisan(colour) => {
                state.players[owner].meeples[colour] += 1;
                state.bag[colour] -= 1;
            }
            _ => return None,
        }
        Some(self.count_effect(state, card))
    }

    /// `draw_cards(state, RESOURCES, 1)`: the top card of the pile, reshuffling the
    /// discards when the pile is empty; None when there is no card at all.
    fn draw_resource(&self, mut state: State) -> (u8, Option<State>) {
        let deck = &state.decks[RESOURCES];
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
        let row = state.decks[RESOURCES].row().to_vec();
        state.decks[RESOURCES] = Deck::new(&draw, &row, &discard);
        (top, Some(state))
    }

    /// The colours in front of `player` that assassins may not kill (`rules.protected`:
    /// Boaz protects viziers and elders).
    fn protected(&self, state: &State, player: usize) -> bool {
        let doc = &self.content.doc;
        (0..self.content.decks()).any(|deck| {
            state.players[player]
                .hands
                .hand(deck)
                .iter()
                .any(|&c| doc.cards[usize::from(c)].kind == BOAZ)
        })
    }

    /// `report_protection`: `kill-prevented` for each opponent whose protection hides a
    /// target now, in seat order.
    fn report_protection(&self, mut state: State) -> State {
        let turn = state.turn.as_ref().expect("in a turn");
        if turn.target != Target::None {
            return state;
        }
        let player = state.decision.player as usize;
        let doc = &self.content.doc;
        let hidden: Vec<usize> = (0..state.players.len())
            .filter(|&other| other != player)
            .filter(|&other| {
                let boaz = self.protected(&state, other);
                let called_back =
                    self.called_back_protected(&state, other, &state.players[other].meeples);
                doc.colours.iter().enumerate().any(|(c, spec)| {
                    spec.kept
                        && (boaz
                            && (BOAZ_PROTECTS.contains(&spec.id.as_str())
                                || self.boaz_protects_artisans(c))
                            || crate::variants::protects(self.content, c)
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

    // -- the effects language (crate::effects, plugins/base/effects.py) -------------

    /// An event's facts for the effects language (`core/events.py`'s fields).
    fn facts(&self, event: Event) -> Facts {
        use crate::effects::Moment;
        let facts = |moment, player| Facts::of(moment, player);
        match event {
            Event::MeepleDropped { player, tile } => Facts {
                tile: Some(tile),
                ..facts(Moment::MeepleDropped, player)
            },
            Event::Kill {
                player,
                tile,
                victim,
                ..
            } => Facts {
                tile,
                victim: victim.map_or(i64::from(NOBODY), |v| v as i64),
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
        }
    }

    /// `ReactingPower.on_event`: a card's content power reacts when the event is its
    /// moment and its `if` holds, and counts as used each time.
    fn power_reacts(
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
            me: owner,
            actor: facts.player as i64,
            event: Some(facts),
            params,
            card: Some(card),
            target: None,
        };
        if !effects::holds(&power.program.test, state, &scope) {
            return None;
        }
        let state = self.run_effects(state.clone(), &power.program.effects, &scope);
        Some(self.count_effect(state, card))
    }

    /// `effects.on_event`: the triggers of the event's moment, in content order, each
    /// for the event's player.
    fn triggers_fire(&self, mut state: State, facts: Facts) -> State {
        for program in &self.content.effects.triggers[facts.moment.index()] {
            state = self.run_program(state, program, Some(facts), None);
        }
        state
    }

    /// A trigger's or a tile action's program for `facts.player` (without an event: for
    /// the player deciding), if its `if` holds.
    fn run_program(
        &self,
        state: State,
        program: &effects::Program,
        facts: Option<Facts>,
        card: Option<u8>,
    ) -> State {
        let me = facts.map_or(state.decision.player as usize, |f| f.player);
        let scope = Scope {
            me,
            actor: me as i64,
            event: facts,
            params: &program.params,
            card,
            target: None,
        };
        if !effects::holds(&program.test, &state, &scope) {
            return state;
        }
        self.run_effects(state, &program.effects, &scope)
    }

    /// `effects.run`: coins (never below 0 nor above `MOST_COINS`) and resource cards
    /// drawn, in order; score lines wait for scoring.
    fn run_effects(&self, mut state: State, list: &[effects::Effect], scope: &Scope<'_>) -> State {
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
                effects::Verb::Place(token) => {
                    if let Some(tile) = scope.target {
                        state = self.place_token_for(state, scope.me, token, tile);
                    }
                }
                effects::Verb::Remove(token) => {
                    if let Some(tile) = scope.target.filter(|&t| state.board.tokens(t)[token] > 0) {
                        state.board.tokens_mut(tile)[token] -= 1;
                        state.pool[token] += 1;
                    }
                }
                effects::Verb::DiscardFakirs => {
                    let held = self.fakirs_held(&state, scope.me);
                    let count = usize::try_from(value.max(0)).unwrap_or(0).min(held);
                    state = self.discard_fakirs(state, scope.me, count);
                }
            }
        }
        state
    }

    /// The choice a `choose:…` stage offers (`ChoiceStage.options`).
    fn choice(&self, of: ChoiceOf) -> Option<&effects::Effect> {
        let list = match of {
            ChoiceOf::Tile(index) => &self.content.effects.tile_actions[index].program.effects,
            ChoiceOf::Card(card) => &self.used_power(card)?.program.effects,
        };
        effects::final_choice(list)
    }

    /// `ChoiceStage.apply`: option `n` (from 1) runs for the player deciding; then a tile
    /// action's turn goes on, or the decision a used power interrupted comes back.
    fn chosen(&self, state: State, of: ChoiceOf, n: u8) -> Step {
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
            me,
            actor: me as i64,
            event: None,
            params,
            card,
            target: None,
        };
        let mut state = self.run_effects(state, option, &scope);
        if let ChoiceOf::Tile(_) = of {
            return self.return_to_caller(state);
        }
        let turn = state
            .turn
            .as_mut()
            .expect("a power is used in its owner's turn");
        let resume = turn.resume;
        turn.resume = self.known.empty;
        state.decision = Decision {
            stage: resume,
            player: me as i8,
        };
        Ok(state)
    }

    /// The content power of `card` its owner uses (`on = "use"`: `UsedPower`), if any.
    fn used_power(&self, card: u8) -> Option<&effects::Power> {
        let used = Some(crate::effects::Moment::Use);
        self.content.effects.power_of(card).filter(|p| p.on == used)
    }

    /// What a card's own power reads: its owner, its numbers, the card itself.
    fn card_scope(&self, owner: usize, card: u8) -> Scope<'_> {
        Scope {
            me: owner,
            actor: owner as i64,
            event: None,
            params: &self.content.doc.cards[usize::from(card)].params,
            card: Some(card),
            target: None,
        }
    }

    /// `effects.tile_effects`: the `before` or `after` effects of a tile kind's action,
    /// content's then those a called-back `naqala_tile_effects` answers.
    fn tile_effects(&self, mut state: State, kind: &str, at: At) -> State {
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
    fn run_answered(&self, state: State, list: &[effects::Effect]) -> State {
        let me = state.decision.player as usize;
        let params = std::collections::BTreeMap::new();
        let scope = Scope {
            me,
            actor: me as i64,
            event: None,
            params: &params,
            card: None,
            target: None,
        };
        self.run_effects(state, list, &scope)
    }

    /// The points of the effects language at final scoring: the `scoring` triggers for
    /// `player`, and the scoring powers of the cards `player` holds.
    fn effects_score(&self, state: &State, player: usize) -> i64 {
        let scoring = crate::effects::Moment::Scoring;
        let mut total = 0;
        for program in &self.content.effects.triggers[scoring.index()] {
            let scope = Scope {
                me: player,
                actor: player as i64,
                event: None,
                params: &program.params,
                card: None,
                target: None,
            };
            total += effects::scores(program, state, &scope)
                .map(|(_, points)| points)
                .sum::<i64>();
        }
        total + self.power_points(state, player, |_| true, |_| true)
    }

    /// The points of the content powers of the cards `player` holds in decks scored
    /// `after` the plugins, in score lines of `category` (`card_score_lines` read by
    /// category: the Great Lake doubles what the `palm-trees` lines give, Haurvatat's
    /// included).
    pub(crate) fn power_points_in(&self, state: &State, player: usize, category: &str) -> i64 {
        let after = |deck: usize| {
            self.content
                .doc
                .decks
                .get(deck)
                .is_none_or(|d| d.scored == "after")
        };
        self.power_points(state, player, after, |c| c == category)
    }

    /// The points of the scoring content powers of the cards `player` holds, in the
    /// decks `deck` keeps and the lines whose category `category` keeps.
    fn power_points(
        &self,
        state: &State,
        player: usize,
        deck: impl Fn(usize) -> bool,
        category: impl Fn(&str) -> bool,
    ) -> i64 {
        let effects = &self.content.effects;
        let scoring = Some(crate::effects::Moment::Scoring);
        if effects.powers.iter().all(|p| p.on != scoring) {
            return 0;
        }
        let mut total = 0;
        for held in (0..self.content.decks()).filter(|&d| deck(d)) {
            for &card in state.players[player].hands.hand(held) {
                let Some(power) = effects.power_of(card).filter(|p| p.on == scoring) else {
                    continue;
                };
                let scope = self.card_scope(player, card);
                total += effects::scores(&power.program, state, &scope)
                    .filter(|&(c, _)| category(c))
                    .map(|(_, points)| points)
                    .sum::<i64>();
            }
        }
        total
    }

    /// Whether a content power of a card `player` holds protects their meeples of
    /// `colour` from the assassins (`[[power]] protects`).
    fn effect_protects(&self, state: &State, player: usize, colour: usize) -> bool {
        let effects = &self.content.effects;
        if effects.powers.iter().all(|p| p.protects.is_empty()) {
            return false;
        }
        (0..self.content.decks()).any(|deck| {
            state.players[player].hands.hand(deck).iter().any(|&c| {
                effects
                    .power_of(c)
                    .is_some_and(|p| p.protects.contains(&colour))
            })
        })
    }

    /// `count_effect`: the state counter `effects.<card>` goes up by one.
    fn count_effect(&self, mut state: State, card: u8) -> State {
        let id = &self.content.doc.cards[usize::from(card)].id;
        let key = self.content.names.known(&format!("effects.{id}"));
        state.extras = set_extra(&state.extras, key, get_extra(&state.extras, key) + 1);
        state
    }

    /// `Activated.apply`'s discard: a card of a deck that discards used cards goes from
    /// the hand to its deck's discard pile (the thieves).
    fn discard_used(&self, mut state: State, player: usize, card: u8) -> State {
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

    // -- scoring (plugins/base/scoring.py) --------------------------------------------

    /// Every player's final score: the base game's score lines summed (no card the
    /// kernel plays adjusts them).
    pub fn scores(&self, state: &State) -> Vec<i64> {
        (0..state.players.len())
            .map(|p| self.score(state, p))
            .collect()
    }

    /// One player's score (`own_score`: the score lines summed), read by the players.
    pub fn score(&self, state: &State, player: usize) -> i64 {
        let doc = &self.content.doc;
        let terms = &self.score_terms;
        let me = &state.players[player];
        let mut total = i64::from(me.coins);
        if let Some(vizier) = terms.vizier {
            let viziers = me.meeples[vizier];
            let beaten = state
                .players
                .iter()
                .enumerate()
                .filter(|&(other, p)| other != player && p.meeples[vizier] < viziers)
                .count() as i64;
            total += i64::from(viziers) * terms.vizier_vp + beaten * terms.vizier_bonus;
        }
        if let Some(elder) = terms.elder {
            total += i64::from(me.meeples[elder]) * terms.elder_vp;
        }
        total += me
            .hands
            .hand(DJINNS)
            .iter()
            .map(|&d| doc.cards[usize::from(d)].vp)
            .sum::<i64>();
        let owned: Vec<usize> = (0..state.layout.size())
            .filter(|&t| state.board.owner(t) == player as i8)
            .collect();
        for (index, token) in doc.tokens.iter().enumerate() {
            let count: i64 = owned
                .iter()
                .map(|&t| i64::from(state.board.tokens(t)[index]))
                .sum();
            total += count * token.vp;
        }
        total += owned
            .iter()
            .map(|&t| doc.tiles[usize::from(state.layout.tiles[t])].vp)
            .sum::<i64>();
        total += self
            .best_suits(state, player)
            .iter()
            .map(|&n| self.suit_value(n))
            .sum::<i64>();
        total
            + self.djinn_score(state, player)
            + self.thief_points(state, player)
            + self.solo_points(state, player)
            + self.whims_score(state, player)
            + self.artisan_score(state, player)
            + self.effects_score(state, player)
            + self.called_back_points(state, player)
            + self.called_back_adjustment(state, player)
    }

    /// The points of a called-back `naqala_adjust_score_lines` for `player`, given the
    /// lines before adjustments (`crate::results::frozen_lines`; 0 without one).
    fn called_back_adjustment(&self, state: &State, player: usize) -> i64 {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::ADJUST_SCORE_LINES) => {
                crate::results::frozen_lines(self, state, player)
                    .map_or(0, |lines| calls.adjusted_points(state, player, &lines))
            }
            _ => 0,
        }
    }

    /// The points of a called-back `naqala_score_lines` for `player` (0 without one).
    fn called_back_points(&self, state: &State, player: usize) -> i64 {
        match &self.callbacks {
            Some(calls) if calls.answers(crate::callbacks::SCORE_LINES) => {
                calls.score_points(state, player)
            }
            _ => 0,
        }
    }

    fn suit_value(&self, size: usize) -> i64 {
        crate::suits::suit_value(self.score_terms.suit_values.as_deref().unwrap_or(&[]), size)
    }

    /// The merchandise cards of the resources deck: (card index, copies held).
    fn goods(&self, state: &State, player: usize) -> Vec<(u8, usize)> {
        let mut held: Vec<(u8, usize)> = Vec::new();
        for &card in state.players[player].hands.hand(RESOURCES) {
            if !self.score_terms.merchandise[usize::from(card)] {
                continue;
            }
            match held.iter_mut().find(|(c, _)| *c == card) {
                Some((_, n)) => *n += 1,
                None => held.push((card, 1)),
            }
        }
        held
    }

    /// `best_suits`: the sizes of the suits that score most.
    fn best_suits(&self, state: &State, player: usize) -> Vec<usize> {
        crate::suits::suit_sizes(&self.goods(state, player))
    }

    /// `best_with_wilds`: the best merchandise score when `wilds` jokers may stand for
    /// any merchandise.
    fn best_with_wilds(&self, suits: &[usize], wilds: usize) -> i64 {
        let doc = &self.content.doc;
        let mut kinds: Vec<&str> = doc
            .cards
            .iter()
            .filter(|c| c.deck == doc.decks[RESOURCES].id && c.kind == "merchandise")
            .map(|c| c.id.as_str())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let values = self.content.table("suit_values").unwrap_or(&[]);
        crate::suits::best_with_wilds(values, kinds.len(), suits, wilds)
    }

    /// The score lines of the djinns held that are code (`AlAmin`: the Fakirs held as
    /// wild merchandise); the content powers' lines are `effects_score`'s.
    fn djinn_score(&self, state: &State, player: usize) -> i64 {
        let doc = &self.content.doc;
        let me = &state.players[player];
        let mut total = 0;
        for &card in me.hands.hand(DJINNS) {
            let spec = &doc.cards[usize::from(card)];
            if spec.kind == AL_AMIN {
                let per_wild = spec.params.get("fakirs_per_wild").copied().unwrap_or(0);
                let wilds = if per_wild > 0 {
                    self.fakirs_held(state, player) / per_wild as usize
                } else {
                    0
                };
                let suits = self.best_suits(state, player);
                let plain: i64 = suits.iter().map(|&n| self.suit_value(n)).sum();
                total += self.best_with_wilds(&suits, wilds) - plain;
            }
        }
        total
    }

    /// What the kernel cannot play of this content yet: cards in play whose powers are
    /// not ported and decks beyond the base game's (the harness leaves such cards out).
    pub fn unported_content(&self) -> Vec<String> {
        let mut out = Vec::new();
        let decks = &self.content.doc.decks;
        let in_play = &self.content.doc.in_play;
        for card in self
            .content
            .doc
            .cards
            .iter()
            .filter(|c| in_play.contains(&c.id))
        {
            let index = self.content.card_index(&card.id).unwrap_or(u8::MAX);
            let ported = card.deck == decks[RESOURCES].id
                || (card.deck == decks[DJINNS].id
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

/// `Turn.previous`: the tile before `here` on the path (the start), or `NOBODY`.
fn turn_previous(turn: &Turn) -> i8 {
    match turn.path.len() {
        0 => NOBODY,
        1 => turn.start,
        n => turn.path[n - 2] as i8,
    }
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

/// `refill`: slide the row to the front and fill it to `size` from the draw pile,
/// reshuffling the discards when the pile runs out; stop when both are empty.
fn refill(deck: &Deck, size: usize, rng: &mut crate::rng::Rng) -> Deck {
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
