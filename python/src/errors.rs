//! The library's errors as Python exceptions: bad input is a `ValueError` with the
//! CLI's one-line message, a failed file an `OSError`, anything else a `RuntimeError`.
//! Messages from `match` and `run` name keyword arguments where the CLI names flags.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::PyErr;
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

/// The Python exception for a library error.
pub fn py_error(error: Error) -> PyErr {
    match error {
        Error::Input(message) => PyValueError::new_err(message),
        Error::Io { .. } | Error::Csv { .. } => PyOSError::new_err(error.to_string()),
        Error::Draw { .. } | Error::Internal { .. } => PyRuntimeError::new_err(error.to_string()),
    }
}

/// [`py_error`] for `match` and `run`, whose messages come from the CLI's checks:
/// each flag they name becomes the keyword argument that sets it from Python.
pub fn keyword_error(error: Error) -> PyErr {
    match error {
        Error::Input(message) => PyValueError::new_err(keyword_words(&message)),
        other => py_error(other),
    }
}

/// A `ValueError` carrying `error`'s message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The CLI's flags that `match` and `run` take as keyword arguments: the flag, the
/// keyword, and what stands for a flag given without its value (None: a switch).
const KEYWORDS: &[(&str, &str, Option<&str>)] = &[
    ("games", "games", Some("N")),
    ("seed", "seed", Some("N")),
    ("threads", "threads", Some("N")),
    ("openings", "openings", Some("N")),
    ("size", "size", Some("N")),
    ("out", "out", Some("DIR")),
    ("resume", "resume=True", None),
    ("force", "force=True", None),
    ("no-report", "report=False", None),
    ("quiet", "progress=False", None),
];

/// `text` with every known flag in Python's words: `--games 0` is `games=0`,
/// `--resume` is `resume=True`, `--out DIR` is `out=DIR`. Other text (file names,
/// `reversi-lab` commands quoted in backticks) is left as it is.
#[must_use]
pub fn keyword_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        // A flag starts a word (not the middle of `a--b`) outside a quoted command
        // line such as `reversi-lab run --resume`, which stays the CLI's.
        let starts_word = out
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == '(' || c == ',')
            && out.matches('`').count().is_multiple_of(2);
        let name_end = from[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .map_or(from.len(), |i| i + 2);
        let known = KEYWORDS
            .iter()
            .find(|(flag, ..)| *flag == &from[2..name_end]);
        let (Some(&(_, keyword, placeholder)), true) = (known, starts_word) else {
            out.push_str("--");
            rest = &from[2..];
            continue;
        };
        rest = &from[name_end..];
        let Some(placeholder) = placeholder else {
            out.push_str(keyword);
            continue;
        };
        out.push_str(keyword);
        out.push('=');
        // The flag's value follows it after one space, up to the end of the word.
        let value = rest.strip_prefix(' ').map(|after| {
            let end = after
                .find(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | ')' | ';'))
                .unwrap_or(after.len());
            &after[..end]
        });
        match value {
            Some(value) if !value.is_empty() && !is_prose(value) => {
                out.push_str(value);
                rest = &rest[1 + value.len()..];
            }
            _ => out.push_str(placeholder),
        }
    }
    out.push_str(rest);
    out
}

/// Whether the word after a flag is the sentence going on rather than the flag's
/// value (`choose another --out, or ...`, `check --out` at the end, `--resume to`).
fn is_prose(word: &str) -> bool {
    matches!(
        word,
        "to" | "or" | "and" | "for" | "with" | "then" | "instead"
    )
}
