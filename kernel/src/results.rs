//! Which finished games the lab reads from the native state: those whose every score
//! line the kernel writes as Python's plugins do (`Rules::score_sheet`). That is the base
//! game's score sheet (`plugins/base/scoring.py`) with the cards' lines (the thieves',
//! the content powers', each deck's), the Artisans' and the Whims box's lines, and those
//! of the hooks the kernel calls back, when no other plugin adds, changes or judges the
//! scores (no solo mode, every other scoring hook called back). Anything else is read
//! through a Python state (`crate::reading`).

use crate::content::Content;
use crate::rules::Rules;
use crate::state::State;

pub use crate::score_line::Line;

/// The decks every game has first, in this order.
const DECKS: [&str; 2] = ["resources", "djinns"];
const THIEVES: &str = crate::content::box_names::THIEVES;
const ITEMS: &str = "items";
const WHIMS: &str = "whims";
/// The hooks that write or change the scores, and the plugins whose answers the kernel
/// writes; a verdict hook (solo mode) is never read here.
const SCORING_HOOKS: [&str; 2] = ["naqala_score_lines", "naqala_adjust_score_lines"];
const VERDICT_HOOK: &str = "naqala_verdict";
const BASE: &str = "base";
const ARTISANS: &str = "artisans";
/// The Whims box's plugin, as the providers table names it (its ruleset name is `djinns`).
const WHIMS_PLUGIN: &str = "whims";
/// The kinds of the Thieves' cards: each unused one scores its VP.
const THIEF_KINDS: [&str; 6] = ["djinns", "items", "meeples", "resources", "tile", "token"];
const VIZIER: &str = "yellow";
const ELDER: &str = "white";
const ARTISAN: &str = "purple";

/// Whether the kernel writes every score line of `content`'s games as Python's plugins
/// do. A plugin's `naqala_verdict`, `naqala_score_lines` or `naqala_adjust_score_lines`
/// the kernel calls back (`called` says which) gives its own answer.
pub fn readable(content: &Content, called: impl Fn(&str) -> bool) -> bool {
    let verdict_called_back = called(crate::callbacks::VERDICT);
    let doc = &content.doc;
    // after the two every game has, any deck: the boxes' are scored by their plugins'
    // lines below, a house rule's own by its cards' content powers
    let decks = doc.decks.len() >= DECKS.len()
        && doc.decks.iter().zip(DECKS).all(|(deck, id)| deck.id == id);
    let colours = [VIZIER, ELDER]
        .iter()
        .all(|id| doc.colours.iter().any(|c| c.id == *id));
    let (mut artisans, mut whims, mut scored_by_base) = (false, false, false);
    for spec in &doc.providers {
        let (kind, name) = spec.entry.split_once(':').unwrap_or(("", ""));
        if name == VERDICT_HOOK && !(kind == "hook" && verdict_called_back) {
            return false;
        }
        if !SCORING_HOOKS.contains(&name) {
            continue;
        }
        match (kind, spec.plugin.as_str()) {
            ("hook", BASE) => scored_by_base |= name == SCORING_HOOKS[0],
            ("hook", ARTISANS) => artisans = true,
            ("hook", WHIMS_PLUGIN) => whims = true,
            ("hook", _) if called(name) => {}
            _ => return false,
        }
    }
    let cards_known = doc.cards.iter().all(|card| match card.deck.as_str() {
        THIEVES => THIEF_KINDS.contains(&card.kind.as_str()),
        ITEMS => artisans,
        WHIMS => whims,
        _ => true,
    });
    let artisans_colour = !artisans || doc.colours.iter().any(|c| c.id == ARTISAN);
    decks && colours && cards_known && artisans_colour && scored_by_base && !doc.is_solo()
}

/// `player`'s score lines, as `Rules.score_lines` gathers them (`Rules::score_sheet`).
pub(crate) fn score_lines(rules: &Rules, state: &State, player: usize) -> Vec<Line> {
    let mut lines = Vec::new();
    rules.score_sheet(state, player, &mut lines);
    lines
}
