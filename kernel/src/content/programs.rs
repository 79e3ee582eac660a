//! The effects language as content (`core/effects.py`): the entries Python compiled
//! (`[[trigger]]`, `[[tile_action]]`, `[[power]]`, `[[counter]]`), read from the
//! content JSON and resolved to indices once per content (`Effects::read`). Evaluating
//! them over a state is `crate::effects`, the interpreter.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::names::{Names, Sym};
use crate::suits::Suits;

/// Every intermediate value is held within ±`BOUND`, as in Python (`effects.BOUND`).
pub const BOUND: i64 = 1_000_000_000;

/// The most coins an effect leaves a player: `MAX_COINS` less room for what the game
/// itself pays afterwards, so no state passes the bound (`effects.MOST_COINS`).
pub const MOST_COINS: i64 = crate::limits::MAX_COINS - 100_000;

/// An expression as Python compiled it (`core/effects.py`, `compile_expression`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ExprDoc {
    Num {
        num: i64,
    },
    Bin {
        bin: String,
        a: Box<ExprDoc>,
        b: Box<ExprDoc>,
    },
    Var {
        var: String,
    },
    Param {
        param: String,
    },
    Setting {
        setting: String,
    },
    Count {
        count: String,
        of: String,
    },
    Neg {
        neg: Box<ExprDoc>,
    },
    Not {
        not: Box<ExprDoc>,
    },
    If {
        #[serde(rename = "if")]
        test: Box<ExprDoc>,
        then: Box<ExprDoc>,
        #[serde(rename = "else")]
        otherwise: Box<ExprDoc>,
    },
    Call {
        call: String,
        args: Vec<ExprDoc>,
    },
}

/// One effect as content gives it (`core/effects.py`'s `compiled`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDoc {
    pub verb: String,
    pub amount: ExprDoc,
    #[serde(rename = "if")]
    pub test: Option<ExprDoc>,
    #[serde(default)]
    pub category: String,
    /// the token a `place` effect puts on the target tile
    #[serde(default)]
    pub token: String,
    /// a `choose` effect's options: each a list of effects
    #[serde(default)]
    pub options: Vec<Vec<EffectDoc>>,
}

/// A `[[trigger]]`: effects for the event's player at a moment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerDoc {
    pub id: String,
    pub on: String,
    #[serde(rename = "if")]
    pub test: Option<ExprDoc>,
    pub effects: Vec<EffectDoc>,
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
}

/// A `[[tile_action]]`: effects before, after or instead of a tile kind's action.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileActionDoc {
    pub id: String,
    pub tile: String,
    pub at: String,
    #[serde(rename = "if")]
    pub test: Option<ExprDoc>,
    pub effects: Vec<EffectDoc>,
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
}

/// A `[[power]]`: the power of a card kind, for the card's owner.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDoc {
    pub deck: String,
    pub kind: String,
    pub on: String,
    #[serde(rename = "if")]
    pub test: Option<ExprDoc>,
    pub effects: Vec<EffectDoc>,
    #[serde(default)]
    pub protects: Vec<String>,
    /// a used power's target: any tile of this kind
    #[serde(default)]
    pub target_kind: String,
    /// a used power's target: any tile where this holds
    #[serde(default)]
    pub target: Option<ExprDoc>,
    /// the decisions of its owner's turn at which a used power is offered (none: all)
    #[serde(default)]
    pub stages: Vec<String>,
    /// the token whose placements for its owner a used power puts elsewhere ("": none)
    #[serde(default)]
    pub redirects: String,
    /// a used power's target: a card of this pile (`items.discard`, `djinns.row`; "": none)
    #[serde(default)]
    pub target_card: String,
    /// a used power's second tile, where `move` puts a piece of its target: any other
    /// tile where this holds (read as its target is)
    #[serde(default)]
    pub target_to: Option<ExprDoc>,
    /// a used power's target: a tile and a group of this many of its meeples (a number
    /// or a card's number)
    #[serde(default)]
    pub target_meeples: Option<ExprDoc>,
}

/// A `[[counter]]`: a number effects set and read, each player's or the game's.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterDoc {
    pub id: String,
    /// `player` or `game`
    pub of: String,
    /// a counter a plugin keeps under its own name (`whims.claimed`), which effects read
    /// (`effect_answers.plugin_counters`)
    #[serde(default)]
    pub plugin: bool,
    /// a plugin's counter that `set` may write too (`naqala_writable_counters`)
    #[serde(default)]
    pub writable: bool,
}

impl CounterDoc {
    /// The counter's name in `extras` (`CounterSpec.key`, or a plugin's own name).
    pub fn key(&self) -> String {
        if self.plugin {
            self.id.clone()
        } else {
            format!("counter.{}", self.id)
        }
    }
}

/// What `place` names to take the target tile with a camel (`effects.CAMEL`).
pub const CAMEL: &str = "camel";

/// The most a counter holds (`core/effects.py`'s `COUNTER_MOST`).
pub const COUNTER_MOST: i64 = 1_000_000;

/// The effects language's part of the content JSON.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectsDoc {
    #[serde(default)]
    pub triggers: Vec<TriggerDoc>,
    #[serde(default)]
    pub tile_actions: Vec<TileActionDoc>,
    #[serde(default)]
    pub powers: Vec<PowerDoc>,
    #[serde(default)]
    pub counters: Vec<CounterDoc>,
}

