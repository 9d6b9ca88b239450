//! The binary as a user meets it: output formats, exit codes and error messages.

use crate::common::{reversi_lab, Dir};
use predicates::prelude::*;

#[test]
fn perft_prints_the_count_on_its_own_line() {
    reversi_lab()
        .args(["perft", "6"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("8200\ntime "))
        .stdout(predicate::str::contains("M leaves/s"));
}

#[test]
fn perft_with_threads_and_sizes() {
    reversi_lab()
        .args(["perft", "8", "--threads", "2"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("390216\n"));
    reversi_lab()
        .args(["perft", "2", "--size", "10"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("12\n"));
}

#[test]
fn perft_from_a_position() {
    reversi_lab()
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
            vec!["perft", "31"],
            "perft depth 31 is out of range: use 0 to 30",
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
        (
            vec!["match", "greedy", "random", "--games", "2", "--csv", "Cargo.toml"],
            "Cargo.toml already exists: choose another --csv file",
        ),
        (
            vec!["match", "greedy", "random", "--games", "2", "--csv", "no-such-folder/m.csv"],
            "no-such-folder/m.csv: the folder no-such-folder does not exist; create it first, or write elsewhere",
        ),
    ] {
        let output = reversi_lab().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn show_draws_the_board() {
    reversi_lab()
        .args(["show", "f5d6c3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("    a b c d e f g h"))
        .stdout(predicate::str::contains("white to move"))
        .stdout(predicate::str::contains("obf: "));
}

#[test]
fn strategies_lists_every_kind_with_parameters() {
    let output = reversi_lab().arg("strategies").output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for kind in reversi_lab::strategy::spec::kind_names() {
        assert!(text.contains(kind), "{kind} missing");
    }
    assert!(text.contains("depth") && text.contains("default 4"));
}

#[test]
fn match_prints_one_summary_line() {
    let output = reversi_lab()
        .args([
            "match",
            "greedy",
            "random",
            "--games",
            "200",
            "--seed",
            "3",
            "--threads",
            "2",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let line = text.trim_end();
    assert_eq!(line.lines().count(), 1, "{text}");
    let pattern = regex_lite(line);
    assert!(pattern, "{line}");
    // Same seed, other thread count: the same line.
    let again = reversi_lab()
        .args([
            "match",
            "greedy",
            "random",
            "--games",
            "200",
            "--seed",
            "3",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

/// `A vs B: W wins, D draws, L losses (win rate X%, score Y% [L%, H%], 95% pentanomial
/// interval over 100 game pairs)` with W+D+L = 200 and L <= Y <= H.
fn regex_lite(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("greedy vs random: ") else {
        return false;
    };
    let numbers: Vec<f64> = rest
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && *t != ".")
        .map(|t| t.parse().unwrap())
        .collect();
    numbers.len() == 9
        && numbers[0] + numbers[1] + numbers[2] == 200.0
        && numbers[5] <= numbers[4]
        && numbers[4] <= numbers[6]
        && (rest.contains(" wins, ") || rest.contains(" win, "))
        && (rest.contains(" draws, ") || rest.contains(" draw, "))
        && (rest.contains(" losses (win rate ") || rest.contains(" loss (win rate "))
        && rest.contains("%, score ")
        && rest.ends_with("%], 95% pentanomial interval over 100 game pairs)")
}

#[test]
fn match_rejects_bad_specs_with_suggestions() {
    let output = reversi_lab()
        .args(["match", "greddy", "random"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("unknown strategy 'greddy' (did you mean 'greedy'?"),
        "{stderr}"
    );
    let output = reversi_lab()
        .args(["match", "alphabeta:depth=0", "random"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = reversi_lab()
        .args(["match", "weighted:preset=classic", "random", "--size", "6"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("8x8 table"));
}

#[test]
fn solve_prints_and_checks_scores() {
    use reversi_lab::board::{Board, Position, Size8};
    use reversi_lab::game::Rules;
    use reversi_lab::strategy::{Memory, Solver};
    // A position from a fixed random game, 12 empties, solved here to annotate it.
    let mut game = reversi_lab::game::Game::<Size8>::new();
    let mut k = 12345u64;
    while game.board().empty_count() > 12 && !game.is_over() {
        let moves: Vec<_> = reversi_lab::board::squares(game.board().moves()).collect();
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        game.play(moves[(k >> 33) as usize % moves.len()]).unwrap();
    }
    let position: Position<Size8> = *game.position();
    let board: Board<Size8> = position.board;
    let solution = Solver::new(Rules::default(), 12).solve(board, &mut Memory::new());
    let best = reversi_lab::board::squares(solution.best)
        .next()
        .unwrap()
        .name(8)
        .to_uppercase();
    let dir = Dir::new();
    let good = dir.path().join("good.obf");
    std::fs::write(
        &good,
        format!("{}; {best}:{:+};\n", position.to_obf(), solution.score),
    )
    .unwrap();
    let output = reversi_lab()
        .args(["solve", good.to_str().unwrap(), "--table-bits", "16"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains(&format!("score {:+4}", solution.score)),
        "{text}"
    );
    assert!(text.contains("ok"), "{text}");
    // Every best move, on two threads: the same score, and the move found above among them.
    let output = reversi_lab()
        .args(["solve", good.to_str().unwrap(), "--table-bits", "16"])
        .args(["--all", "--threads", "2", "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(line["score"], solution.score, "{text}");
    let all = line["best"].as_array().unwrap();
    assert!(
        all.iter()
            .any(|m| m.as_str().unwrap().eq_ignore_ascii_case(&best)),
        "{text}"
    );
    let output = reversi_lab()
        .args(["solve", good.to_str().unwrap(), "--threads", "2000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let bad = dir.path().join("bad.obf");
    std::fs::write(
        &bad,
        format!("{}; {best}:{:+};\n", position.to_obf(), solution.score + 2),
    )
    .unwrap();
    let output = reversi_lab()
        .args(["solve", bad.to_str().unwrap(), "--table-bits", "16"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("MISMATCH"));
    let output = reversi_lab()
        .args(["solve", dir.path().join("missing.obf").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("missing.obf"));
}

#[test]
fn gtp_session_through_the_binary() {
    let output = reversi_lab()
        .args(["gtp", "--strategy", "alphabeta:depth=2", "--seed", "3"])
        .write_stdin(
            "1 name\nboardsize 8\nclear_board\nplay black f5\n2 genmove white\nfinal_score\nbogus\nquit\n",
        )
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(replies[..4], ["=1 reversi-lab", "=", "=", "="], "{text}");
    let reply = replies[4].strip_prefix("=2 ").unwrap();
    assert!(["d6", "f4", "f6"].contains(&reply), "{text}");
    assert_eq!(replies[5..], ["? cannot score", "? unknown command", "="]);
}

#[test]
fn nboard_session_through_the_binary() {
    let game = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6/-1.00/2.3];)";
    let output = reversi_lab()
        .args(["nboard", "--strategy", "alphabeta:depth=2"])
        .write_stdin(format!(
            "nboard 2\nset depth 3\nset game {game}\nping 1\ngo\nhint 2\n"
        ))
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        ["set myname reversi-lab", "set myname reversi-lab", "pong 1"],
        "{text}"
    );
    assert!(lines[3].starts_with("nodestats "), "{text}");
    assert!(lines[4].starts_with("=== "), "{text}");
    assert!(
        lines[5].starts_with("search ") && lines[6].starts_with("search "),
        "{text}"
    );
    assert_eq!(lines.last(), Some(&"status"));
}

#[test]
fn serving_a_bad_strategy_is_refused_in_one_line() {
    for command in ["gtp", "nboard"] {
        let output = reversi_lab()
            .args([command, "--strategy", "greddy"])
            .write_stdin("name\n")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: --strategy greddy: unknown strategy"),
            "{err}"
        );
        assert!(output.stdout.is_empty());
    }
    let output = reversi_lab()
        .args(["gtp", "--strategy", "solver"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = reversi_lab().args(["gtp", "--seed", "x"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn sprt_plan_sizes_a_test_and_refuses_bad_designs() {
    // Near the hypotheses the pass probability is alpha and 1 - beta; the table says so.
    reversi_lab()
        .args([
            "sprt-plan",
            "--elo0",
            "0",
            "--elo1",
            "5",
            "--draw-ratio",
            "0.6",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("| 0.00 | 5.0% |"))
        .stdout(predicate::str::contains("| +5.00 | 95.0% |"))
        .stdout(predicate::str::contains("| +2.50 | 50.0% |"));
    // --from a results folder, with the files and the chart; a second plan there is refused.
    let dir = Dir::new();
    let out = dir.path().join("plan");
    let from = [
        "--from",
        "tests/data/head-to-head",
        "--out",
        out.to_str().unwrap(),
    ];
    reversi_lab()
        .args(["sprt-plan", "--elo0", "-5", "--elo1", "5"])
        .args(from)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "the game pairs of tests/data/head-to-head",
        ));
    // One pair of a round robin, named either way round.
    reversi_lab()
        .args(["sprt-plan", "--elo0", "0", "--elo1", "5"])
        .args([
            "--from",
            "tests/data/round-robin",
            "--pair",
            "corner-first,greedy",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "the game pairs of corner-first against greedy in tests/data/round-robin",
        ));
    let csv = std::fs::read_to_string(out.join("sprt-plan.csv")).unwrap();
    assert!(csv.starts_with("elo,pass_probability,expected_pairs,expected_games\n-15.00,"));
    assert_eq!(csv.lines().count(), 14);
    assert!(out.join("sprt-plan.png").is_file() && out.join("sprt-plan.svg").is_file());
    for (args, needle) in [
        (
            vec![
                "sprt-plan",
                "--elo0",
                "-5",
                "--elo1",
                "5",
                "--from",
                "tests/data/head-to-head",
                "--out",
                out.to_str().unwrap(),
            ],
            "sprt-plan.csv exists: pass --force to replace it",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--from",
                "tests/data/round-robin",
            ],
            "holds 3 pairs of players: choose one with --pair A,B (one of greedy,weighted-classic;",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--from",
                "tests/data/round-robin",
                "--pair",
                "greedy,nobody",
            ],
            "--pair greedy,nobody: tests/data/round-robin/pairs.csv has no such pair of players",
        ),
        (
            vec!["sprt-plan", "--elo0", "nan", "--elo1", "5"],
            "--elo0 NaN: give a finite number",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--draw-ratio",
                "-0.1",
            ],
            "--draw-ratio -0.1 is out of range",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "50",
                "--draw-ratio",
                "0.95",
            ],
            "this test is too coarse to plan",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--out",
                "Cargo.toml",
            ],
            "Cargo.toml is a file, not a folder: choose a folder for --out",
        ),
        (
            vec!["sprt-plan", "--elo0", "5", "--elo1", "0"],
            "--elo0 5 must be below --elo1 0",
        ),
        (
            vec!["sprt-plan", "--elo0", "0", "--elo1", "5", "--alpha", "0.7"],
            "--alpha 0.7 is out of range",
        ),
        (
            vec![
                "sprt-plan",
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--draw-ratio",
                "1",
            ],
            "--draw-ratio 1 is out of range",
        ),
        (
            vec!["sprt-plan", "--elo0", "0", "--elo1", "5", "--from", "src"],
            "no pairs.csv there",
        ),
    ] {
        let output = reversi_lab().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle) && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
}

/// Issue 52, item 35: `perft 0` counts the position (1), as `rl.perft(board, 0)` does;
/// `show` says when the side named must pass, and the result of a finished game.
#[test]
fn perft_zero_and_show_of_a_pass_and_of_a_finished_game() {
    reversi_lab()
        .args(["perft", "0"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("1\n"));
    let must_pass = format!("{}X- X", "O".repeat(62));
    reversi_lab()
        .args(["show", "--position", &must_pass])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "black has no legal move and passes (at the start)",
        ))
        .stdout(predicate::str::contains("legal moves: h8"));
    let over = format!("{}O X", "X".repeat(63));
    reversi_lab()
        .args(["show", "--position", &over])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "game over: black wins by 62 (black 63, white 1; normal rules, empty squares to the winner)",
        ));
}
