//! A results folder's or output file's safety: a lock (`flock`) that refuses a second
//! run into the same folder or file, the one write path every output goes through, and
//! `--force` replacement that keeps the old output until the new one takes its place.

use super::file_names::FolderFile;
use super::results_folder::{FolderKind, ResultsFolder};
use crate::error::{Error, Result};
use crate::setting::{Said, Setting};
use crate::shown::ShowPath;
use std::fs;

pub use super::differences::differences;
pub use super::growing::{append, append_existing, create_new, cut_to, grow_or_start, reopen};
use std::path::{Path, PathBuf};

/// Where a command writes its results: `--out`, `out=`.
pub static OUT: Setting = Setting::new("", "--out", "out");
/// Continue the run a results folder holds: `--resume`, `resume=True`.
pub static RESUME: Setting = Setting::switch("--resume", "resume=True");
/// Replace what is there: `--force`, `force=True`.
pub static FORCE: Setting = Setting::switch("--force", "force=True");

/// The lock file in a results folder while a run writes it: holds the process id.
pub const LOCK_FILE: &str = FolderFile::Lock.name();

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
    holder_of(&dir.join(LOCK_FILE))
}

/// The process that holds the lock file `path`, if one does.
fn holder_of(path: &Path) -> Option<u32> {
    let file = fs::OpenOptions::new().read(true).open(path).ok()?;
    match file.try_lock_shared() {
        Ok(()) => None,
        Err(fs::TryLockError::WouldBlock) => Some(
            fs::read_to_string(path)
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(0),
        ),
        Err(fs::TryLockError::Error(_)) => None,
    }
}

/// ` (process PID)`, or nothing when the holder has not written its id yet.
fn process(pid: u32) -> String {
    if pid == 0 {
        String::new()
    } else {
        format!(" (process {pid})")
    }
}

