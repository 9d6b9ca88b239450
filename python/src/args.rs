//! Whole-number arguments from Python (counts, seeds, sizes), refused with messages
//! that name the keyword argument: pyo3's own conversion says "can't convert negative
//! int to unsigned" (an OverflowError) or names no argument at all.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use reversi_lab::lab::setup::{check_threads, MAX_SEED, THREADS};

/// `value` (an int, or anything with `__index__` such as a numpy integer) as an
/// unsigned number. A wrong type is a `TypeError`, a negative or too large number a
/// `ValueError`; `fix` is what the message tells the caller to give instead.
pub fn unsigned(value: &Bound<'_, PyAny>, name: &str, fix: &str) -> PyResult<u64> {
    let largest = u64::MAX;
    up_to(value, name, fix, largest, &format!("use at most {largest}"))
}

/// [`unsigned`] up to `largest`: a larger number is refused with `too_large`.
fn up_to(
    value: &Bound<'_, PyAny>,
    name: &str,
    fix: &str,
    largest: u64,
    too_large: &str,
) -> PyResult<u64> {
    // bool is an int to Python, but `games=True` is a mistake, not one game.
    let integer = !value.is_instance_of::<PyBool>() && value.get_type().hasattr("__index__")?;
    if !integer {
        return Err(PyTypeError::new_err(format!(
            "{name}={} is not an integer ({}): give a whole number",
            value.repr()?,
            value.get_type().name()?
        )));
    }
    if value.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "{name}={} is negative: {fix}",
            value.str()?
        )));
    }
    match value.extract::<u64>() {
        Ok(number) if number <= largest => Ok(number),
        _ => Err(PyValueError::new_err(format!(
            "{name}={value} is too large: {too_large}"
        ))),
    }
}

/// A seed for `match` or `run`: the library's one range, 0 to [`MAX_SEED`].
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    up_to(
        value,
        "seed",
        &format!("use a seed from 0 to {MAX_SEED}"),
        MAX_SEED,
        &format!("use 0 to {MAX_SEED}"),
    )
}

/// A thread count for `match`, `run`, `sweep` and `tune` (None if not given), refused
/// as the CLI refuses `--threads`: 0 and too many in the library's words
/// (`threads=0: use at least 1 thread, or leave it out for one per core`); `fix` is
/// the fix of a negative number.
pub fn threads(value: Option<&Bound<'_, PyAny>>, fix: &str) -> PyResult<Option<usize>> {
    let threads = optional(value, "threads", fix)?
        .map(|threads| narrow::<usize>(threads, "threads", usize::MAX as u64))
        .transpose()?;
    if let Some(threads) = threads {
        check_threads(threads, &THREADS).map_err(crate::errors::py_error)?;
    }
    Ok(threads)
}

/// An optional argument: None stays None (the experiment's own value, say).
pub fn optional(value: Option<&Bound<'_, PyAny>>, name: &str, fix: &str) -> PyResult<Option<u64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| unsigned(v, name, fix))
        .transpose()
}

/// A board size: 4, 6, 8 or 10, with the library's message for any other number.
pub fn size(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    const FIX: &str = "use one of 4, 6, 8, 10";
    let size = unsigned(value, "size", FIX)?;
    // Larger than any u32: still the library's message, with the number given.
    u32::try_from(size)
        .map_err(|_| PyValueError::new_err(format!("unsupported board size {size}: {FIX}")))
}

/// A count that fits in `T` (`u32`, `usize`): larger ones are refused like [`unsigned`].
pub fn narrow<T: TryFrom<u64>>(value: u64, name: &str, largest: u64) -> PyResult<T> {
    T::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{name}={value} is too large: use at most {largest}"
        ))
    })
}
