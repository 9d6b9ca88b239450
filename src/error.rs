//! The library's error type: bad input the user can fix (exit code 2) or failed I/O.

use crate::setting::{Edge, Said, Setting, SettingError};
use crate::shown::ShowPath;
use std::path::PathBuf;

/// Everything the library can fail with: bad input the user can fix (exit code 2),
/// or a failure of the machine or of the program itself (exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: a value, file or option the user must change. The message names the fix.
    #[error("{0}")]
    Input(String),
    /// Bad input about one setting, worded by the edge that read its value.
    #[error("{0}")]
    Setting(Box<SettingError>),
    /// Bad input whose message names settings (`pass --resume`), worded by the edge.
    #[error("{0}")]
    Said(Said),
    /// A file or folder could not be read or written.
    #[error("cannot {operation} {}: {source}", path.shown())]
    Io {
        /// What was being done: "read", "write", "create", ...
        operation: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A CSV file could not be written or read back.
    #[error("cannot {operation} {}: {source}", path.shown())]
    Csv {
        /// What was being done.
        operation: &'static str,
        /// The file.
        path: PathBuf,
        /// What the CSV library said.
        source: csv::Error,
    },
    /// A chart could not be drawn.
    #[error("cannot draw {}: {message}", path.shown())]
    Draw {
        /// The chart's file.
        path: PathBuf,
        /// What the drawing library said.
        message: String,
    },
    /// A failure inside the program that no input explains (a bug, or an
    /// exhausted resource such as threads).
    #[error("internal error: {message}{}", after_colon(.source.as_deref()))]
    Internal {
        /// What was being done, or what went wrong.
        message: String,
        /// The error underneath, if another library's.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

/// `: <source>` when there is a source, for an internal error's line.
fn after_colon(source: Option<&(dyn std::error::Error + Send + Sync)>) -> String {
    source.map_or_else(String::new, |e| format!(": {e}"))
}

impl Error {
    /// A bad-input error with this message.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }

    /// A bad-input error whose message names settings.
    #[must_use]
    pub fn said(said: Said) -> Self {
        Error::Said(said)
    }

    /// The message in the words of `edge`: the settings it names as flags, keyword
    /// arguments or config keys. Errors that name no setting read the same anywhere.
    #[must_use]
    pub fn worded(&self, edge: Edge) -> String {
        match self {
            Error::Setting(error) => error.said().worded(edge),
            Error::Said(said) => said.worded(edge),
            other => other.to_string(),
        }
    }

    /// This error with its settings worded for `edge` from here on: for a caller that
    /// knows where the values came from (a config file's keys) and adds to the message.
    #[must_use]
    pub fn in_words(self, edge: Edge) -> Self {
        match self {
            Error::Setting(_) | Error::Said(_) => Error::Input(self.worded(edge)),
            other => other,
        }
    }

    /// A failure no input explains, with nothing underneath.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::Internal {
            message: message.into(),
            source: None,
        }
    }

    /// A failure no input explains while doing `what`, caused by `source`.
    pub fn internal_from(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::Internal {
            message: what.into(),
            source: Some(Box::new(source)),
        }
    }

    /// A file the user named could not be read: bad input, so exit code 2.
    pub fn unreadable(path: &std::path::Path, source: &std::io::Error) -> Self {
        // Reading a folder fails with an OS text that does not say so on every system.
        if path.is_dir() {
            return Error::Input(format!(
                "{} is a folder, not a file: give the file's path",
                path.shown()
            ));
        }
        if source.kind() == std::io::ErrorKind::InvalidData {
            return Error::Input(format!(
                "{} is not a text file: give the text file it takes",
                path.shown()
            ));
        }
        Error::Input(format!(
            "cannot read {}: {source} (check the path)",
            path.shown()
        ))
    }

    /// Writing `path` failed.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            operation: "write",
            path: path.into(),
            source,
        }
    }

    /// `operation` ("read", "create", "rename", ...) on `path` failed.
    pub fn io_during(
        operation: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        Error::Io {
            operation,
            path: path.into(),
            source,
        }
    }

    /// A CSV error on `path` while doing `operation`.
    pub fn csv(operation: &'static str, path: impl Into<PathBuf>, source: csv::Error) -> Self {
        Error::Csv {
            operation,
            path: path.into(),
            source,
        }
    }

    /// The process exit code for this error: 2 for bad input, 1 otherwise.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) | Error::Setting(_) | Error::Said(_) => 2,
            Error::Io { .. } | Error::Csv { .. } | Error::Draw { .. } | Error::Internal { .. } => 1,
        }
    }
}

impl From<SettingError> for Error {
    fn from(error: SettingError) -> Self {
        Error::Setting(Box::new(error))
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

// Declared beside the settings, whose refusals suggest names too; here for the
// messages that name no setting.
pub use crate::setting::closest;

/// "unknown KIND 'x' (did you mean 'y'? known: a, b, c)".
#[must_use]
pub fn unknown_name(kind: &str, unknown: &str, known: &[&str]) -> String {
    let list = known.join(", ");
    match closest(unknown, known.iter().copied()) {
        Some(best) => format!("unknown {kind} '{unknown}' (did you mean '{best}'? known: {list})"),
        None => format!("unknown {kind} '{unknown}' (known: {list})"),
    }
}

/// A config file's text, so that errors can name the file, line and column.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file name as the user gave it.
    pub origin: &'a str,
    /// Its contents.
    pub text: &'a str,
    /// Whether its lines are the user's: text made from a Python dict is not, so its
    /// errors name no line and column.
    pub located: bool,
    /// The settings among its keys that take whole numbers, so that a number TOML
    /// cannot read is told the key's range.
    pub wholes: &'a [&'a Setting],
}

