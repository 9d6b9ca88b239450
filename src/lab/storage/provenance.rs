//! Where a run was made, for `run.toml`: the command line, the git commit of the
//! directory it was started in and the host name. Each is best effort: a value that
//! cannot be found is left out, never an error.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The command line as typed (arguments with spaces or quotes single-quoted).
#[must_use]
pub fn command_line() -> String {
    join_words(std::env::args())
}

/// Words joined as [`command_line`] records them.
pub fn join_words(words: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    words
        .into_iter()
        .map(|word| quote_word(word.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One word of a recorded command line: as it is when plain, else single-quoted.
fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The words of a command line [`command_line`] recorded, so that a reader can show
/// each (a path relative to where it is seen); None for a line it did not write.
#[must_use]
pub fn command_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut begun = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            // `'\''`: a quote inside a quoted word.
            ('\\', false) => {
                word.extend(chars.next());
                begun = true;
            }
            ('\'', _) => {
                quoted = !quoted;
                begun = true;
            }
            (' ', false) => {
                if begun {
                    words.push(std::mem::take(&mut word));
                }
                begun = false;
            }
            _ => {
                word.push(c);
                begun = true;
            }
        }
    }
    if begun {
        words.push(word);
    }
    (!quoted && join_words(&words) == line).then_some(words)
}

/// The commit `git rev-parse HEAD` names in the current directory: None when git is
/// missing or the directory is not in a repository (no `.git` here or above). Read from the repository's own
/// files where they are plain (a loose or packed branch, or a detached head), since
/// starting `git` took about 5 ms, a visible share of a short run and of every run of
/// a sweep; anything else (a `GIT_*` variable that moves the repository, another ref
/// store) asks `git` itself.
#[must_use]
pub fn git_commit() -> Option<String> {
    let moved = [
        "GIT_DIR",
        "GIT_COMMON_DIR",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    ]
    .iter()
    .any(|name| std::env::var_os(name).is_some());
    if moved {
        return git_rev_parse();
    }
    let Ok(dir) = std::env::current_dir() else {
        return git_rev_parse();
    };
    // Outside a repository there is nothing to ask git.
    let dot_git = in_repository(&dir)?;
    head_commit(&dot_git).or_else(git_rev_parse)
}

/// The `.git` of the repository holding `dir`, if any.
fn in_repository(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().map(|d| d.join(".git")).find(|p| p.exists())
}

/// The commit HEAD names in the repository of `dot_git` (its `.git`), read from its
/// files; None where that takes more than plain files (git then answers).
fn head_commit(dot_git: &Path) -> Option<String> {
    let dot_git = dot_git.to_path_buf();
    let git_dir = if dot_git.is_file() {
        // A linked worktree or a submodule: `gitdir: <path>`, relative to the file.
        let text = fs::read_to_string(&dot_git).ok()?;
        dot_git.parent()?.join(text.strip_prefix("gitdir:")?.trim())
    } else {
        dot_git
    };
    // Branches live in the common directory; HEAD is the worktree's own.
    let common = match fs::read_to_string(git_dir.join("commondir")) {
        Ok(path) => git_dir.join(path.trim()),
        Err(_) => git_dir.clone(),
    };
    let head = fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let commit = match head.trim().strip_prefix("ref:") {
        None => head.trim().to_string(),
        Some(name) => {
            let name = name.trim();
            match fs::read_to_string(common.join(name)) {
                Ok(loose) => loose.trim().to_string(),
                Err(_) => packed_ref(&common, name)?,
            }
        }
    };
    is_commit_id(&commit).then_some(commit)
}

/// Ref `name` in the repository's `packed-refs` (lines of `<id> <name>`).
fn packed_ref(common: &Path, name: &str) -> Option<String> {
    let packed = fs::read_to_string(common.join("packed-refs")).ok()?;
    packed.lines().find_map(|line| {
        let (id, refname) = line.split_once(' ')?;
        (refname == name).then(|| id.to_string())
    })
}

/// A full commit id: 40 (SHA-1) or 64 (SHA-256) hex digits.
fn is_commit_id(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.chars().all(|c| c.is_ascii_hexdigit())
}

/// `git rev-parse HEAD` in the current directory.
fn git_rev_parse() -> Option<String> {
    let output = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && is_commit_id(&commit)).then_some(commit)
}

/// The machine's host name: the kernel's on Linux, else `hostname`, else the
/// `HOSTNAME` or `COMPUTERNAME` variable.
#[must_use]
pub fn host_name() -> Option<String> {
    let clean = |s: String| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .and_then(clean)
        .or_else(|| {
            let output = Command::new("hostname")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()?;
            output
                .status
                .success()
                .then(|| String::from_utf8(output.stdout).ok())
                .flatten()
                .and_then(clean)
        })
        .or_else(|| std::env::var("HOSTNAME").ok().and_then(clean))
        .or_else(|| std::env::var("COMPUTERNAME").ok().and_then(clean))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_names_the_program() {
        assert!(!command_line().is_empty());
        if let Some(commit) = git_commit() {
            assert!(commit.len() >= 40, "{commit}");
        }
    }

    #[test]
    fn a_recorded_command_line_splits_into_the_words_typed() {
        let words = ["reversi-lab", "run", "--out", "/a b/it's", "", "x=1"];
        let line = join_words(words);
        assert_eq!(line, r"reversi-lab run --out '/a b/it'\''s' '' x=1");
        assert_eq!(command_words(&line).unwrap(), words);
        // A line written by hand, not as recorded, is not split.
        assert_eq!(command_words("run  --out x"), None);
        assert_eq!(command_words("run 'open"), None);
    }

    /// Runs git in `dir`, returning its output.
    fn git(dir: &Path, args: &[&str]) -> String {
        let output = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(output.status.success(), "git {args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    #[test]
    fn the_head_read_from_files_is_gits() {
        let temp = tempfile::tempdir().unwrap();
        let repo = temp.path().join("repo");
        fs::create_dir_all(repo.join("sub")).unwrap();
        let read = |dir: &Path| in_repository(dir).and_then(|dot_git| head_commit(&dot_git));
        assert_eq!(in_repository(&repo), None, "no repository yet");
        git(&repo, &["init", "-q"]);
        assert_eq!(read(&repo), None, "no commit yet");
        let same = |dir: &Path| {
            let theirs = git(dir, &["rev-parse", "HEAD"]);
            assert_eq!(
                read(dir).as_deref(),
                Some(theirs.as_str()),
                "{}",
                dir.display()
            );
        };
        git(&repo, &["commit", "-q", "--allow-empty", "-m", "one"]);
        same(&repo);
        same(&repo.join("sub"));
        // Packed, then a newer loose ref beside the packed one.
        git(&repo, &["pack-refs", "--all"]);
        same(&repo);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", "two"]);
        same(&repo);
        // A detached head.
        git(&repo, &["checkout", "-q", "HEAD~1"]);
        same(&repo);
        git(&repo, &["checkout", "-q", "main"]);
        // A linked worktree on its own branch, relative `gitdir` and `commondir`.
        let tree = temp.path().join("tree");
        git(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "side",
                tree.to_str().unwrap(),
            ],
        );
        git(&tree, &["commit", "-q", "--allow-empty", "-m", "three"]);
        same(&tree);
        same(&repo);
        assert_ne!(read(&tree), read(&repo));
    }
}
