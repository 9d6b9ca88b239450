//! `label`'s output: `--force` through links and FIFOs, one run into a file at a time,
//! the options checked before the output is touched, and `fit-probcut`'s lock.

use reversi_lab::lab::positions::Label;
use std::fs;
use std::path::Path;

use super::{records, GAMES};
use crate::common::{in_dir, ok, run_in, Dir};

/// A results folder `games` of 6 games in `d`.
fn few_games(d: &Path) {
    fs::write(d.join("few.toml"), GAMES).unwrap();
    ok(d, &["run", "few.toml", "--out", "games", "--quiet"]);
}

/// Waits (at most a minute) until `path` exists.
fn wait_for(path: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{path:?} never appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn force_writes_through_links_and_fifos_and_keeps_them() {
    let dir = Dir::new();
    let d = dir.path();
    few_games(d);
    let label = |out: &str, depth: &str, force: bool| {
        let mut args = vec![
            "label", "games", "--out", out, "--depth", depth, "--exact", "8", "--quiet",
        ];
        if force {
            args.push("--force");
        }
        run_in(d, &args)
    };
    assert_eq!(label("plain2.bin", "2", false).0, 0);
    assert_eq!(label("plain3.bin", "3", false).0, 0);
    let (two, three) = (
        fs::read(d.join("plain2.bin")).unwrap(),
        fs::read(d.join("plain3.bin")).unwrap(),
    );
    assert_ne!(two, three);
    // A link: its target gets the new file, and the link stays a link.
    fs::copy(d.join("plain2.bin"), d.join("real.bin")).unwrap();
    std::os::unix::fs::symlink("real.bin", d.join("link.bin")).unwrap();
    let (code, _, err) = label("link.bin", "3", true);
    assert_eq!(code, 0, "{err}");
    assert!(fs::symlink_metadata(d.join("link.bin"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(d.join("real.bin")).unwrap(), three);
    for left in [
        "real.bin.partial",
        "real.bin.checkpoint",
        "real.bin.lock",
        "link.bin.lock",
    ] {
        assert!(!d.join(left).exists(), "{left} is left behind");
    }
    // A FIFO: written through (a reader gets the file), and still a FIFO.
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("pipe"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        crate::common::missing("mkfifo");
        return;
    }
    let (code, _, err) = label("pipe", "3", false);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pipe exists: pass --force"), "{err}");
    let (sent, got) = std::sync::mpsc::channel();
    let pipe = d.join("pipe");
    std::thread::spawn(move || sent.send(fs::read(pipe).unwrap()));
    let (code, _, err) = label("pipe", "3", true);
    assert_eq!(code, 0, "{err}");
    let read = got
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("nothing was written to the FIFO");
    assert_eq!(read, three);
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(d.join("pipe"))
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn a_second_run_into_the_same_file_is_refused_and_force_keeps_the_old_file_meanwhile() {
    let dir = Dir::new();
    let d = dir.path();
    few_games(d);
    let slow = [
        "label",
        "games",
        "--out",
        "slow.bin",
        "--depth",
        "8",
        "--exact",
        "16",
        "--threads",
        "1",
        "--quiet",
    ];
    let first = in_dir(d).args(slow).spawn();
    // Started: its checkpoint says no games are done yet.
    wait_for(&d.join("slow.bin.checkpoint"));
    for force in [false, true] {
        let mut args = vec!["label", "games", "--out", "slow.bin", "--depth", "3"];
        if force {
            args.push("--force");
        }
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("slow.bin is being written by another `reversi-lab label`"),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let done = first.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(done.status.success(), "{said}");
    assert!(said.contains("by a depth-8 search"), "{said}");
    let written = records(&d.join("slow.bin"));
    assert!(!written.is_empty());
    assert!(written
        .iter()
        .all(|r| matches!(r.label, Label::Exact | Label::Search { depth: 8 })));
    assert!(!d.join("slow.bin.lock").exists());

    // --force labels into a work file beside it: the old file stays whole until then.
    let old = fs::read(d.join("slow.bin")).unwrap();
    let mut again = slow.to_vec();
    again[5] = "7";
    again.push("--force");
    let second = in_dir(d).args(&again).spawn();
    wait_for(&d.join("slow.bin.partial"));
    assert_eq!(fs::read(d.join("slow.bin")).unwrap(), old);
    let done = second.wait_with_output().unwrap();
    assert!(done.status.success());
    let written = records(&d.join("slow.bin"));
    assert!(written
        .iter()
        .all(|r| matches!(r.label, Label::Exact | Label::Search { depth: 7 })));
}

#[test]
fn options_are_checked_before_the_output_is_touched() {
    let dir = Dir::new();
    let d = dir.path();
    few_games(d);
    for (args, says) in [
        (
            &["label", "games", "--out", "x.bin", "--threads", "2000"][..],
            "--threads 2000",
        ),
        (
            &["label", "games", "--out", "x.bin", "--exact", "23"],
            "--exact 23 would solve positions with up to 23 empty squares exactly, which can take hours",
        ),
        (
            &["label", "games", "--out", "x.bin", "--exact", "31", "--empties", "20-31"],
            "--exact 31 would solve",
        ),
        (
            &["label", "games", "--out", "x.bin", "--depth", "13"],
            "--depth 13 can take hours",
        ),
        (
            &["fit-probcut", "games", "--out", "x.bin", "--threads", "2000"],
            "--threads 2000",
        ),
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        let left: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("x.bin"))
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

#[test]
fn a_second_fit_probcut_into_the_same_file_is_refused() {
    let dir = Dir::new();
    let d = dir.path();
    few_games(d);
    let first = in_dir(d)
        .args([
            "fit-probcut",
            "games",
            "--out",
            "p.csv",
            "--depth",
            "8",
            "--threads",
            "1",
            "--quiet",
        ])
        .spawn();
    wait_for(&d.join("p.csv.lock"));
    let (code, _, err) = run_in(
        d,
        &[
            "fit-probcut",
            "games",
            "--out",
            "p.csv",
            "--depth",
            "3",
            "--force",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("p.csv is being written by another `reversi-lab fit-probcut`"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let done = first.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(done.status.success(), "{said}");
    assert!(said.contains("to depths 1-8"), "{said}");
    assert!(!d.join("p.csv.lock").exists());
}
