//! Where a run was made, for `run.toml`: the command line, the git commit of the
//! directory it was started in and the host name. Each is best effort: a value that
//! cannot be found is left out, never an error.

use std::process::{Command, Stdio};

/// The command line as typed (arguments with spaces or quotes single-quoted).
#[must_use]
pub fn command_line() -> String {
    std::env::args()
        .map(|arg| {
            let plain = !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                arg
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `git rev-parse HEAD` in the current directory: None when git is missing or the
/// directory is not in a repository.
#[must_use]
pub fn git_commit() -> Option<String> {
    let output = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !commit.is_empty() && commit.chars().all(|c| c.is_ascii_hexdigit()))
        .then_some(commit)
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
}
