//! The one write path's form for files that grow in place (re-exported by
//! [`super::folder`]): logs, a label run's work file, a resumed games file, a tune's
//! trace, an analysis. Each must be whole on disk at every moment and keep what it
//! holds across runs, so a temporary renamed into place (`Staged`) does not fit: they
//! are only ever added to at their end, made new, or cut back to a whole record.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// `path` opened to add to its end, made if it is not there (a log).
pub fn append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// `path`, which must be there, opened to add to its end (a trace, an analysis).
pub fn append_existing(path: &Path) -> io::Result<File> {
    OpenOptions::new().append(true).open(path)
}

/// `path` made new, refused if it is there (a work file that must not replace one).
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

/// `path` opened to add to (`append`), or emptied to be written anew (a games file a
/// run streams into).
pub fn grow_or_start(path: &Path, append: bool) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .truncate(!append)
        .open(path)
}

/// `path`, which must be there, opened to read its records and write after them (a
/// work file a checkpoint resumes).
pub fn reopen(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(path)
}

/// Cuts `path` back to its first `keep` bytes: a record a kill left half written.
pub fn cut_to(path: &Path, keep: u64) -> io::Result<()> {
    OpenOptions::new().write(true).open(path)?.set_len(keep)
}
