//! The binary as a user meets it: output formats, exit codes and error messages.

use assert_cmd::Command;
use predicates::prelude::*;

fn bin() -> Command {
    Command::cargo_bin("reversi-lab").unwrap()
}

#[test]
fn perft_prints_the_count_on_its_own_line() {
    bin()
        .args(["perft", "6"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("8200\ntime "))
        .stdout(predicate::str::contains("M leaves/s"));
}

#[test]
fn perft_with_threads_and_sizes() {
    bin()
        .args(["perft", "8", "--threads", "2"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("390216\n"));
    bin()
        .args(["perft", "2", "--size", "10"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("12\n"));
}

#[test]
fn perft_from_a_position() {
    bin()
        .args([
            "perft",
            "1",
            "--position",
            "---------------------------OX------XXX-------------------------- O",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("3\n"));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (
            vec!["perft", "0"],
            "perft depth 0 is out of range: use 1 to 30",
        ),
        (
            vec!["perft", "3", "--size", "7"],
            "unsupported board size 7: use one of 4, 6, 8, 10",
        ),
        (
            vec!["perft", "3", "--position", "XO- X"],
            "position has 3 squares",
        ),
        (
            vec!["show", "f5d6a1"],
            "transcript ply 3: a1 is not a legal move for black",
        ),
        (
            vec!["show", "f5q9"],
            "'q9' is not a square of the 8x8 board",
        ),
    ] {
        let output = bin().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn show_draws_the_board() {
    bin()
        .args(["show", "f5d6c3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("    a b c d e f g h"))
        .stdout(predicate::str::contains("white to move"))
        .stdout(predicate::str::contains("obf: "));
}
