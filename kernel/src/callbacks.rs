//! The hooks a plugin's code answers while the kernel plays: the kernel asks them at its
//! own hook points, and only where a loaded plugin implements one (docs/hooks.md, "Hooks
//! called back").
//!
//! The rules know only this trait: the Python bindings implement it by calling the
//! plugin's functions with a read-only view of the state (`state_view.rs`), so the pure
//! crate stays free of Python and a game with no such hook never touches it. Each answer
//! is combined with the kernel's own as the Python engine combines its plugins' answers
//! (`any` for the end of the game, a union for protected meeples, a sum for score
//! lines, the first answer for the verdict, the effects of a tile action concatenated).

use std::fmt::Debug;
use std::sync::Arc;

use crate::effects::{At, Effect};
use crate::state::State;

/// The hooks the kernel can call back, by their hookspec names.
pub const GAME_ENDS: &str = "naqala_game_ends";
pub const PROTECTED_MEEPLES: &str = "naqala_protected_meeples";
pub const SCORE_LINES: &str = "naqala_score_lines";
pub const VERDICT: &str = "naqala_verdict";
pub const ADJUST_NEW_GAME: &str = "naqala_adjust_new_game";
pub const TILE_EFFECTS: &str = "naqala_tile_effects";
pub const ADJUST_SCORE_LINES: &str = "naqala_adjust_score_lines";
/// Every hook the kernel calls back, in the order the game loop reaches them.
pub const CALLED_BACK: [&str; 7] = [
    ADJUST_NEW_GAME,
    TILE_EFFECTS,
    GAME_ENDS,
    PROTECTED_MEEPLES,
    SCORE_LINES,
    ADJUST_SCORE_LINES,
    VERDICT,
];

/// A plugin's verdict on a finished game (`core/events.py`'s `Verdict`, without its
/// words): the winning seats and the short name of the outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    pub winners: Vec<usize>,
    pub kind: String,
}

/// A plugin's answers to the hooks it implements. A hook that fails answers as if it had
/// not spoken (false, nothing protected) and keeps its error for the caller to raise once
/// the kernel's call returns (`take_failure`).
pub trait HookCalls: Debug + Send + Sync {
    /// Whether the hook names one of these calls' hooks.
    fn answers(&self, hook: &str) -> bool;
    /// `naqala_adjust_new_game`: the new game as plugins change it after the kernel's
    /// own set-up (the whole state, handed over as a `State`'s form both ways, once a
    /// game: `crate::py_state`);
    /// `None` leaves it as it is.
    fn adjust_new_game(&self, state: &State) -> Option<State>;
    /// `naqala_tile_effects`: the effects plugins run before or after (`at`) the action
    /// of a tile of kind `kind`, for the player whose turn it is (their answers
    /// concatenated, resolved against the content); `None` runs nothing.
    fn tile_effects(&self, state: &State, kind: &str, at: At) -> Option<Arc<Vec<Effect>>>;
    /// `naqala_game_ends`: whether a plugin ends the game after this round's clean-up.
    fn game_ends(&self, state: &State) -> bool;
    /// `naqala_protected_meeples`: the colours (by index) in front of `player` that a
    /// plugin protects from the assassins, as a bit set.
    fn protected(&self, state: &State, player: usize) -> u64;
    /// `naqala_score_lines`: the points of the score lines plugins add to `player`'s
    /// sheet, summed (their lines are read in Python where a sheet is shown).
    fn score_points(&self, state: &State, player: usize) -> i64;
    /// `naqala_score_lines` itself: the lines plugins add to `player`'s sheet, in order,
    /// for a finished game's reading (`crate::results`), which keeps every line.
    fn score_lines(&self, state: &State, player: usize) -> Vec<crate::score_line::Line>;
    /// `naqala_adjust_score_lines`: the points of the lines plugins add to `player`'s
    /// sheet once its `lines` (before any adjustment) are known, summed.
    fn adjusted_points(
        &self,
        state: &State,
        player: usize,
        lines: &[crate::score_line::Line],
    ) -> i64;
    /// `naqala_adjust_score_lines` itself: the lines, in order, for a finished game's
    /// reading.
    fn adjusted_lines(
        &self,
        state: &State,
        player: usize,
        lines: &[crate::score_line::Line],
    ) -> Vec<crate::score_line::Line>;
    /// `naqala_verdict`: who won the finished game `state`, when a plugin says (its first
    /// answer that is not `None`); `None` leaves the verdict to the highest scores.
    fn verdict(&self, state: &State) -> Option<Verdict>;
    /// The first failure of a hook since the last time it was asked, taken: the bindings
    /// raise it once the kernel's call returns.
    fn take_failure(&self) -> Option<String>;
}
