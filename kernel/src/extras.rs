//! Sorted counters and marks as the Python state keeps them (`get_extra`, `set_extra`,
//! `Turn.used`): a boxed slice sorted by symbol, which sorts as the names do.

use crate::names::Sym;

/// `get_extra`: the counter's value, 0 when absent.
pub fn get_extra(extras: &[(Sym, i64)], key: Sym) -> i64 {
    extras
        .binary_search_by(|&(k, _)| k.cmp(&key))
        .map_or(0, |at| extras[at].1)
}

/// Whether the counter is present with a value other than 0.
pub fn has_extra(extras: &[(Sym, i64)], key: Sym) -> bool {
    get_extra(extras, key) != 0
}

/// `set_extra`: the counter set to `value`; a counter set to 0 stays (as in Python).
pub fn set_extra(extras: &[(Sym, i64)], key: Sym, value: i64) -> Box<[(Sym, i64)]> {
    let mut out = extras.to_vec();
    match out.binary_search_by(|&(k, _)| k.cmp(&key)) {
        Ok(at) => out[at].1 = value,
        Err(at) => out.insert(at, (key, value)),
    }
    out.into_boxed_slice()
}

/// `with_extra` (plugins/thieves/steal.py) and `set_aside`'s drop: the counter set to
/// `value`, removed when that is 0.
pub fn with_extra(extras: &[(Sym, i64)], key: Sym, value: i64) -> Box<[(Sym, i64)]> {
    let mut out = extras.to_vec();
    match out.binary_search_by(|&(k, _)| k.cmp(&key)) {
        Ok(at) if value == 0 => {
            out.remove(at);
        }
        Ok(at) => out[at].1 = value,
        Err(_) if value == 0 => {}
        Err(at) => out.insert(at, (key, value)),
    }
    out.into_boxed_slice()
}

/// A sorted set of marks with `mark` in it (`mark` in `steal.py`: `sorted({*used, mark})`).
pub fn append_sorted(marks: &[Sym], mark: Sym) -> Box<[Sym]> {
    let mut out = marks.to_vec();
    if let Err(at) = out.binary_search(&mark) {
        out.insert(at, mark);
    }
    out.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_stay_sorted_and_zero_is_kept_or_dropped() {
        let extras = set_extra(&[], Sym(5), 1);
        let extras = set_extra(&extras, Sym(2), 0);
        assert_eq!(&*extras, &[(Sym(2), 0), (Sym(5), 1)]);
        assert_eq!(get_extra(&extras, Sym(5)), 1);
        assert!(!has_extra(&extras, Sym(2)));
        let extras = with_extra(&extras, Sym(5), 0);
        assert_eq!(&*extras, &[(Sym(2), 0)]);
        assert_eq!(&*with_extra(&extras, Sym(9), 0), &[(Sym(2), 0)]);
        assert_eq!(
            &*append_sorted(&[Sym(1), Sym(4)], Sym(3)),
            &[Sym(1), Sym(3), Sym(4)]
        );
        assert_eq!(&*append_sorted(&[Sym(1)], Sym(1)), &[Sym(1)]);
    }
}
