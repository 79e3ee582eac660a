//! The Thieves of Naqala (`plugins/thieves/`), ported stage by stage: the face-up thief
//! taken at a sacred place (`row.py`), the thief step spliced after a tribe action
//! (`flow.py`), a theft's steps (`steal.py`), the six kinds of thief (`kinds.py`) and
//! Hafiz's protection (`immunity.py`).
//!
//! Every number is read from the merged content: the row's size (`thieves_row`), whether
//! used thieves come back (`thieves_reshuffle`), where the blue thief's token goes
//! (`blue_thief_own_tile`), what each thief takes and keeps (`params.give`, `keep`).
//! A theft in progress is kept in the state as the Python keeps it (`thieves.running.*`,
//! `thieves.victim.*`, `thieves.given.*` counters and `Turn.revealed`), so the state JSON
//! is the same after every action.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::stages::Stage;
use super::{combinations, Phase, Rules, Step, Unported};
use crate::actions::{Action, Cards, Payment};
use crate::content::{Content, MAX_PLAYERS, MAX_TILES};
use crate::extras::{append_sorted, get_extra, has_extra, set_extra, with_extra};
use crate::names::Sym;
use crate::state::{saturating_count, Decision, Deck, State, NOBODY};

/// The thieves' deck (`row.THIEVES`).
pub use crate::content::box_names::THIEVES;
/// The kind of the Thieves' djinn (`immunity.Hafiz`, registered as `djinns:hafiz`).
pub const HAFIZ: &str = "hafiz";
/// What the blue thief steals, in this order (`kinds.TOKENS`).
const TOKENS: &[&str] = &["palm-tree", "palace"];
/// The decision where thieves are taken (`row.SACRED_PLACE`).
const SACRED_PLACE: &str = "tile:sacred-place";

/// What a kind of thief steals (`kinds.thief_powers`: one power per card kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Theft {
    /// red: a tile (`TileThief`)
    Tile,
    /// blue: a palm tree or palace (`TokenThief`)
    Token,
    /// yellow: viziers, meeples of the thief's colour (`MeepleThief`)
    Meeples,
    /// green, white, purple: cards of the deck the kind names (`CardThief`)
    Cards,
}

fn theft_of(kind: &str) -> Option<Theft> {
    Some(match kind {
        "tile" => Theft::Tile,
        "token" => Theft::Token,
        "meeples" => Theft::Meeples,
        "resources" | "djinns" | "items" => Theft::Cards,
        _ => return None,
    })
}

/// Whether the card is a thief the kernel plays (a card of the thieves deck whose kind
/// has a power).
pub fn is_thief(deck: &str, kind: &str) -> bool {
    deck == THIEVES && theft_of(kind).is_some()
}

pub use crate::actions::Loot;

/// The Thieves' rules over one content, resolved once: their deck, each card's kind of
/// theft, and the names a theft writes.
#[derive(Clone, Debug)]
pub struct Thieves {
    deck: usize,
    /// by card index: the kind of theft of a thief
    thefts: Vec<Option<Theft>>,
    /// by card index: a djinn with Hafiz's protection
    hafiz: Vec<bool>,
    step: Sym,
    give: Sym,
    keep: Sym,
    sacred_place: Option<Sym>,
    offered: Sym,
    /// by card index: `thieves.taken.<id>` and `thieves.running.<id>` of a thief
    taken: Vec<Option<Sym>>,
    running: Vec<Option<Sym>>,
    /// by seat: `thieves.victim.<seat>`
    victims: Vec<Sym>,
    /// by tile: `thieves.given.tile.<tile>`
    given_tiles: Vec<Sym>,
    /// by token: `thieves.given.token.<id>`
    given_tokens: Vec<Sym>,
    given_meeples: Sym,
    row_size: usize,
    reshuffle: bool,
    own_tile: bool,
    /// the tokens the blue thief takes, in `TOKENS` order, by token index
    tokens: Vec<usize>,
    elder: Option<usize>,
}

