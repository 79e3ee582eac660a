//! Solo mode against Sultan Yazid (`plugins/solo/`), ported stage by stage: his camels
//! at setup (`naqala_adjust_new_game`), his dice (`dice.py`), the round's roll and the
//! player's outbid (`rounds.py`), his turn (`sultan.py`), the end after his last camel
//! and the vizier bonus against him (`outcome.py`).
//!
//! Every number and every UNCONFIRMED choice is a content setting read here once
//! (`content/solo.toml`: `die_sides`, `yazid_keeps_<colour>`, `merchant_fakirs_to_yazid`,
//! `yazid_plays_after_outbid`, `outbid_twice_in_a_row`…). What he holds is kept as the
//! Python keeps it (`sultan.*` and `aside.*` counters, tiles owned by `NON_PLAYER`), so
//! the state JSON is the same after every action.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::scoring::Sheet;
use super::stages::Stage;
use super::{Phase, Rules, Step, Unported};
use crate::actions::Action;
use crate::content::{Content, ASSASSIN, BUILDER, ELDER, MERCHANT, VIZIER};
use crate::extras::{get_extra, set_extra, with_extra};
use crate::names::Sym;
use crate::state::{Count, Decision, Deck, State, NOBODY, NON_PLAYER};

/// The one seat of a solo game (`sultan.PLAYER`).
const PLAYER: usize = 0;
/// The reasons a solo game is lost, as `sultan.lost` keeps them (`LOSSES`).
const LOST_TO_ASSASSINS: i64 = 1;
const LOST_TO_DJINNS: i64 = 2;
const LOST_TO_DEBT: i64 = 3;
/// The Fakir card, which Yazid keeps and pays with.
const FAKIR: &str = "fakir";

/// Solo mode's rules over one content: the names it writes and every setting, read once.
#[derive(Clone, Debug)]
pub struct Solo {
    white: Sym,
    black: Sym,
    rolled: Sym,
    targets: [Sym; 2],
    camels: Sym,
    lost: Sym,
    outbid: Sym,
    after: Sym,
    /// `aside.meeple.<colour>` by colour index, `aside.card.<id>` by card index
    aside_meeples: Vec<Sym>,
    aside_cards: Vec<Sym>,
    /// by colour index: `yazid_keeps_<colour>` (UNCONFIRMED)
    keeps: Vec<bool>,
    vizier: Option<usize>,
    elder: Option<usize>,
    merchant: Option<usize>,
    builder: Option<usize>,
    assassin: Option<usize>,
    fakir: Option<u8>,
    /// by card index: a djinn (what Yazid must not gather `djinns_lose` of)
    djinns: Vec<bool>,
    non_player_camels: i64,
    die_sides: u64,
    two_tiles_on: i64,
    assassins_lose: i64,
    djinns_lose: i64,
    merchant_cards: i64,
    fakirs_to_yazid: bool,
    builder_coins: i64,
    djinns_per_turn: i64,
    takes_empty_tile: bool,
    plays_after_outbid: i64,
    outbid_twice_in_a_row: bool,
    vizier_bonus_against: bool,
    vizier_bonus: i64,
    last_camel_ends: bool,
}

