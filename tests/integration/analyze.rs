//! `analyze`: every analysed move checked against a plain minimax of its position
//! (normal and anti rules), byte-identical output on 1 and 2 threads and after a
//! resume, the report's section, and bad input refused with exit 2.

use reversi_lab::board::Size6;
use reversi_lab::game::{Game, Rules, Scoring};
use reversi_lab::lab::rows::{read_csv, GameRow};
use reversi_lab::studies::analyze::MoveRow;
use std::fs;
use std::path::Path;

use crate::common;
use crate::reference;
use common::{ok, run_in, Dir};

/// A 6x6 run: a random and a greedy player, short random openings.
fn config(rules: &str) -> String {
    format!(
        r#"
name = "tiny"
seed = 7
size = 6
games_per_pair = 16
{rules}
[openings]
random_plies = 2
[[players]]
name = "random"
strategy = "random"
[[players]]
name = "greedy"
strategy = "greedy"
"#
    )
}

/// A run of `config(rules)` in `dir/field`.
fn played(dir: &Path, rules: &str) {
    fs::write(dir.join("tiny.toml"), config(rules)).unwrap();
    ok(dir, &["run", "tiny.toml", "--out", "field", "-q"]);
}

/// Checks every row of `analysis.csv` against minimax, and that every move made
/// after the opening with at most `k` empties has its row.
fn check_against_minimax(folder: &Path, rules: Rules, k: u32) {
    let games: Vec<GameRow> = read_csv(&folder.join("games.csv")).unwrap();
    let rows: Vec<MoveRow> = read_csv(&folder.join("analysis.csv")).unwrap();
    let mut expected = 0;
    for record in &games {
        let moves = Game::<Size6>::from_transcript(&record.moves).unwrap();
        let opening = Game::<Size6>::from_transcript(&record.opening)
            .unwrap()
            .moves()
            .len();
        let mut game = Game::<Size6>::new();
        let mut game_turned = false;
        for (i, &square) in moves.moves().iter().enumerate() {
            let board = game.board();
            if i >= opening && board.empty_count() <= k {
                let row = &rows[expected];
                expected += 1;
                assert_eq!((row.game_id, row.ply), (record.game_id, i as u32 + 1));
                let values: Vec<(String, i32)> = reference::move_values(board, rules)
                    .into_iter()
                    .map(|(s, v)| (s.name(6), v))
                    .collect();
                let best = values.iter().map(|v| v.1).max().unwrap();
                let value = |name: &str| values.iter().find(|v| v.0 == name).unwrap().1;
                assert_eq!(row.best_score, best, "{row:?}");
                assert_eq!(row.played_score, value(&row.played), "{row:?}");
                assert_eq!(value(&row.best_move), best, "{row:?}");
                assert_eq!(row.loss, best - row.played_score);
                assert_eq!(row.legal as usize, values.len());
                assert_eq!(row.empties, board.empty_count());
                assert_eq!(row.played, square.name(6));
                assert_eq!(row.colour, game.side().name());
                let name = if row.colour == "black" {
                    &record.black
                } else {
                    &record.white
                };
                assert_eq!(&*row.player, &**name);
                let turned = best.signum() > row.played_score.signum();
                assert_eq!(!row.turn.is_empty(), turned, "{row:?}");
                assert_eq!(row.first_turn, turned && !game_turned, "{row:?}");
                game_turned |= turned;
            }
            game.play_unchecked(square);
        }
    }
    assert_eq!(rows.len(), expected, "one row per analysed move");
    assert!(expected > 50, "the run analysed only {expected} moves");
    assert!(rows.iter().any(|r| r.loss > 0), "some move lost discs");
}

#[test]
fn rows_match_minimax_under_normal_and_anti_rules() {
    for (rules_text, rules) in [
        ("", Rules::default()),
        (
            "[rules]\nanti = true\nscoring = \"count\"",
            Rules {
                anti: true,
                scoring: Scoring::Count,
            },
        ),
    ] {
        let dir = Dir::new();
        played(dir.path(), rules_text);
        let out = ok(dir.path(), &["analyze", "field", "--endgame", "8", "-q"]);
        assert!(out.contains("analysed 16 of 16 games"), "{out}");
        check_against_minimax(&dir.path().join("field"), rules, 8);
        let quality = fs::read_to_string(dir.path().join("field/quality.csv")).unwrap();
        assert!(
            quality.starts_with("player,empties,games,moves,best,"),
            "{quality}"
        );
        assert!(quality.contains("greedy,all,") && quality.contains("random,8,"));
        for chart in ["quality-loss", "quality-blunders"] {
            for ext in ["png", "svg"] {
                assert!(dir
                    .path()
                    .join(format!("field/charts/{chart}.{ext}"))
                    .is_file());
            }
        }
    }
}

