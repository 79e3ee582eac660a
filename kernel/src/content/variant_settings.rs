//! The common variants' settings (`crate::variants`), read once with the content so that
//! a turn costs no lookup by name.

use crate::content::Content;

pub const ROUND_CAP: &str = "end.after_round";
/// the flag of a game the round cap ended (`crate::names` knows it)
pub const ROUND_CAP_FLAG: &str = "round-cap";
pub const TIE_BREAK: &str = "verdict.tie_break";
pub const START_CARDS: &str = "start.cards";
pub const PROTECT: &str = "assassins.protect";
pub const BIDDING: &str = "bidding";

/// The variants' settings as the rules read them while playing, read once with the
/// content (`Content::new`), so a turn costs no lookup by name.
#[derive(Debug, Clone, Default)]
pub struct Variants {
    /// `end.after_round` (0: no cap)
    pub(crate) round_cap: i64,
    /// `verdict.tie_break = "coins"`
    pub(crate) coins_tie_break: bool,
    /// `assassins.protect`, a bit per colour index
    pub(crate) protected: u64,
    /// `bidding = "off"`
    pub(crate) bidding_off: bool,
}

impl Variants {
    /// The variants of `content`; an error names a setting of a shape the kernel cannot
    /// read (Python checked their meaning).
    pub fn read(content: &Content) -> Result<Variants, String> {
        let protect = content.texts_setting(PROTECT)?;
        let protected = content
            .doc
            .colours
            .iter()
            .enumerate()
            .filter(|(_, spec)| protect.contains(&spec.id))
            .fold(0u64, |mask, (colour, _)| mask | 1 << colour);
        if let Some(setting) = content.typed_setting(START_CARDS) {
            if setting.tables().is_none() {
                return Err(format!(
                    "kernel content: settings.{START_CARDS}: expected an array of tables"
                ));
            }
        }
        Ok(Variants {
            round_cap: content.setting(ROUND_CAP).unwrap_or(0),
            coins_tie_break: content.text_setting(TIE_BREAK, "shared")? == "coins",
            protected,
            bidding_off: content.text_setting(BIDDING, "on")? == "off",
        })
    }
}
