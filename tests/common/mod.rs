//! What the integration tests share: running the binary in a folder.
// Each test file compiles this module on its own and uses part of it.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::Path;

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
