//! Counting legal meeple moves without listing them: `naqala perft` on the kernel.
//!
//! This follows `testing/perft.py`'s `count_moves_fast` step for step, so both engines
//! give the same `(moves, paths)` on every board. A move's colour sequence is legal or
//! not depending on its walk only through the last tile `T` and the walk's earlier visits
//! to `T`; so for each target tile the walks are counted backwards, one step at a time,
//! per (tile, previous tile) and per number of visits to `T`, and each group of walks is
//! multiplied by the number of its legal colour sequences (`Sequences::legal`). Only the
//! (tile, previous tile) pairs some walk still passes are carried from a step to the
//! next, and only one step is held in memory, as in Python.
//!
//! The counts outgrow any machine integer (a walk of 1,000 steps has about 3^1,000
//! ways), so each target is counted in `u128` with checked arithmetic and, if that
//! overflows, counted again in `BigUint`; from then on the board's targets are counted
//! in `BigUint` directly. The CPU-time limit is looked at for every tile of every step,
//! as in Python, so it holds within a small part of one target's count.

use num_bigint::BigUint;
use num_traits::Zero;

/// Why a count stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// the CPU-time limit passed, with `done` of `total` target tiles counted
    Timeout { done: usize, total: usize },
    /// the progress callback asked to stop (Python has a signal pending)
    Cancelled,
}

/// Why a count in one number type could not go on: the number type is too small, or the
/// count must stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    Overflow,
    OutOfTime,
}

/// The arithmetic a count needs, on `u128` (checked: `None` on overflow) and `BigUint`.
trait Count: Clone {
    fn of(n: u64) -> Self;
    fn is_nothing(&self) -> bool;
    fn add_to(&mut self, other: &Self) -> Option<()>;
    /// `self - other`, where `other <= self` always holds
    fn less(&self, other: &Self) -> Self;
    fn times(&self, other: &Self) -> Option<Self>;
    fn times_small(&self, n: u64) -> Option<Self>;
    fn over_small(&self, n: u64) -> Self;
    /// Add one start's moves and paths ending on the target, its walks (by visits) in
    /// this type, to `tally`: in `u128` where the products fit, else in `BigUint`.
    fn contribute(
        hands: &mut Hands<'_>,
        start: usize,
        present: &[bool],
        walks: &[Self],
        clock: &Clock,
        tally: &mut Tally,
    ) -> Result<(), Halt>;
}