/// When a trigger or a power acts (`core/effects.py`'s `MOMENTS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    MeepleDropped,
    TileTaken,
    Kill,
    BuildersPaid,
    PalacePlaced,
    PalmTreePlaced,
    DjinnTaken,
    KillPrevented,
    /// a suit sold (`sell`)
    Sold,
    RoundEnd,
    /// the start of a turn, before the move (`turn-start`)
    TurnStart,
    /// the move done, before its tribe acts (`before-tribe-action`)
    BeforeTribeAction,
    /// the tribe's action done, before the tile's (`after-tribe-action`)
    AfterTribeAction,
    TurnEnd,
    Scoring,
    /// a power its owner uses in their own turn (`on = "use"`)
    Use,
}

impl Moment {
    pub const ALL: [Moment; 16] = [
        Moment::MeepleDropped,
        Moment::TileTaken,
        Moment::Kill,
        Moment::BuildersPaid,
        Moment::PalacePlaced,
        Moment::PalmTreePlaced,
        Moment::DjinnTaken,
        Moment::KillPrevented,
        Moment::Sold,
        Moment::RoundEnd,
        Moment::TurnStart,
        Moment::BeforeTribeAction,
        Moment::AfterTribeAction,
        Moment::TurnEnd,
        Moment::Scoring,
        Moment::Use,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Moment::MeepleDropped => "meeple-dropped",
            Moment::TileTaken => "tile-taken",
            Moment::Kill => "kill",
            Moment::BuildersPaid => "builders-paid",
            Moment::PalacePlaced => "palace-placed",
            Moment::PalmTreePlaced => "palm-tree-placed",
            Moment::DjinnTaken => "djinn-taken",
            Moment::KillPrevented => "kill-prevented",
            Moment::Sold => "sell",
            Moment::RoundEnd => "round-end",
            Moment::TurnStart => "turn-start",
            Moment::BeforeTribeAction => "before-tribe-action",
            Moment::AfterTribeAction => "after-tribe-action",
            Moment::TurnEnd => "turn-end",
            Moment::Scoring => "scoring",
            Moment::Use => "use",
        }
    }

    fn read(name: &str) -> Result<Moment, String> {
        Moment::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| format!("kernel content: effects: {name:?} is no moment"))
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    Me,
    Actor,
    Coins,
    EventCount,
    EventTileOwner,
    EventVictim,
    EventThisCard,
    TurnKilled,
    /// whether the scope's card has been used this turn
    TurnUsed,
    /// the used power's target tile (or a candidate): its owner, meeples and tokens
    TargetOwner,
    TargetMeeples,
    TargetTokens,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// tokens of this kind on the tile of the turn in progress
    Here(usize),
    /// tokens of this kind on the tiles the player owns
    Owned(usize),
    /// meeples of this colour in front of the player
    Held(usize),
    /// copies of this card (second) in the player's hand of the resource deck (first)
    Cards(usize, u8),
    /// the tiles the player owns
    Tiles,
    /// the resource cards left to draw: the pile and its discards, of this deck
    Pile(usize),
    /// tokens of this kind left in the bank
    Bank(usize),
    /// a declared counter: the player's own, or the game's
    Counter(Holder),
    /// the camels the player has left
    Camels,
    /// the meeples left in the bag
    Bag,
    /// 1 if the meeples moved this turn are of this colour
    Tribe(usize),
    /// 1 if the event is a kill of a meeple of this colour
    Killed(usize),
    /// tokens of this kind on the used power's target tile
    OnTarget(usize),
    /// the meeples in front of the player, of every colour
    HeldAll,
    /// meeples of this colour in front of the player, when more than each other player
    /// holds (else 0)
    MostHeld(usize),
    /// the most of the player's tiles joined edge to edge
    LargestGroup,
    /// the cards in the player's hand of this deck
    Hand(usize),
    /// the tiles dropped on in this turn's move
    Path,
    /// the meeples collected at the end of this turn's move
    Collected,
    /// an id these rules do not have: nothing to count
    Nothing,
}

/// A declared counter, by its name in `extras`: each player's, or the game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Player(Sym),
    Game(Sym),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fun {
    Min,
    Max,
    Abs,
}

