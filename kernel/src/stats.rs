//! What a native game records of each decision, for the lab's game rows
//! (`lab/game_stats.py` reads the same from a Python game): who decided, at which stage
//! and round, among how many options, the coins a bid paid for turn order, whose turn it
//! was, and how long the player took. Everything but the time is a function of the
//! states, so both engines record the same.

use std::time::Duration;

use crate::names::Sym;
use crate::rules::Rules;
use crate::state::State;

/// One decision of a played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub round: u16,
    pub seat: u8,
    /// the stage (`bid`, `pick`, `drop`…: its name is the content's)
    pub stage: Sym,
    /// whether the stage is the bid for turn order
    pub bid: bool,
    /// the number of legal options (the branching factor)
    pub options: u32,
    /// the coins the seat paid at a `bid` stage (0 elsewhere)
    pub paid: i64,
    /// the player whose turn it is (-1 outside a turn: bidding)
    pub turn: i8,
    /// the time the player took to choose
    pub time: Duration,
}

impl Decision {
    /// The decision about to be taken at `before` among `options` options, in `time`;
    /// `settle` it with the state the choice led to.
    pub fn of(rules: &Rules, before: &State, options: usize, time: Duration) -> Decision {
        let seat = before.decision.player;
        let stage = before.decision.stage;
        let bid = rules.content.names.name(stage) == "bid";
        let turn = before
            .turn
            .as_ref()
            .and_then(|t| {
                before
                    .markers
                    .as_slice()
                    .get(usize::from(t.marker))
                    .copied()
            })
            .unwrap_or(-1);
        let paid = if bid { coins(before, seat) } else { 0 };
        Decision {
            round: before.round,
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            stage,
            bid,
            options: u32::try_from(options).unwrap_or(u32::MAX),
            paid,
            turn,
            time,
        }
    }

    /// The coins paid at a bid: those held before less those held `after` it.
    pub fn settle(&mut self, after: &State) {
        if self.bid {
            self.paid -= coins(after, self.seat as i8);
        }
    }
}

/// The coins `seat` holds in `state` (0 for no seat).
fn coins(state: &State, seat: i8) -> i64 {
    usize::try_from(seat)
        .ok()
        .and_then(|s| state.players.get(s))
        .map_or(0, |p| i64::from(p.coins))
}