impl Count for u128 {
    fn of(n: u64) -> Self {
        u128::from(n)
    }
    fn is_nothing(&self) -> bool {
        *self == 0
    }
    fn add_to(&mut self, other: &Self) -> Option<()> {
        *self = self.checked_add(*other)?;
        Some(())
    }
    fn less(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Option<Self> {
        self.checked_mul(*other)
    }
    fn times_small(&self, n: u64) -> Option<Self> {
        self.checked_mul(u128::from(n))
    }
    fn over_small(&self, n: u64) -> Self {
        self / u128::from(n)
    }
    fn contribute(
        hands: &mut Hands<'_>,
        start: usize,
        present: &[bool],
        walks: &[Self],
        clock: &Clock,
        tally: &mut Tally,
    ) -> Result<(), Halt> {
        if let Some(hand) = hands.small(start, clock)? {
            match pair(hand, present, walks, clock) {
                Ok((moves, paths)) => {
                    tally.add_small(moves, paths);
                    return Ok(());
                }
                Err(Halt::OutOfTime) => return Err(Halt::OutOfTime),
                Err(Halt::Overflow) => {}
            }
        }
        let walks: Vec<BigUint> = walks.iter().map(|&n| BigUint::from(n)).collect();
        BigUint::contribute(hands, start, present, &walks, clock, tally)
    }
}

impl Count for BigUint {
    fn of(n: u64) -> Self {
        BigUint::from(n)
    }
    fn is_nothing(&self) -> bool {
        self.is_zero()
    }
    fn add_to(&mut self, other: &Self) -> Option<()> {
        *self += other;
        Some(())
    }
    fn less(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn times_small(&self, n: u64) -> Option<Self> {
        Some(self * n)
    }
    fn over_small(&self, n: u64) -> Self {
        self / n
    }
    fn contribute(
        hands: &mut Hands<'_>,
        start: usize,
        present: &[bool],
        walks: &[Self],
        clock: &Clock,
        tally: &mut Tally,
    ) -> Result<(), Halt> {
        let (moves, paths) = pair(hands.big(start, clock)?, present, walks, clock)?;
        tally.big.0 += moves;
        tally.big.1 += paths;
        Ok(())
    }
}

/// `n choose k` (0 when `k > n`), as Python's `math.comb`. The time limit is looked at
/// every `COMB_STEPS` factors: a hand of a million meeples makes a long product.
fn comb<N: Count>(n: u64, k: u64, clock: &Clock) -> Result<N, Halt> {
    const COMB_STEPS: u64 = 256;
    if k > n {
        return Ok(N::of(0));
    }
    let k = k.min(n - k);
    let mut result = N::of(1);
    for i in 0..k {
        if i % COMB_STEPS == COMB_STEPS - 1 {
            clock.check()?;
        }
        // the product of i + 1 consecutive numbers is divisible by (i + 1)!
        let product = result.times_small(n - i).ok_or(Halt::Overflow)?;
        result = product.over_small(i + 1);
    }
    Ok(result)
}

/// Distinct orders of a multiset with `counts` of each kind (`perft.arrangements`).
fn arrangements<N: Count>(counts: impl IntoIterator<Item = u64>, clock: &Clock) -> Result<N, Halt> {
    let mut total = 0u64;
    let mut result = N::of(1);
    for n in counts {
        total += n;
        result = result
            .times(&comb(total, n, clock)?)
            .ok_or(Halt::Overflow)?;
    }
    Ok(result)
}

/// For one last colour `c` of a hand: the orders of the rest and the copies of `c` left
/// in the rest (`perft._Sequences.visited`; the orders are `C(rest, left)` times the
/// orders of the rest without `c`, which is where `ByVisits` starts).
#[derive(Clone)]
struct LastColour<N> {
    colour: usize,
    orders: N,
    left: u64,
}

/// The parts of `perft._Sequences` that depend on the hand only, worked out once per
/// start tile rather than once per (start, target).
#[derive(Clone)]
struct HandOrders<N> {
    rest_len: u64,
    last: Vec<LastColour<N>>,
}

impl<N: Count> HandOrders<N> {
    fn new(hand: &[u64], clock: &Clock) -> Result<HandOrders<N>, Halt> {
        let rest_len = hand.iter().sum::<u64>() - 1;
        let mut last = Vec::new();
        for (colour, &n) in hand.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let rest = |i: usize| hand[i] - u64::from(i == colour);
            last.push(LastColour {
                colour,
                orders: arrangements((0..hand.len()).map(rest), clock)?,
                left: n - 1,
            });
        }
        Ok(HandOrders { rest_len, last })
    }
}

/// `perft._Sequences`: legal colour sequences of a hand ending on a tile whose own
/// colours are `present`, at any number of earlier visits.
struct Sequences<'a, N> {
    hand: &'a HandOrders<N>,
    always: N,
    visited: Vec<&'a LastColour<N>>,
}