fn busy(dir: &Path, pid: u32) -> Error {
    let process = process(pid);
    Error::said(
        Said::text(format!(
            "results folder {} is being written by another reversi-lab run{process}: wait for it to finish, or use ",
            dir.shown()
        ))
        .placeholder(&OUT, "DIR"),
    )
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

/// The lock file of the file output `target`: `TARGET.lock` beside it.
#[must_use]
pub fn lock_file_of(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl FolderLock {
    /// Locks `dir` (which exists) for this process, or says which run holds it.
    pub fn acquire(dir: &Path) -> Result<Self> {
        Self::take(dir.join(LOCK_FILE), |pid| busy(dir, pid))
    }

    /// Locks the output file `path` for a `reversi-lab COMMAND` that writes it, the
    /// same way as a results folder: `FILE.lock` beside the file written (a symbolic
    /// link's target), taken before the command looks at the file or its checkpoint.
    /// A device or FIFO is written as a stream, with nothing beside it to protect or
    /// resume: it is not locked (None).
    pub fn acquire_file(path: &Path, command: &str) -> Result<Option<Self>> {
        let Placement::Replace { target, .. } = placement(path)? else {
            return Ok(None);
        };
        let lock = Self::take(lock_file_of(&target), |pid| {
            let process = if pid == 0 {
                String::new()
            } else {
                format!(" (process {pid})")
            };
            Error::input(format!(
                "{} is being written by another `reversi-lab {command}`{process}: wait for it to finish, or write elsewhere",
                path.shown()
            ))
        })?;
        Ok(Some(lock))
    }

    fn take(path: PathBuf, busy: impl Fn(u32) -> Error) -> Result<Self> {
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
                    return Err(busy(holder_of(&path).unwrap_or(0)));
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
        Err(busy(0))
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
/// looks finished (or blocks a retry). A failure removes the temporary file. Only an
/// absent or regular file is replaced so: see [`write_output`].
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> Result<()> {
    write_output(path, |out| {
        std::io::Write::write_all(out, contents.as_ref()).map_err(|e| Error::io(path, e))
    })
}

/// Writes a file a user named (or one of a results folder's) with what `fill` writes,
/// deciding in one place how: an absent or regular file (also one a symbolic link
/// names, which is kept) is written whole or not at all, through `NAME.partial`
/// renamed over it; anything else (a device such as /dev/null, a FIFO) is written to
/// directly, since renaming over it would replace it. A folder is refused.
pub fn write_output<T>(
    path: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> Result<T>,
) -> Result<T> {
    use std::io::Write;
    let (target, temporary) = match placement(path)? {
        Placement::Replace { target, temporary } => (target, temporary),
        Placement::Direct => {
            let file = fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .map_err(|e| Error::io(path, e))?;
            let mut writer = std::io::BufWriter::new(file);
            let value = fill(&mut writer)?;
            writer.flush().map_err(|e| Error::io(path, e))?;
            return Ok(value);
        }
    };
    let written = fs::File::create(&temporary)
        .map_err(|e| Error::io(path, e))
        .and_then(|file| {
            let mut writer = std::io::BufWriter::new(file);
            let value = fill(&mut writer)?;
            writer.flush().map_err(|e| Error::io(path, e))?;
            Ok(value)
        })
        .and_then(|value| put_in_place(&temporary, &target, path).map(|()| value));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// How [`write_output`] writes a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Written in place: a device, a FIFO, a link to nothing.
    Direct,
    /// Written whole to `temporary`, then renamed over `target` (the path, or the file
    /// its symbolic link names, so that the link stays).
    Replace {
        /// The file replaced.
        target: PathBuf,
        /// `TARGET.partial`, beside it.
        temporary: PathBuf,
    },
}

/// How `path` is written (a folder is refused): see [`Placement`]. A command that
/// writes an output over a long time (`label`) fills the temporary file itself and
/// puts it in place with [`put_in_place`].
pub fn placement(path: &Path) -> Result<Placement> {
    // A symbolic link is followed: its target is what gets written, and the link stays.
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).ok(),
        _ => Some(path.to_path_buf()),
    };
    let kind = target.as_deref().map(fs::metadata);
    let direct = match &kind {
        // A link to nothing: writing through it makes its target.
        None => true,
        Some(Err(_)) => false,
        Some(Ok(m)) if m.is_dir() => {
            return Err(Error::input(format!(
                "{} is a folder: choose a file",
                path.shown()
            )))
        }
        Some(Ok(m)) => !m.is_file(),
    };
    let target = match target {
        Some(target) if !direct => target,
        _ => return Ok(Placement::Direct),
    };
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let temporary = target.with_file_name(name);
    Ok(Placement::Replace { target, temporary })
}

/// Renames the finished `temporary` over `target` (the file `path` names): the old
/// output, if any, stays whole until this moment.
pub fn put_in_place(temporary: &Path, target: &Path, path: &Path) -> Result<()> {
    fs::rename(temporary, target).map_err(|e| Error::io_during("rename", path, e))
}

/// An output a stream fills over time through a file it opens itself (a merge's
/// games file): the one write path's temporary beside `path` (or `path` itself where
/// [`write_output`] writes directly), put in place whole by [`Staged::finish`] or
/// removed by [`Staged::discard`], so the old output stays whole until the new one is.
#[derive(Debug)]
pub struct Staged {
    /// Where the stream writes.
    writing: PathBuf,
    /// The file replaced, when written through a temporary.
    target: Option<PathBuf>,
    /// The path as named, for messages.
    named: PathBuf,
}

impl Staged {
    /// Stages `path` (a folder is refused): see [`Placement`].
    pub fn new(path: &Path) -> Result<Self> {
        let (writing, target) = match placement(path)? {
            Placement::Replace { target, temporary } => (temporary, Some(target)),
            Placement::Direct => (path.to_path_buf(), None),
        };
        Ok(Staged {
            writing,
            target,
            named: path.to_path_buf(),
        })
    }

    /// The file the stream writes.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.writing
    }

    /// Puts the finished output in place.
    pub fn finish(self) -> Result<()> {
        match &self.target {
            Some(target) => put_in_place(&self.writing, target, &self.named),
            None => Ok(()),
        }
    }

    /// Drops the output written so far (nothing of it stays behind).
    pub fn discard(self) {
        if self.target.is_some() {
            let _ = fs::remove_file(&self.writing);
        }
    }
}

/// Refuses to replace the existing file `path` (given by `setting`) unless `force`.
pub fn check_replaceable(path: &Path, setting: &'static Setting, force: bool) -> Result<()> {
    if path.exists() && !force {
        return Err(Error::said(
            Said::text(format!("{} exists: pass ", path.shown()))
                .name(&FORCE)
                .then(" to replace it, or choose another ")
                .name(setting),
        ));
    }
    Ok(())
}

/// Checks an output file a user named before any work is done: not a folder, and in
/// a folder that exists (`flag` is the option that named it, such as `--out`).
pub fn check_output_file(path: &Path, flag: &str) -> Result<()> {
    if path.as_os_str().is_empty() {
        return Err(Error::input(format!("{flag} is empty: give a file name")));
    }
    if path.is_dir() {
        return Err(Error::input(format!(
            "{} is a folder: choose a file for {flag}",
            path.shown()
        )));
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !folder.exists() {
            return Err(Error::input(format!(
                "{}: the folder {} does not exist; create it first, or write elsewhere",
                path.shown(),
                folder.shown()
            )));
        }
        if !folder.is_dir() {
            return Err(Error::input(format!(
                "{}: {} is a file, not a folder; write elsewhere",
                path.shown(),
                folder.shown()
            )));
        }
    }
    Ok(())
}

/// Checks an output folder a user named: absent, or a folder (not a file).
pub fn check_output_folder(path: &Path, setting: &'static Setting) -> Result<()> {
    if path.exists() && !path.is_dir() {
        return Err(Error::said(
            Said::text(format!(
                "{} is a file, not a folder: choose a folder for ",
                path.shown()
            ))
            .name(setting),
        ));
    }
    Ok(())
}

/// `out` is a file where a results folder goes: the refusal every command that
/// writes a folder gives.
#[must_use]
pub fn a_file_not_a_folder(out: &Path) -> Error {
    Error::said(
        Said::text(format!(
            "{} is a file, not a results folder: choose a folder with ",
            out.shown()
        ))
        .name(&OUT),
    )
}

/// The results folder `out` could not be created.
#[must_use]
pub fn cannot_create_folder(out: &Path, error: &std::io::Error) -> Error {
    Error::said(
        Said::text(format!(
            "cannot create results folder {}: {error} (choose another with ",
            out.shown()
        ))
        .name(&OUT)
        .then(")"),
    )
}

/// `path` with its links and `..` resolved, as far as it exists (the rest appended).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if parent.as_os_str().is_empty() => {
            canonical(Path::new(".")).join(name)
        }
        (Some(parent), Some(name)) => canonical(parent).join(name),
        _ => path.to_path_buf(),
    }
}

