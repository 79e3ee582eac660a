//! `Rules.winners`: who won a finished game. Solo mode has a verdict of its own (Sultan
//! Yazid's, `plugins/solo/outcome.py`); every other game is won by the highest score, a
//! tie shared or broken as `verdict.tie_break` says (`crate::variants::winners`). The
//! environments' rewards and the search's value of a finished playout both ask here, so
//! a solo game lost to the Sultan is lost to both.

use crate::content::{Content, VIZIER};
use crate::extras::get_extra;
use crate::names::Sym;
use crate::state::State;

/// The verdict of a content's games, its names looked up once.
#[derive(Debug)]
pub struct Verdict {
    solo: Option<SoloVerdict>,
}

impl Verdict {
    pub fn of(content: &Content) -> Verdict {
        Verdict {
            solo: SoloVerdict::of(content),
        }
    }

    /// The players who won `state`, whose score sheets add up to `scores`.
    pub fn winners(&self, content: &Content, state: &State, scores: &[i64]) -> Vec<usize> {
        match &self.solo {
            Some(solo) => solo.winners(state),
            None => crate::variants::winners(content, state, scores),
        }
    }
}

/// Solo mode's verdict (`plugins/solo/outcome.py`, `loss`): the player wins when the
/// game was not lost at once (`sultan.lost`) and they hold more viziers than Yazid's
/// area (`aside.meeple.yellow`); else nobody wins.
#[derive(Debug)]
struct SoloVerdict {
    lost: Option<Sym>,
    aside_viziers: Option<Sym>,
    vizier: Option<usize>,
}

impl SoloVerdict {
    fn of(content: &Content) -> Option<SoloVerdict> {
        if !content.doc.is_solo() {
            return None;
        }
        let names = &content.names;
        Some(SoloVerdict {
            lost: names.sym("sultan.lost"),
            aside_viziers: names.sym(&format!("aside.meeple.{VIZIER}")),
            vizier: content.doc.colour_index(VIZIER),
        })
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        let extra = |sym: Option<Sym>| sym.map_or(0, |s| get_extra(&state.extras, s));
        let Some(player) = state.players.first() else {
            return Vec::new();
        };
        let viziers = self.vizier.map_or(0, |v| {
            i64::from(player.meeples.get(v).copied().unwrap_or(0))
        });
        if extra(self.lost) == 0 && viziers > extra(self.aside_viziers) {
            vec![0]
        } else {
            Vec::new()
        }
    }
}