impl<'a, N: Count> Sequences<'a, N> {
    fn new(hand: &'a HandOrders<N>, present: &[bool]) -> Option<Sequences<'a, N>> {
        let mut always = N::of(0);
        let mut visited = Vec::new();
        for last in &hand.last {
            if present[last.colour] {
                always.add_to(&last.orders)?;
            } else {
                visited.push(last);
            }
        }
        Some(Sequences {
            hand,
            always,
            visited,
        })
    }

    /// `legal(0)`, `legal(1)`, … in turn (`ByVisits::next`).
    fn by_visits(&self) -> ByVisits<'_, 'a, N> {
        ByVisits {
            sequences: self,
            kept_off: self
                .visited
                .iter()
                .map(|last| last.orders.clone())
                .collect(),
            visits: 0,
        }
    }
}

/// `perft._Sequences.legal` at 0, 1, 2, … visits. The last colour `c` is legal if
/// present, or if one of the `visits` earlier drops on the tile is `c`: all orders of
/// the rest, minus those that keep `c` off the visits' positions, `C(rest - visits,
/// left) × others`. That product is carried from one number of visits to the next
/// (`C(n - 1, k) = C(n, k) (n - k) / n`, exact), so a walk that met its last tile
/// thousands of times costs one small multiplication a visit, not a binomial.
struct ByVisits<'s, 'a, N> {
    sequences: &'s Sequences<'a, N>,
    /// per visited colour: `C(rest_len - visits, left) × others`
    kept_off: Vec<N>,
    visits: u64,
}

impl<N: Count> ByVisits<'_, '_, N> {
    /// The legal sequences at the current number of visits; then one visit more.
    fn next(&mut self) -> Option<N> {
        let sequences = self.sequences;
        let mut count = sequences.always.clone();
        let n = sequences.hand.rest_len.saturating_sub(self.visits);
        for (last, kept_off) in sequences.visited.iter().zip(&mut self.kept_off) {
            if self.visits > 0 {
                count.add_to(&last.orders.less(kept_off))?;
            }
            if !kept_off.is_nothing() {
                *kept_off = if n > last.left {
                    kept_off.times_small(n - last.left)?.over_small(n)
                } else {
                    N::of(0)
                };
            }
        }
        self.visits += 1;
        Some(count)
    }
}

/// A board as the count sees it: who neighbours whom, what is impassable, the meeples.
#[derive(Clone, Debug)]
pub struct PerftBoard {
    neighbours: Vec<Vec<usize>>,
    /// `back[t][j]`: the position of `t` among the neighbours of `neighbours[t][j]`
    back: Vec<Vec<usize>>,
    impassable: Vec<bool>,
    meeples: Vec<Vec<u64>>,
}

impl PerftBoard {
    /// A board from its neighbour lists (the tiles a meeple may step to: symmetric, none
    /// into or out of an impassable tile), impassable tiles and meeples per colour; an
    /// error naming the first thing that is not a board.
    pub fn new(
        neighbours: Vec<Vec<usize>>,
        impassable: &[usize],
        meeples: Vec<Vec<u64>>,
    ) -> Result<PerftBoard, String> {
        let size = neighbours.len();
        if meeples.len() != size {
            return Err(format!(
                "{} tiles of meeples for a board of {size} tiles",
                meeples.len()
            ));
        }
        let colours = meeples.first().map_or(0, Vec::len);
        if let Some(tile) = meeples.iter().position(|m| m.len() != colours) {
            return Err(format!(
                "tile {tile} has meeples of a different number of colours"
            ));
        }
        let mut blocked = vec![false; size];
        for &tile in impassable {
            *blocked
                .get_mut(tile)
                .ok_or_else(|| format!("impassable tile {tile} is off the board"))? = true;
        }
        let mut back = Vec::with_capacity(size);
        for (tile, around) in neighbours.iter().enumerate() {
            let mut slots = Vec::with_capacity(around.len());
            for (j, &next) in around.iter().enumerate() {
                let Some(theirs) = neighbours.get(next) else {
                    return Err(format!("tile {tile}'s neighbour {next} is off the board"));
                };
                if around[..j].contains(&next) {
                    return Err(format!("tile {tile} has neighbour {next} twice"));
                }
                let Some(slot) = theirs.iter().position(|&t| t == tile) else {
                    return Err(format!("tile {tile} neighbours {next} but not back"));
                };
                if blocked[tile] || blocked[next] {
                    return Err(format!("impassable tiles {tile} and {next} are neighbours"));
                }
                slots.push(slot);
            }
            back.push(slots);
        }
        Ok(PerftBoard {
            neighbours,
            back,
            impassable: blocked,
            meeples,
        })
    }

