//! Chance: the counter-based SplitMix64 generator of `core/rng.py`, value for value.
//!
//! Value *i* of seed *s* is SplitMix64 of `s + i·γ` (mod 2⁶⁴). The generator is the pair
//! (seed, counter) stored in the state; every draw here makes exactly the draws the Python
//! generator makes, in the same order, so a seed gives the same game on both engines.

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function applied to `x + γ`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seed and number of values drawn so far: the whole generator state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    pub seed: u64,
    pub counter: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { seed, counter: 0 }
    }

    /// The next 64-bit value; the generator advances by one.
    pub fn next64(&mut self) -> u64 {
        let value = splitmix64(self.seed.wrapping_add(self.counter.wrapping_mul(GAMMA)));
        self.counter += 1;
        value
    }

    /// A uniform integer in `[0, n)`: values at or above the largest multiple of `n`
    /// below 2⁶⁴ are rejected (no modulo bias), exactly as `Rng.below` does.
    ///
    /// # Panics
    /// When `n` is 0, which no rule asks for (the Python generator raises there).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below() needs n >= 1");
        let limit = ((1u128 << 64) / u128::from(n)) * u128::from(n);
        loop {
            let value = self.next64();
            if u128::from(value) < limit {
                return value % n;
            }
        }
    }

    /// A Fisher–Yates shuffle of `items` in place, drawing as `Rng.shuffled` does.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// An index drawn with probability proportional to `counts` (a meeple bag).
    ///
    /// # Panics
    /// When every count is zero.
    pub fn choice_weighted(&mut self, counts: &[u64]) -> usize {
        let total: u64 = counts.iter().sum();
        let mut pick = self.below(total);
        for (index, &count) in counts.iter().enumerate() {
            if pick < count {
                return index;
            }
            pick -= count;
        }
        unreachable!("pick < total")
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    // Known values, printed by the Python implementation (naqala.core.rng).
    #[test]
    fn next64_matches_python() {
        let mut rng = Rng::new(0);
        assert_eq!(rng.next64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next64(), 0x06c4_5d18_8009_454f);
        assert_eq!(rng.counter, 3);
    }

    #[test]
    fn below_matches_python() {
        let mut rng = Rng::new(42);
        assert_eq!(rng.below(7), 5);
        assert_eq!(rng.counter, 1);
        let mut high = Rng {
            seed: u64::MAX,
            counter: 5,
        };
        assert_eq!(high.below(1_000_003), 482_192);
        assert_eq!(high.counter, 6);
    }

    #[test]
    fn shuffle_matches_python() {
        let mut rng = Rng::new(12345);
        let mut items: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut items);
        assert_eq!(items, [8, 6, 7, 2, 1, 3, 9, 5, 0, 4]);
        assert_eq!(rng.counter, 9);
    }

    #[test]
    fn choice_weighted_matches_python() {
        let mut rng = Rng::new(7);
        assert_eq!(rng.choice_weighted(&[3, 0, 5, 2]), 2);
        assert_eq!(rng.counter, 1);
    }

    #[test]
    fn below_one_draws_once_and_gives_zero() {
        let mut rng = Rng::new(99);
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.counter, 1);
    }

    #[test]
    #[should_panic(expected = "below() needs n >= 1")]
    fn below_zero_is_refused() {
        Rng::new(1).below(0);
    }
}