/// An expression with its names resolved against one content.
#[derive(Debug, Clone)]
pub enum Expr {
    Num(i64),
    Bin(Op, Box<Expr>, Box<Expr>),
    Var(Var),
    Param(String),
    Count(Counted),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Fun, Vec<Expr>),
    /// `target.holds_meeples`: whether meeples may stand on the target tile, by the
    /// tile's index in the content's tile table
    HoldsMeeples(Box<[bool]>),
    /// `around("blue")`: the tiles of that value in the 3×3 block around the event's
    /// tile, itself included; by the tile's index in the content's tile table, whether
    /// it has that value
    Around(Box<[bool]>),
    /// `holds("precious")`: the cards of that kind in the player's hands of the decks
    /// other than the resources; by card index, whether the card is such a card
    Holds(Box<[bool]>),
    /// `merchandise(n)`: the player's best merchandise score with `n` jokers
    Merchandise(Box<Suits>, Box<Expr>),
    /// `tiles_of("oasis")`, `valued("red")`: the player's tiles of that kind or value; by
    /// the tile's index in the content's tile table, whether it is one
    TilesWhere(Box<[bool]>),
    /// `tile_kinds()`: the kinds among the player's tiles; by the tile's index in the
    /// content's tile table, the number of its kind
    TileKinds(Box<[u16]>),
    /// `merchandise_kinds()` (`most` false) or `most_merchandise()` (true): the different
    /// merchandise in the player's resource hand, or the most copies of one
    Goods {
        suits: Box<Suits>,
        most: bool,
    },
    /// `lying("whims")`: 1 if a card of the deck lies on the used power's target tile; by
    /// the tile's index in the content's tile table, whether the deck's row lies on it
    Lying {
        deck: usize,
        on: Box<[bool]>,
    },
    /// `near("great-lake")` (`diagonals`) or `beside(...)`: the player's tiles with a tile
    /// of that kind among the 8 around, or the 4 sharing an edge, not of it themselves; by
    /// the tile's index in the content's tile table, whether it is of that kind
    NextTo {
        kind: Box<[bool]>,
        diagonals: bool,
    },
}

/// The most jokers `merchandise(n)` counts (`core.effects.MOST_WILDS`): a larger `n`
/// counts as this many.
pub const MOST_WILDS: i64 = 99;

/// What an effect does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Coins,
    Draw,
    Score,
    /// a token from the bank on the power's target tile
    Place(usize),
    /// a token of the power's target tile back to the bank
    Remove(usize),
    /// the camel on the power's target tile back to its owner: the tile is no one's
    RemoveCamel,
    /// a meeple of this colour from the power's target tile back to the bag
    RemoveMeeple(usize),
    /// the meeples the power's action names on its target tile back to the bag
    RemoveNamed,
    /// the power's target tile taken with one of the player's camels
    PlaceCamel,
    /// a token of this kind from the power's target tile to its second tile
    Move(usize),
    /// the camel on the power's target tile to its second tile, keeping its owner
    MoveCamel,
    /// a meeple of this colour from the power's target tile to its second tile
    MoveMeeple(usize),
    /// meeples drawn at random from the bag onto the power's target tile
    Meeples,
    /// Fakirs discarded from the hand (as many as held, at most)
    DiscardFakirs,
    /// more meeples the assassins of this turn kill
    Kills,
    /// a choice offered to the player (the last effect of its list): `Effect::options`
    Choose,
    /// a declared counter set to the amount (held from 0 to `COUNTER_MOST`)
    Set(Holder),
    /// djinns drawn for the player to keep one (the last effect of a used power's list:
    /// the `keep-djinn` decision)
    DrawDjinns,
    /// one of the face-up djinns taken by the player, free (the last effect of a used
    /// power's list: the `take-djinn` decision)
    TakeDjinn,
    /// the meeple a kill sent to the bag goes in front of the player instead
    KeepKilled,
    /// the face-up resource cards discarded and that many dealt as the new row
    DealRow,
    /// the used power's target card into the player's hand, from its pile
    TakeCard,
    /// the card of this deck lying on the power's target tile (or the tile action's tile)
    /// into the player's hand
    TakeLying(usize),
    /// a plugin's event fired (`fire`): no rule the kernel plays hears one, as content
    /// triggers on the rules' own events alone and a plugin's `naqala_event` hook keeps
    /// its games in Python; so it changes nothing here
    Fire,
}

#[derive(Debug, Clone)]
pub struct Effect {
    pub verb: Verb,
    pub amount: Expr,
    pub test: Option<Expr>,
    /// a score line's category (`palm-trees`: the Great Lake doubles those lines)
    pub category: String,
    /// a choice's options, each a list of effects (`choose <n>` runs number n, from 1)
    pub options: Vec<Vec<Effect>>,
}

/// The choice ending `list`, if it ends with one (`effects.choosing`).
pub fn final_choice(list: &[Effect]) -> Option<&Effect> {
    list.last().filter(|e| e.verb == Verb::Choose)
}

/// A trigger or a tile action: when, the condition, the effects, the numbers.
#[derive(Debug, Clone)]
pub struct Program {
    /// the trigger's or tile action's id (a score line's source); "" for a power
    pub id: String,
    pub test: Option<Expr>,
    pub effects: Vec<Effect>,
    pub params: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    Before,
    After,
    Instead,
}

#[derive(Debug, Clone)]
pub struct TileAction {
    pub tile: String,
    pub at: At,
    pub program: Program,
}

