//! The PyO3 bindings: the module `naqala.kernel._native`. Only conversions live here;
//! every rule is in the pure modules, so `cargo test` covers them without Python.

#[pyo3::pymodule]
mod _native {
    use pyo3::prelude::*;

    use crate::rng::Rng;

    /// The crate's version, so Python can say which kernel it loaded.
    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// `Rng(seed, counter).below(n)`: the value and the new counter.
    #[pyfunction]
    fn rng_below(seed: u64, counter: u64, n: u64) -> PyResult<(u64, u64)> {
        if n == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "below() needs n >= 1, got 0",
            ));
        }
        let mut rng = Rng { seed, counter };
        let value = rng.below(n);
        Ok((value, rng.counter))
    }

    /// `Rng(seed, counter).shuffled(range(n))`: the permutation and the new counter.
    #[pyfunction]
    fn rng_shuffled(seed: u64, counter: u64, n: usize) -> (Vec<usize>, u64) {
        let mut rng = Rng { seed, counter };
        let mut items: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut items);
        (items, rng.counter)
    }

    /// `Rng(seed, counter).choice_weighted(counts)`: the index and the new counter.
    #[pyfunction]
    fn rng_choice_weighted(seed: u64, counter: u64, counts: Vec<u64>) -> PyResult<(usize, u64)> {
        if counts.iter().sum::<u64>() == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "below() needs n >= 1, got 0",
            ));
        }
        let mut rng = Rng { seed, counter };
        let index = rng.choice_weighted(&counts);
        Ok((index, rng.counter))
    }
}
