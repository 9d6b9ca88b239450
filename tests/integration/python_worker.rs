//! Python callables as players and evaluations from the CLI, through worker processes
//! (`{ kind = "python", callable = "module:function" }`): small modules written into
//! the test's folder play `match` and `run`, give the same games on any thread count,
//! lose games by their faults (`error`, `illegal`, `stalled`) with the run going on,
//! stop a run after three in a row and continue with `--resume`, and are refused before
//! the first game when they cannot be called.
//!
//! The interpreter must have the package installed: `REVERSI_LAB_PYTHON` names it
//! (`.ci/run` sets it to the virtual environment the wheel is installed in), else
//! `python3` is tried; without one the tests skip, saying so (under CI they fail).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{self, read, run_in, Dir};
use reversi_lab::lab::rows::{read_csv, GameRow};

/// The interpreter with `reversi_lab` installed, or None (said) when there is none.
fn python() -> Option<String> {
    let named = std::env::var("REVERSI_LAB_PYTHON").ok();
    let python = named.clone().unwrap_or_else(|| "python3".into());
    let found = Command::new(&python)
        .args(["-c", "import reversi_lab._worker"])
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some(python);
    }
    assert!(
        named.is_none(),
        "REVERSI_LAB_PYTHON={python} cannot import reversi_lab._worker"
    );
    common::missing("no python3 with the reversi_lab package (set REVERSI_LAB_PYTHON to one that has the wheel installed)");
    None
}

/// The test's module: movers and evaluations, and callables that misbehave while the
/// file named by their first argument exists (once, or for as long as it does).
const MODULE: &str = r#"
import os, time

def random_mover(board, rng):
    return rng.choice(board.legal_moves)

def weighted(board, rng, corner=10.0):
    def score(m):
        return corner if m in ("a1", "a8", "h1", "h8") else rng.random()
    return max(board.legal_moves, key=score)

def discs(board):
    black, white = board.discs()
    return float(black - white)

def fragile(board):
    black, white = board.discs()
    if black + white > 12:
        raise ZeroDivisionError("too deep")
    return float(black - white)

def _trip(marker, once):
    if os.path.exists(marker):
        if once:
            os.remove(marker)
        return True
    return False

def raising(board, rng):
    if _trip("raise-once", True) or _trip("broken", False):
        raise ValueError("no idea what to play here")
    return rng.choice(board.legal_moves)

def illegal(board, rng):
    if _trip("illegal-once", True):
        return "a1" if "a1" not in board.legal_moves else "pass"
    return rng.choice(board.legal_moves)

def hanging(board, rng):
    if _trip("hang-once", True):
        time.sleep(30)
    return rng.choice(board.legal_moves)
"#;

fn games(out: &Path) -> Vec<GameRow<'static>> {
    read_csv(&out.join("games.csv")).unwrap()
}

/// A config of the Python `callable` (with `extra` keys) against greedy.
fn config(python: &str, callable: &str, extra: &str, games: u32) -> String {
    format!(
        "name = \"py\"\ngames_per_pair = {games}\n[openings]\nrandom_plies = 2\n[[players]]\nname = \"mine\"\nstrategy = {{ kind = \"python\", callable = \"mine:{callable}\", python = \"{python}\"{extra} }}\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n"
    )
}

/// A folder with the module `mine` in it.
fn folder() -> Dir {
    let dir = Dir::new();
    dir.write("mine.py", MODULE);
    dir
}

#[test]
fn a_python_mover_plays_match_and_run_the_same_on_any_thread_count() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    let spec = format!("python:callable=mine:random_mover,python={py}");
    let out = common::ok(
        d,
        &["match", &spec, "greedy", "--games", "20", "--threads", "2"],
    );
    assert!(out.contains("over 10 game pairs"), "{out}");
    fs::write(
        d.join("e.toml"),
        config(&py, "weighted", ", params = { corner = 50.0 }", 16),
    )
    .unwrap();
    for threads in ["1", "2"] {
        let out = format!("r{threads}");
        common::ok(
            d,
            &[
                "run",
                "e.toml",
                "--out",
                &out,
                "--quiet",
                "--no-report",
                "--threads",
                threads,
            ],
        );
    }
    let one = read(&d.join("r1/games.csv"));
    assert_eq!(one, read(&d.join("r2/games.csv")), "thread counts agree");
    let rows = games(&d.join("r1"));
    assert_eq!(rows.len(), 16);
    assert!(rows.iter().all(|r| r.termination == "normal"));
    // run.toml records the callable, its module's hash and the interpreter's version.
    let record = read(&d.join("r1/run.toml"));
    let line = record
        .lines()
        .find(|l| l.starts_with("mine = \"python mine:weighted (module sha256 "))
        .unwrap_or_else(|| panic!("{record}"));
    let hash = line
        .split("sha256 ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    assert_eq!(hash.len(), 64, "{line}");
    assert!(line.contains("; CPython-3."), "{line}");
    // Each worker of the run kept one process, its log named after the player.
    assert!(d.join("r2/engines").read_dir().unwrap().count() >= 1);
}

