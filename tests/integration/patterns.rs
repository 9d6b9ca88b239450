//! `reversi-lab fit-patterns` on a few hundred 8x8 games: the weights file it writes
//! reads back, the same games give the same bytes, the fit predicts held-out endgame
//! margins better than a constant, and bad input is refused in one line.

use reversi_lab::strategy::pattern::Weights;
use reversi_lab::studies::patterns::fit;
use std::fs;

use crate::common;
use common::{ok, run_in, Dir};

const GAMES: &str = r#"
name = "few"
seed = 5
size = 8
games_per_pair = 200
[openings]
random_plies = 6
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "mobility"
strategy = "mobility"
"#;

#[test]
fn fitted_weights_read_back_and_predict_the_endgame() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("few.toml"), GAMES).unwrap();
    ok(d, &["run", "few.toml", "--out", "games", "--quiet"]);
    let fit_games = |extra: &[&str]| {
        let mut args = vec![
            "fit-patterns",
            "games",
            "--out",
            "w.bin",
            "--iterations",
            "20",
        ];
        args.extend(extra);
        ok(d, &args)
    };
    let out = fit_games(&[]);
    assert!(out.starts_with("fitted 1"), "{out}");
    assert!(out.contains("of 200 games"), "{out}");
    let bytes = fs::read(d.join("w.bin")).unwrap();
    Weights::decode(&bytes).unwrap();
    // The same games, fitted again, give the same file.
    fit_games(&["--force"]);
    assert_eq!(fs::read(d.join("w.bin")).unwrap(), bytes);
    // Near the end the patterns see most of the board: the fit must beat a constant.
    let fitted = fit(&[d.join("games")], 20).unwrap();
    let last = &fitted.stages[0];
    assert!(last.test > 0 && last.rmse < last.spread, "{last:?}");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let dir = Dir::new();
    let d = dir.path();
    let (code, _, err) = run_in(d, &["fit-patterns", "missing", "--out", "w.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing does not exist"), "{err}");
    fs::write(d.join("small.toml"), GAMES.replace("size = 8", "size = 6")).unwrap();
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "small",
            "--games",
            "2",
            "--quiet",
        ],
    );
    let (code, _, err) = run_in(d, &["fit-patterns", "small", "--out", "w.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("patterns are fitted to 8x8 games"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    fs::write(d.join("w.bin"), "keep").unwrap();
    let (code, _, err) = run_in(d, &["fit-patterns", "small", "--out", "w.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("w.bin exists: pass --force"), "{err}");
    assert_eq!(fs::read_to_string(d.join("w.bin")).unwrap(), "keep");
}

/// A positions file of the start and the positions after each first move, in game
/// 1 (fitted on) and game 10 (held out): only the first stages have positions.
fn opening_positions(path: &std::path::Path) {
    use reversi_lab::board::{squares, Board, Size8};
    use reversi_lab::lab::positions::{Label, Labelled, Writer};
    let mut writer = Writer::create(path).unwrap();
    for game in [1, 10] {
        let start = Board::<Size8>::start();
        let mut boards = vec![start];
        boards.extend(squares(start.moves()).map(|m| start.play(m)));
        for (i, b) in boards.iter().enumerate() {
            writer
                .push(&Labelled {
                    player: b.player,
                    opponent: b.opponent,
                    value: 64 * i as i16,
                    label: Label::Search { depth: 4 },
                    game,
                })
                .unwrap();
        }
    }
    writer.sync().unwrap();
}

#[test]
fn empty_inputs_are_refused_and_the_errors_file_is_not_replaced_without_force() {
    let dir = Dir::new();
    let d = dir.path();
    // A file of no records: refused in one line (it panicked: chunk size must be non-zero).
    let writer = reversi_lab::lab::positions::Writer::create(&d.join("none.positions"));
    writer.unwrap().sync().unwrap();
    let (code, _, err) = run_in(d, &["fit-patterns", "none.positions", "--out", "w.bin"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hold no positions to fit"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!d.join("w.bin").exists());
    // Positions of a few stages only: the stages without any keep their start.
    opening_positions(&d.join("few.positions"));
    let said = ok(
        d,
        &[
            "fit-patterns",
            "few.positions",
            "--out",
            "w.bin",
            "--iterations",
            "3",
        ],
    );
    assert!(said.contains("held out    rmse  spread"), "{said}");
    assert!(!said.contains(" error "), "{said}");
    // The errors CSV, named or by default, is not replaced without --force.
    fs::write(d.join("keep.bin"), "keep").unwrap();
    let fit = |out: &str, extra: &[&str]| {
        let mut args = vec!["fit-patterns", "few.positions", "--out", out];
        args.extend(extra);
        args.extend(["--iterations", "3"]);
        run_in(d, &args)
    };
    let (code, _, err) = fit("w2.bin", &["--errors", "keep.bin"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("keep.bin exists: pass --force"), "{err}");
    assert_eq!(fs::read_to_string(d.join("keep.bin")).unwrap(), "keep");
    assert!(!d.join("w2.bin").exists());
    fs::write(d.join("w3.bin.errors.csv"), "keep").unwrap();
    let (code, _, err) = fit("w3.bin", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("w3.bin.errors.csv exists: pass --force"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("w3.bin.errors.csv")).unwrap(),
        "keep"
    );
    let (code, _, err) = fit("w3.bin", &["--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_to_string(d.join("w3.bin.errors.csv"))
        .unwrap()
        .starts_with("empties_from,"));
    // --before takes the names --start takes.
    let (code, said, err) = fit("w4.bin", &["--before", "shipped", "--start", "shipped"]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("before: shipped"), "{said}");
}

#[test]
fn help_texts_say_what_the_solver_orders_by() {
    let dir = Dir::new();
    let d = dir.path();
    for args in [
        &["fit-patterns", "--help"][..],
        &["pattern-error", "--help"],
        &["strategies"],
        &["help"],
    ] {
        let said = ok(d, args);
        for stale in [
            "solver's move ordering",
            "for the solver",
            "what the solver orders by",
            "solver's ordering",
        ] {
            assert!(!said.contains(stale), "{args:?} says {stale:?}: {said}");
        }
    }
}
