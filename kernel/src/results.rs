//! Which finished games the lab reads from the native state: those whose every score
//! line the kernel writes as Python's plugins do (`Rules::score_sheet`). That is the base
//! game's score sheet (`plugins/base/scoring.py`) with the cards' lines (the thieves',
//! the content powers', each deck's), the Artisans' and the Whims box's lines, and those
//! of the hooks the kernel calls back, when no other plugin adds, changes or judges the
//! scores (no solo mode, every other scoring hook called back). Anything else is read
//! through a Python state (`crate::reading`).

use crate::callbacks::{ADJUST_SCORE_LINES, SCORE_LINES, VERDICT};
use crate::content::{Content, DJINNS, ELDER, RESOURCES, VIZIER};
use crate::providers;
use crate::rules::artisans::ITEMS;
use crate::rules::thieves::{is_thief, THIEVES};
use crate::rules::whims::WHIMS;
use crate::rules::Rules;
use crate::state::State;

pub use crate::score_line::Line;

/// Whether the kernel writes every score line of `content`'s games as Python's plugins
/// do. A plugin's `naqala_verdict`, `naqala_score_lines` or `naqala_adjust_score_lines`
/// the kernel calls back (`called` says which) gives its own answer; the boxes' scoring
/// hooks are known by the module that provides them.
pub fn readable(content: &Content, called: impl Fn(&str) -> bool) -> bool {
    let doc = &content.doc;
    // after the two every game has, any deck: the boxes' are scored by their plugins'
    // lines below, a house rule's own by its cards' content powers
    let first = [RESOURCES, DJINNS];
    let decks = doc.decks.len() >= first.len()
        && doc.decks.iter().zip(first).all(|(deck, id)| deck.id == id);
    let colours = [VIZIER, ELDER]
        .iter()
        .all(|id| doc.colour_index(id).is_some());
    let (mut artisans, mut whims, mut scored_by_base) = (false, false, false);
    for spec in &doc.providers {
        let (kind, name) = spec.entry.split_once(':').unwrap_or(("", ""));
        if name == VERDICT && !(kind == "hook" && called(VERDICT)) {
            return false;
        }
        if name != SCORE_LINES && name != ADJUST_SCORE_LINES {
            continue;
        }
        match (kind, spec.module.as_str()) {
            ("hook", providers::BASE) => scored_by_base |= name == SCORE_LINES,
            ("hook", providers::ARTISANS) => artisans = true,
            ("hook", providers::WHIMS) => whims = true,
            ("hook", _) if called(name) => {}
            _ => return false,
        }
    }
    let cards_known = doc.cards.iter().all(|card| match card.deck.as_str() {
        THIEVES => is_thief(&card.deck, &card.kind),
        ITEMS => artisans,
        WHIMS => whims,
        _ => true,
    });
    let artisans_colour = !artisans || doc.colour_index(crate::content::ARTISAN).is_some();
    decks && colours && cards_known && artisans_colour && scored_by_base && !doc.is_solo()
}

/// `player`'s score lines, as `Rules.score_lines` gathers them (`Rules::score_sheet`).
pub(crate) fn score_lines(rules: &Rules, state: &State, player: usize) -> Vec<Line> {
    let mut lines = Vec::new();
    rules.score_sheet(state, player, &mut lines);
    lines
}