impl Thieves {
    /// The thieves' rules, when the content has their deck and stages.
    pub fn new(content: &Content) -> Option<Thieves> {
        let names = &content.names;
        let deck = content.deck_index(THIEVES)?;
        let doc = &content.doc;
        let by_card = |prefix: &str| -> Vec<Option<Sym>> {
            doc.cards
                .iter()
                .map(|c| (c.deck == THIEVES).then(|| names.known(&format!("{prefix}{}", c.id))))
                .collect()
        };
        let setting = |key: &str| content.setting(key).unwrap_or(0);
        Some(Thieves {
            deck,
            thefts: doc
                .cards
                .iter()
                .map(|c| {
                    if c.deck == THIEVES {
                        theft_of(&c.kind)
                    } else {
                        None
                    }
                })
                .collect(),
            hafiz: doc
                .cards
                .iter()
                .map(|c| c.deck == "djinns" && c.kind == HAFIZ)
                .collect(),
            step: names.sym("thief")?,
            give: names.sym("thief-give")?,
            keep: names.sym("thief-keep")?,
            sacred_place: names.sym(SACRED_PLACE),
            offered: names.known("thieves.offered"),
            taken: by_card("thieves.taken."),
            running: by_card("thieves.running."),
            victims: (0..MAX_PLAYERS)
                .map(|seat| names.known(&format!("thieves.victim.{seat}")))
                .collect(),
            given_tiles: (0..MAX_TILES)
                .map(|tile| names.known(&format!("thieves.given.tile.{tile}")))
                .collect(),
            given_tokens: doc
                .tokens
                .iter()
                .map(|t| names.known(&format!("thieves.given.token.{}", t.id)))
                .collect(),
            given_meeples: names.known("thieves.given.meeples"),
            row_size: setting("thieves_row").max(0) as usize,
            reshuffle: setting("thieves_reshuffle") != 0,
            own_tile: setting("blue_thief_own_tile") != 0,
            tokens: TOKENS
                .iter()
                .filter_map(|id| doc.tokens.iter().position(|t| t.id == *id))
                .collect(),
            elder: doc.colour_index(crate::content::ELDER),
        })
    }

    /// Whether `sym` names one of a theft's counters (`RUNNING`, `VICTIM`, `GIVEN`).
    fn is_theft_key(&self, sym: Sym) -> bool {
        self.running.contains(&Some(sym))
            || self.victims.contains(&sym)
            || self.given_tiles.contains(&sym)
            || self.given_tokens.contains(&sym)
            || sym == self.given_meeples
    }
}

/// The owner's opponents, from the owner's left round the table (`steal.opponents`).
fn opponents(players: usize, owner: usize) -> impl Iterator<Item = usize> {
    (1..players).map(move |k| (owner + k) % players)
}