impl Solo {
    /// Solo mode's rules, when the content is a solo game's.
    pub fn new(content: &Content) -> Option<Solo> {
        let doc = &content.doc;
        if !doc.is_solo() {
            return None;
        }
        let names = &content.names;
        let setting = |key: &str| content.setting(key).unwrap_or(0);
        let colour = |id: &str| doc.colour_index(id);
        Some(Solo {
            white: names.known("sultan.white"),
            black: names.known("sultan.black"),
            rolled: names.known("sultan.rolled"),
            targets: [
                names.known("sultan.target.1"),
                names.known("sultan.target.2"),
            ],
            camels: names.known("sultan.camels"),
            lost: names.known("sultan.lost"),
            outbid: names.known("sultan.outbid"),
            after: names.known("sultan.after"),
            aside_meeples: doc
                .colours
                .iter()
                .map(|c| names.known(&format!("aside.meeple.{}", c.id)))
                .collect(),
            aside_cards: doc
                .cards
                .iter()
                .map(|c| names.known(&format!("aside.card.{}", c.id)))
                .collect(),
            keeps: doc
                .colours
                .iter()
                .map(|c| setting(&format!("yazid_keeps_{}", c.id)) != 0)
                .collect(),
            vizier: colour(VIZIER),
            elder: colour(ELDER),
            merchant: colour(MERCHANT),
            builder: colour(BUILDER),
            assassin: colour(ASSASSIN),
            fakir: content.card_index(FAKIR),
            djinns: doc
                .cards
                .iter()
                .map(|c| c.deck == crate::content::DJINNS)
                .collect(),
            non_player_camels: setting("non_player_camels"),
            die_sides: setting("die_sides").max(1) as u64,
            two_tiles_on: setting("two_tiles_on"),
            assassins_lose: setting("assassins_lose"),
            djinns_lose: setting("djinns_lose"),
            merchant_cards: setting("merchant_cards"),
            fakirs_to_yazid: setting("merchant_fakirs_to_yazid") != 0,
            builder_coins: setting("builder_coins"),
            djinns_per_turn: setting("yazid_djinns_per_turn"),
            takes_empty_tile: setting("yazid_takes_empty_tile") != 0,
            plays_after_outbid: setting("yazid_plays_after_outbid"),
            outbid_twice_in_a_row: setting("outbid_twice_in_a_row") != 0,
            vizier_bonus_against: setting("yazid_vizier_bonus") != 0,
            vizier_bonus: setting("vizier_bonus"),
            last_camel_ends: setting("yazid_last_camel_ends") != 0,
        })
    }

    fn held(&self, state: &State, colour: Option<usize>) -> i64 {
        colour.map_or(0, |c| get_extra(&state.extras, self.aside_meeples[c]))
    }

    fn fakirs_held(&self, state: &State) -> i64 {
        self.fakir.map_or(0, |f| {
            get_extra(&state.extras, self.aside_cards[usize::from(f)])
        })
    }

    /// `djinns_held`: how many djinns lie in Yazid's area.
    fn djinns_held(&self, state: &State) -> i64 {
        self.aside_cards
            .iter()
            .enumerate()
            .filter(|&(card, _)| self.djinns[card])
            .map(|(_, &key)| get_extra(&state.extras, key))
            .sum()
    }

    fn lost(&self, state: &State) -> bool {
        get_extra(&state.extras, self.lost) != 0
    }

    /// `set_aside`: a counter of Yazid's area changes by `delta` (dropped at zero).
    fn set_aside(state: &mut State, key: Sym, delta: i64) {
        let value = get_extra(&state.extras, key) + delta;
        state.extras = with_extra(&state.extras, key, value);
    }

    fn dice(&self, state: &State) -> (i64, i64) {
        (
            get_extra(&state.extras, self.white),
            get_extra(&state.extras, self.black),
        )
    }

    /// `targets`: Yazid's target tiles this round (board indices).
    fn targets(&self, state: &State) -> Vec<usize> {
        self.targets
            .iter()
            .map(|&key| get_extra(&state.extras, key))
            .filter(|&t| t != 0)
            .map(|t| (t - 1) as usize)
            .collect()
    }

    /// `outbid_cost`: the sum of the two dice (Y17).
    fn outbid_cost(&self, state: &State) -> i64 {
        let (white, black) = self.dice(state);
        white + black
    }

    /// `outbid_allowed`: the player can pay the dice sum, and did not outbid last round
    /// if content forbids two in a row (Y26).
    fn outbid_allowed(&self, state: &State) -> bool {
        if i64::from(state.players[PLAYER].coins) < self.outbid_cost(state) {
            return false;
        }
        let last = get_extra(&state.extras, self.outbid);
        if self.outbid_twice_in_a_row || last == 0 {
            return true;
        }
        last < i64::from(state.round) - 1
    }
}

/// `tile_of`: column `white` from the left, tile `black` from the bottom.
fn tile_of(state: &State, white: i64, black: i64) -> usize {
    let (rows, cols) = (i64::from(state.layout.rows), i64::from(state.layout.cols));
    ((rows - black) * cols + (white - 1)) as usize
}