/// Refuses an output that is one of the files the command reads (compared with links
/// resolved), before anything is written: writing it would destroy the input.
pub fn check_not_an_input<'a>(
    output: &Path,
    flag: &str,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    let out = canonical(output);
    for input in inputs.into_iter().filter(|p| p.exists()) {
        if canonical(input) == out {
            let which = if input == output {
                String::new()
            } else {
                format!(" ({})", input.shown())
            };
            return Err(Error::input(format!(
                "{flag} {} is a file this command reads{which}: writing it would destroy it; choose another {flag}",
                output.shown(),
            )));
        }
    }
    Ok(())
}

/// Refuses an output folder that is, or is inside, one of the shard folders `merge`
/// reads (compared with links resolved), before anything is written.
pub fn check_not_in_a_shard<'a>(
    output: &Path,
    setting: &'static Setting,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    let out = canonical(output);
    for input in inputs {
        if out.starts_with(canonical(input)) {
            let how = if out == canonical(input) {
                "is"
            } else {
                "is inside"
            };
            return Err(Error::said(
                Said::default()
                    .given(setting, output.shown())
                    .then(format!(
                        " {how} the shard folder {}, which this command reads: writing there would replace its files; choose another ",
                        input.shown()
                    ))
                    .name(setting),
            ));
        }
    }
    Ok(())
}