#[test]
fn a_python_evaluation_inside_alphabeta_plays_as_the_built_in_one() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    // The disc count in Python plays the same games as greedy's inside the search.
    let spec = format!("alphabeta:depth=2,eval=(python:callable=mine:discs,python={py})");
    let args = |s: &str, out: &str| -> Vec<String> {
        [
            "match",
            s,
            "random",
            "--games",
            "6",
            "--threads",
            "1",
            "--csv",
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    let py_args = args(&spec, "py.csv");
    let builtin_args = args("alphabeta:depth=2,eval=greedy", "builtin.csv");
    let py_args: Vec<&str> = py_args.iter().map(String::as_str).collect();
    let builtin_args: Vec<&str> = builtin_args.iter().map(String::as_str).collect();
    common::ok(d, &py_args);
    common::ok(d, &builtin_args);
    let moves = |file: &str| -> Vec<String> {
        let rows: Vec<GameRow<'static>> = read_csv(&d.join(file)).unwrap();
        rows.into_iter().map(|r| r.moves.to_string()).collect()
    };
    assert_eq!(moves("py.csv"), moves("builtin.csv"));
}

/// Issue 50: a Python evaluation that raises loses the game for the search that
/// called it (`error`, the exception's last line), as its own strategy's fault would;
/// three in a row stop the match, said in one line naming no log (the worker of an
/// evaluation keeps none).
#[test]
fn an_evaluation_that_raises_loses_the_game_for_its_search() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    let spec = format!("alphabeta:depth=2,eval=(python:callable=mine:fragile,python={py})");
    let (code, stdout, stderr) = run_in(
        d,
        &[
            "match",
            &spec,
            "random",
            "--games",
            "2",
            "--threads",
            "1",
            "--csv",
            "m.csv",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows: Vec<GameRow<'static>> = read_csv(&d.join("m.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row.termination, "error", "{row:?}");
        let searcher_black = row.black.starts_with("alphabeta");
        assert_eq!(row.result, if searcher_black { "white" } else { "black" });
    }
    let (code, stdout, stderr) = run_in(
        d,
        &["match", &spec, "random", "--games", "10", "--threads", "1"],
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    // The match's closing line (the games before the stop), then the stop in one line.
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains("player 'A' lost 3 games in a row by a fault (the last: error): fix it"),
        "{stderr}"
    );
    assert!(stderr.starts_with("3 games in"), "{stderr}");
}

/// A python player's deadlines change no finished game: a run resumes after they
/// changed, as an engine's does, and `run.toml` records the new ones.
#[test]
fn a_resume_takes_a_python_players_new_deadlines() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    let args = ["run", "e.toml", "--out", "r", "--quiet", "--no-report"];
    let with = |extra: &str| config(&py, "random_mover", extra, 4);
    fs::write(d.join("e.toml"), with(", stall_timeout = \"5s\"")).unwrap();
    common::ok(d, &args);
    fs::write(
        d.join("e.toml"),
        with(", stall_timeout = \"60s\", start_timeout = \"40s\""),
    )
    .unwrap();
    common::ok(d, &[&args[..], &["--resume"]].concat());
    assert_eq!(games(&d.join("r")).len(), 4);
    // Anything else that changes the games is still refused.
    fs::write(d.join("e.toml"), config(&py, "weighted", "", 4)).unwrap();
    let (code, _, stderr) = run_in(d, &[&args[..], &["--resume"]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("strategy.callable"), "{stderr}");
    assert!(!stderr.contains("timeout"), "{stderr}");
}

/// Runs six games of `callable` against greedy on one thread, with `marker` made first
/// so that it misbehaves once; exactly one game is lost, by `termination`, and the log
/// says why. Returns the log.
fn one_game_lost(py: &str, callable: &str, marker: &str, termination: &str) -> String {
    let dir = folder();
    let d = dir.path();
    fs::write(d.join(marker), "").unwrap();
    let extra = ", stall_timeout = \"1s\"";
    fs::write(d.join("e.toml"), config(py, callable, extra, 6)).unwrap();
    common::ok(d, &crate::common::run_e_into_r("1"));
    let rows = games(&d.join("r"));
    assert_eq!(rows.len(), 6, "{callable}: the run completes");
    let lost: Vec<_> = rows.iter().filter(|r| r.termination != "normal").collect();
    assert_eq!(lost.len(), 1, "{callable}: {lost:?}");
    assert_eq!(lost[0].termination, termination, "{callable}");
    let mine_black = lost[0].black == "mine";
    assert_eq!(lost[0].result, if mine_black { "white" } else { "black" });
    let logs: String = fs::read_dir(d.join("r/engines"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.contains(&format!("reversi-lab: {termination} after")),
        "{callable}: {logs}"
    );
    logs
}

#[test]
fn faults_of_a_python_callable_are_terminations_and_the_run_goes_on() {
    let Some(py) = python() else { return };
    let logs = one_game_lost(&py, "raising", "raise-once", "error");
    // The exception's last line in the note, its traceback before it.
    assert!(logs.contains("Traceback (most recent call last)"), "{logs}");
    assert!(logs.contains("error after"), "{logs}");
    assert!(
        logs.contains("ValueError: no idea what to play here"),
        "{logs}"
    );
    let logs = one_game_lost(&py, "illegal", "illegal-once", "illegal");
    assert!(logs.contains("not a legal move for"), "{logs}");
    let logs = one_game_lost(&py, "hanging", "hang-once", "stalled");
    assert!(logs.contains("no answer within 1.0 s"), "{logs}");
}

#[test]
fn a_broken_callable_stops_the_run_and_resume_continues() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    fs::write(d.join("broken"), "").unwrap();
    fs::write(d.join("e.toml"), config(&py, "raising", "", 8)).unwrap();
    let args = crate::common::run_e_into_r("1");
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("player 'mine' lost 3 games in a row by a fault (the last: error")
            && stderr.contains("mine-*.log"),
        "{stderr}"
    );
    assert_eq!(games(&d.join("r")).len(), 3);
    fs::remove_file(d.join("broken")).unwrap();
    common::ok(d, &[&args[..], &["--resume"]].concat());
    let rows = games(&d.join("r"));
    assert_eq!(rows.len(), 8);
    assert!(rows[..3].iter().all(|r| r.termination == "error"));
    assert!(rows[3..].iter().all(|r| r.termination == "normal"));
}

