//! The kernel's interpreter of the effects language (`core/effects.py`).
//!
//! Content says what happens: `[[trigger]]`, `[[tile_action]]` and `[[power]]` entries,
//! each a list of effects with expressions. Python compiles every expression once into a
//! small tree of plain data; the content reads the trees from the content JSON and
//! resolves their names to indices once (`content::programs`, re-exported here), and
//! this module evaluates them over a state. The
//! effects themselves (coins, a draw, a score line) are carried out by `rules.rs`, next to
//! the helpers the hand-written rules use, so both kinds of rule change a state the same
//! way. `plugins/base/effects.py` is the reference; the harness compares the two over
//! drawn programs (`naqala.testing.effect_programs`).

use std::collections::BTreeMap;

use crate::actions::Group;
pub use crate::content::programs::*;
use crate::extras::{get_extra, with_extra};
use crate::names::Sym;
use crate::state::{State, Target, NOBODY, NO_CARD};

/// The facts of an event an expression may read (`core/events.py`'s `Event`).
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub moment: Moment,
    pub player: usize,
    pub tile: Option<usize>,
    pub count: i64,
    pub victim: i64,
    /// the card the event is about (`what`: a djinn taken)
    pub card: Option<u8>,
    /// the colour of the meeple a `kill` killed
    pub killed: Option<usize>,
}

impl Facts {
    pub fn of(moment: Moment, player: usize) -> Facts {
        Facts {
            moment,
            player,
            tile: None,
            count: 1,
            victim: i64::from(NOBODY),
            card: None,
            killed: None,
        }
    }
}

/// What an expression is evaluated for: the player `me`, the event's `actor`, the event,
/// the numbers `param.*` reads and the card whose power it is.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub me: usize,
    pub actor: i64,
    pub event: Option<Facts>,
    pub params: &'a BTreeMap<String, i64>,
    pub card: Option<u8>,
    /// what a use of the card marks in the turn (`turn.used`)
    pub mark: Option<Sym>,
    /// the tile a used power targets
    pub target: Option<usize>,
    /// the card (by index) a used power targets, in its power's `target_card` pile
    pub target_card: Option<u8>,
    /// the second tile a used power names, where its `move` puts a piece of its target
    pub target_to: Option<usize>,
    /// the meeples a used power's action names on its target tile (`target_meeples`)
    pub target_group: Option<Group>,
}

