//! What scoring reads of the content, found once per `Rules`: a greedy decision scores
//! thousands of states, and looking settings, colours and card kinds up by name each time
//! was a fifth of its work (issue #40: names interned once, no string comparison in the
//! game loop).

use crate::content::{Content, ELDER, VIZIER};

#[derive(Clone, Debug)]
pub(super) struct ScoreTerms {
    /// the colour indices of the Viziers (yellow) and the Elders (white), if the rules
    /// have them
    pub vizier: Option<usize>,
    pub elder: Option<usize>,
    /// `vizier_vp`, `vizier_bonus`, `elder_vp` (0 when unset)
    pub vizier_vp: i64,
    pub vizier_bonus: i64,
    pub elder_vp: i64,
    /// each token that scores: its index, its lines' category (`palm-trees`) and its VP
    pub token_lines: Vec<(usize, String, i64)>,
    /// the decks whose cards' lines come after every plugin's (`[[deck]] scored`)
    pub after_decks: Vec<usize>,
}

impl ScoreTerms {
    pub fn new(content: &Content) -> ScoreTerms {
        let doc = &content.doc;
        let setting = |key: &str| content.setting(key).unwrap_or(0);
        ScoreTerms {
            vizier: doc.colour_index(VIZIER),
            elder: doc.colour_index(ELDER),
            vizier_vp: setting("vizier_vp"),
            vizier_bonus: setting("vizier_bonus"),
            elder_vp: setting("elder_vp"),
            token_lines: (doc.tokens.iter().enumerate())
                .filter(|(_, token)| token.vp != 0)
                .map(|(index, token)| (index, format!("{}s", token.id), token.vp))
                .collect(),
            after_decks: (doc.decks.iter().enumerate())
                .filter(|(_, deck)| deck.scored == "after")
                .map(|(index, _)| index)
                .collect(),
        }
    }
}
