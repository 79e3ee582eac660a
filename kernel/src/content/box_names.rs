//! The names the boxes' rules write in a state beside the content's own ids (counters
//! and marks in `extras`): the Thieves' (`crate::rules::thieves`) and solo mode's
//! (`crate::rules::solo`), listed with the content so that its names table holds them.

use crate::content::ContentDoc;
use crate::limits::{MAX_PLAYERS, MAX_TILES};

/// The Thieves' deck, by name: the box is in play when the content has it.
pub const THIEVES: &str = "thieves";

/// Every name a thieves state can hold besides the stages: the once-a-turn marks and the
/// counters of a theft in progress (`steal.py`).
pub(super) fn thieves(doc: &ContentDoc) -> Vec<String> {
    if !doc.decks.iter().any(|d| d.id == THIEVES) {
        return Vec::new();
    }
    let mut out = vec![
        "thieves.offered".to_owned(),
        "thieves.given.meeples".to_owned(),
    ];
    for card in doc.cards.iter().filter(|c| c.deck == THIEVES) {
        out.push(format!("thieves.taken.{}", card.id));
        out.push(format!("thieves.running.{}", card.id));
    }
    out.extend((0..MAX_PLAYERS).map(|seat| format!("thieves.victim.{seat}")));
    out.extend((0..MAX_TILES).map(|tile| format!("thieves.given.tile.{tile}")));
    out.extend(
        doc.tokens
            .iter()
            .map(|t| format!("thieves.given.token.{}", t.id)),
    );
    out
}

/// Every name a solo state can hold: Yazid's dice, targets and counters (`dice.py`,
/// `rounds.py`, `sultan.py`) and what is set aside beside the board (`aside.*`).
pub(super) fn solo(doc: &ContentDoc) -> Vec<String> {
    if !doc.is_solo() {
        return Vec::new();
    }
    let mut out: Vec<String> = [
        "sultan.white",
        "sultan.black",
        "sultan.rolled",
        "sultan.target.1",
        "sultan.target.2",
        "sultan.camels",
        "sultan.lost",
        "sultan.outbid",
        "sultan.after",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    out.extend(doc.colours.iter().map(|c| format!("aside.meeple.{}", c.id)));
    out.extend(doc.cards.iter().map(|c| format!("aside.card.{}", c.id)));
    out
}
