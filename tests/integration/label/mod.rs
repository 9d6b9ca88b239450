//! `reversi-lab label` and fitting from its files, on a few hundred positions: every
//! label equals a plain search's or the solver's value, positions are labelled once
//! each, the file is the same on 1 and 2 threads and after a resume from a torn
//! checkpointed state, and a fit to planted weights' values recovers them.

use reversi_lab::board::{Board, Size8};
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::positions::{Label, Labelled, Reader, Writer};
use reversi_lab::strategy::pattern::{instances, PatternEval, Weights, STAGES};
use reversi_lab::strategy::{proven_margin, AlphaBeta};
use reversi_lab::strategy::{Memory, Solver};
use reversi_lab::studies::patterns::{fit_with, FitOptions};
use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::Path;

use crate::common::{ok, run_in, Dir};

pub(super) const GAMES: &str = r#"
name = "few"
seed = 11
size = 8
games_per_pair = 6
[openings]
random_plies = 8
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "mobility"
strategy = "alphabeta:depth=2,eval=mobility"
"#;

pub(super) fn records(path: &Path) -> Vec<Labelled> {
    Reader::open(path).unwrap().map(Result::unwrap).collect()
}

/// The games of the folder `dir` as (game id, transcript).
fn games(dir: &Path) -> Vec<(u32, Game<Size8>)> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let id = headers.iter().position(|h| h == "game_id").unwrap();
    let moves = headers.iter().position(|h| h == "moves").unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let game = Game::<Size8>::from_transcript(&r[moves]).unwrap();
            (r[id].parse().unwrap(), game)
        })
        .collect()
}

