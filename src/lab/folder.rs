//! A results folder's safety: a lock (`flock`) that refuses a second run into the same
//! folder, and `--force` replacement that keeps the old folder until the new run writes.

use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// The lock file in a results folder while a run writes it: holds the process id.
pub const LOCK_FILE: &str = "run.lock";

/// Held while a run writes its folder: an exclusive advisory lock (`flock`) on the lock
/// file, released by the kernel when the process ends however it ends, so a lock left
/// by a killed run is never mistaken for a live one and two runs starting together
/// cannot both take it. The file is removed when the lock is dropped.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
    _file: fs::File,
}

/// The process that holds `dir`'s lock, if one does (its pid as it wrote it; 0 when
/// it has not written it yet).
pub(crate) fn holder(dir: &Path) -> Option<u32> {
    let path = dir.join(LOCK_FILE);
    let file = fs::OpenOptions::new().read(true).open(&path).ok()?;
    match file.try_lock_shared() {
        Ok(()) => None,
        Err(fs::TryLockError::WouldBlock) => Some(
            fs::read_to_string(&path)
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(0),
        ),
        Err(fs::TryLockError::Error(_)) => None,
    }
}

fn busy(dir: &Path, pid: u32) -> Error {
    let process = if pid == 0 {
        String::new()
    } else {
        format!(" (process {pid})")
    };
    Error::input(format!(
        "results folder {} is being written by another reversi-lab run{process}: wait for it to finish, or use --out DIR",
        dir.display()
    ))
}

/// Whether `file` is still the file at `path`: a run that ends removes its lock file,
/// so a lock taken on a file just removed must be taken again on the new one.
#[cfg(unix)]
fn still_at(file: &fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn still_at(_file: &fs::File, path: &Path) -> bool {
    path.exists()
}

impl FolderLock {
    /// Locks `dir` (which exists) for this process, or says which run holds it.
    pub fn acquire(dir: &Path) -> Result<Self> {
        let path = dir.join(LOCK_FILE);
        // A few tries cover a holder that removes the file between our open and lock.
        for _ in 0..8 {
            let mut file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io(&path, e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(busy(dir, holder(dir).unwrap_or(0)));
                }
                Err(fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            if !still_at(&file, &path) {
                continue;
            }
            use std::io::Write;
            file.set_len(0)
                .and_then(|()| file.write_all(std::process::id().to_string().as_bytes()))
                .map_err(|e| Error::io(&path, e))?;
            return Ok(FolderLock { path, _file: file });
        }
        Err(busy(dir, 0))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked, so no other run can lock this file meanwhile.
        let _ = fs::remove_file(&self.path);
    }
}

/// Writes `path` whole or not at all: through a temporary file beside it, renamed
/// over it once written, so a full disk or a kill never leaves a partial file that
/// looks finished (or blocks a retry). A failure removes the temporary file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let temporary = path.with_file_name(name);
    let written = fs::write(&temporary, contents)
        .map_err(|e| Error::io(path, e))
        .and_then(|()| {
            fs::rename(&temporary, path).map_err(|e| Error::io_during("rename", path, e))
        });
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Moves `dir` aside for `--force` (it is deleted once the new run has written its
/// first files), refusing while another run writes it. Returns where it went.
pub fn move_aside(dir: &Path) -> Result<PathBuf> {
    let ours = ["run.toml", "games.csv", "games.csv.zst", "trace.csv"]
        .iter()
        .any(|name| dir.join(name).is_file());
    if !ours {
        return Err(Error::input(format!(
            "{} is not a reversi-lab results folder (no run.toml, games.csv or trace.csv): --force replaces only results folders; choose another --out",
            dir.display()
        )));
    }
    if let Some(pid) = holder(dir) {
        return Err(Error::input(format!(
            "results folder {} is being written by another reversi-lab run (process {pid}): --force will not replace it",
            dir.display()
        )));
    }
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".replaced-{}", std::process::id()));
    let aside = dir.with_file_name(name);
    fs::rename(dir, &aside).map_err(|e| {
        Error::input(format!(
            "cannot move {} aside to replace it: {e} (choose another --out, or remove it yourself)",
            dir.display()
        ))
    })?;
    Ok(aside)
}

/// Deletes a folder moved aside by [`move_aside`].
pub fn remove_aside(aside: &Path) -> Result<()> {
    fs::remove_dir_all(aside).map_err(|e| Error::io_during("remove", aside, e))
}

/// The top-level keys whose values differ between two experiment tables, with
/// both values: for messages that say which setting changed.
#[must_use]
pub fn differences(recorded: &toml::Table, now: &toml::Table) -> Vec<String> {
    let mut keys: Vec<&String> = recorded.keys().chain(now.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&toml::Value>| v.map_or("(none)".to_string(), ToString::to_string);
    keys.into_iter()
        .filter(|k| recorded.get(*k) != now.get(*k))
        .map(|k| {
            if matches!(k.as_str(), "players" | "rules" | "openings" | "sprt") {
                format!("{k} differs")
            } else {
                // The two a command line can give again: say how.
                let again = match (k.as_str(), recorded.get(k)) {
                    ("games_per_pair", Some(v)) => format!(" (pass --games {v} to continue it)"),
                    ("seed", Some(v)) => format!(" (pass --seed {v} to continue it)"),
                    _ => String::new(),
                };
                format!(
                    "{k} = {} in run.toml but {} now{again}",
                    show(recorded.get(k)),
                    show(now.get(k))
                )
            }
        })
        .collect()
}
