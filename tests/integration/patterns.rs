//! `reversi-lab fit-patterns` on a few hundred 8x8 games: the weights file it writes
//! reads back, the same games give the same bytes, the fit predicts held-out endgame
//! margins better than a constant, and bad input is refused in one line.

use reversi_lab::strategy::pattern::Weights;
use reversi_lab::studies::patterns::fit;
use std::fs;

use crate::common;
use common::{ok, run_in};

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
    let dir = tempfile::tempdir().unwrap();
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
    let dir = tempfile::tempdir().unwrap();
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