#[test]
fn labels_are_a_plain_search_or_the_solver_and_the_file_is_deterministic() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("few.toml"), GAMES).unwrap();
    ok(d, &["run", "few.toml", "--out", "games", "--quiet"]);
    let label = |out: &str, threads: &str| {
        ok(
            d,
            &[
                "label",
                "games",
                "--out",
                out,
                "--depth",
                "3",
                "--exact",
                "12",
                "--threads",
                threads,
                "--quiet",
            ],
        )
    };
    let said = label("one.bin", "1");
    assert!(said.contains("wrote one.bin"), "{said}");
    label("two.bin", "2");
    let bytes = fs::read(d.join("one.bin")).unwrap();
    assert_eq!(
        bytes,
        fs::read(d.join("two.bin")).unwrap(),
        "threads changed the file"
    );
    assert!(!d.join("one.bin.checkpoint").exists());

    // Every position before a move, once, in the games' order, each valued afresh.
    let got = records(&d.join("one.bin"));
    let mut expected = Vec::new();
    let mut seen = HashSet::new();
    for (id, game) in games(&d.join("games")) {
        let mut replay = Game::<Size8>::new();
        for &square in game.moves() {
            let b = replay.board();
            if seen.insert((b.player, b.opponent)) {
                expected.push((id, b));
            }
            replay.play_unchecked(square);
        }
    }
    assert_eq!(got.len(), expected.len());
    assert!(got.len() > 300, "{} positions", got.len());
    let search = AlphaBeta::<Size8, PatternEval> {
        depth: 3,
        eval: PatternEval::for_board::<Size8>().unwrap(),
        endgame: 0,
        nodes: None,
        time: None,
        probcut: None,
        table: false,
        ordering: false,
        table_bits: 14,
        rules: Rules::default(),
        geometry: std::marker::PhantomData,
    };
    let solver = Solver::new(Rules::default(), 16);
    let (mut exact, mut searched) = (0, 0);
    for (record, &(id, board)) in got.iter().zip(&expected) {
        assert_eq!(
            (record.game, record.player, record.opponent),
            (id, board.player, board.opponent)
        );
        let mut memory = Memory::new();
        if board.empty_count() <= 12 {
            assert_eq!(record.label, Label::Exact);
            let score = solver.solve(board, &mut memory).score;
            assert_eq!(i32::from(record.value), score * 64, "{board:?}");
            exact += 1;
        } else {
            assert_eq!(record.label, Label::Search { depth: 3 });
            let (value, _) = search.search(board, board.moves(), &mut memory);
            let value = proven_margin(value)
                .map_or(value, |m| m * 64)
                .clamp(-4096, 4096);
            assert_eq!(i32::from(record.value), value, "{board:?}");
            searched += 1;
        }
    }
    assert!(
        exact > 50 && searched > 200,
        "{exact} exact, {searched} searched"
    );

    // pattern-error's rows are each stage's and label kind's error, recomputed here.
    ok(
        d,
        &[
            "pattern-error",
            "one.bin",
            "--weights",
            "ordering",
            "--csv",
            "e.csv",
        ],
    );
    let mut rows = csv::Reader::from_path(d.join("e.csv")).unwrap();
    let mut measured = 0;
    for row in rows.deserialize::<(String, u32, u32, String, u8, usize, f64, f64, f64)>() {
        let (name, from, to, kind, _, positions, mae, rmse, _) = row.unwrap();
        assert_eq!(name, "ordering");
        let errors: Vec<f64> = (got.iter())
            .filter(|r| (from..=to).contains(&r.empties()))
            .filter(|r| (r.label == Label::Exact) == (kind == "exact"))
            .map(|r| {
                f64::from(Weights::ordering().evaluate(r.player, r.opponent) - i32::from(r.value))
                    / 64.0
            })
            .collect();
        assert_eq!(errors.len(), positions, "{from}-{to} {kind}");
        let mean = errors.iter().map(|e| e.abs()).sum::<f64>() / positions as f64;
        let root = (errors.iter().map(|e| e * e).sum::<f64>() / positions as f64).sqrt();
        assert!(
            (mean - mae).abs() < 1e-9 && (root - rmse).abs() < 1e-9,
            "{from}-{to} {kind}"
        );
        measured += positions;
    }
    assert_eq!(measured, got.len());
    let (code, _, err) = run_in(d, &["pattern-error", "one.bin", "--csv", "e.csv"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--force"), "{err}");

    // A kill mid-batch: the work file (`FILE.partial`, which takes the file's place
    // once finished) holds more records than the checkpoint counts, the last one torn.
    // The rerun cuts back to the checkpoint and ends identical.
    let cut = 7u64;
    let records_at_cut = got.iter().take_while(|r| r.game < cut as u32).count() as u64;
    fs::write(
        d.join("one.bin.checkpoint"),
        checkpoint(cut, records_at_cut, "games"),
    )
    .unwrap();
    fs::rename(d.join("one.bin"), d.join("one.bin.partial")).unwrap();
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(d.join("one.bin.partial"))
        .unwrap();
    file.write_all(&[9; 30]).unwrap();
    drop(file);
    let said = label("one.bin", "2");
    assert!(said.contains("resumed after 7 games"), "{said}");
    assert_eq!(
        fs::read(d.join("one.bin")).unwrap(),
        bytes,
        "the resumed file differs"
    );
    for left in ["one.bin.partial", "one.bin.checkpoint", "one.bin.lock"] {
        assert!(!d.join(left).exists(), "{left} is left behind");
    }

    // A kill before the first batch reached the disk: a checkpoint of nothing and a
    // header cut short. The rerun starts afresh.
    fs::write(d.join("one.bin.checkpoint"), checkpoint(0, 0, "games")).unwrap();
    fs::rename(d.join("one.bin"), d.join("one.bin.partial")).unwrap();
    fs::write(d.join("one.bin.partial"), b"reversi-lab pos").unwrap();
    label("one.bin", "2");
    assert_eq!(
        fs::read(d.join("one.bin")).unwrap(),
        bytes,
        "the restarted file differs"
    );

    // Other settings do not resume it; a finished file is not overwritten.
    fs::write(
        d.join("one.bin.checkpoint"),
        checkpoint(cut, records_at_cut, "games"),
    )
    .unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "label", "games", "--out", "one.bin", "--depth", "4", "--exact", "12",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("was begun with --depth 3: rerun with those"),
        "{err}"
    );
    fs::remove_file(d.join("one.bin.checkpoint")).unwrap();
    let (code, _, err) = run_in(d, &["label", "games", "--out", "one.bin", "--depth", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("exists and is finished"), "{err}");
    assert_eq!(fs::read(d.join("one.bin")).unwrap(), bytes);
    for (args, says) in [
        (
            &["label", "games", "--out", "x.bin", "--depth", "0"][..],
            "--depth 0 is out of range",
        ),
        (
            &["label", "games", "--out", "x.bin", "--empties", "30-20"][..],
            "is not a range of empty squares",
        ),
        (
            &["label", "games", "--out", "x.bin", "--empties", "many"][..],
            "is not a range",
        ),
        (
            &["label", "nowhere", "--out", "x.bin"][..],
            "does not exist",
        ),
        (
            &["label", "games", "--out", "games/games.csv"][..],
            "games.csv",
        ),
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    assert!(!d.join("x.bin").exists());
    // fit-patterns reads the file (and the games) and writes its errors CSV.
    let said = ok(
        d,
        &[
            "fit-patterns",
            "one.bin",
            "games",
            "--out",
            "w.bin",
            "--iterations",
            "5",
        ],
    );
    assert!(said.contains("wrote w.bin and w.bin.errors.csv"), "{said}");
    let csv = fs::read_to_string(d.join("w.bin.errors.csv")).unwrap();
    assert!(
        csv.starts_with(
            "empties_from,empties_to,train,test,mae,rmse,mae_before,rmse_before,spread\n"
        ),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + STAGES);
    // From a start, the ridge pulls towards it: an overwhelming one keeps it whole.
    ok(
        d,
        &[
            "fit-patterns",
            "one.bin",
            "--out",
            "kept.bin",
            "--start",
            "shipped",
            "--ridge",
            "1e12",
            "--iterations",
            "5",
        ],
    );
    let kept = Weights::decode(&fs::read(d.join("kept.bin")).unwrap()).unwrap();
    assert!(
        kept == *Weights::shipped(),
        "a start held by an overwhelming ridge moved"
    );
    // The fitted weights play (`pattern:weights=FILE`) and label (`--weights`).
    let said = ok(
        d,
        &[
            "match",
            "alphabeta:depth=2,eval=(pattern:weights=w.bin)",
            "pattern",
            "--games",
            "2",
        ],
    );
    assert!(said.contains("game pair)"), "{said}");
    // In an experiment file the weights path starts from the file's folder, whatever
    // the working folder, and the run records the path it read.
    fs::create_dir(d.join("exp")).unwrap();
    fs::copy(d.join("w.bin"), d.join("exp/fitted.bin")).unwrap();
    let experiment = "name = \"relative\"\nsize = 8\ngames_per_pair = 2\n\
        [[players]]\nname = \"fitted\"\nstrategy = \"alphabeta:depth=1,eval=(pattern:weights=fitted.bin)\"\n\
        [[players]]\nname = \"table\"\nstrategy = { kind = \"alphabeta\", depth = 1, eval = { kind = \"pattern\", weights = \"fitted.bin\" } }\n";
    fs::write(d.join("exp/e.toml"), experiment).unwrap();
    ok(d, &["run", "exp/e.toml", "--out", "rel", "--quiet"]);
    let recorded = fs::read_to_string(d.join("rel/run.toml")).unwrap();
    assert_eq!(recorded.matches("exp/fitted.bin").count(), 2, "{recorded}");
    ok(
        d,
        &["run", "exp/e.toml", "--out", "rel", "--resume", "--quiet"],
    );
    ok(
        &d.join("exp"),
        &["run", "e.toml", "--out", "rel2", "--quiet"],
    );
    fs::remove_file(d.join("exp/fitted.bin")).unwrap();
    let (code, _, err) = run_in(d, &["run", "exp/e.toml", "--out", "rel3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exp/fitted.bin"), "{err}");
    ok(
        d,
        &[
            "label",
            "games",
            "--out",
            "again.bin",
            "--weights",
            "w.bin",
            "--depth",
            "2",
            "--quiet",
        ],
    );
    assert_ne!(fs::read(d.join("again.bin")).unwrap(), bytes);
    for args in [
        &[
            "match",
            "pattern:weights=games/games.csv",
            "greedy",
            "--games",
            "2",
        ][..],
        &[
            "label",
            "games",
            "--out",
            "x.bin",
            "--weights",
            "games/games.csv",
        ][..],
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("fit-patterns` wrote"), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// A checkpoint as `label` writes it, for the run above.
fn checkpoint(games: u64, records: u64, input: &str) -> String {
    format!(
        r#"{{"format": 1, "inputs": ["{input}"], "depth": 3, "exact": 12, "empties": [0, 60], "weights": "shipped", "games": {games}, "records": {records}}}"#
    )
}

/// A small planted evaluation: a value for each configuration of the first pattern
/// (the 3x3 corners) depending on its discs, none elsewhere.
fn planted(player: u64, opponent: u64) -> f32 {
    instances()
        .iter()
        .filter(|i| i.pattern == 0)
        .map(|i| {
            let own = (player & i.mask).count_ones() as f32;
            let other = (opponent & i.mask).count_ones() as f32;
            let corner = 1u64 << i.squares[0];
            2.0 * (own - other) + if player & corner != 0 { 5.0 } else { 0.0 }
        })
        .sum()
}

#[test]
fn a_fit_to_planted_values_recovers_them() {
    let dir = Dir::new();
    let path = dir.path().join("planted.bin");
    let mut writer = Writer::create(&path).unwrap();
    // Random games, every position labelled by the planted evaluation.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut count = 0;
    for game in 0..400u32 {
        let mut board = Board::<Size8>::start();
        while !board.is_game_over() {
            if !board.can_move() {
                board = board.pass();
                continue;
            }
            let moves: Vec<_> = reversi_lab::board::squares(board.moves()).collect();
            let value = planted(board.player, board.opponent);
            writer
                .push(&Labelled {
                    player: board.player,
                    opponent: board.opponent,
                    value: (value * 64.0).round() as i16,
                    label: Label::Search { depth: 1 },
                    game,
                })
                .unwrap();
            count += 1;
            board = board.play(moves[(next() % moves.len() as u64) as usize]);
        }
    }
    writer.sync().unwrap();
    drop(writer);
    let fit = fit_with(
        &FitOptions {
            inputs: vec![path.clone()],
            iterations: 200,
            ridge: 0.01,
            start: None,
        },
        &Weights::zero(),
    )
    .unwrap();
    assert_eq!(fit.positions, count);
    assert_eq!(fit.games, 400);
    // On the positions fitted on, the fitted evaluation is the planted one (up to
    // the weights' rounding to 1/64 disc).
    let (mut square, mut n) = (0f64, 0usize);
    for record in records(&path).iter().filter(|r| r.game % 10 != 0) {
        let fitted = f64::from(fit.weights.evaluate(record.player, record.opponent)) / 64.0;
        square += (fitted - record.discs()).powi(2);
        n += 1;
    }
    let rmse = (square / n as f64).sqrt();
    assert!(rmse < 0.25, "{rmse} discs on the fitted positions");
    for stage in &fit.stages {
        // Zero weights err by the labels' whole spread; the fit, on the held-out
        // games' unseen configurations too, by at most half of it.
        assert!((stage.rmse_before - stage.spread).abs() < 1e-9, "{stage:?}");
        if stage.test >= 20 {
            assert!(stage.rmse < 0.5 * stage.spread.max(1.0), "{stage:?}");
        }
    }
}

mod output;
