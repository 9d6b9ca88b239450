//! The library's errors as Python exceptions: bad input is a `ValueError` with the
//! CLI's one-line message, a failed file an `OSError`, anything else a `RuntimeError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use reversi_lab::Error;

create_exception!(
    reversi_lab,
    IllegalMoveError,
    PyValueError,
    "A move or pass that the position does not allow (python-chess's name for it)."
);

/// The Python exception for a library error.
pub fn py_error(error: Error) -> PyErr {
    match error {
        Error::Input(message) => PyValueError::new_err(message),
        Error::Io { .. } | Error::Csv { .. } => PyOSError::new_err(error.to_string()),
        Error::Draw { .. } | Error::Internal(_) => PyRuntimeError::new_err(error.to_string()),
    }
}

/// A `ValueError` carrying `error`'s message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}