#[test]
fn a_callable_that_cannot_be_called_is_refused_before_the_first_game() {
    let Some(py) = python() else { return };
    let dir = folder();
    let d = dir.path();
    for (spec, needle) in [
        (format!("python:callable=nowhere:choose,python={py}"), "cannot import 'nowhere': ModuleNotFoundError: No module named 'nowhere'"),
        (format!("python:callable=mine:missing,python={py}"), "module 'mine' has no 'missing'"),
        (
            format!("python:callable=mine:random_mover,params={{corner=1}},python={py}"),
            "'mine:random_mover' cannot be called as random_mover(board, rng, **params) with params ['corner']",
        ),
        ("python:callable=mine:random_mover,python=no-such-python".to_string(), "cannot start the interpreter 'no-such-python'"),
    ] {
        let (code, stdout, stderr) = run_in(d, &["match", &spec, "greedy", "--games", "2"]);
        assert_eq!(code, 2, "{spec}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{spec}: {stderr}");
        assert!(stderr.contains(needle), "{spec}: {stderr}");
    }
    // An interpreter without the package is told so.
    let bare = Command::new("python3")
        .args(["-c", "import reversi_lab"])
        .output()
        .is_ok_and(|o| !o.status.success());
    if bare {
        let (code, _, stderr) = run_in(
            d,
            &[
                "match",
                "python:callable=mine:random_mover,python=python3",
                "greedy",
            ],
        );
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("the Python package reversi_lab is not installed for python3"),
            "{stderr}"
        );
    }
}