impl<'a> Source<'a> {
    /// A file the user wrote, named `origin`.
    #[must_use]
    pub fn new(origin: &'a str, text: &'a str) -> Self {
        Source {
            origin,
            text,
            located: true,
            wholes: &[],
        }
    }

    /// Line and column (1-based) of a byte offset.
    #[must_use]
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rfind('\n')
            .map_or(before.len(), |nl| before.len() - nl - 1)
            + 1;
        (line, column)
    }

    /// A bad-input error at `offset` (or for the whole file).
    #[must_use]
    pub fn error(&self, offset: Option<usize>, message: &str) -> Error {
        match offset.filter(|_| self.located) {
            Some(offset) => {
                let (line, column) = self.line_column(offset);
                Error::input(format!("{}:{line}:{column}: {message}", self.origin))
            }
            None => Error::input(format!("{}: {message}", self.origin)),
        }
    }

    /// A TOML syntax error (or one of the few serde errors the shape checks before
    /// it leave: a type's own refusal) as one located line.
    #[must_use]
    pub fn toml_error(&self, error: &toml::de::Error) -> Error {
        let at = error.span().map(|s| s.start);
        // An integer past 64 bits: said from the text it is in, in the project's words.
        // The span may cover the number or only mark where it starts.
        let written = error
            .span()
            .and_then(|s| self.text.get(s.start..))
            .map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_ascii_digit() || "+-_".contains(c)))
                    .unwrap_or(rest.len());
                &rest[..end]
            });
        let key = at.and_then(|at| key_before(self.text, at));
        if let Some(written) = written.filter(|w| too_large(w)) {
            let message = match key {
                Some(key) => format!(
                    "{key} = {written} is too large for a TOML file, whose whole numbers stop at {}: give a value in the key's range",
                    i64::MAX
                ),
                None => format!(
                    "the number is too large for a TOML file, whose whole numbers stop at {}: give a value in the key's range",
                    i64::MAX
                ),
            };
            return self.error(at, &message);
        }
        // A number past a float's range (`1e400`), which TOML refuses to read.
        let number = error
            .span()
            .and_then(|s| self.text.get(s.start..))
            .map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "+-_.".contains(c)))
                    .unwrap_or(rest.len());
                &rest[..end]
            })
            .filter(|written| {
                written.contains(['e', 'E', '.'])
                    && written
                        .replace('_', "")
                        .parse::<f64>()
                        .is_ok_and(f64::is_infinite)
            });
        if let Some(written) = number {
            let wanted = key
                .as_deref()
                .and_then(|key| self.wholes.iter().find(|s| s.key == key))
                .and_then(|setting| setting.whole_words())
                .unwrap_or_else(|| "an ordinary number such as 1.5".into());
            let given = key.map_or(written.to_string(), |key| format!("{key} = {written}"));
            let message = format!("{given} is not a finite number: use {wanted}");
            return self.error(at, &message);
        }
        self.error(at, &one_line(error.message()))
    }
}

/// The key whose value starts at byte `at` of a config's text (`a = 1`, `{ a = 1 }`,
/// `a.b = 1`), read back from the text; None where none is written there.
fn key_before(text: &str, at: usize) -> Option<String> {
    let line = text.get(..at)?.rsplit('\n').next()?;
    let (before, _) = line.rsplit_once('=')?;
    let key = before
        .rsplit(['{', ','])
        .next()?
        .trim()
        .trim_matches(['"', '\'']);
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.".contains(c);
    (!key.is_empty() && key.chars().all(plain)).then(|| key.to_string())
}

/// A message of several lines as one, its lines joined by ": ".
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(": ")
}

/// Whether `written` is a whole number that no 64-bit integer holds.
fn too_large(written: &str) -> bool {
    let digits: String = written
        .trim()
        .trim_start_matches(['+', '-'])
        .chars()
        .filter(|&c| c != '_')
        .collect();
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<i64>().is_err()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_name() {
        let known = ["greedy", "random", "corner-first"];
        assert_eq!(
            unknown_name("strategy", "greddy", &known),
            "unknown strategy 'greddy' (did you mean 'greedy'? known: greedy, random, corner-first)"
        );
        assert_eq!(closest("zzzzzzzz", known), None);
        assert_eq!(
            closest("games", ["name", "games_per_pair", "seed"]),
            Some("games_per_pair")
        );
        assert!(too_large("99999999999999999999") && too_large("-9_999_999_999_999_999_999"));
        assert!(!too_large("9223372036854775807") && !too_large("1.5") && !too_large(""));
        assert_eq!(one_line("a\n  b\n\n"), "a: b");
    }

    #[test]
    fn the_key_of_a_value_is_read_back_from_the_text() {
        // The messages themselves: the walk cases in tests/walks/layer.toml.
        assert_eq!(key_before("a = [1, 2", 8).as_deref(), Some("a"));
        assert_eq!(key_before("[1, 2", 4), None);
        assert_eq!(
            key_before("x = { a = 1, b = 2e999 }", 17).as_deref(),
            Some("b")
        );
    }
}
