//! Merchandise suits: how the cards held group into suits of distinct types, and the best
//! score when jokers (`merchandise(n)`, Al-Amin's Fakirs) may stand for any type. One
//! `Suits` per content (`Content::suits`, built by `ContentDoc::suits`) serves sales,
//! final scoring (`Rules::score`), the results reading (`results.rs`) and the Whims, so
//! each reads one copy.

/// What merchandise scoring reads of a content, found once (`ContentDoc::suits`): the
/// resource deck, which of its cards are merchandise (by card index), how many types
/// there are, and the `suit_values` table.
#[derive(Debug, Clone)]
pub struct Suits {
    pub deck: usize,
    pub goods: Box<[bool]>,
    pub types: usize,
    pub values: Box<[i64]>,
}

impl Suits {
    /// The best score of the merchandise in `hand` (a resource hand) with `wilds`
    /// jokers: with none, the suits as scored (`best_suits`, by `suit_value`).
    pub fn score(&self, hand: &[u8], wilds: usize) -> i64 {
        let held = copies_held(hand, |card| self.goods[usize::from(card)]);
        let sizes = suit_sizes(&held);
        if wilds == 0 {
            return sizes.iter().map(|&n| suit_value(&self.values, n)).sum();
        }
        best_with_wilds(&self.values, self.types, &sizes, wilds)
    }

    /// The merchandise of `hand` (a resource hand), as (card index, copies held) pairs.
    pub fn copies_held(&self, hand: &[u8]) -> Vec<(u8, usize)> {
        copies_held(hand, |card| self.goods[usize::from(card)])
    }
}

/// The value of a suit of `size` distinct types by the `suit_values` table; a suit of none,
/// or longer than the table, is worth 0 (the content check keeps the table long enough).
pub fn suit_value(values: &[i64], size: usize) -> i64 {
    match size {
        0 => 0,
        _ => values.get(size - 1).copied().unwrap_or(0),
    }
}

/// The copies of each card of `hand` that `counts`, as (card index, copies held) pairs
/// in the order first held: what `suit_sizes` groups.
fn copies_held(hand: &[u8], counts: impl Fn(u8) -> bool) -> Vec<(u8, usize)> {
    let mut held: Vec<(u8, usize)> = Vec::new();
    for &card in hand.iter().filter(|&&c| counts(c)) {
        match held.iter_mut().find(|(c, _)| *c == card) {
            Some((_, n)) => *n += 1,
            None => held.push((card, 1)),
        }
    }
    held
}

/// `best_suits`: the sizes of the suits held, one of every type held, again and again.
/// `held` pairs a type with the copies held; types held 0 times count for nothing.
fn suit_sizes<T>(held: &[(T, usize)]) -> Vec<usize> {
    let deepest = held.iter().map(|&(_, n)| n).max().unwrap_or(0);
    (0..deepest)
        .map(|layer| held.iter().filter(|&&(_, n)| n > layer).count())
        .collect()
}

/// `best_with_wilds`: the best score of the suits `suits` with `wilds` jokers, each added
/// to a suit (up to `types` distinct types) or made into suits of their own.
fn best_with_wilds(values: &[i64], types: usize, suits: &[usize], wilds: usize) -> i64 {
    let value = |size| suit_value(values, size);
    let mut alone = vec![0i64; wilds + 1];
    for n in 1..=wilds {
        alone[n] = (1..=n.min(types))
            .map(|k| value(k) + alone[n - k])
            .max()
            .unwrap_or(0);
    }
    let mut best: Vec<i64> = vec![-1; wilds + 1];
    best[0] = 0;
    for &size in suits {
        let mut next = vec![-1i64; wilds + 1];
        for (used, &score) in best.iter().enumerate() {
            if score < 0 {
                continue;
            }
            for extra in 0..=types.saturating_sub(size).min(wilds - used) {
                let total = score + value(size + extra);
                if total > next[used + extra] {
                    next[used + extra] = total;
                }
            }
        }
        best = next;
    }
    best.iter()
        .enumerate()
        .filter(|&(_, &score)| score >= 0)
        .map(|(used, &score)| score + alone[wilds - used])
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: &[i64] = &[1, 3, 7, 13, 21, 30, 40, 50, 60];

    #[test]
    fn suits_take_one_of_every_type_again_and_again() {
        assert_eq!(suit_sizes(&[(1, 3), (2, 1), (3, 2)]), vec![3, 2, 1]);
        assert_eq!(suit_sizes::<u8>(&[]), Vec::<usize>::new());
        assert_eq!(suit_value(VALUES, 0), 0);
        assert_eq!(suit_value(VALUES, 3), 7);
        assert_eq!(
            suit_value(VALUES, 10),
            0,
            "past the table: nothing, not a panic"
        );
    }

    #[test]
    fn wilds_join_the_suits_or_make_their_own() {
        // a pair and one joker: a suit of three (7) beats a pair and a single (3 + 1)
        assert_eq!(best_with_wilds(VALUES, 3, &[2], 1), 7);
        // no cards, two jokers: a suit of two (3)
        assert_eq!(best_with_wilds(VALUES, 3, &[], 2), 3);
        // a full suit cannot grow: the joker makes a suit of one
        assert_eq!(best_with_wilds(VALUES, 3, &[3], 1), 8);
        // no jokers: the suits as they are
        assert_eq!(best_with_wilds(VALUES, 9, &[3, 2, 1], 0), 7 + 3 + 1);
    }
}
