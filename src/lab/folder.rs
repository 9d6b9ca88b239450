//! A results folder's safety: a lock that refuses a second run into the same
//! folder, and `--force` replacement that keeps the old folder until the new run writes.

use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// The lock file in a results folder while a run writes it: holds the process id.
pub const LOCK_FILE: &str = "run.lock";

/// Held while a run writes its folder; removed when dropped.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
}

/// The process that holds `dir`'s lock, if one is alive.
pub(crate) fn holder(dir: &Path) -> Option<u32> {
    let text = fs::read_to_string(dir.join(LOCK_FILE)).ok()?;
    let pid: u32 = text.trim().parse().ok()?;
    let alive =
        Path::new("/proc").join(pid.to_string()).exists() || !Path::new("/proc/self").exists();
    (alive && pid != std::process::id()).then_some(pid)
}

impl FolderLock {
    /// Locks `dir` (which exists) for this process. A lock left by a process that
    /// is gone (killed) is taken over.
    pub fn acquire(dir: &Path) -> Result<Self> {
        if let Some(pid) = holder(dir) {
            return Err(Error::input(format!(
                "results folder {} is being written by another reversi-lab run (process {pid}): wait for it to finish, or use --out DIR",
                dir.display()
            )));
        }
        let path = dir.join(LOCK_FILE);
        // Created only if absent, so of two runs starting together one wins; a
        // stale lock (its process gone) was checked above and is replaced once.
        for attempt in 0..2 {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    use std::io::Write;
                    file.write_all(std::process::id().to_string().as_bytes())
                        .map_err(|e| Error::io(&path, e))?;
                    return Ok(FolderLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt == 0 => {
                    if holder(dir).is_some() {
                        break;
                    }
                    let _ = fs::remove_file(&path);
                }
                Err(e) => {
                    if e.kind() == std::io::ErrorKind::AlreadyExists {
                        break;
                    }
                    return Err(Error::io(&path, e));
                }
            }
        }
        Err(Error::input(format!(
            "results folder {} is being written by another reversi-lab run: wait for it to finish, or use --out DIR",
            dir.display()
        )))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
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
                format!(
                    "{k} = {} in run.toml but {} now",
                    show(recorded.get(k)),
                    show(now.get(k))
                )
            }
        })
        .collect()
}
