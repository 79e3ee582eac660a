//! The rules, ported stage by stage from the base plugin (`plugins/base/`).
//!
//! Each function names the Python it follows. What is not ported yet is never guessed:
//! a decision or an entry into a stage the kernel does not implement is `Unported`, with
//! the stage's name, so the differential harness counts it apart from a difference and
//! a later session can port it next. Event triggers (`rules.fire` in Python) change
//! nothing here: the kernel plays only content whose cards react to no event
//! (`unported_content`), and the places where Python fires an event are marked.

use crate::actions::Action;
use crate::content::Content;
use crate::names::Sym;
use crate::state::{Decision, State, Turn, NOBODY};

/// A rule the kernel does not implement yet, by the name of the stage or power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unported(pub String);

pub type Step = Result<State, Unported>;

/// The stages and flags the ported rules name, resolved once per content.
#[derive(Clone, Debug)]
struct Known {
    bid: Sym,
    pick: Sym,
    drop: Sym,
    sell: Sym,
    over: Sym,
    empty: Sym,
    no_moves: Sym,
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
}

/// The resources deck's index: every game has it first (`core/engine.py`).
const RESOURCES: usize = 0;

impl<'c> Rules<'c> {
    pub fn new(content: &'c Content) -> Rules<'c> {
        let names = &content.names;
        let known = Known {
            bid: names.known("bid"),
            pick: names.known("pick"),
            drop: names.known("drop"),
            sell: names.known("sell"),
            over: names.known("over"),
            empty: names.known(""),
            no_moves: names.known("no-moves"),
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
        Rules {
            content,
            known,
            tribes,
            pieces,
        }
    }

    fn stage_name(&self, sym: Sym) -> &str {
        self.content.names.name(sym)
    }

    // -- legal actions ----------------------------------------------------------------

    /// The options of the pending decision in canonical order (`Rules.legal_actions`).
    pub fn legal_actions(&self, state: &State) -> Result<Vec<Action>, Unported> {
        let stage = state.decision.stage;
        let k = &self.known;
        let mut options = if stage == k.over {
            Vec::new()
        } else if stage == k.bid {
            self.bid_options(state)
        } else if stage == k.pick {
            self.pick_options(state)
        } else if stage == k.drop {
            self.drop_options(state)
        } else if Some(stage) == self.tribe_stage_of(state, "blue") {
            self.builder_options(state)
        } else {
            return Err(Unported(self.stage_name(stage).to_owned()));
        };
        // the engine sorts every decision's options canonically
        let cols = usize::from(state.layout.cols);
        let mut keyed: Vec<(String, Action)> = options
            .drain(..)
            .map(|a| (crate::actions::sort_key(&a.notation(self.content, cols)), a))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        keyed.dedup_by(|a, b| a.0 == b.0);
        Ok(keyed.into_iter().map(|(_, a)| a).collect())
    }

    /// The pending stage, when it is the tribe action of the colour `colour_id`.
    fn tribe_stage_of(&self, _state: &State, colour_id: &str) -> Option<Sym> {
        let colour = self
            .content
            .doc
            .colours
            .iter()
            .position(|c| c.id == colour_id)?;
        self.tribes[colour]
    }

    /// The state after `action`, which must be one of the legal actions.
    pub fn apply(&self, state: &State, action: &Action) -> Step {
        let k = &self.known;
        let stage = state.decision.stage;
        match *action {
            Action::Bid(cost) if stage == k.bid => {
                let placed = self.place_bid(state, cost, cost);
                self.proceed(placed, k.bid)
            }
            Action::Pick(tile) if stage == k.pick => Ok(self.pick(state, usize::from(tile))),
            Action::Drop(tile, colour) if stage == k.drop => {
                self.drop(state, usize::from(tile), usize::from(colour))
            }
            Action::Fakirs(n) if Some(stage) == self.tribe_stage_of(state, "blue") => {
                self.pay_builders(state, n)
            }
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
        let name = self.stage_name(finished);
        if name.starts_with("tribe:") {
            let turn = state.turn.as_ref().expect("a tribe action is in a turn");
            let here = turn_here(turn);
            let tile = usize::from(state.layout.tiles[here]);
            let kind = &self.content.doc.tiles[tile].kind;
            return match self.content.names.sym(&format!("tile:{kind}")) {
                Some(stage) => self.enter(state, stage),
                None => self.enter(state, k.sell),
            };
        }
        Err(Unported(format!("what follows {name}")))
    }

    /// `Rules.enter`: a stage does its automatic work, then waits or hands on.
    fn enter(&self, state: State, stage: Sym) -> Step {
        let k = &self.known;
        if stage == k.pick || stage == k.drop || stage == k.bid {
            return Ok(wait_at(state, stage));
        }
        let colour = self.tribes.iter().position(|&t| t == Some(stage));
        if let Some(colour) = colour {
            let id = self.content.doc.colours[colour].id.as_str();
            return match id {
                "yellow" | "white" => self.keep_tribe(state, stage),
                "green" => self.merchants(state, stage),
                "blue" => self.builders(state, stage),
                _ => Err(Unported(self.stage_name(stage).to_owned())),
            };
        }
        Err(Unported(self.stage_name(stage).to_owned()))
    }

    /// `BaseFlow._next_bid`: the next marker on the bid track bids, or the turns begin.
    fn next_bid(&self, state: State) -> Step {
        let marker = state.bid_track.as_slice().iter().find(|&&m| m != NOBODY);
        if let Some(&marker) = marker {
            let player = state.markers.as_slice()[marker as usize];
            let mut state = state;
            state.decision = Decision {
                stage: self.known.bid,
                player,
            };
            return Ok(state);
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
            return Err(Unported("clean-up".to_owned()));
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
        if !has_flag(&state, no_moves) && self.pick_options(&state).is_empty() {
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
        let tables = &self.content.doc.tables;
        tables
            .get(&format!("turn_order_costs_{}", state.players.len()))
            .filter(|t| !t.is_empty())
            .or_else(|| tables.get("turn_order_costs"))
            .map_or(&[], Vec::as_slice)
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
    fn bid_options(&self, state: &State) -> Vec<Action> {
        let costs = self.costs(state);
        let coins = i64::from(state.players[state.decision.player as usize].coins);
        let spots = self.free_spots(state);
        let mut affordable: Vec<usize> = spots
            .iter()
            .copied()
            .filter(|&s| costs[s] <= coins)
            .collect();
        if affordable.is_empty() {
            // min(spots, key=cost): the first spot of the lowest cost
            let mut cheapest = spots[0];
            for &s in &spots {
                if costs[s] < costs[cheapest] {
                    cheapest = s;
                }
            }
            affordable = vec![cheapest];
        }
        affordable
            .into_iter()
            .map(|s| Action::Bid(costs[s] as u32))
            .collect()
    }

    /// `place_bid`: the bidding marker takes the front spot of `cost`, pushing markers
    /// already on spots of that cost back; its owner pays `price` (all coins if less).
    fn place_bid(&self, state: &State, cost: u32, price: u32) -> State {
        let costs = self.costs(state);
        let mut state = state.clone();
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
    fn colour_masks(&self, state: &State) -> Vec<u64> {
        let colours = self.content.colours();
        let mut masks = vec![0u64; colours];
        for tile in 0..state.layout.size() {
            for (colour, &n) in state.board.meeples(tile).iter().enumerate() {
                if n != 0 {
                    masks[colour] |= 1 << tile;
                }
            }
        }
        masks
    }

    /// `legal_starts`: tiles from which some legal move exists.
    fn pick_options(&self, state: &State) -> Vec<Action> {
        let geo = &state.layout.geometry;
        let masks = self.colour_masks(state);
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
            }
        }
        out
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
        let prev = turn_previous(turn);
        let k = hand[..colours]
            .iter()
            .map(|&n| usize::from(n))
            .sum::<usize>()
            - 1;
        let held: Vec<usize> = (0..colours).filter(|&c| hand[c] != 0).collect();
        let mut out = Vec::new();
        for &nxt in &geo.neighbours[here] {
            let nxt_tile = usize::from(nxt);
            if i16::from(nxt) == i16::from(prev) {
                continue;
            }
            if k == 0 {
                let counts = state.board.meeples(nxt_tile);
                for &colour in &held {
                    if counts[colour] != 0 {
                        out.push(Action::Drop(nxt, colour as u8));
                    }
                }
                continue;
            }
            let ends = geo.reach(nxt_tile, here as i8, k);
            let hits: Vec<usize> = held
                .iter()
                .copied()
                .filter(|&c| ends & masks[c] != 0)
                .collect();
            let back = ends >> nxt_tile & 1 == 1;
            let mut loops: Option<u64> = None;
            for &colour in &held {
                let two = hand[colour] >= 2;
                let in_hits = hits.contains(&colour);
                if hits.len() > usize::from(in_hits) || (two && (back || in_hits)) {
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
    fn pick(&self, state: &State, tile: usize) -> State {
        let mut state = state.clone();
        let mut hand = [0u8; crate::content::MAX_COLOURS];
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
    fn drop(&self, state: &State, tile: usize, colour: usize) -> Step {
        let mut state = state.clone();
        state.board.meeples_mut(tile)[colour] += 1;
        let turn = state.turn.as_mut().expect("a drop is in a turn");
        turn.path = append(&turn.path, tile as u8);
        let hand = turn.hand.as_mut().expect("a drop has meeples in hand");
        hand[colour] -= 1;
        let empty = hand.iter().all(|&n| n == 0);
        // Python fires `meeple-dropped` here: no card the kernel plays reacts to it
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
        // Python fires `tile-taken` here: no card the kernel plays reacts to it
        state
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

    /// `blue_tiles_around`: blue-valued tiles in the 3×3 block around the final tile.
    fn blue_around(&self, state: &State) -> usize {
        let turn = state.turn.as_ref().expect("in a turn");
        let geo = &state.layout.geometry;
        geo.area[turn_here(turn)]
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
        (0..=held).map(|n| Action::Fakirs(n as u8)).collect()
    }

    fn pay_builders(&self, state: &State, fakirs: u8) -> Step {
        let stage = state.decision.stage;
        self.builders_paid(state.clone(), stage, fakirs)
    }

    /// `Builders._pay`: (builders + Fakirs discarded) × blue tiles around.
    fn builders_paid(&self, mut state: State, stage: Sym, fakirs: u8) -> Step {
        let player = state.decision.player as usize;
        if fakirs > 0 {
            let fakir = self.fakir().expect("Fakirs are in the content");
            state = self.discard_cards(state, player, &vec![fakir; usize::from(fakirs)]);
        }
        let taken = state.turn.as_ref().expect("in a turn").taken;
        let amount = (usize::from(taken) + usize::from(fakirs)) * self.blue_around(&state);
        state.players[player].coins += amount as i32;
        // Python fires `builders-paid` here: no card the kernel plays reacts to it
        self.proceed(state, stage)
    }

    /// `discard_cards`: cards from a player's resource hand to the discard pile.
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

    /// What the kernel cannot play of this content yet: cards whose powers are not
    /// ported and decks beyond the base game's (the harness leaves such cards out).
    pub fn unported_content(&self) -> Vec<String> {
        let mut out = Vec::new();
        for card in &self.content.doc.cards {
            if card.deck != self.content.doc.decks[RESOURCES].id {
                out.push(format!("{}:{}", card.deck, card.kind));
            }
        }
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

fn new_turn(marker: u8, empty: Sym) -> Turn {
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
