//! What a hook called back read of the state it was shown, and its answers remembered by
//! the values of those reads.
//!
//! A hook is a pure function of what it reads (docs/hooks.md: it may be asked as often as
//! the kernel needs, not as often as the Python engine asks), and a greedy player asks the
//! same question of thousands of states that differ only where the hook does not look.
//! So the view records each part a hook reads (`Reads`), and a hook's answers are kept by
//! the question's own arguments and the values of every part any of its calls has read
//! (`Memo`). A call that reads a part no earlier call read widens what is compared and
//! forgets the answers kept, which were keyed without it; a call that asks for the whole
//! Python `State` (`full_state()`, which reads everything) turns the memo off for good.
//! Only answers are kept, never a failure.

use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;

use crate::limits::MAX_PLAYERS;
use crate::state::State;

/// The parts of a state a hook read, as bits.
pub type Reads = u64;

/// `state.round`
pub const ROUND: Reads = 1;
/// `state.decision` and `state.is_over`: the stage and who decides it
pub const DECISION: Reads = 1 << 1;
/// `state.flags` and `state.has_flag(…)`
pub const FLAGS: Reads = 1 << 2;
/// `state.extras`
pub const EXTRAS: Reads = 1 << 3;
/// `state.board`: meeples, owners and tokens of every tile
pub const BOARD: Reads = 1 << 4;
/// `state.full_state()`: everything, so the answer is never remembered
pub const EVERYTHING: Reads = 1 << 5;

/// What a hook may read of one player (`state.players[p]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerPart {
    Coins,
    Camels,
    Meeples,
    Hands,
    Extras,
}

const PLAYER_PARTS: usize = 5;
const FIRST_PLAYER_BIT: usize = 8;

/// The bit of one part of one player; a player beyond the state's limit reads everything.
pub fn player_part(player: usize, part: PlayerPart) -> Reads {
    if player >= MAX_PLAYERS {
        return EVERYTHING;
    }
    1 << (FIRST_PLAYER_BIT + player * PLAYER_PARTS + part as usize)
}

/// The values of the parts `reads` names, in a fixed order, each part of varying length
/// led by its length: equal values mean the hook was shown the same thing. The number of
/// players leads, as `len(state.players)` reads it.
pub fn values(state: &State, reads: Reads) -> Vec<i64> {
    let mut out = vec![state.players.len() as i64];
    if reads & ROUND != 0 {
        out.push(i64::from(state.round));
    }
    if reads & DECISION != 0 {
        out.extend([
            i64::from(state.decision.stage.0),
            i64::from(state.decision.player),
        ]);
    }
    if reads & FLAGS != 0 {
        list(&mut out, state.flags.iter().map(|f| i64::from(f.0)));
    }
    if reads & EXTRAS != 0 {
        counters(&state.extras, &mut out);
    }
    if reads & BOARD != 0 {
        let board = &state.board;
        out.push(state.layout.size() as i64);
        for tile in 0..state.layout.size() {
            out.push(i64::from(board.owner(tile)));
            out.extend(board.meeples(tile).iter().map(|&n| i64::from(n)));
            out.extend(board.tokens(tile).iter().map(|&n| i64::from(n)));
        }
    }
    for (index, player) in state.players.iter().enumerate() {
        let read = |part| reads & player_part(index, part) != 0;
        if read(PlayerPart::Coins) {
            out.push(i64::from(player.coins));
        }
        if read(PlayerPart::Camels) {
            out.push(i64::from(player.camels));
        }
        if read(PlayerPart::Meeples) {
            out.extend(player.meeples.iter().map(|&n| i64::from(n)));
        }
        if read(PlayerPart::Hands) {
            for deck in 0..state.decks.len() {
                list(
                    &mut out,
                    player.hands.hand(deck).iter().map(|&c| i64::from(c)),
                );
            }
        }
        if read(PlayerPart::Extras) {
            counters(&player.extras, &mut out);
        }
    }
    out
}

/// A part of varying length, led by its length.
fn list(out: &mut Vec<i64>, items: impl ExactSizeIterator<Item = i64>) {
    out.push(items.len() as i64);
    out.extend(items);
}

fn counters(extras: &[(crate::names::Sym, i64)], out: &mut Vec<i64>) {
    list(out, extras.iter().map(|&(name, _)| i64::from(name.0)));
    out.extend(extras.iter().map(|&(_, value)| value));
}

/// The most answers one hook keeps: a greedy game asks a few thousand distinct questions.
const KEPT_ANSWERS: usize = 8192;
/// The most values their keys hold together (8 MiB): a hook reading the board keeps a
/// few hundred values an answer.
const KEPT_VALUES: usize = 1 << 20;

/// What a remembered answer is found by: the question's arguments, and the values of the
/// parts read.
type Key<Q> = (Q, Vec<i64>);

/// A question put to a memo: its key, and the parts it compared (the memo's at the time;
/// another thread's call may widen them before this one's answer is kept).
#[derive(Debug)]
pub struct Question<Q> {
    key: Key<Q>,
    compared: Reads,
}

/// One hook's answers, kept by its arguments (`Q`) and the values it read.
#[derive(Debug)]
pub struct Memo<Q, A> {
    /// every part any call read: the parts compared
    read: Reads,
    /// a call read everything: nothing is kept
    off: bool,
    /// by a fast hash: every score of a greedy game looks here (no key comes from outside)
    answers: HashMap<Key<Q>, A, FixedState>,
    /// the values the keys kept hold together
    held: usize,
}

