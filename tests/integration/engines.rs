//! External engines as players, against a real one (GRhino's `gtp-rhino`, from Debian's
//! packages, which `.ci/run` installs) and against engines that misbehave on purpose
//! (`data/engines/misbehave.py`): games that replay under the rules, faults recorded
//! as terminations with the run completed, a broken engine stopping the run, and no
//! engine process outliving reversi-lab, not even a `kill -9`.

use reversi_lab::board::Size8;
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::rows::{read_csv, GameRow};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common;
use common::{ok, reversi_lab, run_in, Dir};

#[path = "engines/faults.rs"]
mod faults;
#[path = "engines/nboard.rs"]
mod nboard;
#[path = "engines/stops.rs"]
mod stops;

/// GRhino's GTP engine, or None outside CI when it is not installed (under CI a
/// missing engine fails the test: `.ci/run` installs it).
fn rhino() -> Option<String> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("gtp-rhino"))
            .find(|p| p.is_file())
    });
    let found =
        on_path.or_else(|| Some(PathBuf::from("/usr/games/gtp-rhino")).filter(|p| p.is_file()));
    match found {
        Some(path) => Some(path.display().to_string()),
        None => {
            common::missing("gtp-rhino is not installed (apt-get install grhino)");
            None
        }
    }
}

fn misbehave() -> String {
    crate::common::root()
        .join("tests/data/engines/misbehave.py")
        .display()
        .to_string()
}

/// Every engine log in a folder (`FOLDER/*.log`), one after another.
fn engine_logs(folder: &Path) -> String {
    fs::read_dir(folder)
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect()
}

/// A TOML string of words.
fn words(list: &[&str]) -> String {
    let quoted: Vec<String> = list.iter().map(|w| format!("{w:?}")).collect();
    format!("[{}]", quoted.join(", "))
}

fn experiment(engine: &[&str], extra: &str, games: u32) -> String {
    format!(
        "name = \"e\"\ngames_per_pair = {games}\n[openings]\nrandom_plies = 4\n[[players]]\nname = \"engine\"\nstrategy = {{ kind = \"engine\", command = {}{extra} }}\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n",
        words(engine)
    )
}

fn games(dir: &Path) -> Vec<GameRow<'static>> {
    read_csv(&dir.join("games.csv")).unwrap()
}

/// Every game replays under the rules to the counts and margin recorded.
fn replay_all(rows: &[GameRow<'_>]) {
    for row in rows {
        if row.termination != "normal" {
            continue;
        }
        let game = Game::<Size8>::from_transcript(&row.moves).unwrap();
        let outcome = game.outcome(Rules::default()).expect("played to the end");
        assert_eq!(
            (outcome.black_discs, outcome.white_discs, outcome.margin),
            (row.black_discs, row.white_discs, row.margin),
            "game {}",
            row.game_id
        );
    }
}

#[test]
fn built_in_strategies_against_a_real_engine() {
    let Some(rhino) = rhino() else { return };
    let dir = Dir::new();
    let d = dir.path();
    let config = format!(
        "name = \"ladder\"\nformat = \"gauntlet\"\nchallengers = [\"rhino\"]\ngames_per_pair = 10\n[openings]\nrandom_plies = 4\n[[players]]\nname = \"rhino\"\nstrategy = \"gtp:{rhino} -l 1\"\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"ab3\"\nstrategy = \"alphabeta:depth=3\"\n"
    );
    fs::write(d.join("l.toml"), config).unwrap();
    ok(
        d,
        &["run", "l.toml", "--out", "r", "--quiet", "--threads", "2"],
    );
    let rows = games(&d.join("r"));
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|r| r.termination == "normal"));
    replay_all(&rows);
    // Each worker kept its own engine, with its log.
    assert!(d.join("r/engines").read_dir().unwrap().count() >= 1);
    assert!(fs::read_to_string(d.join("r/report.md"))
        .unwrap()
        .contains("rhino"));
    // Engine against engine: two processes in one game.
    let out = ok(
        d,
        &[
            "match",
            &format!("gtp:{rhino} -l 1"),
            &format!("gtp:{rhino} -l 2"),
            "--games",
            "4",
        ],
    );
    assert!(
        out.contains("-l 2: ") && out.contains("over 2 game pairs"),
        "{out}"
    );
}