impl Rules<'_> {
    fn solo(&self) -> &Solo {
        self.solo.as_ref().expect("a solo game")
    }

    /// `naqala_adjust_new_game`: Yazid's camels go beside the board (Y3).
    pub fn adjust_new_game(&self, mut state: State) -> State {
        if let Some(solo) = self.solo.as_ref() {
            state.extras = set_extra(&state.extras, solo.camels, solo.non_player_camels);
        }
        state
    }

    /// `die`: one face of a `die_sides`-sided die.
    fn die(&self, state: &mut State) -> i64 {
        state.rng.below(self.solo().die_sides) as i64 + 1
    }

    /// `roll_tile`: both dice again until they name a tile other than `avoid`.
    fn roll_tile(&self, state: &mut State, avoid: Option<usize>) -> usize {
        loop {
            let white = self.die(state);
            let black = self.die(state);
            if black <= i64::from(state.layout.rows) {
                let tile = tile_of(state, white, black);
                if Some(tile) != avoid {
                    return tile;
                }
            }
        }
    }

    /// `dice.roll`: this round's dice and Yazid's one or two target tiles.
    fn roll(&self, mut state: State) -> State {
        let solo = self.solo();
        let white = self.die(&mut state);
        let black = self.die(&mut state);
        let targets = if black == solo.two_tiles_on {
            let first = self.roll_tile(&mut state, None);
            let second = self.roll_tile(&mut state, Some(first));
            vec![first, second]
        } else {
            vec![tile_of(&state, white, black)]
        };
        let mut extras = set_extra(&state.extras, solo.white, white);
        extras = set_extra(&extras, solo.black, black);
        extras = set_extra(&extras, solo.rolled, i64::from(state.round));
        for (k, &key) in solo.targets.iter().enumerate() {
            let value = targets.get(k).map_or(0, |&t| t as i64 + 1);
            extras = set_extra(&extras, key, value);
        }
        state.extras = extras;
        state
    }

    /// `SultansRoll.enter`: roll once a round; without a choice, let Yazid play first.
    pub(super) fn sultans_roll(&self, mut state: State) -> Step {
        let solo = self.solo();
        if get_extra(&state.extras, solo.rolled) != i64::from(state.round) {
            state = self.roll(state);
        }
        if !solo.outbid_allowed(&state) {
            return self.sultans_bid(state, 0);
        }
        Ok(state)
    }

    /// `SultansRoll.legal`: `bid 0`, or `bid <dice sum>` to outbid him.
    pub(super) fn sultans_roll_options(&self, state: &State) -> Vec<Action> {
        let solo = self.solo();
        let mut options = vec![Action::Bid(0)];
        if solo.outbid_allowed(state) {
            options.push(Action::Bid(solo.outbid_cost(state) as u32));
        }
        options
    }

    /// `SultansRoll.apply`: Yazid clears his targets now, or the player pays the dice sum
    /// and plays first; the one turn marker moves on for free.
    pub(super) fn sultans_bid(&self, mut state: State, cost: u32) -> Step {
        let solo = self.solo();
        if cost == 0 {
            let targets = solo.targets(&state);
            state = self.sultan_turn(state, &targets);
            if solo.lost(&state) {
                return Ok(state);
            }
        } else {
            state.players[PLAYER].coins -= solo.outbid_cost(&state) as i32;
            let round = i64::from(state.round);
            state.extras = set_extra(&state.extras, solo.outbid, round);
            state.extras = set_extra(&state.extras, solo.after, solo.plays_after_outbid);
        }
        let state = move_marker(state);
        self.proceed(state, self.known.bid)
    }

    /// `SoloFlow.proceed` after `sell`: Yazid's deferred turn once an outbidding
    /// player's turn is over; `Break` when that ends the game.
    pub(super) fn solo_after_turn(&self, mut state: State) -> ControlFlow<State, State> {
        let Some(solo) = self.solo.as_ref() else {
            return ControlFlow::Continue(state);
        };
        if get_extra(&state.extras, solo.after) == 0 {
            return ControlFlow::Continue(state);
        }
        state.extras = set_extra(&state.extras, solo.after, 0);
        let targets = solo.targets(&state);
        let state = self.sultan_turn(state, &targets);
        if solo.lost(&state) {
            return ControlFlow::Break(state);
        }
        ControlFlow::Continue(state)
    }

    /// `naqala_game_ends`: after the round Yazid placed his last camel (UNCONFIRMED).
    pub(super) fn solo_game_ends(&self, state: &State) -> bool {
        self.solo
            .as_ref()
            .is_some_and(|solo| solo.last_camel_ends && get_extra(&state.extras, solo.camels) == 0)
    }

    /// `outcome.vizier_bonus`: the base game's vizier majority bonus, with Yazid as the
    /// one opponent (`yazid_vizier_bonus`).
    pub(super) fn solo_line(&self, state: &State, player: usize, sheet: &mut impl Sheet) {
        let Some(solo) = self.solo.as_ref() else {
            return;
        };
        let Some(vizier) = solo.vizier else {
            return;
        };
        let viziers = i64::from(state.players[player].meeples[vizier]);
        if solo.vizier_bonus_against && viziers > solo.held(state, solo.vizier) {
            sheet.line("vizier-majority", "solo", solo.vizier_bonus);
        }
    }

    // -- Yazid's turn (sultan.py) -----------------------------------------------------

    /// `sultan_turn`: Yazid clears each target tile, then buys a djinn if he can.
    fn sultan_turn(&self, mut state: State, targets: &[usize]) -> State {
        let solo = self.solo();
        for &tile in targets {
            state = self.clear_tile(state, tile);
            if solo.lost(&state) {
                return state;
            }
        }
        self.buy_djinns(state)
    }

    /// `lose`: the game ends at once (the first reason found stands).
    fn lose(&self, mut state: State, reason: i64) -> State {
        let solo = self.solo();
        if solo.lost(&state) {
            return state;
        }
        state.extras = set_extra(&state.extras, solo.lost, reason);
        state.turn = None;
        state.decision = Decision {
            stage: self.known.over,
            player: NOBODY,
        };
        state
    }

    /// `clear_tile`: Yazid takes every meeple of an unowned target tile and puts a camel
    /// there; on a tile somebody owns he does nothing (Y29).
    fn clear_tile(&self, mut state: State, tile: usize) -> State {
        let solo = self.solo();
        if state.board.owner(tile) != NOBODY {
            return state;
        }
        let meeples = state.board.meeples(tile).to_vec();
        if meeples.iter().all(|&n| n == 0) && !solo.takes_empty_tile {
            return state;
        }
        state.board.meeples_mut(tile).fill(0);
        let mut debt = 0;
        for (colour, &count) in meeples.iter().enumerate() {
            if count == 0 {
                continue;
            }
            if solo.keeps[colour] {
                Solo::set_aside(&mut state, solo.aside_meeples[colour], i64::from(count));
                continue;
            }
            state.bag[colour] += count;
            if Some(colour) == solo.merchant {
                state = self.discard_row(state, i64::from(count) * solo.merchant_cards);
            } else if Some(colour) == solo.builder {
                let around = self.blue_tiles_around(&state, tile) as i64;
                debt += i64::from(count) * around * solo.builder_coins;
            }
        }
        state = self.place_camel(state, tile);
        if solo.held(&state, solo.assassin) >= solo.assassins_lose {
            return self.lose(state, LOST_TO_ASSASSINS);
        }
        self.pay_yazid(state, debt)
    }

    /// `place_camel`: one of Yazid's camels on `tile`, if he has one left.
    fn place_camel(&self, mut state: State, tile: usize) -> State {
        let solo = self.solo();
        let left = get_extra(&state.extras, solo.camels);
        if left == 0 {
            return state;
        }
        state.board.set_owner(tile, NON_PLAYER);
        state.extras = set_extra(&state.extras, solo.camels, left - 1);
        state
    }

    /// `pay`: the player pays Yazid `debt` coins; unable to pay in full, they pay what
    /// they have and lose at once (Y11).
    fn pay_yazid(&self, mut state: State, debt: i64) -> State {
        if debt == 0 {
            return state;
        }
        let coins = i64::from(state.players[PLAYER].coins);
        state.players[PLAYER].coins -= debt.min(coins) as i32;
        if debt > coins {
            return self.lose(state, LOST_TO_DEBT);
        }
        state
    }

    /// `discard_row`: `count` cards leave the front of the resource row to the discard
    /// pile; a Fakir among them goes to Yazid, or is passed over, as content says.
    fn discard_row(&self, mut state: State, count: i64) -> State {
        let solo = self.solo();
        for _ in 0..count.max(0) {
            let deck = &state.decks[self.content.resources()];
            let row = deck.row();
            let position = row
                .iter()
                .position(|&card| solo.fakirs_to_yazid || Some(card) != solo.fakir);
            let Some(position) = position else {
                break;
            };
            let card = row[position];
            let mut left = row.to_vec();
            left.remove(position);
            let mut discard = deck.discard().to_vec();
            if Some(card) == solo.fakir {
                state.decks[self.content.resources()] = Deck::new(deck.draw(), &left, &discard);
                Solo::set_aside(&mut state, solo.aside_cards[usize::from(card)], 1);
            } else {
                discard.push(card);
                state.decks[self.content.resources()] = Deck::new(deck.draw(), &left, &discard);
            }
        }
        state
    }

    /// `buy_djinns`: Yazid buys the first djinn of the row with 1 elder and 1 Fakir, or
    /// else 2 elders (Y22), up to `yazid_djinns_per_turn`; his elders go back to the bag
    /// and his Fakir to the discard pile.
    fn buy_djinns(&self, mut state: State) -> State {
        let solo = self.solo();
        for _ in 0..solo.djinns_per_turn.max(0) {
            let elders = solo.held(&state, solo.elder);
            let fakirs = solo.fakirs_held(&state);
            if state.decks[self.content.djinns()].row().is_empty()
                || !(elders >= 2 || (elders > 0 && fakirs > 0))
            {
                break;
            }
            let spent: Count = if fakirs > 0 { 1 } else { 2 };
            let elder = solo.elder.expect("Yazid holds elders");
            Solo::set_aside(&mut state, solo.aside_meeples[elder], -i64::from(spent));
            state.bag[elder] += spent;
            if fakirs > 0 {
                let fakir = solo.fakir.expect("Yazid holds a Fakir");
                Solo::set_aside(&mut state, solo.aside_cards[usize::from(fakir)], -1);
                let pile = &state.decks[self.content.resources()];
                let mut discard = pile.discard().to_vec();
                discard.push(fakir);
                state.decks[self.content.resources()] =
                    Deck::new(pile.draw(), pile.row(), &discard);
            }
            let pile = &state.decks[self.content.djinns()];
            let card = pile.row()[0];
            state.decks[self.content.djinns()] =
                Deck::new(pile.draw(), &pile.row()[1..], pile.discard());
            Solo::set_aside(&mut state, solo.aside_cards[usize::from(card)], 1);
            if solo.djinns_held(&state) >= solo.djinns_lose {
                return self.lose(state, LOST_TO_DJINNS);
            }
        }
        state
    }
}

