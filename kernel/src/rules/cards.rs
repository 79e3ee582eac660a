//! Cards used in the owner's turn (`plugins/base/cards.py`, `djinns/activated.py`): which
//! card may be used where, its targets, the cards drawn and the power used.

use super::{Rules, Step, Unported};

use crate::actions::{Action, Group, Pay};
use crate::effects::{self, CardPile, Scope};
use crate::extras::set_extra;
use crate::names::Sym;
use crate::state::{Count, Decision, Deck, State, Turn, NO_CARD};

impl Rules<'_> {
    /// `own_turn`: the deciding player's own turn, outside any power's own decision.
    pub(super) fn own_turn(&self, state: &State, player: usize) -> bool {
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

    /// `cards.resume_interrupted`: the decision a power's own decision interrupted (the
    /// turn's `resume`) goes on, `player` deciding, and no power is deciding any more.
    pub(super) fn resume_interrupted(&self, state: &mut State, player: usize) {
        let turn = state
            .turn
            .as_mut()
            .expect("a power is used in its owner's turn");
        let resume = turn.resume;
        turn.resume = self.known.empty;
        state.decision = Decision {
            stage: resume,
            player: player as i8,
        };
    }

    /// The `Turn.used` mark of a use of `card`: the card, its deck, or none (the deck's
    /// `limit`).
    pub(super) fn use_mark(&self, card: u8) -> Option<Sym> {
        self.use_marks[usize::from(card)]
    }

    /// Whether `card`'s use mark is in the turn already (used up this turn).
    pub(super) fn used_this_turn(&self, turn: &Turn, card: u8) -> bool {
        self.use_mark(card)
            .is_some_and(|mark| turn.used.contains(&mark))
    }

    /// `mark_used`: a use of `card` leaves its mark in the turn, kept sorted.
    pub(super) fn mark_used(&self, state: &mut State, card: u8) {
        if let Some(mark) = self.use_mark(card) {
            let turn = state.turn.as_mut().expect("a card is used in a turn");
            let mut used = turn.used.to_vec();
            used.push(mark);
            used.sort();
            turn.used = used.into_boxed_slice();
        }
    }

    /// `round_limited`: a paid djinn at two players under `djinn_limit_round_2p`.
    pub(super) fn round_limited(&self, state: &State, card: u8) -> bool {
        state.players.len() == 2 && self.round_keys[usize::from(card)].is_some()
    }

    pub(super) fn round_key(&self, card: u8) -> Sym {
        self.round_keys[usize::from(card)].expect("a round-limited card")
    }

    /// `cards.options`: what the deciding player's activated cards offer, each distinct
    /// card once, deck by deck in hand order.
    pub(super) fn card_options(&self, state: &State) -> Vec<Action> {
        let player = state.decision.player;
        if player >= 0 && self.takes_bids(state) {
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
    /// limited), nor at a placing step it does not redirect; each target with each
    /// payment the owner can make.
    pub(super) fn activated_options(&self, state: &State, player: usize, card: u8) -> Vec<Action> {
        // a `placing:<token>` step asks where one placement goes: only the powers that put
        // that token elsewhere are offered, so no other power starts a placement meanwhile
        if let Some(token) = self.placing_now(state) {
            if self.used_power(card).and_then(|p| p.redirects) != Some(token) {
                return Vec::new();
            }
        }
        if self.is_thief(card) {
            return self.thief_options(state, player, card);
        }
        if self.artisans.as_ref().is_some_and(|a| a.activated(card)) {
            return self.item_options(state, card);
        }
        let turn = state.turn.as_ref().expect("in a turn");
        let gate = &self.gates[usize::from(card)];
        let stage = state.decision.stage;
        if self.used_this_turn(turn, card) {
            return Vec::new();
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
        let Some(ways) = self.content.cost_ways(card) else {
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
        if let Some(power) = self.used_power(card) {
            let scope = self.card_scope(player, card);
            let offered = gate
                .power_stages
                .as_ref()
                .is_none_or(|s| s.contains(&stage));
            // meeples are not taken off a tile during the move or the assassins' kill
            let waits = power.removes_meeples && self.meeples_settled(stage);
            if !offered || waits || !effects::holds(&power.program.test, state, &scope) {
                return Vec::new();
            }
            let mut aimed = self.aimed(state, power, &scope);
            if power.removes_meeples && stage == self.known.pick {
                aimed.retain(|aim| self.pick_left_after(state, power, &aim.scope(&scope)));
            }
            if !power.targeted()
                && power.target_card.is_none()
                && self.claimed_by_verb[usize::from(card)]
            {
                return ways.iter().map(|&way| Action::Claim(card, way)).collect();
            }
            let mut options = Vec::with_capacity(aimed.len() * ways.len());
            for aim in aimed {
                options.extend(ways.iter().map(|&way| aim.action(card, way)));
            }
            return options;
        }
        Vec::new() // a card without a used power (Kumarbi's is offered while bidding)
    }

    /// `UsedPower._aimed`: what a used power may act on: nothing named, each card of its
    /// pile, each tile (with each second tile, or each group of its meeples).
    fn aimed(&self, state: &State, power: &effects::Power, scope: &Scope<'_>) -> Vec<Aim> {
        if let Some(pile) = power.target_card {
            return self
                .card_targets(state, pile)
                .into_iter()
                .map(Aim::Card)
                .collect();
        }
        if !power.targeted() {
            return vec![Aim::Nothing];
        }
        let starts = self.power_targets(state, power, scope);
        if let Some(count) = &power.target_meeples {
            let most = effects::evaluate(count, state, scope).max(0) as usize;
            let mut found = Vec::new();
            for tile in starts {
                let here = state.board.meeples(usize::from(tile));
                found.extend(
                    groups(&here[..self.content.colours()], most)
                        .into_iter()
                        .map(|g| Aim::Meeples(tile, g)),
                );
            }
            return found;
        }
        let Some(condition) = &power.target_to else {
            return starts.into_iter().map(Aim::Tile).collect();
        };
        if starts.is_empty() {
            return Vec::new(); // no second tile is looked for without a first
        }
        let ends = self.tiles_where(state, condition, scope);
        starts
            .iter()
            .flat_map(|&start| {
                ends.iter()
                    .filter(move |&&end| end != start)
                    .map(move |&end| Aim::Tiles(start, end))
            })
            .collect()
    }

    /// `UsedPower._pick_left_after`: whether some pick is still legal once the power's
    /// effects have run for this scope.
    fn pick_left_after(&self, state: &State, power: &effects::Power, scope: &Scope<'_>) -> bool {
        let decision = state.decision;
        let mut after = self.run_effects(state.clone(), &power.program.effects, scope);
        after.decision = decision;
        self.leaves_a_pick(&after)
    }

    /// `UsedPower.targets`: the tiles a used power may act on, never an impassable one;
    /// of its `target_kind`, where its `target` holds (each given); around the tile a
    /// token it redirects would go (none left in the bank: none).
    fn power_targets(&self, state: &State, power: &effects::Power, scope: &Scope<'_>) -> Vec<u8> {
        let doc = &self.content.doc;
        let geo = &state.layout.geometry;
        if power.redirects.is_some_and(|token| state.pool[token] == 0) {
            return Vec::new();
        }
        // the area is in tile order, as the board is
        let origin = power.redirects.map(|token| self.origin(state, token));
        let near = |t: usize| origin.is_none_or(|o| t != o && geo.area[o].contains(&(t as u8)));
        (0..geo.size)
            .filter(|&t| {
                near(t)
                    && !geo.is_impassable(t)
                    && (power.target_kind.is_empty()
                        || doc.tiles[usize::from(state.layout.tiles[t])].kind == power.target_kind)
                    && power
                        .target
                        .as_ref()
                        .is_none_or(|test| holds_at(test, state, scope, t))
            })
            .map(|t| t as u8)
            .collect()
    }

    /// The second tiles a used power may name (`target_to`): each passable tile where the
    /// condition holds, read as a target is.
    fn tiles_where(&self, state: &State, condition: &effects::Expr, scope: &Scope<'_>) -> Vec<u8> {
        let geo = &state.layout.geometry;
        (0..geo.size)
            .filter(|&t| !geo.is_impassable(t) && holds_at(condition, state, scope, t))
            .map(|t| t as u8)
            .collect()
    }

    pub(super) fn elders(&self, state: &State, player: usize) -> Count {
        self.elder.map_or(0, |e| state.players[player].meeples[e])
    }

    /// `give_cards`: cards of deck `deck` into a player's hand, sorted or after the others
    /// in the order taken, as the deck's policy says.
    pub(crate) fn give_cards(
        &self,
        mut state: State,
        player: usize,
        deck: usize,
        cards: &[u8],
    ) -> State {
        let hands = &state.players[player].hands;
        let mut hand = hands.hand(deck).to_vec();
        hand.extend_from_slice(cards);
        if self.content.doc.decks[deck].order == "sorted" {
            self.sort_hand(&mut hand);
        }
        state.players[player].hands = hands.with_hand(deck, &hand);
        state
    }

    /// `effects._take_card`: `card` out of its pile into `me`'s hand, if it is still
    /// there; a djinn fires `djinn-taken`, as at a sacred place.
    pub(super) fn take_card(&self, mut state: State, me: usize, pile: CardPile, card: u8) -> State {
        let deck = &state.decks[pile.deck];
        let mut cards = lying_in(deck, pile).to_vec();
        let Some(at) = cards.iter().position(|&c| c == card) else {
            return state; // an effect before this one moved it
        };
        cards.remove(at);
        state.decks[pile.deck] = if pile.discard {
            Deck::new(deck.draw(), deck.row(), &cards)
        } else {
            Deck::new(deck.draw(), &cards, deck.discard())
        };
        if pile.deck == self.content.djinns() {
            self.give_djinn(state, me, card)
        } else {
            self.give_cards(state, me, pile.deck, &[card])
        }
    }

    /// `lying.fill_places`: the top card of the draw pile on every empty place of each
    /// deck lying on tiles, in board order (at setup and clean-up); a place stays empty
    /// when the pile runs out.
    pub(crate) fn fill_lying(&self, mut state: State) -> State {
        for (index, on) in self.lying.iter().enumerate() {
            let Some(on) = on else { continue };
            let deck = &state.decks[index];
            let mut row = deck.row().to_vec();
            row.resize(row.len().max(effects::places(&state, on).count()), NO_CARD);
            let mut draw = deck.draw();
            for place in row.iter_mut().filter(|c| **c == NO_CARD) {
                let Some((&top, rest)) = draw.split_first() else {
                    break;
                };
                (*place, draw) = (top, rest);
            }
            state.decks[index] = Deck::new(draw, &row, deck.discard());
        }
        state
    }

    /// `lying.take_lying`: `me` takes the card of `deck` lying on `tile` into their hand
    /// (nothing if none lies there); the deck's `taken_event` is a plugin's, which no rule
    /// the kernel plays hears.
    pub(super) fn take_lying(
        &self,
        mut state: State,
        me: usize,
        deck: usize,
        tile: usize,
    ) -> State {
        let on = self.lying[deck].as_deref();
        let Some((place, card)) = on.and_then(|on| effects::lying_on(&state, deck, on, tile))
        else {
            return state; // no card lies there
        };
        let pile = &state.decks[deck];
        let mut row = pile.row().to_vec();
        row[place] = NO_CARD;
        state.decks[deck] = Deck::new(pile.draw(), &row, pile.discard());
        self.give_cards(state, me, deck, &[card])
    }

    /// `UsedPower.targets` of a power aimed at a card: each distinct card of its pile.
    fn card_targets(&self, state: &State, pile: CardPile) -> Vec<u8> {
        let mut cards: Vec<u8> = lying_in(&state.decks[pile.deck], pile)
            .iter()
            .copied()
            .filter(|&c| c != NO_CARD)
            .collect();
        cards.sort_unstable();
        cards.dedup();
        cards
    }

    /// `draw_cards`: the top `n` cards of a deck's pile, reshuffling its discards when
    /// the pile runs out; fewer when both run out.
    pub(super) fn draw_cards(&self, mut state: State, deck: usize, n: usize) -> (State, Vec<u8>) {
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

    /// `Activated.apply`: pay, mark the use, count the effect, then act.
    pub(super) fn use_card(&self, mut state: State, card: u8, aim: Aim, pay: Pay) -> Step {
        let player = state.decision.player as usize;
        let (elders, fakirs) = pay.counts();
        if elders > 0 {
            let elder = self.elder.expect("elders pay");
            state.players[player].meeples[elder] -= elders;
            state.bag[elder] += elders;
        }
        state = self.discard_fakirs(state, player, fakirs);
        self.mark_used(&mut state, card);
        if self.round_limited(&state, card) {
            let key = self.round_key(card);
            let round = i64::from(state.round);
            state.players[player].extras = set_extra(&state.players[player].extras, key, round);
        }
        state = self.discard_used(state, player, card);
        state = self.count_effect(state, card);
        if let Some(power) = self.used_power(card) {
            let scope = aim.scope(&self.card_scope(player, card));
            if let Some(token) = power.redirects {
                return self.redirect(state, token, &power.program.effects, &scope);
            }
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
        if self.is_thief(card) {
            return self.use_thief(state, player, card);
        }
        let kind = &self.content.doc.cards[usize::from(card)].kind;
        Err(Unported(format!("djinns:{kind}")))
    }
}

/// What a used power's action names: nothing, a card of its pile, a tile, a tile and a
/// second tile, or a tile and meeples there.
#[derive(Debug, Clone, Copy)]
pub(super) enum Aim {
    Nothing,
    Card(u8),
    Tile(u8),
    Tiles(u8, u8),
    Meeples(u8, Group),
}

impl Aim {
    /// The scope its effects run in.
    fn scope<'a>(&self, card: &Scope<'a>) -> Scope<'a> {
        let tile = |t: &u8| Some(usize::from(*t));
        match self {
            Aim::Nothing => *card,
            Aim::Card(c) => Scope {
                target_card: Some(*c),
                ..*card
            },
            Aim::Tile(t) => Scope {
                target: tile(t),
                ..*card
            },
            Aim::Tiles(t, to) => Scope {
                target: tile(t),
                target_to: tile(to),
                ..*card
            },
            Aim::Meeples(t, group) => Scope {
                target: tile(t),
                target_group: Some(*group),
                ..*card
            },
        }
    }

    /// The action using `card` on it, paid `way`.
    fn action(self, card: u8, way: Pay) -> Action {
        match self {
            Aim::Nothing => Action::Card(card, None, way),
            Aim::Card(c) => Action::CardOnCard(card, c, way),
            Aim::Tile(t) => Action::Card(card, Some(t), way),
            Aim::Tiles(t, to) => Action::CardOnTiles(card, t, to, way),
            Aim::Meeples(t, group) => Action::CardOnMeeples(card, t, group, way),
        }
    }
}

/// `effects._groups`: each distinct group of `most` of the meeples `here` (all of them
/// when fewer), colours in order, the groups in lexicographic order; none on an empty
/// tile. `most` is at most `MOST_TARGET_MEEPLES` (the content says so).
fn groups(here: &[Count], most: usize) -> Vec<Group> {
    let total: usize = here.iter().map(|&n| usize::from(n)).sum();
    let size = most.min(total);
    let mut found = Vec::new();
    let mut picked = Vec::with_capacity(size);
    if size > 0 {
        pick_groups(here, 0, size, &mut picked, &mut found);
    }
    found
}

/// The groups of `left` more meeples from colour `from` on, after `picked`.
fn pick_groups(
    here: &[Count],
    from: usize,
    left: usize,
    picked: &mut Vec<u8>,
    out: &mut Vec<Group>,
) {
    if left == 0 {
        out.extend(Group::new(picked));
        return;
    }
    for colour in from..here.len() {
        let taken = picked.iter().filter(|&&c| usize::from(c) == colour).count();
        if taken < usize::from(here[colour]) {
            picked.push(colour as u8);
            pick_groups(here, colour, left - 1, picked, out);
            picked.pop();
        }
    }
}

/// Whether `condition` holds with tile `tile` as the used power's target.
fn holds_at(condition: &effects::Expr, state: &State, scope: &Scope<'_>, tile: usize) -> bool {
    let here = Scope {
        target: Some(tile),
        ..*scope
    };
    effects::evaluate(condition, state, &here) != 0
}

/// The cards of `deck` in the pile a card target names: its face-up row or its discards.
fn lying_in(deck: &Deck, pile: CardPile) -> &[u8] {
    if pile.discard {
        deck.discard()
    } else {
        deck.row()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(here: &[Count], most: usize) -> Vec<Vec<u8>> {
        groups(here, most)
            .iter()
            .map(|g| g.colours().to_vec())
            .collect()
    }

    #[test]
    fn groups_of_meeples_are_distinct_multisets_in_order() {
        // two of colour 0, one of colour 2: {0,0}, {0,2}
        assert_eq!(listed(&[2, 0, 1], 2), vec![vec![0, 0], vec![0, 2]]);
        assert_eq!(
            listed(&[1, 1, 1], 2),
            vec![vec![0, 1], vec![0, 2], vec![1, 2]]
        );
    }

    #[test]
    fn fewer_meeples_than_named_make_one_group_of_all() {
        assert_eq!(listed(&[1, 0, 1], 4), vec![vec![0, 2]]);
        assert!(listed(&[0, 0, 0], 2).is_empty());
    }
}
