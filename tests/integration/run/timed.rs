//! A timed `run`: clocks and move times recorded and kept, bad time controls refused
//! before any game, and losses on time counted as results while the run completes.

use super::{run, SMALL};
use crate::common::{read, reversi_lab, Dir};

/// Time controls: every player's from the experiment, one player's own over it, and
/// alphabeta's own budget. A timed run says so in run.toml, costs.csv keeps the longest
/// move, and the report shows each player's control and its terminations.
#[test]
fn a_timed_run_is_marked_and_its_moves_keep_their_time() {
    let dir = Dir::new();
    let config = dir.write(
        "timed.toml",
        r#"
name = "timed"
size = 6
games_per_pair = 4
move_time = "2s"
time_margin = "1s"
[openings]
random_plies = 2
[[players]]
name = "quick"
strategy = "alphabeta:time=5ms"
[[players]]
name = "greedy"
strategy = "greedy"
clock = "30+1"
"#,
    );
    let out = dir.path().join("out");
    let done = run(&config, &out, &[]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let record = read(&out.join("run.toml"));
    assert!(record.contains("timed = true"), "{record}");
    assert!(
        record.contains("move_time = \"2s\"") && record.contains("clock = \"30+1\""),
        "{record}"
    );
    let games = read(&out.join("games.csv"));
    assert_eq!(games.lines().count(), 5);
    assert!(
        games.lines().skip(1).all(|l| l.ends_with(",normal")),
        "{games}"
    );
    let costs = read(&out.join("costs.csv"));
    assert!(
        costs.lines().next().unwrap().ends_with(",max_ms"),
        "{costs}"
    );
    let quick = costs.lines().find(|l| l.starts_with("quick,")).unwrap();
    let max_ms: f64 = quick.rsplit(',').next().unwrap().parse().unwrap();
    assert!(max_ms > 0.0, "{costs}");
    let report = read(&out.join("report.md"));
    assert!(report.contains("Engines and time"), "{report}");
    assert!(
        report.contains("move_time 2s") && report.contains("clock 30+1"),
        "{report}"
    );
    // A search's own time budget alone makes a timed run, and the report says so.
    let own = dir.write("own.toml",
        "name = \"own\"\nsize = 4\ngames_per_pair = 2\n[[players]]\nname = \"quick\"\nstrategy = \"alphabeta:time=2ms\"\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n",
    );
    let out = dir.path().join("own");
    assert!(run(&own, &out, &[]).status.success());
    assert!(read(&out.join("run.toml")).contains("timed = true"));
    let report = read(&out.join("report.md"));
    assert!(
        report.contains("the same seed does not replay them exactly"),
        "{report}"
    );
    // An untimed run says nothing of time.
    let plain = dir.write("plain.toml", SMALL);
    let out = dir.path().join("plain");
    assert!(run(&plain, &out, &["--no-report"]).status.success());
    assert!(!read(&out.join("run.toml")).contains("timed"));
}

#[test]
fn bad_time_controls_are_refused_before_any_game() {
    let dir = Dir::new();
    let base = "name = \"t\"\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"greedy\"\n";
    for (extra, wanted) in [
        (
            "move_time = \"fast\"\n",
            "move_time = \"fast\" is not a time",
        ),
        ("clock = \"60+\"\n", "clock = \"60+\" is not a clock"),
        (
            "move_time = \"1s\"\nclock = \"60\"\n",
            "move_time and clock are both given",
        ),
        (
            "time_margin = \"soon\"\n",
            "time_margin = \"soon\" is not a time",
        ),
    ] {
        let config = dir.write("bad.toml", format!("{extra}{base}"));
        let out = dir.path().join("never");
        let failed = run(&config, &out, &[]);
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert_eq!(failed.status.code(), Some(2), "{extra}: {stderr}");
        assert!(
            stderr.contains(wanted) && stderr.trim().lines().count() == 1,
            "{extra}: {stderr}"
        );
        assert!(!out.exists(), "{extra}");
    }
    // A player's own, named with the player.
    let config = dir.write(
        "player.toml",
        base.replace("name = \"b\"\n", "name = \"b\"\nmove_time = \"0\"\n"),
    );
    let failed = run(&config, &dir.path().join("never"), &[]);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(
        stderr.contains("player 'b': move_time = \"0\" leaves no time"),
        "{stderr}"
    );
    let failed = reversi_lab()
        .args([
            "match",
            "greedy",
            "greedy",
            "--games",
            "2",
            "--move-time",
            "fast",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--move-time \"fast\" is not a time"),
        "{stderr}"
    );
}

/// Item 52.15: a built-in player's losses on time are results, not faults: a run of a
/// search too slow for its clock plays to its end (it used to stop after three, blaming
/// an engine log that does not exist).
#[test]
fn losses_on_time_are_results_and_the_run_completes() {
    let dir = Dir::new();
    let config = dir.write("clock.toml",
        "name = \"t\"\nformat = \"head-to-head\"\ngames_per_pair = 6\nmove_time = \"1ms\"\ntime_margin = \"0ms\"\n[[players]]\nname = \"deep\"\nstrategy = \"alphabeta:depth=7,eval=mobility\"\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n",
    );
    let out = dir.path().join("out");
    let output = run(&config, &out, &["--no-report"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let games = read(&out.join("games.csv"));
    let on_time = games.lines().filter(|l| l.ends_with(",time")).count();
    assert!(on_time >= 3, "{games}");
    assert_eq!(games.lines().count(), 7);
    assert!(read(&out.join("run.toml")).contains("status = \"complete\""));
}