#[derive(Debug, Clone)]
pub struct Power {
    pub on: Option<Moment>,
    pub program: Program,
    /// whether a reaction counts as a use of the card (not when its kind is used: the
    /// use counted)
    pub counted: bool,
    /// colour indices of the meeples in front of the owner that assassins cannot kill
    pub protects: Vec<usize>,
    /// a used power's target: any tile of this kind ("": none)
    pub target_kind: String,
    /// a used power's target: any tile where this holds
    pub target: Option<Expr>,
    /// the decisions of its owner's turn at which a used power is offered (none: all);
    /// a power that redirects a token is offered at its `placing:<token>` step too
    pub stages: Vec<String>,
    /// the token (by index) whose placements for its owner a used power puts on a tile
    /// around instead (Hagis's palace): its effects are that placement
    pub redirects: Option<usize>,
    /// a used power's target: a card of this pile, which its action names
    pub target_card: Option<CardPile>,
    /// a used power's second tile, where its `move` puts a piece of its target: any
    /// other tile where this holds
    pub target_to: Option<Expr>,
    /// a used power's target: a tile and a group of this many of its meeples (all of
    /// them when fewer), which its action names
    pub target_meeples: Option<Expr>,
    /// whether it takes meeples off a tile (`remove` or `move` of a colour, or the
    /// meeples its action names): it is not offered at a drop or the assassins' kill,
    /// whose options were worked out for the meeples as they stand
    /// (`cards.MEEPLES_SETTLED`), and at the pick only where it leaves a pick (such
    /// an effect acts on a target, so it is never one of a choice's, which asks none)
    pub removes_meeples: bool,
}

/// Where a used power's target card lies (`PowerSpec.card_pile`): a deck's face-up row
/// or its discards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardPile {
    pub deck: usize,
    pub discard: bool,
}

/// The pile a power's `target_card` names, refused in one line where the kernel cannot
/// play it (`effects_checks` refuses it in Python first).
fn card_pile(power: &PowerDoc, names: &Lookup<'_>) -> Result<Option<CardPile>, String> {
    if power.target_card.is_empty() {
        return Ok(None);
    }
    let refused = |why: &str| {
        Err(format!(
            "kernel content: effects: target_card {:?}: {why}",
            power.target_card
        ))
    };
    let (deck, pile) = power.target_card.split_once('.').unwrap_or(("", ""));
    let Some(index) = names.doc.decks.iter().position(|d| d.id == deck) else {
        return refused("no such deck");
    };
    let discard = match pile {
        "discard" => true,
        "row" if [crate::content::RESOURCES, crate::content::DJINNS].contains(&deck) => false,
        _ => return refused("a card target lies in <deck>.discard, resources.row or djinns.row"),
    };
    if power.on != "use" || !power.target_kind.is_empty() || power.target.is_some() {
        return refused("a used power's, instead of a tile");
    }
    Ok(Some(CardPile {
        deck: index,
        discard,
    }))
}

/// A power's second tile (`target_to`), refused in one line where it names none the
/// kernel can play (`effects_checks` refuses it in Python first).
fn second_tile(power: &PowerDoc, names: &Lookup<'_>) -> Result<Option<Expr>, String> {
    let Some(condition) = &power.target_to else {
        return Ok(None);
    };
    let tile_target = !power.target_kind.is_empty() || power.target.is_some();
    if power.on != "use" || !tile_target || !power.redirects.is_empty() {
        return Err(
            "kernel content: effects: target_to is the second tile of a used power with a \
             tile target"
                .to_owned(),
        );
    }
    resolve(condition, names).map(Some)
}

/// What `remove` names to take the meeples a used power's action names
/// (`core.effects.MEEPLES`).
const NAMED_MEEPLES: &str = "meeples";

/// The most meeples a used power's action names (`core.effects.MOST_TARGET_MEEPLES`).
pub const MOST_TARGET_MEEPLES: usize = 4;

/// A power's group of meeples (`target_meeples`), refused in one line where the kernel
/// cannot play it (`effects_checks` refuses it in Python first): a used power's, on a
/// tile target, naming 1 to `MOST_TARGET_MEEPLES` meeples for each card of its kind.
fn named_meeples(
    power: &PowerDoc,
    names: &Lookup<'_>,
    effects: &[Effect],
) -> Result<Option<Expr>, String> {
    let refused = |why: String| Err(format!("kernel content: effects: target_meeples: {why}"));
    let Some(count) = &power.target_meeples else {
        if effects.iter().any(names_meeples) {
            return refused("remove = \"meeples\" takes the meeples target_meeples names".into());
        }
        return Ok(None);
    };
    let count = resolve(count, names)?;
    if power.on != "use"
        || !power.redirects.is_empty()
        || !power.target_card.is_empty()
        || power.target_to.is_some()
    {
        return refused("the meeples of a used power's tile target alone".into());
    }
    for card in (names.doc.cards.iter()).filter(|c| c.deck == power.deck && c.kind == power.kind) {
        let named = match &count {
            Expr::Num(n) => *n,
            Expr::Param(name) => card.params.get(name).copied().unwrap_or(0),
            _ => return refused("a number or param.<name>".into()),
        };
        if !(1..=MOST_TARGET_MEEPLES as i64).contains(&named) {
            return refused(format!(
                "card {:?} names {named}: 1 to {MOST_TARGET_MEEPLES}",
                card.id
            ));
        }
    }
    Ok(Some(count))
}

/// Whether an effect, or one of its choices', removes the meeples the action names.
fn names_meeples(effect: &Effect) -> bool {
    effect.verb == Verb::RemoveNamed || effect.options.iter().flatten().any(names_meeples)
}

