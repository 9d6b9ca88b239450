//! How a path is shown in a message or a page: as it is, or, for a reader who sees
//! only a root (the web view), relative to that root. Messages format paths with
//! [`ShowPath::shown`] instead of `display()`; the web draws a page or words an error
//! inside [`under`], so the server's own paths are never written and no message text
//! is rewritten afterwards.

use std::cell::RefCell;
use std::fmt;
use std::path::{Component, Path, PathBuf};

thread_local! {
    /// The roots paths are shown under on this thread, empty outside [`under`].
    static ROOTS: RefCell<Vec<PathBuf>> = const { RefCell::new(Vec::new()) };
}

/// A path as a message shows it (see the module's text).
pub struct Shown<'a>(&'a Path);

/// `path.shown()`: a path formatted for a message.
pub trait ShowPath {
    /// This path as a message shows it: relative to the root of an [`under`] around
    /// the caller, as `display()` would otherwise.
    fn shown(&self) -> Shown<'_>;
}

impl ShowPath for Path {
    fn shown(&self) -> Shown<'_> {
        Shown(self)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match ROOTS.with(|roots| relative(self.0, &roots.borrow())) {
            Some(rel) => f.write_str(&rel),
            None => self.0.display().fmt(f),
        }
    }
}

/// Runs `f` with every path a message formats on this thread shown relative to the
/// first of `roots` (absolute paths; the same root as given and as resolved) that
/// it lies under or beside: `.` for the root, `a/b` under it, `../x` for a file in a
/// folder above it. Paths elsewhere, and relative ones, show as they are.
pub fn under<T>(roots: &[&Path], f: impl FnOnce() -> T) -> T {
    /// Restores the roots before, also when `f` panics.
    struct Restore(Vec<PathBuf>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ROOTS.with(|r| *r.borrow_mut() = std::mem::take(&mut self.0));
        }
    }
    let given: Vec<PathBuf> = roots
        .iter()
        .filter(|r| r.is_absolute())
        .map(|r| r.to_path_buf())
        .collect();
    let _restore = Restore(ROOTS.with(|r| std::mem::replace(&mut *r.borrow_mut(), given)));
    f()
}

/// `path` relative to the first root it lies under or beside, if any. The filesystem's
/// top is no root's neighbourhood: a path that shares only `/` with it shows whole.
fn relative(path: &Path, roots: &[PathBuf]) -> Option<String> {
    if !path.is_absolute() {
        return None;
    }
    for root in roots {
        let levels = root.ancestors().filter(|a| a.parent().is_some());
        for (up, above) in levels.enumerate() {
            let Ok(rest) = path.strip_prefix(above) else {
                continue;
            };
            if rest.components().any(|c| matches!(c, Component::ParentDir)) {
                continue;
            }
            let rest = rest.display().to_string();
            return Some(match (up, rest.is_empty()) {
                (0, true) => ".".into(),
                (_, true) => "../".repeat(up).trim_end_matches('/').to_string(),
                _ => format!("{}{rest}", "../".repeat(up)),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(path: &str) -> String {
        Path::new(path).shown().to_string()
    }

    #[test]
    fn paths_show_as_they_are_outside_a_root() {
        assert_eq!(show("/srv/results/run"), "/srv/results/run");
        assert_eq!(show("results/run"), "results/run");
    }

    #[test]
    fn under_a_root_paths_show_relative_to_it_and_the_root_is_restored() {
        let root = Path::new("/srv/lab/results");
        let real = Path::new("/data/lab/results");
        under(&[root, real], || {
            assert_eq!(show("/srv/lab/results"), ".");
            assert_eq!(show("/srv/lab/results/field/games.csv"), "field/games.csv");
            assert_eq!(show("/srv/lab/field.toml"), "../field.toml");
            assert_eq!(show("/srv/lab"), "..");
            assert_eq!(show("/data/lab/results/x"), "x");
            // A folder that merely starts with the root's name is not under it.
            assert_eq!(show("/srv/lab/results2/x"), "../results2/x");
            assert_eq!(show("/etc/passwd"), "/etc/passwd");
            assert_eq!(show("field"), "field");
        });
        assert_eq!(show("/srv/lab/results/field"), "/srv/lab/results/field");
    }
}
