//! The language's used powers (`UsedPower` of `plugins/base/effects.py`): where one is
//! offered, what its action names (nothing, a card of a pile, a tile, two tiles, or a
//! tile and meeples there), and what using it runs.

use super::{Rules, Step};

use crate::actions::{Action, Group, Pay};
use crate::effects::{self, CardPile, Scope};
use crate::state::{Count, Decision, Deck, State, NO_CARD};

impl Rules<'_> {
    /// `UsedPower.usable` and `targets`: not outside its `stages`, nor where it would take
    /// meeples off a tile whose options are settled, nor while its `if` fails; each aim
    /// with each payment `ways` the owner can make (a deck used by its verb: `claim`).
    pub(super) fn used_power_options(
        &self,
        state: &State,
        player: usize,
        card: u8,
        power: &effects::Power,
        ways: &[Pay],
    ) -> Vec<Action> {
        let stage = state.decision.stage;
        let gate = &self.gates[usize::from(card)];
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
        options
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

    /// `UsedPower.act`: its effects run on what its action names (a redirect places the
    /// token elsewhere); a choice left at the end becomes the owner's decision.
    pub(super) fn run_used_power(
        &self,
        state: State,
        player: usize,
        card: u8,
        power: &effects::Power,
        aim: Aim,
    ) -> Step {
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
        Ok(state)
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