impl Power {
    /// Whether it acts on a tile its action names (a kind, a condition, a group of
    /// meeples, or a tile around a placement it redirects).
    pub fn targeted(&self) -> bool {
        !self.target_kind.is_empty()
            || self.target.is_some()
            || self.target_meeples.is_some()
            || self.redirects.is_some()
    }
}

/// Whether an effect of `list` (or of a choice's options) takes a meeple off a tile.
fn removes_meeples(list: &[Effect]) -> bool {
    list.iter().any(|e| {
        matches!(
            e.verb,
            Verb::RemoveMeeple(_) | Verb::MoveMeeple(_) | Verb::RemoveNamed
        ) || e.options.iter().any(|o| removes_meeples(o))
    })
}

/// The effects language's entries of one content, resolved.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    /// triggers by moment, in content order
    pub triggers: Vec<Vec<Program>>,
    pub tile_actions: Vec<TileAction>,
    /// the powers of each card (by card index) whose kind has any in content: one entry
    /// per moment, in content order
    pub card_powers: Vec<Vec<usize>>,
    pub powers: Vec<Power>,
    /// what a use of each card (by card index) marks in the turn: its id
    pub card_marks: Vec<Option<Sym>>,
    /// whether anything at all listens to each moment (a trigger or a power)
    pub heard: [bool; Moment::ALL.len()],
}

/// What a content names, for resolving an expression's ids.
pub struct Lookup<'a> {
    pub doc: &'a crate::content::ContentDoc,
    pub names: &'a Names,
}

impl Lookup<'_> {
    /// The counter `id` an expression reads, a `[[counter]]` or a plugin's own (its name
    /// is in the names table: `content::names_of`).
    fn counter(&self, id: &str) -> Option<Holder> {
        let counter = self.doc.effects.counters.iter().find(|c| c.id == id)?;
        let sym = self.names.sym(&counter.key())?;
        Some(if counter.of == "game" {
            Holder::Game(sym)
        } else {
            Holder::Player(sym)
        })
    }

    /// Whether `set` may write the counter `id`: a `[[counter]]`, or a plugin's own that
    /// its plugin lets effects write.
    fn settable(&self, id: &str) -> bool {
        (self.doc.effects.counters.iter()).any(|c| c.id == id && (!c.plugin || c.writable))
    }

    fn token(&self, id: &str) -> Option<usize> {
        self.doc.tokens.iter().position(|t| t.id == id)
    }

    fn colour(&self, id: &str) -> Option<usize> {
        self.doc.colours.iter().position(|c| c.id == id)
    }

    fn card(&self, id: &str) -> Option<u8> {
        self.doc
            .cards
            .iter()
            .position(|c| c.id == id)
            .and_then(|i| u8::try_from(i).ok())
    }
}

/// The decision keeping one of the djinns drawn (`Verb::DrawDjinns`).
pub const KEEP_DJINN: &str = "keep-djinn";
/// The decision taking one of the face-up djinns (`Verb::TakeDjinn`).
pub const TAKE_DJINN: &str = "take-djinn";

/// The index of the resource deck, found by name (`content::check` holds it first).
fn resources(names: &Lookup<'_>) -> usize {
    deck_named(names, crate::content::RESOURCES, 0)
}

/// The index of the djinn deck, found by name (`content::check` holds it second).
fn djinns(names: &Lookup<'_>) -> usize {
    deck_named(names, crate::content::DJINNS, 1)
}

fn deck_named(names: &Lookup<'_>, id: &str, checked: usize) -> usize {
    names
        .doc
        .decks
        .iter()
        .position(|d| d.id == id)
        .unwrap_or(checked)
}