/// The six games of a run in `out` are all there, and exactly one was lost by the
/// player `engine` by `termination`, by the whole board, with its log saying so.
/// Returns the engine's logs.
fn one_game_lost_by(out: &Path, mode: &str, termination: &str) -> String {
    let logs = engine_logs(&out.join("engines"));
    let rows = games(out);
    assert_eq!(rows.len(), 6, "{mode}: the run completes");
    let faulted: Vec<_> = rows.iter().filter(|r| r.termination != "normal").collect();
    assert_eq!(faulted.len(), 1, "{mode}: {faulted:?}\n{logs}");
    let lost = faulted[0];
    assert_eq!(lost.termination, termination, "{mode}");
    // The side at fault loses, by the whole board.
    let engine_black = lost.black == "engine";
    assert_eq!(lost.result, if engine_black { "white" } else { "black" });
    assert_eq!(lost.margin, if engine_black { -64 } else { 64 });
    replay_all(&rows);
    assert!(
        logs.contains(&format!("reversi-lab: {termination} after")),
        "{mode}: {logs}"
    );
    logs
}

#[test]
fn faults_are_terminations_and_the_run_completes() {
    let Some(rhino) = rhino() else { return };
    let dir = Dir::new();
    let d = dir.path();
    for (mode, termination) in [
        ("exit", "crash"),
        ("sleep", "stalled"),
        ("illegal", "illegal"),
        ("garbage", "illegal"),
    ] {
        let marker = d.join(format!("marker-{mode}")).display().to_string();
        let script = misbehave();
        let engine = [script.as_str(), mode, "5", &marker, "--", &rhino, "-l", "1"];
        let config = experiment(&engine, ", stall_timeout = \"1s\"", 6);
        fs::write(d.join(format!("{mode}.toml")), config).unwrap();
        let out = format!("r-{mode}");
        ok(
            d,
            &[
                "run",
                &format!("{mode}.toml"),
                "--out",
                &out,
                "--quiet",
                "--no-report",
            ],
        );
        one_game_lost_by(&d.join(&out), mode, termination);
    }
}

#[test]
fn a_broken_engine_stops_the_run_and_resume_continues() {
    let Some(rhino) = rhino() else { return };
    let dir = Dir::new();
    let d = dir.path();
    // Broken while the file `broken` exists: it dies at its third move of every game.
    let marker = d.join("broken").display().to_string();
    fs::write(&marker, "").unwrap();
    let script = misbehave();
    let engine = [
        script.as_str(),
        "while-exit",
        "3",
        &marker,
        "--",
        &rhino,
        "-l",
        "1",
    ];
    fs::write(d.join("e.toml"), experiment(&engine, "", 12)).unwrap();
    let args = crate::common::run_e_into_r("2");
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("player 'engine' lost 3 games in a row by a fault (the last: crash"),
        "{stderr}"
    );
    let kept = games(&d.join("r"));
    assert_eq!(kept.len(), 3, "the finished games are kept");
    assert!(kept.iter().all(|r| r.termination == "crash"));
    // The stop is at once: no game starts after the third fault is in, so only the
    // games in flight then (about one a worker) were played beside the three kept.
    // Before, every game of the run was played, then dropped.
    let logs = engine_logs(&d.join("r/engines"));
    let played = logs.matches("reversi-lab: crash after").count();
    assert!(
        (3..=3 + 2 * 2).contains(&played),
        "{played} games played: {logs}"
    );
    // The stop is recorded, and the costs cover the games kept.
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    assert!(record.contains("status = \"stopped\""), "{record}");
    assert!(
        record.contains("stopped_by = \"player 'engine' lost 3 games"),
        "{record}"
    );
    let costs = fs::read_to_string(d.join("r/costs.csv")).unwrap();
    assert!(
        costs
            .lines()
            .skip(1)
            .all(|l| l.split(',').nth(1) == Some("3")),
        "{costs}"
    );
    // Fixed, the run continues to its end from the games it kept: none is played again.
    fs::remove_file(&marker).unwrap();
    ok(d, &[&args[..], &["--resume"]].concat());
    let rows = games(&d.join("r"));
    assert_eq!(rows.len(), 12);
    assert!(rows[..3].iter().all(|r| r.termination == "crash"));
    assert!(rows[3..].iter().all(|r| r.termination == "normal"));
    replay_all(&rows);
}