impl Rules<'_> {
    fn thieves(&self) -> &Thieves {
        self.thieves.as_ref().expect("the thieves are in play")
    }

    /// What a state read from JSON must hold of a theft (`plugins/thieves/checks.py`):
    /// its counters exactly while a victim gives up or the owner keeps, then one thief
    /// running inside the thief step, victims that are the owner's opponents, and the
    /// deciding player the one the stage asks. The first problem, with its JSON path.
    pub(crate) fn theft_problem(&self, state: &State) -> Option<String> {
        let thieves = self.thieves.as_ref()?;
        let names = &self.content.names;
        let stage = state.decision.stage;
        let deciding = stage == thieves.give || stage == thieves.keep;
        let running = thieves
            .running
            .iter()
            .flatten()
            .filter(|&&key| get_extra(&state.extras, key) != 0)
            .count();
        if !deciding {
            let key = state.extras.iter().find(|&&(k, _)| thieves.is_theft_key(k));
            return key
                .map(|&(k, _)| format!("$.extras.{}: no theft is in progress", names.name(k)));
        }
        if running != 1 {
            return Some(format!(
                "$.extras: {:?} needs one running thief",
                names.name(stage)
            ));
        }
        let turn = state.turn.as_ref()?;
        if turn.resume != thieves.step {
            return Some("$.turn.resume: a theft runs inside \"thief\"".to_owned());
        }
        let owner = i64::from(*state.markers.as_slice().get(usize::from(turn.marker))?);
        for (seat, &key) in thieves.victims.iter().enumerate() {
            let outside = seat as i64 == owner || seat >= state.players.len();
            if get_extra(&state.extras, key) != 0 && outside {
                return Some(format!(
                    "$.extras.{}: not an opponent of the thief",
                    names.name(key)
                ));
            }
        }
        let player = state.decision.player;
        let victim = usize::try_from(player)
            .ok()
            .and_then(|seat| thieves.victims.get(seat))
            .is_some_and(|&key| get_extra(&state.extras, key) != 0);
        if stage == thieves.give && !victim {
            return Some("$.decision.player: not an opponent still to give".to_owned());
        }
        if stage == thieves.keep && i64::from(player) != owner {
            return Some("$.decision.player: the thief's owner keeps".to_owned());
        }
        None
    }

    /// Whether `card` is a thief the kernel plays.
    pub(super) fn is_thief(&self, card: u8) -> bool {
        self.thieves
            .as_ref()
            .is_some_and(|t| t.thefts[usize::from(card)].is_some())
    }

    fn theft(&self, card: u8) -> Theft {
        self.thieves().thefts[usize::from(card)].expect("a thief")
    }

    fn turn_owner(state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        state.markers.as_slice()[usize::from(turn.marker)] as usize
    }

    fn subject_colour(&self, card: u8) -> Option<usize> {
        let subject = &self.content.doc.cards[usize::from(card)].subject;
        self.content
            .doc
            .colours
            .iter()
            .position(|c| &c.id == subject)
    }

    fn param(&self, card: u8, key: &str) -> i64 {
        let spec = &self.content.doc.cards[usize::from(card)];
        spec.params.get(key).copied().unwrap_or(0)
    }

    // -- the face-up thief (row.py) ---------------------------------------------------

    /// `take_options`: `thief <card> <payment>` at a sacred place in the player's own
    /// turn, for what a djinn costs there (`payments`: the djinn options' payments).
    pub(super) fn thief_take_options(&self, state: &State) -> Vec<Action> {
        let Some(thieves) = self.thieves.as_ref() else {
            return Vec::new();
        };
        let player = state.decision.player;
        if Some(state.decision.stage) != thieves.sacred_place
            || player < 0
            || !self.own_turn(state, player as usize)
        {
            return Vec::new();
        }
        let payments = if state.decks[self.content.djinns()].row().is_empty() {
            Vec::new()
        } else {
            self.djinn_payments(state)
        };
        let mut row = state.decks[thieves.deck].row().to_vec();
        row.sort_unstable();
        row.dedup();
        let mut options = Vec::new();
        for card in row {
            for &pay in &payments {
                options.push(Action::Thief(card, pay));
            }
        }
        options
    }

    /// `take_thief`: pay, take the thief into hand (not usable this turn) and end the
    /// sacred place.
    pub(super) fn take_thief(&self, mut state: State, card: u8, payment: Payment) -> Step {
        let thieves = self.thieves();
        let player = state.decision.player as usize;
        let (elders, fakirs) = match payment {
            Payment::ElderElder => (2, 0),
            Payment::ElderFakir => (1, 1),
        };
        let elder = thieves.elder.expect("elders pay for a thief");
        state.players[player].meeples[elder] -= elders;
        state.bag[elder] += elders;
        state = self.discard_fakirs(state, player, fakirs);
        let deck = &state.decks[thieves.deck];
        let mut row = deck.row().to_vec();
        let at = row
            .iter()
            .position(|&c| c == card)
            .expect("the thief is face up");
        row.remove(at);
        state.decks[thieves.deck] = Deck::new(deck.draw(), &row, deck.discard());
        state = self.give_cards(state, player, thieves.deck, &[card]);
        let mark = thieves.taken[usize::from(card)].expect("a thief");
        let turn = state.turn.as_mut().expect("in a turn");
        turn.used = append_sorted(&turn.used, mark);
        let stage = state.decision.stage;
        self.proceed(state, stage)
    }

    /// `refill` (at clean-up): the row is filled again from the draw pile; a used thief
    /// comes back only with `thieves_reshuffle` (the discards shuffled when the pile is
    /// empty).
    pub(super) fn thieves_clean_up(&self, mut state: State) -> State {
        let Some(thieves) = self.thieves.as_ref() else {
            return state;
        };
        let deck = &state.decks[thieves.deck];
        let mut row = deck.row().to_vec();
        let mut draw = deck.draw().to_vec();
        let mut discard = deck.discard().to_vec();
        let before = row.len();
        while row.len() < thieves.row_size {
            if draw.is_empty() && thieves.reshuffle && !discard.is_empty() {
                state.rng.shuffle(&mut discard);
                draw = std::mem::take(&mut discard);
            }
            if draw.is_empty() {
                break;
            }
            row.push(draw.remove(0));
        }
        if row.len() != before {
            state.decks[thieves.deck] = Deck::new(&draw, &row, &discard);
        }
        state
    }

    // -- the thief step (flow.py) -----------------------------------------------------

    /// `ThiefFlow.proceed`: after a tribe action (once a turn), the thief step when a
    /// thief can be used there; `Continue` with the state for the flow it wraps.
    pub(super) fn thief_flow(&self, mut state: State, finished: Sym) -> ControlFlow<Step, State> {
        let Some(thieves) = self.thieves.as_ref() else {
            return ControlFlow::Continue(state);
        };
        let tribe = self.tribes.contains(&Some(finished));
        let Some(turn) = state.turn.as_mut() else {
            return ControlFlow::Continue(state);
        };
        if !tribe || turn.used.contains(&thieves.offered) {
            return ControlFlow::Continue(state);
        }
        turn.used = append_sorted(&turn.used, thieves.offered);
        if !self.usable_thieves(&state) {
            return ControlFlow::Continue(state);
        }
        let owner = Self::turn_owner(&state);
        state.decision.player = owner as i8;
        let turn = state.turn.as_mut().expect("in a turn");
        let mut callers = turn.callers.to_vec();
        callers.push(finished);
        turn.callers = callers.into_boxed_slice();
        state.decision.stage = thieves.step;
        ControlFlow::Break(Ok(state))
    }

    /// `usable_thieves`: whether the turn's owner, deciding at the thief step, could
    /// use a thief there.
    fn usable_thieves(&self, state: &State) -> bool {
        let thieves = self.thieves();
        let owner = Self::turn_owner(state);
        let hand = state.players[owner].hands.hand(thieves.deck);
        if hand.is_empty() {
            return false;
        }
        let mut probe = state.clone();
        probe.decision = Decision {
            stage: thieves.step,
            player: owner as i8,
        };
        hand.iter()
            .any(|&card| !self.thief_options(&probe, owner, card).is_empty())
    }

    /// `Theft` as an `Activated` power: at the thief step of the owner's turn, after the
    /// tribe action of its colour, not in the turn it was taken, once; only when some
    /// opponent can give something up and the owner could keep it.
    pub(super) fn thief_options(&self, state: &State, player: usize, card: u8) -> Vec<Action> {
        let thieves = self.thieves();
        let Some(turn) = state.turn.as_ref() else {
            return Vec::new();
        };
        if state.decision.stage != thieves.step || !self.own_turn(state, player) {
            return Vec::new();
        }
        if self.used_this_turn(turn, card) {
            return Vec::new();
        }
        let subject = self.subject_colour(card);
        let usable = turn.colour >= 0
            && subject == Some(turn.colour as usize)
            && !thieves.taken[usize::from(card)].is_some_and(|m| turn.used.contains(&m));
        if !usable {
            return Vec::new();
        }
        let Some(ways) = self.content.cost_ways(card) else {
            return Vec::new();
        };
        let elders = self.elders(state, player);
        let fakirs = self.fakirs_held(state, player);
        if !self.can_keep(state, player, card) || self.victims(state, player, card).is_empty() {
            return Vec::new();
        }
        ways.iter()
            .copied()
            .filter(|w| {
                let (e, f) = w.counts();
                elders >= e && fakirs >= f
            })
            .map(|way| Action::Card(card, None, way))
            .collect()
    }

    /// `Theft.act`: the theft starts; each opponent with something to give is a victim.
    pub(super) fn use_thief(&self, mut state: State, player: usize, card: u8) -> Step {
        let thieves = self.thieves();
        let victims = self.victims(&state, player, card);
        let running = thieves.running[usize::from(card)].expect("a thief");
        state.extras = with_extra(&state.extras, running, 1);
        for seat in victims {
            state.extras = with_extra(&state.extras, thieves.victims[seat], 1);
        }
        state.turn.as_mut().expect("in a turn").resume = thieves.step;
        self.next_victim(state)
    }

    /// `Theft.victims`: the opponents not immune with something to give up.
    fn victims(&self, state: &State, owner: usize, card: u8) -> Vec<usize> {
        opponents(state.players.len(), owner)
            .filter(|&seat| !self.immune(state, seat) && !self.gifts(state, seat, card).is_empty())
            .collect()
    }

    /// `immunity.immune`: a player holding Hafiz is no thief's victim.
    fn immune(&self, state: &State, seat: usize) -> bool {
        let hafiz = &self.thieves().hafiz;
        state.players[seat]
            .hands
            .hand(self.content.djinns())
            .iter()
            .any(|&d| hafiz[usize::from(d)])
    }

    /// `steal.running`: the thief whose theft is in progress.
    fn running(&self, state: &State) -> u8 {
        let thieves = self.thieves();
        thieves
            .running
            .iter()
            .position(|&sym| sym.is_some_and(|s| get_extra(&state.extras, s) != 0))
            .expect("a theft is running") as u8
    }

    /// `next_victim`: each opponent still to give up does so, at once with one choice,
    /// else they decide (`thief-give`); then the owner keeps.
    fn next_victim(&self, mut state: State) -> Step {
        let thieves = self.thieves();
        let card = self.running(&state);
        let owner = Self::turn_owner(&state);
        for seat in opponents(state.players.len(), owner) {
            let key = thieves.victims[seat];
            if get_extra(&state.extras, key) == 0 {
                continue;
            }
            let choices = self.gifts(&state, seat, card);
            if choices.len() > 1 {
                state.decision = Decision {
                    stage: thieves.give,
                    player: seat as i8,
                };
                return Ok(state);
            }
            state.extras = with_extra(&state.extras, key, 0);
            if let Some(&choice) = choices.first() {
                state = self.give(state, seat, card, choice);
            }
        }
        self.keeping(state, card)
    }

    /// `keeping`: the owner decides when there is a choice, else keeps the one thing (or
    /// nothing); then the theft is over.
    fn keeping(&self, mut state: State, card: u8) -> Step {
        let owner = Self::turn_owner(&state);
        let choices = self.keeps(&state, owner, card);
        if choices.len() > 1 {
            state.decision = Decision {
                stage: self.thieves().keep,
                player: owner as i8,
            };
            return Ok(state);
        }
        if let Some(&choice) = choices.first() {
            state = self.keep(state, owner, card, choice);
        }
        self.finish_theft(state, card)
    }

    /// `finish`: put away what was not kept, forget the theft, go on with the turn.
    fn finish_theft(&self, state: State, card: u8) -> Step {
        let thieves = self.thieves();
        let mut state = self.put_away(state, card);
        let extras: Vec<(Sym, i64)> = state
            .extras
            .iter()
            .copied()
            .filter(|&(k, _)| !thieves.is_theft_key(k))
            .collect();
        state.extras = extras.into_boxed_slice();
        let owner = Self::turn_owner(&state);
        let turn = state.turn.as_mut().expect("in a turn");
        turn.resume = self.known.empty;
        turn.revealed = Box::new([]);
        state.decision = Decision {
            stage: thieves.step,
            player: owner as i8,
        };
        self.return_to_caller(state)
    }

    /// `GiveStage.apply`: the opponent gives up what they chose; the next one's turn.
    pub(super) fn given_up(&self, state: State, loot: Loot) -> Step {
        let thieves = self.thieves();
        let card = self.running(&state);
        let seat = state.decision.player as usize;
        let mut state = self.give(state, seat, card, loot);
        state.extras = with_extra(&state.extras, thieves.victims[seat], 0);
        self.next_victim(state)
    }

    /// `KeepStage.apply`: the owner keeps what they chose; the theft is over.
    pub(super) fn kept_loot(&self, state: State, loot: Loot) -> Step {
        let card = self.running(&state);
        let owner = state.decision.player as usize;
        let state = self.keep(state, owner, card, loot);
        self.finish_theft(state, card)
    }

    // -- the six thieves (kinds.py) ---------------------------------------------------

    /// `gifts`: the distinct choices `victim` has of what to give up.
    fn gifts(&self, state: &State, victim: usize, card: u8) -> Vec<Loot> {
        let thieves = self.thieves();
        match self.theft(card) {
            Theft::Tile => state
                .owned_by(victim)
                .filter(|&t| !self.marked_by_stand_in(state, t))
                .map(|t| Loot::Tile(t as u8))
                .collect(),
            Theft::Token => {
                let mut out = Vec::new();
                for t in state.owned_by(victim) {
                    for &k in &thieves.tokens {
                        if state.board.tokens(t)[k] > 0 {
                            out.push(Loot::Token(k as u8, t as u8));
                        }
                    }
                }
                out
            }
            Theft::Meeples => match self.subject_colour(card) {
                Some(colour) if state.players[victim].meeples[colour] != 0 => vec![Loot::Meeples],
                _ => Vec::new(),
            },
            Theft::Cards => match self.hand_deck(card) {
                None => Vec::new(),
                Some(deck) => {
                    let hand = state.players[victim].hands.hand(deck);
                    self.choices_of(hand, self.param(card, "give"))
                }
            },
        }
    }

    /// `CardThief.hand_deck`: the deck the thief's kind names.
    fn hand_deck(&self, card: u8) -> Option<usize> {
        let kind = &self.content.doc.cards[usize::from(card)].kind;
        self.content.deck_index(kind)
    }

    /// `choices_of`: the distinct ways to choose `n` of `cards` (all when fewer).
    fn choices_of(&self, cards: &[u8], n: i64) -> Vec<Loot> {
        let size = (n.max(0) as usize).min(cards.len());
        if size == 0 {
            return Vec::new();
        }
        let mut sorted = cards.to_vec();
        self.sort_hand(&mut sorted);
        let mut choices: Vec<Vec<u8>> = combinations(sorted.len(), size)
            .into_iter()
            .map(|c| c.iter().map(|&i| sorted[i]).collect())
            .collect();
        choices.sort();
        choices.dedup();
        choices
            .into_iter()
            .filter_map(|c| Cards::new(&c).map(Loot::Cards))
            .collect()
    }

    /// `give`: `victim` gives up `loot`.
    fn give(&self, mut state: State, victim: usize, card: u8, loot: Loot) -> State {
        let thieves = self.thieves();
        match loot {
            Loot::Tile(t) => {
                let tile = usize::from(t);
                let state = self.release_tile(state, tile);
                self.add_given(state, thieves.given_tiles[tile], 1)
            }
            Loot::Token(k, t) => {
                let (token, tile) = (usize::from(k), usize::from(t));
                state.board.tokens_mut(tile)[token] -= 1;
                state.pool[token] += 1;
                self.add_given(state, thieves.given_tokens[token], 1)
            }
            Loot::Meeples => {
                let colour = self.subject_colour(card).expect("the thief's colour");
                let have = state.players[victim].meeples[colour];
                let count = saturating_count(self.param(card, "give")).min(have);
                state.players[victim].meeples[colour] -= count;
                state.bag[colour] += count;
                self.add_given(state, thieves.given_meeples, i64::from(count))
            }
            Loot::Cards(cards) => {
                let deck = self.hand_deck(card).expect("a card thief's deck");
                let hands = &state.players[victim].hands;
                let mut hand = hands.hand(deck).to_vec();
                for c in cards.as_slice() {
                    let at = hand.iter().position(|h| h == c).expect("a card in hand");
                    hand.remove(at);
                }
                state.players[victim].hands = hands.with_hand(deck, &hand);
                let turn = state.turn.as_mut().expect("in a turn");
                let mut revealed = turn.revealed.to_vec();
                revealed.extend_from_slice(cards.as_slice());
                turn.revealed = revealed.into_boxed_slice();
                state
            }
        }
    }

    /// `add_given`: one more of a thing given up (`set_extra`: the key stays at zero).
    fn add_given(&self, mut state: State, key: Sym, count: i64) -> State {
        let value = get_extra(&state.extras, key) + count;
        state.extras = set_extra(&state.extras, key, value);
        state
    }

    /// The places the blue thief's token may go (`TokenThief.places`).
    fn places(&self, state: &State, owner: usize) -> Vec<usize> {
        if self.thieves().own_tile {
            return state.owned_by(owner).collect();
        }
        (0..state.layout.size())
            .filter(|&t| state.layout.blocked & (1u64 << t) == 0)
            .collect()
    }

    /// `can_keep`: a camel (or piece) for a tile, a place for a token.
    fn can_keep(&self, state: &State, owner: usize, card: u8) -> bool {
        match self.theft(card) {
            Theft::Tile => self.pieces_left(state, owner) > 0,
            Theft::Token => !self.places(state, owner).is_empty(),
            Theft::Meeples | Theft::Cards => true,
        }
    }

    /// `pieces_left`: camels and `piece.*` counters still to place.
    fn pieces_left(&self, state: &State, player: usize) -> i64 {
        let p = &state.players[player];
        i64::from(p.camels)
            + p.extras
                .iter()
                .filter(|&&(k, _)| self.pieces.iter().any(|&(piece, _)| piece == k))
                .map(|&(_, v)| v)
                .sum::<i64>()
    }

    /// `keeps`: the distinct choices of what to keep among what was given.
    fn keeps(&self, state: &State, owner: usize, card: u8) -> Vec<Loot> {
        let thieves = self.thieves();
        match self.theft(card) {
            Theft::Tile => {
                if !self.can_keep(state, owner, card) {
                    return Vec::new();
                }
                (0..state.layout.size())
                    .filter(|&t| {
                        has_extra(&state.extras, thieves.given_tiles[t])
                            && state.board.owner(t) == NOBODY
                    })
                    .map(|t| Loot::Tile(t as u8))
                    .collect()
            }
            Theft::Token => {
                let places = self.places(state, owner);
                let mut out = Vec::new();
                for &k in &thieves.tokens {
                    if get_extra(&state.extras, thieves.given_tokens[k]) != 0 && state.pool[k] != 0
                    {
                        out.extend(places.iter().map(|&t| Loot::Token(k as u8, t as u8)));
                    }
                }
                out
            }
            Theft::Meeples => {
                if get_extra(&state.extras, thieves.given_meeples) != 0 {
                    vec![Loot::Meeples]
                } else {
                    Vec::new()
                }
            }
            Theft::Cards => {
                let turn = state.turn.as_ref().expect("in a turn");
                self.choices_of(&turn.revealed, self.param(card, "keep"))
            }
        }
    }

    /// `keep`: the owner keeps `loot`.
    fn keep(&self, mut state: State, owner: usize, card: u8, loot: Loot) -> State {
        let thieves = self.thieves();
        match loot {
            Loot::Tile(t) => self.take_tile(state, owner, usize::from(t)),
            Loot::Token(k, t) => self.place_token_on(state, owner, usize::from(k), usize::from(t)),
            Loot::Meeples => {
                let colour = self.subject_colour(card).expect("the thief's colour");
                let given = get_extra(&state.extras, thieves.given_meeples);
                let count = saturating_count(self.param(card, "keep").min(given));
                state.players[owner].meeples[colour] += count;
                state.bag[colour] -= count;
                state
            }
            Loot::Cards(cards) => {
                let deck = self.hand_deck(card).expect("a card thief's deck");
                let turn = state.turn.as_mut().expect("in a turn");
                let mut revealed = turn.revealed.to_vec();
                for c in cards.as_slice() {
                    let at = revealed.iter().position(|r| r == c).expect("a card given");
                    revealed.remove(at);
                }
                turn.revealed = revealed.into_boxed_slice();
                if deck == self.content.djinns() {
                    for &djinn in cards.as_slice() {
                        state = self.give_djinn(state, owner, djinn);
                    }
                    return state;
                }
                self.give_cards(state, owner, deck, cards.as_slice())
            }
        }
    }

    /// `put_away`: the cards given up and not kept go to their deck's discard pile.
    fn put_away(&self, mut state: State, card: u8) -> State {
        if self.theft(card) != Theft::Cards {
            return state;
        }
        let Some(deck) = self.hand_deck(card) else {
            return state;
        };
        let turn = state.turn.as_mut().expect("in a turn");
        if turn.revealed.is_empty() {
            return state;
        }
        let revealed = std::mem::take(&mut turn.revealed);
        let pile = &state.decks[deck];
        let mut discard = pile.discard().to_vec();
        discard.extend_from_slice(&revealed);
        state.decks[deck] = Deck::new(pile.draw(), pile.row(), &discard);
        state
    }
}