/// `move_marker`: the turn marker goes from the bid track to the one turn spot.
fn move_marker(mut state: State) -> State {
    let bids = state.bid_track.as_mut_slice();
    if let Some(at) = bids.iter().position(|&m| m != NOBODY) {
        let marker = bids[at];
        bids[at] = NOBODY;
        state.turn_track.as_mut_slice()[0] = marker;
    }
    state
}

/// Solo mode's stage: its `bid` replaces the base game's (`naqala_stages`).
pub(super) fn stage_named(content: &Content, name: &str) -> Option<Arc<dyn Stage>> {
    (name == "bid" && content.doc.is_solo()).then(|| Arc::new(SultansRoll) as Arc<dyn Stage>)
}

/// `SultansRoll`: Yazid's dice, then the player lets him play first or outbids him.
#[derive(Debug)]
struct SultansRoll;

impl Stage for SultansRoll {
    fn needs(&self) -> Phase {
        Phase::NoTurn
    }

    fn options(
        &self,
        rules: &Rules<'_>,
        state: &State,
        out: &mut Vec<Action>,
    ) -> Result<(), Unported> {
        out.extend(rules.sultans_roll_options(state));
        Ok(())
    }

    fn apply(&self, rules: &Rules<'_>, state: State, action: &Action) -> Step {
        match *action {
            Action::Bid(cost) => rules.sultans_bid(state, cost),
            _ => Err(rules.not_taken_here(&state, action)),
        }
    }

    fn enter(&self, rules: &Rules<'_>, state: State, _: Sym) -> Step {
        rules.sultans_roll(state)
    }
}