impl<Q, A> Default for Memo<Q, A> {
    fn default() -> Self {
        Memo {
            read: 0,
            off: false,
            answers: HashMap::default(),
            held: 0,
        }
    }
}

impl<Q: Hash + Eq, A: Clone> Memo<Q, A> {
    /// The key of the question `asked` (what it compares: the arguments and the values of
    /// the parts read so far, which `values` gives for a set of parts), or None when this
    /// hook's answers are not kept.
    pub fn key(&self, asked: Q, values: impl FnOnce(Reads) -> Vec<i64>) -> Option<Question<Q>> {
        (!self.off).then(|| Question {
            key: (asked, values(self.read)),
            compared: self.read,
        })
    }

    /// The answer kept for `question`, if any.
    pub fn get(&self, question: &Question<Q>) -> Option<A> {
        if question.compared != self.read {
            return None;
        }
        self.answers.get(&question.key).cloned()
    }

    /// Keeps `answer`, which a call gave to `question` after reading `read` (`values` as
    /// for `key`, of the same state).
    pub fn keep(
        &mut self,
        question: Question<Q>,
        read: Reads,
        values: impl FnOnce(Reads) -> Vec<i64>,
        answer: A,
    ) {
        if self.off || read & EVERYTHING != 0 {
            self.off = true;
            self.answers = HashMap::default();
            return;
        }
        let (asked, mut compared) = question.key;
        if read & !self.read != 0 {
            self.read |= read;
            self.answers.clear();
        }
        if question.compared != self.read {
            compared = values(self.read);
        }
        if self.answers.len() >= KEPT_ANSWERS || self.held + compared.len() > KEPT_VALUES {
            self.answers.clear();
        }
        if self.answers.is_empty() {
            self.held = 0;
        }
        self.held += compared.len();
        self.answers.insert((asked, compared), answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state of two numbers, the round and player 0's coins, read as `values` reads.
    fn shown(round: i64, coins: i64) -> impl Fn(Reads) -> Vec<i64> {
        move |reads| {
            let mut out = Vec::new();
            if reads & ROUND != 0 {
                out.push(round);
            }
            if reads & player_part(0, PlayerPart::Coins) != 0 {
                out.push(coins);
            }
            out
        }
    }

    #[test]
    fn each_part_of_each_player_has_a_bit_of_its_own() {
        let mut seen = ROUND | DECISION | FLAGS | EXTRAS | BOARD | EVERYTHING;
        for player in 0..MAX_PLAYERS {
            for part in [
                PlayerPart::Coins,
                PlayerPart::Camels,
                PlayerPart::Meeples,
                PlayerPart::Hands,
                PlayerPart::Extras,
            ] {
                let bit = player_part(player, part);
                assert_eq!(bit.count_ones(), 1);
                assert_eq!(seen & bit, 0);
                seen |= bit;
            }
        }
        assert_eq!(player_part(MAX_PLAYERS, PlayerPart::Coins), EVERYTHING);
    }

    #[test]
    fn a_memo_widens_what_it_compares_and_forgets_what_it_kept_without_it() {
        let coins = player_part(0, PlayerPart::Coins);
        let mut memo: Memo<usize, i64> = Memo::default();
        let key = memo.key(0, shown(1, 5)).expect("on");
        memo.keep(key, ROUND, shown(1, 5), 10);
        // the round alone was read: the coins do not matter, the question does
        assert_eq!(memo.get(&memo.key(0, shown(1, 6)).expect("on")), Some(10));
        assert_eq!(memo.get(&memo.key(0, shown(2, 5)).expect("on")), None);
        assert_eq!(memo.get(&memo.key(1, shown(1, 5)).expect("on")), None);
        // a call reads the coins too: what was kept without them is forgotten
        let key = memo.key(0, shown(1, 6)).expect("on");
        memo.keep(key, coins, shown(1, 6), 11);
        assert_eq!(memo.get(&memo.key(0, shown(1, 5)).expect("on")), None);
        assert_eq!(memo.get(&memo.key(0, shown(1, 6)).expect("on")), Some(11));
        // the whole state read: nothing is kept from then on
        let key = memo.key(0, shown(1, 6)).expect("on");
        memo.keep(key, EVERYTHING, shown(1, 6), 12);
        assert!(memo.key(0, shown(1, 6)).is_none());
    }

    #[test]
    fn an_answer_to_a_question_put_before_the_memo_widened_is_kept_by_the_wider_key() {
        let coins = player_part(0, PlayerPart::Coins);
        let mut memo: Memo<usize, i64> = Memo::default();
        let first = memo.key(0, shown(1, 5)).expect("on"); // compares nothing yet
        let second = memo.key(0, shown(1, 5)).expect("on");
        memo.keep(second, ROUND | coins, shown(1, 5), 10);
        // the first call read the round only, but its answer is kept under both parts
        memo.keep(first, ROUND, shown(1, 5), 10);
        assert_eq!(memo.get(&memo.key(0, shown(1, 6)).expect("on")), None);
        assert_eq!(memo.get(&memo.key(0, shown(1, 5)).expect("on")), Some(10));
    }
}
