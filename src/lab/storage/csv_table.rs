//! Rows as CSV: a row type's header and column names, one row or a whole file of rows
//! written, a file of rows read back, and the one wording of a row that cannot be read.
//! The row types themselves are in [`super::rows`].

use crate::error::{Error, Result};
use crate::shown::ShowPath;
use serde::Serialize;
use std::path::Path;

/// The CSV header line a row type writes.
#[must_use]
pub fn csv_header<T: Serialize + Default>() -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .serialize(T::default())
        .expect("a row serialises to memory");
    let bytes = writer.into_inner().expect("writing to memory cannot fail");
    let end = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes[..end].to_vec()
}

/// The column names a row type writes, in order (its [`csv_header`] as names).
#[must_use]
pub fn csv_columns<T: Serialize + Default>() -> Vec<String> {
    let header = csv_header::<T>();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(header.as_slice());
    reader
        .records()
        .next()
        .and_then(std::result::Result::ok)
        .map(|record| record.iter().map(str::to_string).collect())
        .unwrap_or_default()
}

/// One row without a header, appended to `into` as CSV bytes (for workers that format
/// rows in parallel). Flat rows of integers and text take the fast path of
/// [`super::flat_csv`]; others go through a csv writer each thread keeps (a new one
/// per row would allocate and zero its 8 KB buffer for every game).
pub fn csv_row<T: Serialize>(row: &T, into: &mut Vec<u8>) {
    use std::cell::RefCell;
    use std::rc::Rc;

    /// The writer's output, shared with the thread that takes the bytes out.
    struct Sink(Rc<RefCell<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    thread_local! {
        static WRITER: (RefCell<csv::Writer<Sink>>, Rc<RefCell<Vec<u8>>>) = {
            let bytes = Rc::new(RefCell::new(Vec::with_capacity(512)));
            let writer = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Sink(Rc::clone(&bytes)));
            (RefCell::new(writer), bytes)
        };
    }
    let start = into.len();
    if super::flat_csv::write_row(row, into).is_ok() {
        return;
    }
    into.truncate(start);
    WRITER.with(|(writer, bytes)| {
        let mut writer = writer.borrow_mut();
        writer.serialize(row).expect("a row serialises to memory");
        writer.flush().expect("writing to memory cannot fail");
        let mut bytes = bytes.borrow_mut();
        into.extend_from_slice(&bytes);
        bytes.clear();
    });
}

/// A whole CSV file of rows, header from the type.
pub fn csv_bytes<T: Serialize>(rows: &[T], path: &Path) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer
            .serialize(row)
            .map_err(|e| Error::csv("write", path, e))?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::io_during("write", path, e.into_error()))
}

/// Reads every row of a CSV file; a bad row is an error naming the file and row.
pub fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::unreadable(path, &std::io::Error::other(e.to_string())))?;
    let header = reader.headers().cloned().unwrap_or_default();
    let header: Vec<&str> = header.iter().collect();
    reader
        .deserialize()
        .map(|row| row.map_err(|e| row_error(path, &header, RESULTS_TABLE, &e)))
        .collect()
}

/// Reads every row of CSV `bytes` (header first) that came from `path` (for messages),
/// as [`read_csv`] reads a file.
pub fn parse_csv<T: serde::de::DeserializeOwned>(bytes: &[u8], path: &Path) -> Result<Vec<T>> {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader.headers().cloned().unwrap_or_default();
    let header: Vec<&str> = header.iter().collect();
    reader
        .deserialize()
        .map(|row| row.map_err(|e| row_error(path, &header, RESULTS_TABLE, &e)))
        .collect()
}

/// [`read_csv`] of a file that must hold rows: a results table cut to its header (or
/// to nothing) is refused rather than shown as an empty table.
pub fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let rows = read_csv(path)?;
    if rows.is_empty() {
        return Err(Error::input(format!(
            "{} holds no rows (it is cut, or empty): make it again with the command that wrote it (`run --resume` rewrites a run's tables)",
            path.shown()
        )));
    }
    Ok(rows)
}

/// What a table that cannot be read is, and how it is made again: the wording of
/// [`row_error`] for one kind of file.
#[derive(Clone, Copy, Debug)]
pub struct TableKind {
    /// How a cut file (a row with fewer fields) is repaired.
    pub cut: &'static str,
    /// How a changed or damaged file is made again.
    pub remake: &'static str,
}

/// A results table (pairs.csv, standings.csv, ...): written whole by its command.
pub const RESULTS_TABLE: TableKind = TableKind {
    cut: "make it again with the command that wrote it",
    remake: "make it again with the command that wrote it",
};

/// A row of a CSV file that cannot be read, in the project's words: its line, the
/// column it fails in (from `header`), and how `kind` of file is made whole again.
#[must_use]
pub fn row_error(path: &Path, header: &[&str], kind: TableKind, error: &csv::Error) -> Error {
    let line = error.position().map_or(0, csv::Position::line);
    let path = path.shown();
    match error.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } if len > expected_len => Error::input(format!(
            "{path}: line {line} has more fields than the header ({len} against {expected_len}): the file was changed by hand; {}",
            kind.remake
        )),
        csv::ErrorKind::UnequalLengths { .. } => Error::input(format!(
            "{path} is cut at line {line} (its writer stopped part-way): {}",
            kind.cut
        )),
        csv::ErrorKind::Deserialize { err, .. } => {
            let column = err
                .field()
                .and_then(|i| header.get(i as usize))
                .map_or(String::new(), |c| format!(" in column {c}"));
            Error::input(format!(
                "{path}: line {line} cannot be read{column} (the file was changed by hand or damaged): {}",
                kind.remake
            ))
        }
        _ => Error::input(format!(
            "{path}: line {line} cannot be read (not a file reversi-lab wrote)"
        )),
    }
}
