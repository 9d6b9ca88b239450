//! `replay` as a person meets it: a recorded game stepped through (4x4 anti, compressed
//! 10x10, transcripts) and written as a GIF, an SVG and a page, never over a file.

use crate::common::{reversi_lab, Dir};
use predicates::prelude::*;

/// Runs a tiny experiment into a temporary folder.
fn results(toml: &str) -> Dir {
    let dir = Dir::new();
    let config = dir.path().join("tiny.toml");
    std::fs::write(&config, toml).unwrap();
    reversi_lab()
        .args(["run"])
        .arg(&config)
        .arg("--out")
        .arg(dir.path().join("out"))
        .args(["--quiet", "--no-report"])
        .assert()
        .success();
    dir
}

const PLAYERS: &str = "[[players]]\nname = \"g\"\nstrategy = \"greedy\"\n[[players]]\nname = \"r\"\nstrategy = \"random\"\n";

#[test]
fn replay_steps_through_a_recorded_4x4_anti_game() {
    let dir = results(&format!(
        "name = \"tiny\"\nseed = 1\nsize = 4\ngames_per_pair = 2\n[rules]\nanti = true\n{PLAYERS}"
    ));
    let out = dir.path().join("out");
    let output = reversi_lab()
        .arg("replay")
        .arg(&out)
        .args(["--game", "1"])
        .write_stdin("\nn\np\n3\nx\n99\nq\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("game 1 of "))
        .stdout(predicate::str::contains(": r (black) vs g (white), "))
        .stdout(predicate::str::contains("move 0 of "))
        .stdout(predicate::str::contains("move 2 of "))
        .stdout(predicate::str::contains("move 3 of "))
        .stdout(predicate::str::contains("> x\nunknown key 'x'"))
        .stdout(predicate::str::contains("there is no move 99"));
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(text.contains("    a b c d\n"), "{text}");
    // Played through: the result under the folder's anti rules.
    reversi_lab()
        .arg("replay")
        .arg(&out)
        .args(["--game", "0", "--auto", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("result: "))
        .stdout(predicate::str::contains("anti rules: fewer discs win"));
    // An unknown game or folder: one line, exit code 2.
    for (dir, game) in [(out.clone(), "7"), (dir.path().join("missing"), "0")] {
        reversi_lab()
            .arg("replay")
            .arg(&dir)
            .args(["--game", game])
            .assert()
            .code(2)
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
    }
    // The folder decides the rules.
    reversi_lab()
        .arg("replay")
        .arg(&out)
        .args(["--game", "0", "--anti"])
        .assert()
        .code(2);
}

#[test]
fn replay_reads_compressed_10x10_games_and_transcripts() {
    let dir = results(&format!(
        "name = \"big\"\nseed = 2\nsize = 10\ngames_per_pair = 2\ncompress = \"zstd\"\n{PLAYERS}"
    ));
    let out = dir.path().join("out");
    assert!(out.join("games.csv.zst").is_file());
    reversi_lab()
        .arg("replay")
        .arg(&out)
        .args(["--game", "1", "--auto", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("   a b c d e f g h i j\n"))
        .stdout(predicate::str::contains("10  "))
        .stdout(predicate::str::contains("result: "));
    reversi_lab()
        .args(["replay", "--moves", "f5d6c3", "--auto", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("move 3 of 3: black c3"))
        .stdout(predicate::str::contains("the transcript ends here"));
    reversi_lab()
        .args(["replay", "--moves", "c2", "--size", "6", "--anti"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("move 0 of 1: the start"));
    reversi_lab()
        .args(["replay", "--moves", "a1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("transcript ply 1"));
}

#[test]
fn replay_writes_a_recorded_game_as_gif_svg_and_page_and_never_overwrites() {
    let dir = results(&format!(
        "name = \"tiny\"\nseed = 3\nsize = 6\ngames_per_pair = 2\n[rules]\nanti = true\n{PLAYERS}"
    ));
    let out = dir.path().join("out");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let row: Vec<&str> = games.lines().nth(1).unwrap().split(',').collect();
    let plies: usize = row[9].parse().unwrap();
    for name in ["game.gif", "game.svg", "game.html"] {
        let file = dir.path().join(name);
        reversi_lab()
            .arg("replay")
            .arg(&out)
            .args(["--game", "0", "--out"])
            .arg(&file)
            .assert()
            .success()
            .stdout(predicate::str::contains("wrote "));
        // A second write needs --force, and the first file is kept until then.
        let before = std::fs::read(&file).unwrap();
        reversi_lab()
            .arg("replay")
            .arg(&out)
            .args(["--game", "0", "--out"])
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--force"));
        assert_eq!(std::fs::read(&file).unwrap(), before);
        reversi_lab()
            .arg("replay")
            .arg(&out)
            .args(["--game", "0", "--force", "--out"])
            .arg(&file)
            .assert()
            .success();
    }
    // The GIF has a frame for the start and one a ply.
    let file = std::fs::File::open(dir.path().join("game.gif")).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(file).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, plies + 1);
    let page = std::fs::read_to_string(dir.path().join("game.html")).unwrap();
    assert!(!page.contains("https://") && !page.contains("http://"));
    reversi_lab()
        .args(["replay", "--moves", "f5d6", "--out"])
        .arg(dir.path().join("game.png"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(".gif"));
}