fn resolve(doc: &ExprDoc, names: &Lookup<'_>) -> Result<Expr, String> {
    let refuse = |what: &str| Err(format!("kernel content: effects: {what}"));
    Ok(match doc {
        ExprDoc::Num { num } => Expr::Num(clamp(*num)),
        ExprDoc::Bin { bin, a, b } => {
            let op = match bin.as_str() {
                "+" => Op::Add,
                "-" => Op::Sub,
                "*" => Op::Mul,
                "//" => Op::FloorDiv,
                "%" => Op::Mod,
                "==" => Op::Eq,
                "!=" => Op::Ne,
                "<" => Op::Lt,
                "<=" => Op::Le,
                ">" => Op::Gt,
                ">=" => Op::Ge,
                "and" => Op::And,
                "or" => Op::Or,
                other => return refuse(&format!("unknown operator {other:?}")),
            };
            Expr::Bin(
                op,
                Box::new(resolve(a, names)?),
                Box::new(resolve(b, names)?),
            )
        }
        ExprDoc::Var { var } if var == "target.holds_meeples" => {
            Expr::HoldsMeeples(names.doc.tiles.iter().map(|t| t.holds_meeples).collect())
        }
        ExprDoc::Var { var } => Expr::Var(match var.as_str() {
            "me" => Var::Me,
            "actor" => Var::Actor,
            "coins" => Var::Coins,
            "event.count" => Var::EventCount,
            "event.tile_owner" => Var::EventTileOwner,
            "event.victim" => Var::EventVictim,
            "event.this_card" => Var::EventThisCard,
            "turn.killed" => Var::TurnKilled,
            "turn.used" => Var::TurnUsed,
            "target.owner" => Var::TargetOwner,
            "target.meeples" => Var::TargetMeeples,
            "target.tokens" => Var::TargetTokens,
            other => return refuse(&format!("unknown name {other:?}")),
        }),
        ExprDoc::Param { param } => Expr::Param(param.clone()),
        ExprDoc::Setting { setting } => {
            Expr::Num(clamp(names.doc.settings.get(setting).copied().unwrap_or(0)))
        }
        ExprDoc::Count { count, of } => match count.as_str() {
            "vp" => Expr::Num(clamp(names.token(of).map_or(0, |t| names.doc.tokens[t].vp))),
            "here" => Expr::Count(names.token(of).map_or(Counted::Nothing, Counted::Here)),
            "on_target" => Expr::Count(names.token(of).map_or(Counted::Nothing, Counted::OnTarget)),
            "owned" => Expr::Count(names.token(of).map_or(Counted::Nothing, Counted::Owned)),
            "held" => Expr::Count(names.colour(of).map_or(Counted::Nothing, Counted::Held)),
            "tribe" => Expr::Count(names.colour(of).map_or(Counted::Nothing, Counted::Tribe)),
            "killed" => Expr::Count(names.colour(of).map_or(Counted::Nothing, Counted::Killed)),
            "around" => Expr::Around(names.doc.tiles.iter().map(|t| t.value == *of).collect()),
            "holds" => Expr::Holds(
                (names.doc.cards.iter())
                    .map(|c| c.kind == *of && c.deck != crate::content::RESOURCES)
                    .collect(),
            ),
            "cards" => Expr::Count(names.card(of).map_or(Counted::Nothing, |card| {
                Counted::Cards(resources(names), card)
            })),
            "tiles" => Expr::Count(Counted::Tiles),
            "camels" => Expr::Count(Counted::Camels),
            "bag" => Expr::Count(Counted::Bag),
            "pile" => Expr::Count(Counted::Pile(resources(names))),
            "djinns" => Expr::Count(Counted::Pile(djinns(names))),
            "bank" => Expr::Count(names.token(of).map_or(Counted::Nothing, Counted::Bank)),
            "counter" => Expr::Count(names.counter(of).map_or(Counted::Nothing, Counted::Counter)),
            "held_all" => Expr::Count(Counted::HeldAll),
            "most_held" => {
                Expr::Count(names.colour(of).map_or(Counted::Nothing, Counted::MostHeld))
            }
            "largest_group" => Expr::Count(Counted::LargestGroup),
            "hand" => Expr::Count(
                (names.doc.decks.iter().position(|d| d.id == *of))
                    .map_or(Counted::Nothing, Counted::Hand),
            ),
            "path" => Expr::Count(Counted::Path),
            "collected" => Expr::Count(Counted::Collected),
            "tiles_of" => Expr::TilesWhere(names.doc.tiles.iter().map(|t| t.kind == *of).collect()),
            "valued" => Expr::TilesWhere(names.doc.tiles.iter().map(|t| t.value == *of).collect()),
            "tile_kinds" => {
                let mut kinds: Vec<&str> =
                    names.doc.tiles.iter().map(|t| t.kind.as_str()).collect();
                kinds.sort_unstable();
                kinds.dedup();
                let number = |kind: &str| kinds.binary_search(&kind).map_or(0, |i| i as u16);
                Expr::TileKinds(names.doc.tiles.iter().map(|t| number(&t.kind)).collect())
            }
            "merchandise_kinds" | "most_merchandise" => Expr::Goods {
                suits: Box::new(names.doc.suits()),
                most: count == "most_merchandise",
            },
            "lying" => {
                let deck = names.doc.decks.iter().position(|d| d.id == *of);
                let on = deck.and_then(|deck| names.doc.lying_places(deck));
                match (deck, on) {
                    (Some(deck), Some(on)) => Expr::Lying { deck, on },
                    _ => Expr::Num(0),
                }
            }
            "near" | "beside" => Expr::NextTo {
                kind: names.doc.tiles.iter().map(|t| t.kind == *of).collect(),
                diagonals: count == "near",
            },
            other => return refuse(&format!("unknown count {other:?}")),
        },
        ExprDoc::Neg { neg } => Expr::Neg(Box::new(resolve(neg, names)?)),
        ExprDoc::Not { not } => Expr::Not(Box::new(resolve(not, names)?)),
        ExprDoc::If {
            test,
            then,
            otherwise,
        } => Expr::If(
            Box::new(resolve(test, names)?),
            Box::new(resolve(then, names)?),
            Box::new(resolve(otherwise, names)?),
        ),
        ExprDoc::Call { call, args } if call == "merchandise" => {
            let [wilds] = args.as_slice() else {
                return refuse(&format!("merchandise() with {} values", args.len()));
            };
            Expr::Merchandise(
                Box::new(names.doc.suits()),
                Box::new(resolve(wilds, names)?),
            )
        }
        ExprDoc::Call { call, args } => {
            let fun = match call.as_str() {
                "min" => Fun::Min,
                "max" => Fun::Max,
                "abs" => Fun::Abs,
                other => return refuse(&format!("unknown function {other:?}")),
            };
            if args.is_empty() || (fun == Fun::Abs && args.len() != 1) {
                return refuse(&format!("{call}() with {} values", args.len()));
            }
            let args = args
                .iter()
                .map(|a| resolve(a, names))
                .collect::<Result<Vec<_>, _>>()?;
            Expr::Call(fun, args)
        }
    })
}

