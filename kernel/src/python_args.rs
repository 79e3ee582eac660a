//! Numbers the Python side hands the kernel, checked where they enter: a seed is an
//! integer from 0 to 2⁶⁴−1 and a count (players, a seat) one from 0 up, else ValueError
//! saying so (pyo3 alone raises OverflowError, which callers do not expect of an input).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::Borrowed;

/// A seed of the generator (`Rng`): an integer from 0 to 2⁶⁴−1.
#[derive(Clone, Copy, Debug)]
pub struct Seed(pub u64);

/// A number of players, games or a seat: an integer from 0 up.
#[derive(Clone, Copy, Debug)]
pub struct Count(pub usize);

/// The value as Python writes it, cut short (a huge integer has many digits).
pub(crate) fn shown(obj: Borrowed<'_, '_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<u64>().map(Seed).map_err(|_| {
            PyValueError::new_err(format!(
                "seed {}: a seed is an integer from 0 to 2**64-1",
                shown(obj)
            ))
        })
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Count {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<usize>().map(Count).map_err(|_| {
            PyValueError::new_err(format!("{}: a count is an integer from 0 up", shown(obj)))
        })
    }
}