/// The Thieves' stages (`naqala_stages`), by stage name.
pub(super) fn stage_named(_: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    Some(match name {
        "thief" => Arc::new(ThiefStep),
        "thief-give" => Arc::new(TheftStep { gives: true }),
        "thief-keep" => Arc::new(TheftStep { gives: false }),
        _ => return None,
    })
}

/// `ThiefStep`: the step spliced after a tribe action, where the owner may use a thief.
#[derive(Debug)]
struct ThiefStep;

impl Stage for ThiefStep {
    fn needs(&self) -> Phase {
        Phase::AfterMove
    }

    fn is_step(&self) -> bool {
        true
    }

    fn options(&self, _: &Rules<'_>, _: &State, out: &mut Vec<Action>) -> Result<(), Unported> {
        out.push(Action::Skip);
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match action {
            Action::Skip => rules.return_to_caller(state),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }
}

/// A theft's decisions: `GiveStage` (an opponent gives up what the thief takes) and
/// `KeepStage` (the thief's owner keeps part of what was given up).
#[derive(Debug)]
struct TheftStep {
    gives: bool,
}

impl Stage for TheftStep {
    fn needs(&self) -> Phase {
        Phase::Any // a thief used at any point of the turn asks them
    }

    fn is_step(&self) -> bool {
        true
    }