/// The token a used power redirects, if it names one: a token whose placements wait at a
/// `placing:<token>` step (`effects_checks._redirect_problems`).
fn redirected(power: &PowerDoc, names: &Lookup<'_>) -> Result<Option<usize>, String> {
    if power.redirects.is_empty() {
        return Ok(None);
    }
    let step = format!("placing:{}", power.redirects);
    match names.token(&power.redirects) {
        Some(token) if power.on == "use" && names.doc.stages.contains(&step) => {
            match power.stages.iter().find(|s| !s.starts_with("tile:")) {
                Some(stage) => Err(format!(
                    "kernel content: effects: a placement is redirected at a tile's action, \
                     not at {stage:?}"
                )),
                None => Ok(Some(token)),
            }
        }
        _ => Err(format!(
            "kernel content: effects: no placement of {:?} to redirect",
            power.redirects
        )),
    }
}

/// A list of effects resolved against the content (a choice's options too); an unknown
/// verb or token is refused in one line.
fn effect_list(effects: &[EffectDoc], names: &Lookup<'_>) -> Result<Vec<Effect>, String> {
    effects
        .iter()
        .map(|e| {
            let verb = match e.verb.as_str() {
                "coins" => Verb::Coins,
                "draw" => Verb::Draw,
                "score" => Verb::Score,
                "kills" => Verb::Kills,
                "choose" => Verb::Choose,
                "discard_fakirs" => Verb::DiscardFakirs,
                "meeples" => Verb::Meeples,
                "keep_killed" => Verb::KeepKilled,
                "deal_row" => Verb::DealRow,
                "take_card" => Verb::TakeCard,
                "fire" => Verb::Fire,
                "take_lying" => match names.doc.decks.iter().position(|d| d.id == e.token) {
                    Some(deck) if !names.doc.decks[deck].lies_on.is_empty() => {
                        Verb::TakeLying(deck)
                    }
                    _ => {
                        return Err(format!(
                            "kernel content: effects: no row on tiles {:?} to take from",
                            e.token
                        ))
                    }
                },
                verb @ ("draw_djinns" | "take_djinn") => {
                    let (stage, verb) = match verb {
                        "draw_djinns" => (KEEP_DJINN, Verb::DrawDjinns),
                        _ => (TAKE_DJINN, Verb::TakeDjinn),
                    };
                    if !names.doc.stages.iter().any(|s| s == stage) {
                        return Err(format!(
                            "kernel content: effects: {} needs the {stage:?} stage",
                            e.verb
                        ));
                    }
                    verb
                }
                "place" if e.token == CAMEL => Verb::PlaceCamel,
                "remove" if e.token == CAMEL => Verb::RemoveCamel,
                "remove" if e.token == NAMED_MEEPLES => Verb::RemoveNamed,
                "move" if e.token == CAMEL => Verb::MoveCamel,
                "set" => match names.counter(&e.token).filter(|_| names.settable(&e.token)) {
                    Some(holder) => Verb::Set(holder),
                    None => {
                        return Err(format!(
                            "kernel content: effects: no counter {:?} to set",
                            e.token
                        ))
                    }
                },
                verb @ ("place" | "remove" | "move") => {
                    match (names.token(&e.token), names.colour(&e.token)) {
                        (Some(token), _) if verb == "place" => Verb::Place(token),
                        (Some(token), _) if names.doc.tokens[token].replaces_camel => {
                            return Err(format!(
                                "kernel content: effects: a {:?} stands for a camel: it is not \
                             {verb}d alone",
                                e.token
                            ))
                        }
                        (Some(token), _) if verb == "move" => Verb::Move(token),
                        (Some(token), _) => Verb::Remove(token),
                        (None, Some(colour)) if verb == "remove" => Verb::RemoveMeeple(colour),
                        (None, Some(colour)) if verb == "move" => Verb::MoveMeeple(colour),
                        _ => {
                            return Err(format!(
                                "kernel content: effects: no token {:?} to {verb}",
                                e.token
                            ))
                        }
                    }
                }
                other => return Err(format!("kernel content: effects: unknown verb {other:?}")),
            };
            Ok(Effect {
                verb,
                amount: resolve(&e.amount, names)?,
                test: e.test.as_ref().map(|t| resolve(t, names)).transpose()?,
                category: e.category.clone(),
                options: e
                    .options
                    .iter()
                    .map(|o| effect_list(o, names))
                    .collect::<Result<_, _>>()?,
            })
        })
        .collect()
}

fn program(
    id: &str,
    test: &Option<ExprDoc>,
    effects: &[EffectDoc],
    params: &BTreeMap<String, i64>,
    names: &Lookup<'_>,
) -> Result<Program, String> {
    let effects = effect_list(effects, names)?;
    Ok(Program {
        id: id.to_owned(),
        test: test.as_ref().map(|t| resolve(t, names)).transpose()?,
        effects,
        params: params.clone(),
    })
}