#[test]
fn threads_and_resume_give_identical_bytes() {
    let dir = Dir::new();
    played(dir.path(), "");
    let field = dir.path().join("field");
    ok(
        dir.path(),
        &[
            "analyze",
            "field",
            "--endgame",
            "10",
            "--threads",
            "1",
            "-q",
        ],
    );
    let one = fs::read(field.join("analysis.csv")).unwrap();
    let quality = fs::read(field.join("quality.csv")).unwrap();
    ok(
        dir.path(),
        &[
            "analyze",
            "field",
            "--endgame",
            "10",
            "--threads",
            "2",
            "--force",
            "-q",
        ],
    );
    assert_eq!(fs::read(field.join("analysis.csv")).unwrap(), one);
    assert_eq!(fs::read(field.join("quality.csv")).unwrap(), quality);
    // A kill in the middle of a row: resume drops the cut game and redoes it.
    fs::write(field.join("analysis.csv"), &one[..one.len() * 2 / 3 + 5]).unwrap();
    ok(
        dir.path(),
        &["analyze", "field", "--endgame", "10", "--resume", "-q"],
    );
    assert_eq!(fs::read(field.join("analysis.csv")).unwrap(), one);
    assert_eq!(fs::read(field.join("quality.csv")).unwrap(), quality);
    // Only the header left.
    let header = one.iter().position(|&b| b == b'\n').unwrap() + 1;
    fs::write(field.join("analysis.csv"), &one[..header]).unwrap();
    ok(
        dir.path(),
        &[
            "analyze",
            "field",
            "--endgame",
            "10",
            "--resume",
            "-q",
            "--threads",
            "2",
        ],
    );
    assert_eq!(fs::read(field.join("analysis.csv")).unwrap(), one);
    // --out writes elsewhere, the same bytes.
    ok(
        dir.path(),
        &[
            "analyze",
            "field",
            "--endgame",
            "10",
            "--out",
            "elsewhere",
            "-q",
        ],
    );
    assert_eq!(
        fs::read(dir.path().join("elsewhere/analysis.csv")).unwrap(),
        one
    );
    // The report shows the section.
    ok(dir.path(), &["report", "field"]);
    let report = fs::read_to_string(field.join("report.md")).unwrap();
    assert!(
        report.contains("Move quality against perfect play"),
        "{report}"
    );
    assert!(report.contains("quality-loss"));
    assert!(report.contains("at most 10 empty squares"), "{report}");
}

#[test]
fn bad_input_exits_2_naming_the_fix() {
    let dir = Dir::new();
    let (code, _, err) = run_in(dir.path(), &["analyze", "missing"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing does not exist"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    played(dir.path(), "");
    for k in ["0", "21"] {
        let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--endgame", k]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("out of range: give K from 1 to 20"), "{err}");
    }
    let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--blunder", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--threads", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("use at least 1 thread"), "{err}");
    ok(dir.path(), &["analyze", "field", "--endgame", "6", "-q"]);
    let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--endgame", "6"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("already exists: --resume continues it, --force replaces it"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        &["analyze", "field", "--endgame", "7", "--resume"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--endgame 6, not 7"), "{err}");
    let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--blunder", "5000"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("give 1 to 200 discs"), "{err}");
    // Another run's games never continue this analysis.
    std::fs::create_dir(dir.path().join("other")).unwrap();
    played(&dir.path().join("other"), "");
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "analyze",
            "other/field",
            "--endgame",
            "6",
            "--out",
            "field",
            "--resume",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("analyse that folder with --resume"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Nor do the games of a run played again with another generator (schedule
    // version): an analysis.toml without the version analysed version 1's.
    let settings = dir.path().join("field/analysis.toml");
    let recorded = std::fs::read_to_string(&settings).unwrap();
    assert!(recorded.contains("schedule_version = 2\n"), "{recorded}");
    std::fs::write(&settings, recorded.replace("schedule_version = 2\n", "")).unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &["analyze", "field", "--endgame", "6", "--resume"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("analysed games of schedule version 1") && err.contains("now holds version 2"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Its summary is a result too: kept even when analysis.csv is gone.
    std::fs::remove_file(dir.path().join("field/analysis.csv")).unwrap();
    let (code, _, err) = run_in(dir.path(), &["analyze", "field", "--endgame", "6"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("quality.csv already exists"), "{err}");
}

/// Issue 52, item 31: after the run grows, the report says what its analysis covers,
/// and `analyze --resume` extends the analysis to the new games.
#[test]
fn an_analysis_follows_its_run_as_it_grows() {
    let dir = Dir::new();
    let d = dir.path();
    played(d, "");
    // The run stopped after 10 of its 16 games (cut back, as a stop leaves it).
    let games = d.join("field/games.csv");
    let text = fs::read_to_string(&games).unwrap();
    let kept: String = text.lines().take(11).map(|l| format!("{l}\n")).collect();
    fs::write(&games, kept).unwrap();
    let run = d.join("field/run.toml");
    let record = fs::read_to_string(&run).unwrap();
    fs::write(
        &run,
        record.replace("status = \"complete\"", "status = \"interrupted\""),
    )
    .unwrap();
    ok(d, &["analyze", "field", "--endgame", "6", "-q"]);
    ok(d, &["run", "tiny.toml", "--out", "field", "--resume", "-q"]);
    let html = fs::read_to_string(d.join("field/report.html")).unwrap();
    assert!(
        html.contains("This analysis covers the first 10 of the run&#x27;s 16 games")
            || html.contains("This analysis covers the first 10 of the run's 16 games"),
        "the report does not say the analysis is of fewer games"
    );
    let said = ok(d, &["analyze", "field", "--endgame", "6", "--resume", "-q"]);
    let settings = fs::read_to_string(d.join("field/analysis.toml")).unwrap();
    assert!(settings.contains("games = 16"), "{said}{settings}");
    let rows: Vec<MoveRow> = read_csv(&d.join("field/analysis.csv")).unwrap();
    assert!(
        rows.iter().any(|r| r.game_id == 15),
        "the new games are not analysed"
    );
    ok(d, &["report", "field"]);
    let html = fs::read_to_string(d.join("field/report.html")).unwrap();
    assert!(!html.contains("This analysis covers the first"));
    // The same analysis made from scratch: the extension is not another result.
    ok(
        d,
        &["analyze", "field", "--endgame", "6", "--out", "fresh", "-q"],
    );
    assert_eq!(
        fs::read(d.join("field/analysis.csv")).unwrap(),
        fs::read(d.join("fresh/analysis.csv")).unwrap()
    );
}
