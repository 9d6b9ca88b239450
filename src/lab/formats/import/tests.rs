//! The import of files built here: WTHOR with and without names, GGF, what is left
//! out or refused, and the folder it writes.

use super::wthor::{game_file, names_file, record_of, PLAYER_NAME, TOURNAMENT_NAME};
use super::*;
use crate::board::Size8;
use crate::lab::rows::read_csv;

/// Game 1 of tests/golden/round-robin: 60 moves, 2 passes, 24 to 40.
const WITH_PASSES: &str = "f5f4e3d2g3d6c1g4c5g2h4d3d7c7g1h2e6g5g6f2b8f6e1h6g7e2f3e7e8c2d1b6a7f8g8h7c3b5a5c6b7h8f7d8h5b4a3b2c4b1f1c8a2a1b3h3h1a8a6a4";
/// Black wipes white out in 9 moves: 13 to 0 with 51 empty, 64-0 with the empties.
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";

fn options(dir: &Path, files: &[&str]) -> ImportOptions {
    ImportOptions {
        files: files.iter().map(|f| dir.join(f)).collect(),
        out: dir.join("out"),
        force: false,
        skip_bad: false,
    }
}

fn games(dir: &Path) -> Vec<GameRow<'static>> {
    read_csv(&dir.join("out").join("games.csv")).unwrap()
}

#[test]
fn wthor_games_become_rows_with_the_replays_results() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut unfinished = record_of(&WITH_PASSES[..40], 2, 0, 30);
    unfinished.tournament = 1;
    let records = [
        record_of(WITH_PASSES, 0, 1, 24),
        record_of(WIPE_OUT, 1, 2, 64),
        unfinished,
        // 13 is black's discs alone: also taken as agreeing.
        record_of(WIPE_OUT, 2, 0, 13),
        // A wrong count: kept with the replay's result, and said.
        record_of(WITH_PASSES, 0, 1, 40),
    ];
    fs::write(dir.join("WTH_2004.wtb"), game_file(2004, &records)).unwrap();
    fs::write(
        dir.join("WTHOR.JOU"),
        names_file(&["Ada", "Bob", "Cy"], PLAYER_NAME),
    )
    .unwrap();
    fs::write(
        dir.join("WTHOR.TRN"),
        names_file(&["Open", "Cup"], TOURNAMENT_NAME),
    )
    .unwrap();
    let done = import(&options(dir, &["WTH_2004.wtb", "WTHOR.JOU", "WTHOR.TRN"])).unwrap();
    assert_eq!(done.games, 4);
    assert_eq!(done.left_out.len(), 1);
    assert!(
        done.left_out[0].contains("WTH_2004.wtb: game 3 (Cy vs Ada) left out: its 20 moves stop"),
        "{:?}",
        done.left_out
    );
    assert_eq!(done.disagreements.len(), 1);
    assert!(
        done.disagreements[0].contains("game 5 (Ada vs Bob): the file records 40 black discs but the moves end 24-40 (margin -16)"),
        "{:?}",
        done.disagreements
    );
    let rows = games(dir);
    let ids: Vec<u64> = rows.iter().map(|r| r.game_id).collect();
    assert_eq!(ids, [0, 1, 2, 3]);
    assert_eq!((&*rows[0].black, &*rows[0].white), ("Ada", "Bob"));
    assert_eq!(
        (rows[0].margin, rows[0].passes, rows[0].plies),
        (-16, 2, 60)
    );
    assert_eq!(&*rows[0].moves, WITH_PASSES);
    assert_eq!(
        (rows[1].margin, rows[1].black_discs, rows[1].white_discs),
        (64, 13, 0)
    );
    assert_eq!(&*rows[1].result, "black");
    // Pairs are numbered by first appearance, either colour.
    let pairs: Vec<u64> = rows.iter().map(|r| r.pair_id).collect();
    assert_eq!(pairs, [0, 1, 2, 0]);
    let imported: Vec<ImportedRow> = read_csv(&dir.join("out").join(IMPORTED_FILE)).unwrap();
    assert_eq!(imported.len(), 4);
    assert_eq!(imported[2].number, 4);
    assert_eq!(
        (imported[0].event.as_str(), imported[0].date.as_str()),
        ("Open", "2004")
    );
    let agrees: Vec<&str> = imported.iter().map(|r| r.agrees.as_str()).collect();
    assert_eq!(agrees, ["yes", "yes", "yes", "no"]);
    let record = RunToml::load(&dir.join("out").join("run.toml")).unwrap();
    let info = record.import.clone().unwrap();
    assert_eq!(info.players, ["Ada", "Bob", "Cy"]);
    let wtb = &info.sources[2];
    assert_eq!(wtb.format, SourceFormat::Wthor);
    assert_eq!(
        (wtb.games, wtb.imported, wtb.unfinished, wtb.disagreeing),
        (Some(5), Some(4), Some(1), Some(1))
    );
    assert_eq!(record.run.status, Status::Complete);
    // The studies' view of the folder: its size and rules.
    let setting = crate::lab::recorded_run(&dir.join("out"), "replay").unwrap();
    assert_eq!((setting.size, setting.rules), (8, Rules::default()));
    let game = crate::lab::load_game(&dir.join("out"), 1).unwrap();
    assert_eq!(game.moves, WIPE_OUT);
    assert!(record
        .refuse_import(Path::new("out"), "reported")
        .unwrap_err()
        .to_string()
        .contains("imported by `reversi-lab import`"));
}