/// The effects a hook called back answers (`naqala_tile_effects`), as the JSON list of
/// `core/effects.py`'s `compiled` effects, resolved against the content; a list that is
/// no such JSON, or names what the content has not, is refused in one line.
pub fn answered(
    doc: &crate::content::ContentDoc,
    names: &Names,
    text: &str,
) -> Result<Vec<Effect>, String> {
    let docs: Vec<EffectDoc> =
        serde_json::from_str(text).map_err(|e| format!("its effects are not effects: {e}"))?;
    effect_list(&docs, &Lookup { doc, names })
}

impl At {
    /// The word `[[tile_action]]` and `naqala_tile_effects` name it by.
    pub fn name(self) -> &'static str {
        match self {
            At::Before => "before",
            At::After => "after",
            At::Instead => "instead",
        }
    }
}

impl Effects {
    /// The entries of `doc`, resolved against its content; an unknown moment, verb or
    /// name is refused in one line.
    pub fn read(
        doc: &crate::content::ContentDoc,
        effects: &EffectsDoc,
        names: &Names,
    ) -> Result<Effects, String> {
        let names = Lookup { doc, names };
        let mut out = Effects {
            triggers: vec![Vec::new(); Moment::ALL.len()],
            ..Effects::default()
        };
        for trigger in &effects.triggers {
            let moment = Moment::read(&trigger.on)?;
            out.triggers[moment.index()].push(program(
                &trigger.id,
                &trigger.test,
                &trigger.effects,
                &trigger.params,
                &names,
            )?);
            out.heard[moment.index()] = true;
        }
        for action in &effects.tile_actions {
            let at = match action.at.as_str() {
                "before" => At::Before,
                "after" => At::After,
                "instead" => At::Instead,
                other => return Err(format!("kernel content: effects: tile action at {other:?}")),
            };
            out.tile_actions.push(TileAction {
                tile: action.tile.clone(),
                at,
                program: program(
                    &action.id,
                    &action.test,
                    &action.effects,
                    &action.params,
                    &names,
                )?,
            });
        }
        let empty = BTreeMap::new();
        for power in &effects.powers {
            let on = if power.on.is_empty() {
                None
            } else {
                Some(Moment::read(&power.on)?)
            };
            if let Some(moment) = on {
                out.heard[moment.index()] = true;
            }
            let protects = power
                .protects
                .iter()
                .filter_map(|c| names.colour(c))
                .collect();
            let used_kind = effects
                .powers
                .iter()
                .any(|p| p.deck == power.deck && p.kind == power.kind && p.on == "use");
            let program = program("", &power.test, &power.effects, &empty, &names)?;
            let redirects = redirected(power, &names)?;
            let mut stages = power.stages.clone();
            if redirects.is_some() {
                stages.push(format!("placing:{}", power.redirects));
            }
            let target_meeples = named_meeples(power, &names, &program.effects)?;
            out.powers.push(Power {
                on,
                removes_meeples: removes_meeples(&program.effects),
                target_meeples,
                program,
                counted: !used_kind,
                protects,
                target_kind: power.target_kind.clone(),
                target: power
                    .target
                    .as_ref()
                    .map(|t| resolve(t, &names))
                    .transpose()?,
                stages,
                redirects,
                target_card: card_pile(power, &names)?,
                target_to: second_tile(power, &names)?,
            });
        }
        out.card_powers = doc
            .cards
            .iter()
            .map(|card| {
                (effects.powers.iter().enumerate())
                    .filter(|(_, p)| p.deck == card.deck && p.kind == card.kind)
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        out.card_marks = doc
            .cards
            .iter()
            .map(|card| names.names.sym(&card.id))
            .collect();
        Ok(out)
    }

    /// The powers of card `card` (by index) in content, one per moment.
    pub fn powers_of(&self, card: u8) -> impl Iterator<Item = &Power> {
        self.card_powers
            .get(usize::from(card))
            .into_iter()
            .flatten()
            .map(|&p| &self.powers[p])
    }

    /// Whether card `card`'s kind has a power in content.
    pub fn has_power(&self, card: u8) -> bool {
        self.card_powers
            .get(usize::from(card))
            .is_some_and(|p| !p.is_empty())
    }

    /// The power of card `card` at `moment` (`None`: protecting only), if content gives one.
    pub fn power_at(&self, card: u8, moment: Option<Moment>) -> Option<&Power> {
        self.powers_of(card).find(|p| p.on == moment)
    }

    /// What a use of card `card` marks in the turn (`None`: no card, or no name).
    pub fn mark_of(&self, card: Option<u8>) -> Option<Sym> {
        card.and_then(|c| self.card_marks.get(usize::from(c)).copied().flatten())
    }

    /// The tile actions of tile kind `kind` at `at`, in content order.
    pub fn tile_programs<'a>(&'a self, kind: &'a str, at: At) -> impl Iterator<Item = &'a Program> {
        self.tile_actions
            .iter()
            .filter(move |a| a.at == at && a.tile == kind)
            .map(|a| &a.program)
    }
}

/// A value held within ±`BOUND`.
pub fn clamp(value: i64) -> i64 {
    value.clamp(-BOUND, BOUND)
}
