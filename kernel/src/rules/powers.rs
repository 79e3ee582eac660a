//! The card powers written by hand that their owner uses in their own turn (Dalhan, in
//! `plugins/whims/`), registered by card kind in one table: on which targets a card of
//! the kind is offered, and what it does once paid for. Content's powers (`[[power]]`,
//! `crate::effects`: every used djinn of the base game) are the other table; a kind is in
//! one or the other, never both.

use std::fmt::Debug;
use std::sync::Arc;

use super::{whims, Rules, Step};

use crate::content::Content;
use crate::state::State;

/// A hand-written power used in its owner's turn.
pub(super) trait Power: Debug + Send + Sync {
    /// Its targets at this decision (None: a use without a target).
    fn targets(&self, rules: &Rules<'_>, state: &State) -> Vec<Option<u8>>;

    /// Its effect for `player`, once paid for (`Activated.act`).
    fn act(
        &self,
        rules: &Rules<'_>,
        state: State,
        player: usize,
        card: u8,
        target: Option<u8>,
    ) -> Step;
}

/// The table: each card kind with a hand-written used power, and how its power is made
/// for a content (None: the content lacks what it needs, so the kind is not played).
type Maker = fn(&Content) -> Option<Arc<dyn Power>>;
const TABLE: [(&str, Maker); 1] = [(whims::DALHAN, |_| Some(Arc::new(Dalhan)))];

/// The card kinds whose used power is written here.
pub(super) fn kinds() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|&(kind, _)| kind)
}

/// The hand-written used power of card kind `kind`, if it has one.
pub(super) fn power_of(content: &Content, kind: &str) -> Option<Arc<dyn Power>> {
    let &(_, make) = TABLE.iter().find(|&&(name, _)| name == kind)?;
    make(content)
}

/// Dalhan (the Whims box): takes the whim lying on a Fabulous City.
#[derive(Debug)]
struct Dalhan;

impl Power for Dalhan {
    fn targets(&self, rules: &Rules<'_>, state: &State) -> Vec<Option<u8>> {
        rules.dalhan_targets(state).into_iter().map(Some).collect()
    }

    fn act(
        &self,
        rules: &Rules<'_>,
        state: State,
        player: usize,
        _: u8,
        target: Option<u8>,
    ) -> Step {
        let tile = usize::from(target.expect("a city"));
        Ok(rules.dalhan(state, player, tile))
    }
}