    /// The board of a game state: its geometry's walk neighbours and its meeples.
    pub fn of_state(state: &crate::state::State) -> PerftBoard {
        let geometry = &state.layout.geometry;
        let neighbours: Vec<Vec<usize>> = geometry
            .neighbours
            .iter()
            .map(|around| around.iter().map(|&t| usize::from(t)).collect())
            .collect();
        let impassable: Vec<usize> = (0..geometry.size)
            .filter(|&t| geometry.is_impassable(t))
            .collect();
        let meeples = (0..geometry.size)
            .map(|t| {
                let counts = state.board.meeples(t);
                counts.iter().map(|&n| u64::from(n)).collect()
            })
            .collect();
        // a geometry's neighbours are symmetric and avoid impassable tiles by construction
        PerftBoard::new(neighbours, &impassable, meeples)
            .expect("a game's geometry is a board the count can read")
    }

    fn size(&self) -> usize {
        self.neighbours.len()
    }
}

/// CPU seconds this process has used, as Python's `time.process_time`.
#[cfg(unix)]
pub fn process_time() -> f64 {
    let mut spec = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut spec) };
    if status != 0 {
        return 0.0;
    }
    spec.tv_sec as f64 + spec.tv_nsec as f64 * 1e-9
}

/// Seconds since the count's first look at the clock, where no CPU clock is read
/// (off Unix): the limit then holds in wall time.
#[cfg(not(unix))]
pub fn process_time() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// The time limit: `check` fails once `limit` CPU seconds have passed since the start.
struct Clock {
    started: f64,
    limit: Option<f64>,
}

impl Clock {
    fn check(&self) -> Result<(), Halt> {
        match self.limit {
            Some(limit) if process_time() - self.started >= limit => Err(Halt::OutOfTime),
            _ => Ok(()),
        }
    }
}

/// `counts + more` element-wise, `counts` grown as needed.
fn add_counts<N: Count>(counts: &mut Vec<N>, more: &[N]) -> Result<(), Halt> {
    if more.len() > counts.len() {
        counts.resize(more.len(), N::of(0));
    }
    for (total, n) in counts.iter_mut().zip(more) {
        total.add_to(n).ok_or(Halt::Overflow)?;
    }
    Ok(())
}

/// `total - counts` element-wise without trailing zeros (`counts` ≤ `total`).
fn minus_counts<N: Count>(total: &[N], counts: &[N]) -> Vec<N> {
    let mut result = total.to_vec();
    for (left, n) in result.iter_mut().zip(counts) {
        *left = left.less(n);
    }
    while result.last().is_some_and(Count::is_nothing) {
        result.pop();
    }
    result
}

/// Walks of one step count, per tile and per previous tile (the neighbour slots, then
/// one slot for no previous tile), as counts by visits to the target; with the tiles
/// that hold any, so a step costs what its live walks cost, never the whole board.
struct Level<N> {
    walks: Vec<Vec<Vec<N>>>,
    live: Vec<usize>,
}

impl<N: Count> Level<N> {
    fn empty(board: &PerftBoard) -> Level<N> {
        Level {
            walks: board
                .neighbours
                .iter()
                .map(|around| vec![Vec::new(); around.len() + 1])
                .collect(),
            live: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for &tile in &self.live {
            for counts in &mut self.walks[tile] {
                counts.clear();
            }
        }
        self.live.clear();
    }
}

/// Every start's hand orders in both number types, worked out when first needed.
struct Hands<'a> {
    meeples: &'a [Vec<u64>],
    /// `Some(None)`: the hand's orders do not fit `u128`
    small: Vec<Option<Option<HandOrders<u128>>>>,
    big: Vec<Option<HandOrders<BigUint>>>,
}