impl<'a> Scope<'a> {
    /// The scope of effects for player `me` alone, reading `params`: no event, no card
    /// and no target (the other fields are set where there are some).
    pub fn of(me: usize, params: &'a BTreeMap<String, i64>) -> Scope<'a> {
        Scope {
            me,
            actor: me as i64,
            event: None,
            params,
            card: None,
            mark: None,
            target: None,
            target_card: None,
            target_to: None,
            target_group: None,
        }
    }
}

/// Python's `//`: the quotient rounded down (0 when dividing by 0, as the language says).
fn floor_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Python's `%`: the remainder with the sign of the divisor (0 for a divisor of 0).
fn modulo(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// The value of `expr` in `state`, within ±`BOUND` (`plugins/base/effects.py`'s
/// `evaluate`; operands are within the bound, so no operation overflows an `i64`).
pub fn evaluate(expr: &Expr, state: &State, scope: &Scope<'_>) -> i64 {
    match expr {
        Expr::Num(n) => *n,
        Expr::Bin(op, a, b) => {
            let a = evaluate(a, state, scope);
            let b = evaluate(b, state, scope);
            clamp(match op {
                Op::Add => a + b,
                Op::Sub => a - b,
                Op::Mul => a * b,
                Op::FloorDiv => floor_div(a, b),
                Op::Mod => modulo(a, b),
                Op::Eq => i64::from(a == b),
                Op::Ne => i64::from(a != b),
                Op::Lt => i64::from(a < b),
                Op::Le => i64::from(a <= b),
                Op::Gt => i64::from(a > b),
                Op::Ge => i64::from(a >= b),
                Op::And => i64::from(a != 0 && b != 0),
                Op::Or => i64::from(a != 0 || b != 0),
            })
        }
        Expr::Var(var) => clamp(variable(*var, state, scope)),
        Expr::HoldsMeeples(holds) => i64::from(scope.target.is_some_and(|t| {
            holds
                .get(usize::from(state.layout.tiles[t]))
                .copied()
                .unwrap_or(false)
        })),
        Expr::Param(name) => clamp(scope.params.get(name).copied().unwrap_or(0)),
        Expr::Count(Counted::Killed(colour)) => {
            i64::from(scope.event.and_then(|e| e.killed) == Some(*colour))
        }
        Expr::Count(Counted::OnTarget(token)) => scope
            .target
            .map_or(0, |t| i64::from(state.board.tokens(t)[*token])),
        Expr::Around(valued) => scope.event.and_then(|e| e.tile).map_or(0, |t| {
            let geo = &state.layout.geometry;
            (geo.area[t].iter())
                .filter(|&&a| valued[usize::from(state.layout.tiles[usize::from(a)])])
                .count() as i64
        }),
        Expr::Holds(kind) => (state.players[scope.me].hands.all().iter())
            .filter(|&&c| kind[usize::from(c)])
            .count() as i64,
        Expr::Merchandise(suits, wilds) => {
            let wilds = evaluate(wilds, state, scope).clamp(0, MOST_WILDS) as usize;
            let hand = state.players[scope.me].hands.hand(suits.deck);
            clamp(suits.score(hand, wilds))
        }
        Expr::TilesWhere(these) => state
            .owned_by(scope.me)
            .filter(|&t| these[usize::from(state.layout.tiles[t])])
            .count() as i64,
        Expr::TileKinds(kinds) => {
            let mut seen: Vec<u16> = state
                .owned_by(scope.me)
                .map(|t| kinds[usize::from(state.layout.tiles[t])])
                .collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len() as i64
        }
        Expr::Goods { suits, most } => {
            let held = suits.copies_held(state.players[scope.me].hands.hand(suits.deck));
            if *most {
                held.iter().map(|&(_, n)| n as i64).max().unwrap_or(0)
            } else {
                held.len() as i64
            }
        }
        Expr::Lying { deck, on } => scope.target.map_or(0, |tile| {
            i64::from(lying_on(state, *deck, on, tile).is_some())
        }),
        Expr::NextTo { kind, diagonals } => {
            let geo = &state.layout.geometry;
            let of_kind = |t: usize| kind[usize::from(state.layout.tiles[t])];
            state
                .owned_by(scope.me)
                .filter(|&t| {
                    let around = if *diagonals {
                        &geo.area[t]
                    } else {
                        &geo.orthogonal[t]
                    };
                    !of_kind(t) && around.iter().any(|&a| of_kind(usize::from(a)))
                })
                .count() as i64
        }
        Expr::Count(counted) => clamp(count(*counted, state, scope.me)),
        Expr::Neg(a) => clamp(-evaluate(a, state, scope)),
        Expr::Not(a) => i64::from(evaluate(a, state, scope) == 0),
        Expr::If(test, then, otherwise) => {
            if evaluate(test, state, scope) != 0 {
                evaluate(then, state, scope)
            } else {
                evaluate(otherwise, state, scope)
            }
        }
        Expr::Call(fun, args) => {
            let mut values = args.iter().map(|a| evaluate(a, state, scope));
            match fun {
                Fun::Abs => clamp(values.next().unwrap_or(0).abs()),
                Fun::Min => values.min().unwrap_or(0),
                Fun::Max => values.max().unwrap_or(0),
            }
        }
    }
}

fn variable(var: Var, state: &State, scope: &Scope<'_>) -> i64 {
    let nobody = i64::from(NOBODY);
    match var {
        Var::Me => scope.me as i64,
        Var::Actor => scope.actor,
        Var::Coins => i64::from(state.players[scope.me].coins),
        Var::TurnKilled => i64::from(
            state
                .turn
                .as_ref()
                .is_some_and(|t| t.target != Target::None),
        ),
        Var::TurnUsed => i64::from(
            (state.turn.as_ref())
                .zip(scope.mark)
                .is_some_and(|(t, mark)| t.used.contains(&mark)),
        ),
        Var::EventCount => scope.event.map_or(1, |e| e.count),
        Var::TargetOwner => scope
            .target
            .map_or(nobody, |t| i64::from(state.board.owner(t))),
        Var::TargetMeeples => scope.target.map_or(0, |t| {
            state.board.meeples(t).iter().map(|&n| i64::from(n)).sum()
        }),
        Var::TargetTokens => scope.target.map_or(0, |t| {
            state.board.tokens(t).iter().map(|&n| i64::from(n)).sum()
        }),
        Var::EventTileOwner => scope
            .event
            .and_then(|e| e.tile)
            .map_or(nobody, |t| i64::from(state.board.owner(t))),
        Var::EventVictim => scope.event.map_or(nobody, |e| e.victim),
        Var::EventThisCard => i64::from(
            scope
                .event
                .is_some_and(|e| e.card.is_some() && e.card == scope.card),
        ),
    }
}

/// The places of a row lying on tiles: the tiles whose table entry `on` marks, in board
/// order.
pub fn places<'a>(state: &'a State, on: &'a [bool]) -> impl Iterator<Item = usize> + 'a {
    (0..state.layout.size()).filter(move |&t| on[usize::from(state.layout.tiles[t])])
}

/// The card of deck `deck` lying on `tile` (its row lies on the tiles `on` marks), with
/// its place in the row, if any.
pub fn lying_on(state: &State, deck: usize, on: &[bool], tile: usize) -> Option<(usize, u8)> {
    let place = places(state, on).position(|t| t == tile)?;
    let card = state.decks[deck].row().get(place).copied();
    card.filter(|&c| c != NO_CARD).map(|card| (place, card))
}

fn count(counted: Counted, state: &State, me: usize) -> i64 {
    let player = &state.players[me];
    let owned = || state.owned_by(me);
    match counted {
        // read with the event or the target, in `evaluate`
        Counted::Nothing | Counted::Killed(_) | Counted::OnTarget(_) => 0,
        Counted::Held(colour) => i64::from(player.meeples[colour]),
        Counted::HeldAll => player.meeples.iter().map(|&n| i64::from(n)).sum(),
        Counted::MostHeld(colour) => {
            let mine = player.meeples[colour];
            let most = (state.players.iter().enumerate())
                .all(|(i, other)| i == me || mine > other.meeples[colour]);
            if most {
                i64::from(mine)
            } else {
                0
            }
        }
        Counted::LargestGroup => {
            let mine = owned().fold(0u64, |mask, t| mask | 1 << t);
            state.layout.geometry.largest_group(mine) as i64
        }
        Counted::Hand(deck) => player.hands.hand(deck).len() as i64,
        Counted::Path => state.turn.as_ref().map_or(0, |t| t.path.len() as i64),
        Counted::Collected => (state.turn.as_ref())
            .filter(|t| t.colour != NOBODY)
            .map_or(0, |t| i64::from(t.taken)),
        Counted::Cards(deck, card) => player
            .hands
            .hand(deck)
            .iter()
            .filter(|&&c| c == card)
            .count() as i64,
        Counted::Tiles => owned().count() as i64,
        Counted::Bank(token) => i64::from(state.pool[token]),
        Counted::Camels => i64::from(player.camels),
        Counted::Bag => state.bag.iter().map(|&n| i64::from(n)).sum(),
        Counted::Tribe(colour) => i64::from(
            (state.turn.as_ref()).is_some_and(|t| usize::try_from(t.colour) == Ok(colour)),
        ),
        Counted::Counter(Holder::Player(key)) => get_extra(&player.extras, key),
        Counted::Counter(Holder::Game(key)) => get_extra(&state.extras, key),
        Counted::Pile(deck) => {
            let deck = &state.decks[deck];
            (deck.draw().len() + deck.discard().len()) as i64
        }
        Counted::Owned(token) => owned()
            .map(|t| i64::from(state.board.tokens(t)[token]))
            .sum(),
        // before the pick (a djinn used first) the turn is on no tile yet: nothing here
        Counted::Here(token) => state.turn.as_ref().map_or(0, |turn| {
            let here = match turn.path.last() {
                Some(&tile) => usize::from(tile),
                None if turn.start >= 0 => turn.start as usize,
                None => return 0,
            };
            i64::from(state.board.tokens(here)[token])
        }),
    }
}

/// `state` with counter `holder` of player `me` set to `value`, held from 0 to
/// `COUNTER_MOST` (at 0 it leaves `extras`: `effects._set_counter`).
pub fn set_counter(mut state: State, holder: Holder, me: usize, value: i64) -> State {
    let value = value.clamp(0, COUNTER_MOST);
    match holder {
        Holder::Game(key) => state.extras = with_extra(&state.extras, key, value),
        Holder::Player(key) => {
            let player = &mut state.players[me];
            player.extras = with_extra(&player.extras, key, value);
        }
    }
    state
}

/// Whether an optional condition holds (none: always).
pub fn holds(test: &Option<Expr>, state: &State, scope: &Scope<'_>) -> bool {
    test.as_ref().is_none_or(|t| evaluate(t, state, scope) != 0)
}

/// The score lines of a program at final scoring for `scope.me`: (category, points) of
/// each `score` effect whose `if` holds, when the program's own `if` holds. Nothing is
/// allocated: the kernel's scoring sums these at every greedy evaluation.
pub fn scores<'a>(
    program: &'a Program,
    state: &'a State,
    scope: &'a Scope<'a>,
) -> impl Iterator<Item = (&'a str, i64)> + 'a {
    let holds_here = holds(&program.test, state, scope);
    program
        .effects
        .iter()
        .filter(move |e| holds_here && e.verb == Verb::Score && holds(&e.test, state, scope))
        .map(move |e| (e.category.as_str(), evaluate(&e.amount, state, scope)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_and_remainder_follow_python() {
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(7, -2), -4);
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(floor_div(7, 0), 0);
        assert_eq!(modulo(-7, 2), 1);
        assert_eq!(modulo(7, -2), -1);
        assert_eq!(modulo(7, 0), 0);
    }

    #[test]
    fn a_tree_of_python_reads() {
        let text = r#"{"bin": "+", "a": {"num": 2}, "b": {"if": {"var": "me"}, "then": {"num": 1}, "else": {"call": "max", "args": [{"num": 5}, {"neg": {"num": 3}}]}}}"#;
        let doc: ExprDoc = serde_json::from_str(text).expect("a tree");
        let ExprDoc::Bin { b, .. } = doc else {
            panic!("a sum")
        };
        assert!(matches!(*b, ExprDoc::If { .. }));
    }
}
