//! What a resume must not mix: a folder interrupted part-way is continued only by the
//! experiment that made it, its openings list and its games file's form included; a
//! config given again speaks for its own threads.

use super::run;
use crate::common::{read, Dir};
use std::path::{Path, PathBuf};

const LISTED: &str = r#"
name = "listed"
seed = 3
games_per_pair = 8
[openings]
file = "ops.txt"
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "weighted"
strategy = { kind = "weighted", preset = "classic" }
"#;

/// The folder of a run killed half-way: `full`'s records and the first half of its
/// games, cut inside a row.
fn killed_copy_of(full: &Path, killed: &Path) {
    std::fs::create_dir(killed).unwrap();
    for file in ["run.toml", "openings.txt"] {
        if full.join(file).exists() {
            std::fs::copy(full.join(file), killed.join(file)).unwrap();
        }
    }
    let games = read(&full.join("games.csv"));
    std::fs::write(killed.join("games.csv"), &games[..games.len() / 2 + 17]).unwrap();
}

/// `text` as `listed.toml` (its openings in `ops.txt`) played whole into `full`, and a
/// copy of it killed half-way in `killed`.
fn listed_and_killed(dir: &Dir, text: &str) -> (PathBuf, PathBuf, PathBuf) {
    dir.write("ops.txt", "f5d6\nf5f6\nf5f4\nd3c5\n");
    let config = dir.write("listed.toml", text);
    let full = dir.path().join("full");
    assert!(run(&config, &full, &[]).status.success());
    let killed = dir.path().join("killed");
    killed_copy_of(&full, &killed);
    (config, full, killed)
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Before, an openings file edited between the stop and the resume was played on:
/// the folder's games came from two lists, its openings.txt said the first.
#[test]
fn a_resume_refuses_an_openings_file_edited_since_the_stop() {
    let dir = Dir::new();
    let (config, full, killed) = listed_and_killed(&dir, LISTED);
    let cut = read(&killed.join("games.csv"));
    dir.write("ops.txt", "c4c3\nc4c5\ne6f6\ne6f4\n");
    let edited = run(&config, &killed, &["--resume"]);
    assert_eq!(edited.status.code(), Some(2), "{}", stderr(&edited));
    let said = stderr(&edited);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("the openings in ops.txt are not the ones it played, kept in")
            && said.contains("put those back in ops.txt to continue"),
        "{said}"
    );
    assert_eq!(read(&killed.join("games.csv")), cut, "nothing was played");
    // Put back, it finishes as the uninterrupted run did.
    dir.write("ops.txt", "f5d6\nf5f6\nf5f4\nd3c5\n");
    assert!(run(&config, &killed, &["--resume"]).status.success());
    assert_eq!(
        read(&killed.join("games.csv")),
        read(&full.join("games.csv"))
    );
}

/// Before, `compress = "zstd"` added before the resume played every game again into
/// games.csv.zst beside the old games.csv, which readers found first.
#[test]
fn a_resume_refuses_another_games_file_form() {
    let dir = Dir::new();
    let (_, _, killed) = listed_and_killed(&dir, LISTED);
    let zstd = dir.write(
        "zstd.toml",
        LISTED.replace("seed = 3", "seed = 3\ncompress = \"zstd\""),
    );
    let other = run(&zstd, &killed, &["--resume"]);
    assert_eq!(other.status.code(), Some(2), "{}", stderr(&other));
    let said = stderr(&other);
    assert!(
        said.contains("games.csv, but this run would write")
            && said.contains("games.csv.zst (compress differs)"),
        "{said}"
    );
    assert!(!killed.join("games.csv.zst").exists());
}

/// Before, `threads = 1` in a config given again was replaced by the folder's count.
#[test]
fn a_config_given_again_speaks_for_its_threads() {
    let dir = Dir::new();
    let (_, full, killed) =
        listed_and_killed(&dir, &LISTED.replace("seed = 3", "seed = 3\nthreads = 2"));
    let one = dir.write(
        "one.toml",
        LISTED.replace("seed = 3", "seed = 3\nthreads = 1"),
    );
    assert!(run(&one, &killed, &["--resume"]).status.success());
    assert!(
        read(&killed.join("run.toml")).contains("threads = 1"),
        "{}",
        read(&killed.join("run.toml"))
    );
    assert_eq!(
        read(&killed.join("games.csv")),
        read(&full.join("games.csv"))
    );
}

/// Before, an empty folder made beforehand was "already there" (pass --resume or
/// --force), and --force then refused it as no results folder.
#[test]
fn an_empty_folder_is_taken_as_a_new_runs() {
    let dir = Dir::new();
    dir.write("ops.txt", "f5d6\nf5f6\nf5f4\nd3c5\n");
    let config = dir.write("listed.toml", LISTED);
    for (name, extra) in [("plain", &[][..]), ("forced", &["--force"][..])] {
        let out = dir.path().join(name);
        std::fs::create_dir(&out).unwrap();
        let made = run(&config, &out, extra);
        assert!(made.status.success(), "{name}: {}", stderr(&made));
        assert!(out.join("run.toml").is_file(), "{name}");
    }
    // A folder that holds anything is still refused without --resume or --force.
    let again = run(&config, &dir.path().join("plain"), &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );
}