impl Hands<'_> {
    fn new(meeples: &[Vec<u64>]) -> Hands<'_> {
        Hands {
            meeples,
            small: vec![None; meeples.len()],
            big: vec![None; meeples.len()],
        }
    }

    /// The start's hand orders in `u128`, or None where they do not fit.
    fn small(&mut self, start: usize, clock: &Clock) -> Result<Option<&HandOrders<u128>>, Halt> {
        if self.small[start].is_none() {
            let orders = match HandOrders::new(&self.meeples[start], clock) {
                Ok(orders) => Some(orders),
                Err(Halt::Overflow) => None,
                Err(Halt::OutOfTime) => return Err(Halt::OutOfTime),
            };
            self.small[start] = Some(orders);
        }
        Ok(self.small[start].as_ref().and_then(Option::as_ref))
    }

    fn big(&mut self, start: usize, clock: &Clock) -> Result<&HandOrders<BigUint>, Halt> {
        if self.big[start].is_none() {
            self.big[start] = Some(HandOrders::new(&self.meeples[start], clock)?);
        }
        Ok(self.big[start].as_ref().expect("just filled"))
    }
}

/// Moves and paths summed in `u128` while they fit, and in `BigUint` beside.
#[derive(Default)]
struct Tally {
    small: (u128, u128),
    big: (BigUint, BigUint),
}

impl Tally {
    fn add_small(&mut self, moves: u128, paths: u128) {
        let (m, p) = self.small;
        match (m.checked_add(moves), p.checked_add(paths)) {
            (Some(m), Some(p)) => self.small = (m, p),
            _ => {
                self.big.0 += moves;
                self.big.1 += paths;
            }
        }
    }

    fn total(self) -> (BigUint, BigUint) {
        let (m, p) = self.small;
        (self.big.0 + m, self.big.1 + p)
    }
}

/// One start's moves and paths ending on the target: its walks by earlier visits to the
/// target, each times the legal colour sequences at that many visits.
fn pair<N: Count>(
    hand: &HandOrders<N>,
    present: &[bool],
    walks: &[N],
    clock: &Clock,
) -> Result<(N, N), Halt> {
    let mut moves = N::of(0);
    let mut paths = N::of(0);
    let sequences = Sequences::new(hand, present).ok_or(Halt::Overflow)?;
    let mut by_visits = sequences.by_visits();
    for n in walks {
        let legal = by_visits.next().ok_or(Halt::Overflow)?;
        if n.is_nothing() {
            continue;
        }
        clock.check()?;
        moves
            .add_to(&n.times(&legal).ok_or(Halt::Overflow)?)
            .ok_or(Halt::Overflow)?;
        if !legal.is_nothing() {
            paths.add_to(n).ok_or(Halt::Overflow)?;
        }
    }
    Ok((moves, paths))
}

/// Count one target tile with its walks in the number type `N`: the moves and paths of
/// every start whose walks of its hand's length end on `target` (`perft._walk_counts`
/// and the body of `count_moves_fast`'s loop); `Halt::Overflow` if the walks outgrow `N`.
struct TargetCount<'a> {
    board: &'a PerftBoard,
    /// start tiles by hand length: `(length, starts)`, shortest first
    starts: &'a [(u64, Vec<usize>)],
}

impl TargetCount<'_> {
    fn count<N: Count>(
        &self,
        target: usize,
        hands: &mut Hands<'_>,
        clock: &Clock,
    ) -> Result<Tally, Halt> {
        let board = self.board;
        let neighbours = &board.neighbours;
        let mut tally = Tally::default();
        let longest = self.starts.last().map_or(0, |(length, _)| *length);
        let mut level = Level::<N>::empty(board);
        for counts in &mut level.walks[target] {
            counts.push(N::of(1));
        }
        level.live.push(target);
        // into[here][slot of nxt]: walks of k steps whose first step goes from here to nxt
        let mut into = Level::<N>::empty(board);
        let mut wanted = self.starts.iter().peekable();
        for k in 1..=longest {
            into.clear();
            for index in 0..level.live.len() {
                let next = level.live[index];
                for (j, &here) in neighbours[next].iter().enumerate() {
                    let mut counts = std::mem::take(&mut level.walks[next][j]);
                    if counts.is_empty() {
                        continue;
                    }
                    if next == target && k > 1 {
                        counts.insert(0, N::of(0));
                    }
                    if into.walks[here].iter().all(Vec::is_empty) {
                        into.live.push(here);
                    }
                    into.walks[here][board.back[next][j]] = counts;
                }
            }
            level.clear();
            for index in 0..into.live.len() {
                let here = into.live[index];
                clock.check()?;
                let steps = &into.walks[here];
                let mut total: Vec<N> = Vec::new();
                for counts in steps {
                    add_counts(&mut total, counts)?;
                }
                // never straight back: a walk that arrived from prev may not step to prev
                for (slot, counts) in steps.iter().enumerate() {
                    level.walks[here][slot] = minus_counts(&total, counts);
                }
                let last = level.walks[here].len() - 1;
                level.walks[here][last] = total;
                level.live.push(here);
            }
            if wanted.peek().is_some_and(|(length, _)| *length == k) {
                let (_, starts) = wanted.next().expect("just peeked");
                for &start in starts {
                    let walks = level.walks[start].last().map_or(&[][..], Vec::as_slice);
                    if walks.is_empty() {
                        continue;
                    }
                    let present: Vec<bool> = if start == target {
                        vec![false; board.meeples[start].len()]
                    } else {
                        board.meeples[target].iter().map(|&n| n > 0).collect()
                    };
                    N::contribute(hands, start, &present, walks, clock, &mut tally)?;
                }
            }
            if level.live.is_empty() {
                break; // no walk of k steps ends on the target, so none of more steps does
            }
        }
        Ok(tally)
    }
}

