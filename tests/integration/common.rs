//! What the integration tests share: running the binary in a folder.

use assert_cmd::Command;
use std::path::Path;

/// The repository's root: the integration tests are declared by the binary's package,
/// `cli/`, so `CARGO_MANIFEST_DIR` is the folder below it.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is a folder of the repository")
}

/// Runs the binary in `dir`; returns (exit code, stdout, stderr).
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("reversi-lab")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs the binary in `dir`, asserts it succeeded and returns its stdout.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = run_in(dir, args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// A program or facility the test needs is missing (`what`, with how to get it). Under
/// CI (`CI` set, as `.ci/run` and CI services set it) that is a failure: `.ci/run`
/// installs every dependency, so a skip there would hide a broken setup. Elsewhere the
/// caller skips, and the line goes straight to the process's stderr: libtest captures
/// `print!`/`eprint!` but not a direct write, so a plain `cargo test` shows it beside
/// the test's `ok` instead of hiding it behind `--nocapture`.
pub fn missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}: under CI every dependency must be there (.ci/run installs them)"
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED (in part) {test}: {what}");
}