#[test]
fn an_engine_that_cannot_start_is_refused_before_any_game() {
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let never = [script.as_str(), "never-start", "1", &marker, "--", "true"];
    fs::write(d.join("e.toml"), experiment(&never, "", 2)).unwrap();
    for args in [
        &["run", "e.toml", "--out", "r", "--quiet"][..],
        &["match", "gtp:no-such-engine-here", "greedy", "--games", "2"],
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("engine"), "{args:?}: {stderr}");
    }
    assert!(
        !d.join("r").exists(),
        "no folder for an engine that cannot play"
    );
}

/// Whether the process is still there (a zombie waiting to be reaped counts as gone).
fn alive(pid: &str) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn no_engine_outlives_a_kill_9() {
    if !Path::new("/proc/self").exists() {
        common::missing("no /proc to look for the engines' processes in");
        return;
    }
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let Some(rhino) = rhino() else { return };
    // An engine that never answers its second genmove, so the run is busy when killed.
    let script = misbehave();
    let engine = [
        script.as_str(),
        "always-sleep",
        "2",
        &marker,
        "--",
        &rhino,
        "-l",
        "1",
    ];
    fs::write(d.join("e.toml"), experiment(&engine, "", 4)).unwrap();
    let mut child = common::in_dir(d)
        .args(crate::common::run_e_into_r("2"))
        .std()
        .spawn()
        .unwrap();
    let pids = d.join("m.pid");
    let deadline = Instant::now() + Duration::from_secs(30);
    // The start-up check's engine, then one per worker.
    while fs::read_to_string(&pids).map_or(0, |p| p.lines().count()) < 2
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    let text = fs::read_to_string(&pids).unwrap();
    let running: Vec<&str> = text.lines().collect();
    while running.iter().any(|p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<&&str> = running.iter().filter(|p| alive(p)).collect();
    assert!(
        left.is_empty(),
        "engine processes outlived reversi-lab: {left:?}"
    );
}

/// The closed loop: a strategy served by `reversi-lab gtp` and played as an engine
/// plays the very games the built-in one plays (the same `moves`, game for game), on
/// two threads. The two halves (server and client) hand the game's generator over
/// with each move (`reversi_lab-genmove`), so even tie-breaks agree.
#[test]
fn a_served_strategy_plays_as_it_does_built_in() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    let moves = |csv: &str| -> Vec<String> {
        read_csv::<GameRow>(&d.join(csv))
            .unwrap()
            .into_iter()
            .map(|r| {
                assert_eq!(r.termination, "normal");
                r.moves.into_owned()
            })
            .collect()
    };
    for strategy in ["alphabeta:depth=2,eval=eval", "greedy", "weighted"] {
        let served = format!("gtp:{bin} gtp --strategy {strategy}");
        let common = [
            "--games",
            "16",
            "--openings",
            "4",
            "--threads",
            "2",
            "--csv",
        ];
        ok(
            d,
            &[
                &["match", &served, "mobility"][..],
                &common,
                &["served.csv"],
            ]
            .concat(),
        );
        ok(
            d,
            &[
                &["match", strategy, "mobility"][..],
                &common,
                &["built.csv"],
            ]
            .concat(),
        );
        assert_eq!(moves("served.csv"), moves("built.csv"), "{strategy}");
        fs::remove_file(d.join("served.csv")).unwrap();
        fs::remove_file(d.join("built.csv")).unwrap();
    }
}