#[test]
fn the_same_files_give_the_same_bytes_and_no_names_give_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let records = [record_of(WITH_PASSES, 7, 9, 24)];
    fs::write(dir.join("a.wtb"), game_file(1999, &records)).unwrap();
    import(&options(dir, &["a.wtb"])).unwrap();
    let first = fs::read(dir.join("out").join("games.csv")).unwrap();
    let rows = games(dir);
    assert_eq!((&*rows[0].black, &*rows[0].white), ("player 7", "player 9"));
    // A second import into the folder is refused without --force, and repeats it with.
    let again = import(&options(dir, &["a.wtb"])).unwrap_err().to_string();
    assert!(
        again.contains("already exists: --force replaces it"),
        "{again}"
    );
    let forced = ImportOptions {
        force: true,
        ..options(dir, &["a.wtb"])
    };
    import(&forced).unwrap();
    assert_eq!(fs::read(dir.join("out").join("games.csv")).unwrap(), first);
    assert!(!dir.join("out").join(crate::lab::folder::LOCK_FILE).exists());
}

#[test]
fn bad_games_are_refused_by_file_game_and_move_or_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut bad = record_of(WIPE_OUT, 0, 1, 64);
    bad.moves[3] = 11;
    let records = [record_of(WITH_PASSES, 0, 1, 24), bad];
    fs::write(dir.join("b.wtb"), game_file(2000, &records)).unwrap();
    let err = import(&options(dir, &["b.wtb"])).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    // The fix is a setting, named as the caller gives it.
    assert!(
        err.worded(crate::setting::Edge::Python)
            .ends_with("pass skip_bad=True to leave such games out"),
        "{err}"
    );
    let err = err.to_string();
    assert!(
        err.contains("b.wtb: game 2 (player 0 vs player 1): move 4 (a1, byte 11): a1 is not a legal move for white"),
        "{err}"
    );
    assert!(err.contains("--skip-bad"), "{err}");
    assert!(!dir.join("out").exists(), "nothing written");
    let skipping = ImportOptions {
        skip_bad: true,
        ..options(dir, &["b.wtb"])
    };
    let done = import(&skipping).unwrap();
    assert_eq!((done.games, done.left_out.len()), (1, 1));
    // Unknown kinds of file, and files that hold no games.
    fs::write(dir.join("c.txt"), "f5").unwrap();
    let err = import(&options(dir, &["c.txt"])).unwrap_err().to_string();
    assert!(
        err.contains("c.txt: import reads WTHOR game files"),
        "{err}"
    );
    fs::write(dir.join("WTHOR.JOU"), names_file(&["x"], PLAYER_NAME)).unwrap();
    let err = import(&options(dir, &["WTHOR.JOU"]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("hold no games"), "{err}");
    let err = import(&options(dir, &["missing.wtb"]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing.wtb"), "{err}");
}

#[test]
fn ggf_games_are_replayed_and_sizes_do_not_mix() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut line = crate::game::Line::<Size8>::new(crate::board::Position::start());
    line.play_transcript(WITH_PASSES).unwrap();
    let row = GameRow {
        black: "Saio".into(),
        white: "Zebra".into(),
        margin: -16,
        ..GameRow::default()
    };
    let mut text = String::new();
    ggf::write_game::<Size8>(&row, Rules::default(), "2003.12.15", &line, &mut text).unwrap();
    text.push('\n');
    let resigned = "(;GM[Othello]PB[a]PW[b]TY[8]RE[-64.000:r]B[f5]W[d6];)\n";
    fs::write(dir.join("g.ggf"), format!("{text}{resigned}")).unwrap();
    let done = import(&options(dir, &["g.ggf"])).unwrap();
    assert_eq!((done.games, done.left_out.len()), (1, 1));
    assert!(done.disagreements.is_empty());
    let rows = games(dir);
    assert_eq!(&*rows[0].moves, WITH_PASSES);
    assert_eq!((&*rows[0].black, rows[0].margin), ("Saio", -16));
    let six = "(;GM[Othello]PB[a]PW[b]TY[6]RE[+0]B[d2];)\n";
    fs::write(dir.join("six.ggf"), six).unwrap();
    let mixed = ImportOptions {
        out: dir.join("mixed"),
        ..options(dir, &["g.ggf", "six.ggf"])
    };
    let err = import(&mixed).unwrap_err().to_string();
    assert!(err.contains("six.ggf: game 1 is 6x6 but"), "{err}");
}
