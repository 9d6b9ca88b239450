//! `mcts` everywhere a strategy goes: the same games on any thread count through
//! `match` (with its tree kept between moves too), its values served in its own units.
//! `play`'s eval shows each move's visits. (Its time budget over a thousand moves is a
//! unit test, timed by the thread's CPU.)

use crate::common::{ok, reversi_lab, Dir};

#[test]
fn the_same_games_on_any_thread_count() {
    let dir = Dir::new();
    for (threads, extra) in [
        ("1", &[][..]),
        ("2", &[][..]),
        ("1", &["--size", "6", "--anti"][..]),
        ("2", &["--size", "6", "--anti"][..]),
    ] {
        let csv = format!("games-{threads}-{}.csv", extra.len());
        let mut args = vec![
            "match",
            "mcts:iterations=300,rave=50",
            "mcts:iterations=200,rollout=greedy,epsilon=0.2,reuse=true",
            "--games",
            "6",
            "--seed",
            "11",
            "--threads",
            threads,
            "--csv",
            &csv,
        ];
        args.extend(extra);
        ok(dir.path(), &args);
    }
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(read("games-1-0.csv"), read("games-2-0.csv"));
    assert_eq!(read("games-1-3.csv"), read("games-2-3.csv"));
    assert_ne!(read("games-1-0.csv"), read("games-1-3.csv"));
}

/// NBoard's `hint` and `go` show a search's mean results in thousandths, its own
/// scale, not as discs (`+600.00`).
#[test]
fn nboard_shows_mcts_values_in_thousandths() {
    let game = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
    let output = reversi_lab()
        .args(["nboard", "--strategy", "mcts:iterations=300"])
        .write_stdin(format!("nboard 2\nset game {game}\nhint 3\ngo\n"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let values: Vec<&str> = text
        .lines()
        .filter_map(|line| match line.split(' ').collect::<Vec<_>>()[..] {
            ["search", _, value, "0", _] => Some(value),
            _ => line
                .strip_prefix("=== ")
                .map(|a| a.split('/').nth(1).unwrap()),
        })
        .collect();
    assert_eq!(values.len(), 4, "{text}");
    for value in values {
        let number: i32 = value
            .parse()
            .unwrap_or_else(|_| panic!("{value} in {text}"));
        assert!((0..=1000).contains(&number), "{text}");
    }
}

/// Issue 49: `sweep` over any of its parameters and `tune` over its numeric ones (a
/// float and a count), on small budgets.
#[test]
fn sweep_and_tune_over_its_parameters() {
    let dir = Dir::new();
    let sweep = dir.write(
        "sweep.toml",
        r#"
name = "mcts-c"
seed = 2
games_per_pair = 2
[openings]
random_plies = 4
[sweep]
base = "mcts:iterations=40"
parameter = "c"
values = [0.5, 2.0]
plays = "panel"
panel = ["greedy"]
"#,
    );
    ok(
        dir.path(),
        &[
            "sweep",
            sweep.to_str().unwrap(),
            "--out",
            "sweep",
            "--quiet",
        ],
    );
    let summary = std::fs::read_dir(dir.path().join("sweep")).unwrap().count();
    assert!(summary > 0);
    let tune = dir.write(
        "tune.toml",
        r#"
name = "t"
seed = 4
iterations = 2
games_per_iteration = 2
[openings]
random_plies = 4
[player]
kind = "mcts"
iterations = 30
rave = 20
[[params]]
name = "c"
min = 0.1
max = 4
step = 0.2
[[params]]
name = "rave"
min = 1
max = 200
step = 10
[validation]
games = 2
panel = [{ name = "greedy", strategy = "greedy" }]
"#,
    );
    ok(
        dir.path(),
        &["tune", tune.to_str().unwrap(), "--out", "tune", "--quiet"],
    );
    let trace = std::fs::read_to_string(dir.path().join("tune/trace.csv")).unwrap();
    assert!(trace.starts_with("iteration,result,c,rave\n"), "{trace}");
    let best = std::fs::read_to_string(dir.path().join("tune/best.toml")).unwrap();
    assert!(
        best.contains("kind = \"mcts\"") && best.contains("rave ="),
        "{best}"
    );
}

/// Issue 49: served over GTP, `mcts` answers `genmove` with a legal move, and `watch`
/// shows each of its moves' values in thousandths.
#[test]
fn gtp_serves_it_and_watch_shows_its_values() {
    let output = reversi_lab()
        .args(["gtp", "--strategy", "mcts:iterations=200", "--seed", "3"])
        .write_stdin("boardsize 8\nclear_board\nplay black f5\n2 genmove white\nquit\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    let reply = replies[3].strip_prefix("=2 ").unwrap();
    assert!(["d6", "f4", "f6"].contains(&reply), "{text}");
    let output = reversi_lab()
        .args(["watch", "mcts:iterations=200", "greedy", "--size", "6"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    // Thousandths, or a margin where the search proved the move's exactly.
    let said: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("(mcts:iterations=200) plays"))
        .filter_map(|l| l.split("(its value ").nth(1))
        .collect();
    let values: Vec<i32> = said
        .iter()
        .filter(|v| {
            !v.starts_with("wins by") && !v.starts_with("loses by") && !v.starts_with("draws")
        })
        .map(|v| v.split([' ', ')']).next().unwrap().parse().unwrap())
        .collect();
    assert!(values.len() > 5, "{text}");
    assert!(values.iter().all(|v| (0..=1000).contains(v)), "{text}");
    assert!(said.iter().any(|v| v.starts_with("wins by")), "{text}");
}

/// Issue 49: against `mcts`, `eval` shows each move's visits beside its value (what
/// the value rests on): from the start, one search's 400 iterations over the 4 moves.
#[test]
fn eval_against_mcts_shows_each_moves_visits_and_value() {
    let output = reversi_lab()
        .args(["play", "--vs", "mcts:iterations=400", "--seed", "3"])
        .write_stdin("eval\nquit\n")
        .assert()
        .success();
    let out = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let line = out
        .lines()
        .find(|l| l.contains("eval by mcts:iterations=400 (larger is better for black; "))
        .unwrap_or_else(|| panic!("{out}"));
    let list = line.rsplit("): ").next().unwrap();
    let moves: Vec<(i32, u64)> = list
        .split(", ")
        .map(|item| {
            // "d3 512 (101 visits)"
            let (head, visits) = item.split_once(" (").unwrap_or_else(|| panic!("{line}"));
            let value = head.split(' ').nth(1).unwrap().parse().unwrap();
            let visits = visits
                .strip_suffix(" visits)")
                .unwrap_or_else(|| panic!("{line}"));
            (value, visits.replace(',', "").parse().unwrap())
        })
        .collect();
    assert_eq!(moves.len(), 4, "{line}");
    assert_eq!(moves.iter().map(|m| m.1).sum::<u64>(), 400, "{line}");
    assert!(moves.iter().all(|m| (0..=1000).contains(&m.0)), "{line}");
    assert!(
        moves.windows(2).all(|w| w[0].1 >= w[1].1),
        "most visited first: {line}"
    );
}