/// Under a time control an engine is told the control (where it lists the commands)
/// and waited on only until its time is up: a move past it loses on time, at once
/// rather than after `stall_timeout`, and the run goes on. The engine is reversi-lab's
/// own server behind `tee`, so the test sees what it was sent.
#[test]
fn an_engine_is_told_its_time_and_loses_on_time() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    for (control, told, left) in [
        ("move_time = \"300ms\"", "time_settings 0 1 1", false),
        ("clock = \"3+0.1\"", "time_settings 3 0 0", true),
    ] {
        let name = control.split(' ').next().unwrap();
        let marker = d.join(format!("marker-{name}")).display().to_string();
        let sent = d.join(format!("sent-{name}"));
        let backend = format!(
            "tee -a '{}' | '{bin}' gtp --strategy greedy",
            sent.display()
        );
        let script = misbehave();
        let engine = [
            script.as_str(),
            "sleep",
            "5",
            &marker,
            "--",
            "sh",
            "-c",
            &backend,
        ];
        let config = format!(
            "{control}\ntime_margin = \"200ms\"\n{}",
            experiment(&engine, "", 6)
        );
        fs::write(d.join(format!("{name}.toml")), config).unwrap();
        let out = format!("r-{name}");
        let began = std::time::Instant::now();
        ok(
            d,
            &["run", &format!("{name}.toml"), "--out", &out, "--quiet"],
        );
        // Far less than the 30 s a stalled engine is given without a clock.
        assert!(
            began.elapsed().as_secs() < 20,
            "{control}: {:?}",
            began.elapsed()
        );
        let rows = games(&d.join(&out));
        assert_eq!(rows.len(), 6, "{control}: the run completes");
        let faulted: Vec<_> = rows.iter().filter(|r| r.termination != "normal").collect();
        assert_eq!(faulted.len(), 1, "{control}: {rows:?}");
        assert_eq!(faulted[0].termination, "time", "{control}");
        replay_all(&rows);
        let sent = fs::read_to_string(&sent).unwrap();
        assert!(sent.contains(told), "{control}: {sent}");
        assert_eq!(sent.contains("time_left "), left, "{control}: {sent}");
        let record = fs::read_to_string(d.join(&out).join("run.toml")).unwrap();
        assert!(record.contains("timed = true"), "{record}");
        assert!(
            record.contains("[run.engines]") && record.contains("engine = \"reversi-lab"),
            "{record}"
        );
        let report = fs::read_to_string(d.join(&out).join("report.md")).unwrap();
        assert!(
            report.contains("Engines and time") && report.contains("lost by time"),
            "{report}"
        );
    }
}

/// Item 52.9: `match` against an engine that keeps failing says its forfeits by kind
/// (in the summary and the JSON), names where the engine's logs are, and stops after
/// three faults in a row as `run` does, where it used to play every game.
#[test]
fn a_match_reports_forfeits_keeps_logs_and_stops_at_a_broken_engine() {
    let Some(rhino) = rhino() else { return };
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let spec = format!("gtp:{} always-exit 2 {marker} -- {rhino} -l 1", misbehave());
    for format in ["text", "json"] {
        let args = [
            "match",
            &spec,
            "greedy",
            "--games",
            "40",
            "--openings",
            "4",
            "--threads",
            "2",
            "--logs",
            "logs",
            "--format",
            format,
        ];
        let (code, stdout, stderr) = run_in(d, &args);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("player 'A' lost 3 games in a row by a fault (the last: crash"),
            "{stderr}"
        );
        assert!(stderr.contains("engine logs: logs/engines"), "{stderr}");
        if format == "text" {
            assert!(stdout.contains("0 wins, 0 draws, 3 losses"), "{stdout}");
            assert!(stdout.contains("; forfeits: A 3 crash"), "{stdout}");
        } else {
            let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(json["games"], 3, "{stdout}");
            assert_eq!(json["forfeits"]["a"]["crash"], 3, "{stdout}");
            assert_eq!(json["forfeits"]["b"]["time"], 0, "{stdout}");
        }
    }
    let logs = engine_logs(&d.join("logs/engines"));
    assert!(logs.contains("reversi-lab: crash after"), "{logs}");
    // One worker: the game after the third fault is never started (it used to be).
    let args = [
        "match",
        &spec,
        "greedy",
        "--games",
        "40",
        "--threads",
        "1",
        "--logs",
        "one",
    ];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    let logs = engine_logs(&d.join("one/engines"));
    assert_eq!(
        logs.matches("reversi-lab: crash after").count(),
        3,
        "{logs}"
    );
    // A log folder that cannot be made is refused before any game, not taken for
    // the engine crashing.
    fs::write(d.join("afile"), "").unwrap();
    let args = ["match", &spec, "greedy", "--games", "4", "--logs", "afile"];
    let (code, stdout, stderr) = run_in(d, &args);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("cannot keep engine logs in afile/engines"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
