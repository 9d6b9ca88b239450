//! `reversi-lab import`: a tiny WTHOR file (with its players' names) and a GGF file
//! built here become one results folder whose rows are their replays; `replay`,
//! `export` and `analyze` take it, `report` and `run --resume` refuse it by name; bad
//! files are refused in one line naming the file (exit code 2).

use reversi_lab::board::Size8;
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::export::ggf::read_games;
use reversi_lab::lab::import::wthor::{game_file, names_file, record_of, PLAYER_NAME};
use reversi_lab::lab::rows::{read_csv, GameRow};
use std::fs;
use std::path::Path;

use crate::common;
use common::{ok, run_in, Dir};

/// Game 1 of tests/golden/round-robin: 60 moves, 2 passes, 24 to 40.
const WITH_PASSES: &str = "f5f4e3d2g3d6c1g4c5g2h4d3d7c7g1h2e6g5g6f2b8f6e1h6g7e2f3e7e8c2d1b6a7f8g8h7c3b5a5c6b7h8f7d8h5b4a3b2c4b1f1c8a2a1b3h3h1a8a6a4";
/// Black wipes white out in 9 moves.
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";
/// A game that ends 32-32 after a pass, as GGS wrote it (weltyc/novello's GgfGameTest).
const GGF: &str = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]B[e6//0.01]W[d2//0.01]B[c6//0.01]W[d6//0.01]B[b5//0.01]W[f5//0.01]B[e7//0.01]W[f6//0.01]B[f4//0.01]W[f3//0.01]B[g4//0.01]W[d7//0.01]B[g3//0.01]W[g5//0.01]B[h6//0.01]W[h5//0.01]B[h4//0.01]W[e8//0.01]B[c7//0.01]W[h3//0.01]B[c3//0.01]W[h7//0.01]B[e3//0.01]W[b6//0.01]B[g6//5.42]W[f7//0.01]B[d8//0.01]W[c2//0.01]B[d1//0.01]W[c4//0.01]B[b4//0.01]W[a5//0.01]B[f8//0.01]W[f2//0.01]B[e2//0.01]W[a4//17.38]B[a3//19.10]W[b3//0.01]B[f1//4.90]W[g7//0.01]B[b7//0.01]W[c8//0.01]B[a6//0.01]W[a7//0.01]B[c1//0.01]W[b2//0.01]B[a8//0.01]W[b8//0.01]B[a2//0.01]W[e1//0.01]B[h8//0.01]W[g8//0.01]B[h2//0.01]W[g1//0.01]B[h1//3.80]W[g2//0.01]B[pass]W[a1//0.01]B[b1//0.01];)";

fn write_inputs(dir: &Path) {
    let records = [
        record_of(WITH_PASSES, 0, 1, 24),
        record_of(WIPE_OUT, 1, 0, 64),
    ];
    fs::write(dir.join("WTH_2004.wtb"), game_file(2004, &records)).unwrap();
    fs::write(
        dir.join("WTHOR.JOU"),
        names_file(&["Ada", "Bob"], PLAYER_NAME),
    )
    .unwrap();
    fs::write(dir.join("server.ggf"), format!("{GGF}\n")).unwrap();
}

#[test]
fn imported_games_are_their_replays_and_the_studies_take_them() {
    let tmp = Dir::new();
    let dir = tmp.path();
    write_inputs(dir);
    let args = [
        "import",
        "WTHOR.JOU",
        "WTH_2004.wtb",
        "server.ggf",
        "--out",
        "results/imported",
    ];
    let said = ok(dir, &args);
    assert!(said.contains("imported 3 games"), "{said}");
    let folder = dir.join("results/imported");
    let first = fs::read(folder.join("games.csv")).unwrap();
    let rows: Vec<GameRow> = read_csv(&folder.join("games.csv")).unwrap();
    assert_eq!(rows.len(), 3);
    let names: Vec<(&str, &str)> = rows.iter().map(|r| (&*r.black, &*r.white)).collect();
    assert_eq!(
        names,
        [("Ada", "Bob"), ("Bob", "Ada"), ("Saio1200", "Saio3000")]
    );
    let transcripts: Vec<&str> = rows.iter().map(|r| &*r.moves).collect();
    assert_eq!(transcripts[..2], [WITH_PASSES, WIPE_OUT]);
    for row in &rows {
        let game = Game::<Size8>::from_transcript(&row.moves).unwrap();
        let outcome = game.outcome(Rules::default()).expect("over");
        assert_eq!(
            (row.margin, row.black_discs, row.white_discs),
            (outcome.margin, outcome.black_discs, outcome.white_discs),
            "game {}",
            row.game_id
        );
        assert_eq!(
            (row.plies, row.passes),
            (game.moves().len() as u32, game.passes())
        );
    }
    assert_eq!(
        (rows[0].margin, rows[1].margin, rows[2].margin),
        (-16, 64, 0)
    );
    // The same files again: the same bytes.
    let again = [&args[..], &["--force"]].concat();
    ok(dir, &again);
    assert_eq!(fs::read(folder.join("games.csv")).unwrap(), first);
    let (code, _, stderr) = run_in(dir, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("already exists"), "{stderr}");

    // replay, export and analyze take the folder.
    let shown = ok(
        dir,
        &["replay", "results/imported", "--game", "2", "--auto", "0"],
    );
    assert!(
        shown.contains("Saio1200 (black) vs Saio3000 (white), a draw"),
        "{shown}"
    );
    let ggf = ok(dir, &["export", "results/imported", "--format", "ggf"]);
    let back = read_games(&ggf).unwrap();
    assert_eq!(back.len(), 3);
    for (game, row) in back.iter().zip(&rows) {
        assert_eq!(game.transcript().unwrap(), row.moves);
        assert_eq!(game.result, Some(f64::from(row.margin)));
    }
    let analysed = ok(
        dir,
        &[
            "analyze",
            "results/imported",
            "--endgame",
            "8",
            "--threads",
            "1",
            "--quiet",
        ],
    );
    assert!(analysed.contains("analysed 3 of 3 games"), "{analysed}");
    assert!(analysed.contains("Saio1200:"), "{analysed}");
    assert!(folder.join("quality.csv").is_file());

    // The commands that need strategies or a run's tables refuse it by name.
    for refused in [
        vec!["report", "results/imported"],
        vec!["run", "--resume", "--out", "results/imported"],
    ] {
        let (code, _, stderr) = run_in(dir, &refused);
        assert_eq!(code, 2, "{refused:?}: {stderr}");
        assert!(
            stderr.contains("imported by `reversi-lab import`"),
            "{stderr}"
        );
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
}

#[test]
fn bad_files_are_refused_in_one_line_naming_the_file() {
    let tmp = Dir::new();
    let dir = tmp.path();
    let good = game_file(2004, &[record_of(WIPE_OUT, 0, 1, 64)]);
    let mut illegal = record_of(WIPE_OUT, 0, 1, 64);
    illegal.moves[2] = 88;
    let mut miscounted = good.clone();
    miscounted[4] = 2;
    let mut ten = good.clone();
    ten[12] = 10;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("cut.wtb", good[..good.len() - 1].to_vec(), "cut.wtb is cut"),
        (
            "miscounted.wtb",
            miscounted,
            "the header counts 2 games but the file holds 1",
        ),
        ("ten.wtb", ten, "10x10"),
        (
            "illegal.wtb",
            game_file(2004, &[illegal]),
            "illegal.wtb: game 1 (player 0 vs player 1): move 3 (h8, byte 88): h8 is not a legal move for black",
        ),
        ("bad.ggf", b"(;GM[Othello]PB[a]PW[b]B[a1];)".to_vec(), "bad.ggf: game 1"),
    ];
    for (name, bytes, expected) in cases {
        fs::write(dir.join(name), bytes).unwrap();
        let (code, stdout, stderr) = run_in(dir, &["import", name, "--out", "out"]);
        assert_eq!(code, 2, "{name}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.join("out").exists(), "{name}: nothing written");
    }
    let (code, _, stderr) = run_in(dir, &["import", "absent.wtb", "--out", "out"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("absent.wtb"), "{stderr}");
    // --skip-bad leaves the bad game out, says so, and imports the rest.
    fs::write(
        dir.join("mixed.wtb"),
        game_file(
            2004,
            &[record_of(WITH_PASSES, 0, 1, 24), {
                let mut r = record_of(WIPE_OUT, 0, 1, 64);
                r.moves[0] = 99;
                r
            }],
        ),
    )
    .unwrap();
    let (code, stdout, stderr) =
        run_in(dir, &["import", "mixed.wtb", "--out", "out", "--skip-bad"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("imported 1 game ("), "{stdout}");
    assert!(
        stderr.contains(
            "warning: mixed.wtb: game 2 (player 0 vs player 1) left out: move 1 is byte 99"
        ),
        "{stderr}"
    );
}

#[test]
fn malformed_ggf_is_refused_or_skipped_and_missing_names_are_said() {
    let tmp = Dir::new();
    let dir = tmp.path();
    // An escaped bracket is part of the name.
    let escaped = GGF.replace("PB[Saio1200]", r"PB[gr\]eedy]");
    fs::write(dir.join("escaped.ggf"), &escaped).unwrap();
    ok(dir, &["import", "escaped.ggf", "--out", "escaped"]);
    let rows: Vec<GameRow> = read_csv(&dir.join("escaped/games.csv")).unwrap();
    assert_eq!((&*rows[0].black, &*rows[0].white), ("gr]eedy", "Saio3000"));
    // A bracket left bare, an unreadable RE, a last game cut short: each refused in one
    // line naming the game and the property, or left out and counted by --skip-bad.
    let bare = GGF.replace("PB[Saio1200]", "PB[gr]eedy]");
    let re = GGF.replace("RE[+0.000]", "RE[won]");
    let cases = [
        (
            "bare.ggf",
            format!("{GGF}\n{bare}\n"),
            "bare.ggf: game 2: 'eedy]PW' is not a property name",
        ),
        (
            "re.ggf",
            format!("{re}\n{GGF}\n"),
            "re.ggf: game 1: property RE: RE[won] is not a result",
        ),
        (
            "cut.ggf",
            format!("{GGF}\n{}", &GGF[..400]),
            "cut.ggf: game 2: no closing ;)",
        ),
    ];
    for (name, text, says) in cases {
        fs::write(dir.join(name), text).unwrap();
        let (code, _, err) = run_in(dir, &["import", name, "--out", "out"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(err.contains("--skip-bad"), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        let folder = format!("{name}.out");
        let (code, said, err) = run_in(dir, &["import", name, "--out", &folder, "--skip-bad"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(said.contains("imported 1 game ("), "{name}: {said}");
        assert!(said.contains("1 left out"), "{name}: {said}");
        let game = says.splitn(3, ": ").take(2).collect::<Vec<_>>().join(": ");
        assert!(
            err.contains(&format!("warning: {game} left out")),
            "{name}: {err}"
        );
        let recorded = fs::read_to_string(dir.join(&folder).join("run.toml")).unwrap();
        assert!(recorded.contains("bad = 1"), "{name}: {recorded}");
    }
    // A game without PW: a named default, said with its count.
    let unnamed = GGF.replace("PW[Saio3000]", "");
    fs::write(dir.join("unnamed.ggf"), &unnamed).unwrap();
    let (code, _, err) = run_in(dir, &["import", "unnamed.ggf", "--out", "unnamed"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: 1 GGF player is not named (no PB or PW, or an empty one): they are called `unnamed black` and `unnamed white`"),
        "{err}"
    );
    let rows: Vec<GameRow> = read_csv(&dir.join("unnamed/games.csv")).unwrap();
    assert_eq!(
        (&*rows[0].black, &*rows[0].white),
        ("Saio1200", "unnamed white")
    );
}

#[test]
fn a_wthor_file_given_twice_is_refused_and_missing_players_are_said() {
    let tmp = Dir::new();
    let dir = tmp.path();
    write_inputs(dir);
    fs::copy(dir.join("WTH_2004.wtb"), dir.join("copy.wtb")).unwrap();
    for files in [
        &["WTH_2004.wtb", "WTH_2004.wtb"][..],
        &["WTH_2004.wtb", "copy.wtb"],
    ] {
        let args = [&["import"][..], files, &["--out", "out"]].concat();
        let (code, _, err) = run_in(dir, &args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("WTH_2004.wtb is given twice")
                || err.contains("copy.wtb holds the same bytes as WTH_2004.wtb"),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!dir.join("out").exists());
    }
    // Player 200 is not in WTHOR.JOU (Ada and Bob are 0 and 1).
    let records = [record_of(WIPE_OUT, 0, 200, 64)];
    fs::write(dir.join("far.wtb"), game_file(2004, &records)).unwrap();
    let (code, _, err) = run_in(dir, &["import", "WTHOR.JOU", "far.wtb", "--out", "far"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: 1 player numbers are missing from WTHOR.JOU (200): those are called `player N`"),
        "{err}"
    );
}