/// Whether `dir` holds anything but its lock file: what `--resume` must not play into
/// when it is not a folder of the command's kind.
pub fn holds_anything(dir: &Path) -> Result<bool> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io_during("read", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io_during("read", dir, e))?;
        if entry.file_name() != LOCK_FILE {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Refuses to start over `dir` while a folder an earlier `--force` moved aside
/// (`DIR.replaced-PID`) is still there and its process is gone: a second Ctrl-C or a
/// kill left it, and it holds the old results, which no later command would name.
pub fn check_no_stranded_aside(dir: &Path) -> Result<()> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Ok(());
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let prefix = format!("{}.replaced-", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(parent) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file.strip_prefix(&prefix) else {
            continue;
        };
        let alive = pid.parse::<u32>().is_ok_and(|pid| {
            pid != std::process::id() && Path::new(&format!("/proc/{pid}")).exists()
        });
        if !alive && entry.path().is_dir() {
            let aside = dir.with_file_name(&file);
            return Err(Error::said(
                Said::text(format!("{} holds the results an interrupted ", aside.shown()))
                    .name(&FORCE)
                    .then(format!(
                        " moved aside from {}: put them back (remove {} and rename {} to it) or remove {}, then run again",
                        dir.shown(),
                        dir.shown(),
                        aside.shown(),
                        aside.shown()
                    )),
            ));
        }
    }
    Ok(())
}

/// Moves `dir` aside for `--force` (it is deleted once the new run has written its
/// first files), refusing while another run writes it. Returns where it went.
pub fn move_aside(dir: &Path) -> Result<PathBuf> {
    // Replaced only for files a run or tune wrote: a tune.toml alone may be a tune
    // file someone keeps there.
    let folder = ResultsFolder::at(dir);
    let ours = match folder.kind() {
        Some(FolderKind::Run | FolderKind::GamesOnly) => true,
        Some(FolderKind::Tune) => folder.has(FolderFile::Trace) || folder.games().is_some(),
        None => false,
    };
    if !ours {
        return Err(Error::said(
            Said::text(format!(
                "{} is not a reversi-lab results folder (no run.toml, games.csv or trace.csv): ",
                dir.shown()
            ))
            .name(&FORCE)
            .then(" replaces only results folders; choose another ")
            .name(&OUT),
        ));
    }
    if let Some(pid) = holder(dir) {
        return Err(Error::said(
            Said::text(format!(
                "results folder {} is being written by another reversi-lab run{}: ",
                dir.shown(),
                process(pid)
            ))
            .name(&FORCE)
            .then(" will not replace it"),
        ));
    }
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".replaced-{}", std::process::id()));
    let aside = dir.with_file_name(name);
    fs::rename(dir, &aside).map_err(|e| {
        Error::said(
            Said::text(format!(
                "cannot move {} aside to replace it: {e} (choose another ",
                dir.shown()
            ))
            .name(&OUT)
            .then(", or remove it yourself)"),
        )
    })?;
    Ok(aside)
}

/// Deletes a folder moved aside by [`move_aside`].
pub fn remove_aside(aside: &Path) -> Result<()> {
    fs::remove_dir_all(aside).map_err(|e| Error::io_during("remove", aside, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staged_output_replaces_the_old_whole_or_leaves_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        fs::write(&path, "old\n").unwrap();
        let staged = Staged::new(&path).unwrap();
        assert_ne!(staged.path(), path);
        fs::write(staged.path(), "new, half\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        let left = staged.path().to_path_buf();
        staged.discard();
        assert!(!left.exists());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        let staged = Staged::new(&path).unwrap();
        fs::write(staged.path(), "new\n").unwrap();
        staged.finish().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(Staged::new(dir.path()).is_err());
    }
}
