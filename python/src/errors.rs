//! The library's errors as Python exceptions: bad input is a `ValueError` with the
//! CLI's one-line message, a failed file an `OSError`, anything else a `RuntimeError`.
//! The settings a message names are worded as keyword arguments where the CLI says
//! flags: the library hands them over typed ([`reversi_lab::setting`]).

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::PyErr;
use reversi_lab::setting::Edge;
use reversi_lab::Error;

create_exception!(
    reversi_lab,
    IllegalMoveError,
    PyValueError,
    "A move or pass that the position does not allow (python-chess's name for it)."
);

create_exception!(
    reversi_lab,
    ReplayWarning,
    PyUserWarning,
    "A run whose pairs played the same game more than once, so their intervals are too narrow."
);

create_exception!(
    reversi_lab,
    FaultWarning,
    PyUserWarning,
    "A game a Python strategy lost by a fault: it raised, or returned what is not a legal move."
);

/// The Python exception for a library error, its settings named as keyword arguments.
pub fn py_error(error: Error) -> PyErr {
    match error {
        Error::Input(_) | Error::Setting(_) | Error::Said(_) => {
            PyValueError::new_err(error.worded(Edge::Python))
        }
        Error::Io { .. } | Error::Csv { .. } => PyOSError::new_err(error.to_string()),
        Error::Draw { .. } | Error::Internal { .. } => PyRuntimeError::new_err(error.to_string()),
    }
}

/// A `ValueError` carrying `error`'s message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}