    fn owner_decides(&self) -> bool {
        !self.gives
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        let (seat, card) = (state.decision.player as usize, rules.running(state));
        if self.gives {
            out.extend(rules.gifts(state, seat, card).into_iter().map(Action::Give));
        } else {
            out.extend(rules.keeps(state, seat, card).into_iter().map(Action::Loot));
        }
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Give(loot) if self.gives => rules.given_up(state, loot),
            Action::Loot(loot) if !self.gives => rules.kept_loot(state, loot),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, _: State, stage: Sym) -> Step {
        Err(rules.not_here(stage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_six_thieves_are_the_kinds_with_a_power() {
        for kind in ["tile", "token", "meeples", "resources", "djinns", "items"] {
            assert!(is_thief(THIEVES, kind), "{kind}");
            assert!(!is_thief("djinns", kind), "{kind}");
        }
        assert!(!is_thief(THIEVES, HAFIZ));
    }

    #[test]
    fn the_owner_takes_a_tile_places_a_token_and_keeps_the_rest() {
        assert_eq!(Loot::Tile(3).keep_verb(), "take");
        assert_eq!(Loot::Token(0, 3).keep_verb(), "place");
        assert_eq!(Loot::Meeples.keep_verb(), "keep");
        let cards = Cards::new(&[1, 2]).expect("two cards");
        assert_eq!(Loot::Cards(cards).keep_verb(), "keep");
    }

    #[test]
    fn opponents_start_at_the_owner_s_left() {
        assert_eq!(opponents(4, 2).collect::<Vec<_>>(), [3, 0, 1]);
        assert_eq!(opponents(2, 0).collect::<Vec<_>>(), [1]);
    }
}