/// `(moves, paths)` of `board` as `testing/perft.py`'s `count_moves_fast` gives them.
/// `progress(done, total)` is called before the first target tile and after each; it
/// returns false to stop the count. `Stopped::Timeout` once `max_seconds` of CPU time
/// have passed.
pub fn count_moves(
    board: &PerftBoard,
    max_seconds: Option<f64>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<(BigUint, BigUint), Stopped> {
    let clock = Clock {
        started: process_time(),
        limit: max_seconds,
    };
    let size = board.size();
    let mut by_length: Vec<(u64, Vec<usize>)> = Vec::new();
    for start in 0..size {
        let length: u64 = board.meeples[start].iter().sum();
        if length == 0 || board.impassable[start] {
            continue;
        }
        match by_length.iter_mut().find(|(l, _)| *l == length) {
            Some((_, starts)) => starts.push(start),
            None => by_length.push((length, vec![start])),
        }
    }
    by_length.sort_by_key(|(length, _)| *length);
    let targets: Vec<usize> = (0..size).filter(|&t| !board.impassable[t]).collect();
    let total = targets.len();
    let counter = TargetCount {
        board,
        starts: &by_length,
    };
    let mut hands = Hands::new(&board.meeples);
    let mut overflowed = false;
    let (mut moves, mut paths) = (BigUint::zero(), BigUint::zero());
    let timeout = |done: usize| Stopped::Timeout { done, total };
    if !progress(0, total) {
        return Err(Stopped::Cancelled);
    }
    for (done, &target) in targets.iter().enumerate() {
        clock.check().map_err(|_| timeout(done))?;
        let counted = if overflowed {
            Err(Halt::Overflow)
        } else {
            counter.count::<u128>(target, &mut hands, &clock)
        };
        let tally = match counted {
            Ok(tally) => tally,
            Err(Halt::OutOfTime) => return Err(timeout(done)),
            Err(Halt::Overflow) => {
                overflowed = true; // the walks outgrow u128: so will the next targets'
                counter
                    .count::<BigUint>(target, &mut hands, &clock)
                    .map_err(|_| timeout(done))?
            }
        };
        let (m, p) = tally.total();
        moves += m;
        paths += p;
        if !progress(done + 1, total) {
            return Err(Stopped::Cancelled);
        }
    }
    Ok((moves, paths))
}

/// `perft.legal_sequences`, for tests against the Python formula.
pub fn legal_sequences(hand: &[u64], present: &[bool], visits: u64) -> BigUint {
    let clock = Clock {
        started: 0.0,
        limit: None,
    };
    let orders = HandOrders::<BigUint>::new(hand, &clock).expect("BigUint never overflows");
    let sequences = Sequences::new(&orders, present).expect("BigUint never overflows");
    let mut by_visits = sequences.by_visits();
    for _ in 0..visits {
        by_visits.next();
    }
    by_visits.next().expect("BigUint never overflows")
}

#[cfg(test)]
mod tests {
    use num_traits::{One, ToPrimitive};

    use super::*;

    fn small(n: &BigUint) -> Option<u64> {
        n.to_u64()
    }

    fn factorial(n: u64) -> BigUint {
        (1..=n).fold(BigUint::one(), |f, i| f * i)
    }

    /// A `rows × cols` board without walls from meeple letters per tile (Y W G B R P).
    fn grid(rows: usize, cols: usize, tiles: &[&str]) -> PerftBoard {
        let neighbours = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut out = Vec::new();
                if r > 0 {
                    out.push(i - cols);
                }
                if c > 0 {
                    out.push(i - 1);
                }
                if c + 1 < cols {
                    out.push(i + 1);
                }
                if r + 1 < rows {
                    out.push(i + cols);
                }
                out
            })
            .collect();
        let meeples = tiles
            .iter()
            .map(|t| {
                "YWGBRP"
                    .chars()
                    .map(|c| t.matches(c).count() as u64)
                    .collect()
            })
            .collect();
        PerftBoard::new(neighbours, &[], meeples).unwrap()
    }

    fn count(board: &PerftBoard) -> (u64, u64) {
        let (m, p) = count_moves(board, None, &mut |_, _| true).unwrap();
        (small(&m).unwrap(), small(&p).unwrap())
    }

    #[test]
    fn hand_counted_boards() {
        // a1 -> b1 -> c1 dropping R then W: W is already on c1
        assert_eq!(count(&grid(1, 4, &["RW", "", "W", ""])), (1, 1));
        // a corridor of three: the third step would go straight back
        assert_eq!(count(&grid(1, 3, &["WWR", "", ""])), (0, 0));
        assert_eq!(count(&grid(1, 2, &["W", "W"])), (2, 2));
        assert_eq!(count(&grid(2, 2, &["WR", "", "", "WR"])), (8, 4));
        assert_eq!(count(&grid(2, 2, &["WW", "", "", "W"])), (2, 2));
    }

    #[test]
    fn a_long_walk_round_a_cycle_is_counted_by_its_visits() {
        // the Python test's numbers: 5,001 steps round a 2x2 square
        let hand = "R".repeat(5_001);
        assert_eq!(count(&grid(2, 2, &[&hand, "", "", ""])), (2, 2));
        let hand = format!("{}YY", "R".repeat(4_999));
        let expected = 2 * (5_000 * 4_999 / 2 + 1_250);
        assert_eq!(count(&grid(2, 2, &[&hand, "", "", ""])), (expected, 2));
    }

    #[test]
    fn counts_beyond_u128_are_exact() {
        // 2x2 with 24 meeples of each of 6 colours on a1: both walks go round the square
        // and end back on a1 after 144 steps, having stood there 35 times before. A last
        // colour c is legal unless all 23 other c's keep off those 35 visits: orders of
        // the rest, minus C(108, 23) placements of the c's times the others' orders.
        let tile: String = "YWGBRP".chars().flat_map(|c| [c; 24]).collect();
        let board = grid(2, 2, &[&tile, "", "", ""]);
        let (moves, paths) = count_moves(&board, None, &mut |_, _| true).unwrap();
        let f24 = factorial(24);
        let rest = factorial(143) / (factorial(23) * f24.pow(5));
        let others = factorial(120) / f24.pow(5);
        let kept_off = factorial(108) / (factorial(23) * factorial(85));
        let per_path = (rest - kept_off * others) * 6u32;
        assert!(per_path > BigUint::from(u128::MAX));
        assert_eq!((moves, small(&paths)), (per_path * 2u32, Some(2)));
        // where the count fits u128 it is the one BigUint gives
        let tile = format!("{}{}", "W".repeat(10), "R".repeat(10));
        let board = grid(2, 2, &[&tile, &tile, &tile, &tile]);
        let (moves, _) = count_moves(&board, None, &mut |_, _| true).unwrap();
        assert_eq!(small(&moves), Some(8 * dense_square_orders()));
        let starts = [(20, vec![0, 1, 2, 3])];
        let counter = TargetCount {
            board: &board,
            starts: &starts,
        };
        let mut hands = Hands::new(&board.meeples);
        let clock = Clock {
            started: 0.0,
            limit: None,
        };
        let by_big: Vec<_> = (0..4)
            .map(|t| {
                let tally = counter.count::<BigUint>(t, &mut hands, &clock).unwrap();
                tally.total().0
            })
            .collect();
        assert_eq!(by_big.iter().sum::<BigUint>(), moves);
    }

    /// The orders of 10 W and 10 R whose last colour is among the drops at steps 4, 8, 12
    /// and 16, listed one by one (the Python test's dense square).
    fn dense_square_orders() -> u64 {
        let mut legal = 0;
        for mask in 0u32..1 << 20 {
            if mask.count_ones() != 10 {
                continue;
            }
            let white = |i: u32| mask >> i & 1 == 1;
            if [3, 7, 11, 15].iter().any(|&i| white(i) == white(19)) {
                legal += 1;
            }
        }
        legal
    }

    #[test]
    fn the_time_limit_and_cancelling_stop_the_count() {
        let board = grid(2, 3, &["WR", "W", "R", "", "WW", "R"]);
        let stopped = count_moves(&board, Some(0.0), &mut |_, _| true);
        assert_eq!(stopped, Err(Stopped::Timeout { done: 0, total: 6 }));
        let mut seen = Vec::new();
        let stopped = count_moves(&board, None, &mut |done, total| {
            seen.push((done, total));
            done < 2
        });
        assert_eq!(stopped, Err(Stopped::Cancelled));
        assert_eq!(seen, [(0, 6), (1, 6), (2, 6)]);
    }

    #[test]
    fn a_long_binomial_stops_at_the_time_limit() {
        // the orders of a hand of a million meeples: a product of 500,000 big factors
        let clock = Clock {
            started: process_time(),
            limit: Some(0.0),
        };
        assert_eq!(
            comb::<BigUint>(1_000_000, 500_000, &clock),
            Err(Halt::OutOfTime)
        );
        let unlimited = Clock {
            started: 0.0,
            limit: None,
        };
        assert_eq!(comb::<u128>(300, 2, &unlimited), Ok(300 * 299 / 2));
        assert_eq!(comb::<u128>(300, 150, &unlimited), Err(Halt::Overflow));
        assert_eq!(comb::<u128>(3, 5, &unlimited), Ok(0));
    }

    #[test]
    fn legal_sequences_as_in_python() {
        // W R with R present: both last colours... only R last is legal without visits
        assert_eq!(
            legal_sequences(&[0, 1, 0, 0, 1, 0], &[false; 6], 0),
            BigUint::zero()
        );
        let present = [false, false, false, false, true, false];
        assert_eq!(
            legal_sequences(&[0, 1, 0, 0, 1, 0], &present, 0),
            BigUint::one()
        );
        // WW R, one earlier visit, nothing present: last W with a W on the visit (1 of 2
        // orders of W R), or last R never
        assert_eq!(
            legal_sequences(&[0, 2, 0, 0, 1, 0], &[false; 6], 1),
            BigUint::one()
        );
    }

    #[test]
    fn boards_that_are_not_boards_are_refused() {
        let meeples = vec![vec![0u64; 6]; 2];
        let one_way = PerftBoard::new(vec![vec![1], vec![]], &[], meeples.clone());
        assert_eq!(one_way.unwrap_err(), "tile 0 neighbours 1 but not back");
        let off = PerftBoard::new(vec![vec![2], vec![]], &[], meeples.clone());
        assert_eq!(off.unwrap_err(), "tile 0's neighbour 2 is off the board");
        let blocked = PerftBoard::new(vec![vec![1], vec![0]], &[1], meeples);
        assert_eq!(
            blocked.unwrap_err(),
            "impassable tiles 0 and 1 are neighbours"
        );
    }
}
