//! Stops while an engine is thinking (issue 52's one stop): a first Ctrl-C waits for
//! a stalled engine no longer than its stall deadline, a second drops the games in
//! flight at once; both checkpoint the games kept, record the status and say one
//! line, and `--resume` finishes the run as if it had never stopped.

use super::*;

/// A run of `games` games against `misbehave.py MODE N m -- reversi-lab gtp` (greedy
/// served). One thread: the sleeper's game is then the one in flight at the stop, and
/// the games after it are still to play.
fn sleeper(d: &Path, mode: &str, nth: &str, stall: &str, games: u32) {
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = [
        script.as_str(),
        mode,
        nth,
        &marker,
        "--",
        common::binary(),
        "gtp",
        "--strategy",
        "greedy",
    ];
    let extra = format!(", stall_timeout = \"{stall}\", start_timeout = \"20s\"");
    fs::write(d.join("e.toml"), experiment(&engine, &extra, games)).unwrap();
}

const ARGS: [&str; 8] = crate::common::run_e_into_r("1");

/// Starts the run and waits until the engine has begun to sleep (it made `m`).
fn start_until_asleep(d: &Path) -> common::Running {
    let child = common::Running::start(
        common::in_dir(d)
            .args(ARGS)
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped()),
    );
    child.wait_for_file(&d.join("m"), Duration::from_secs(60));
    // The games before it are in; the sleeper is still asleep.
    std::thread::sleep(Duration::from_millis(500));
    child
}

/// What a stopped run left: its status, and that its costs cover exactly the games
/// `games.csv` holds (the checkpoint is in step).
fn stopped_as(d: &Path, status: &str) -> usize {
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    assert!(
        record.contains(&format!("status = \"{status}\"")),
        "{record}"
    );
    let text = fs::read_to_string(d.join("r/games.csv")).unwrap();
    assert!(text.ends_with('\n'), "only whole rows: {text}");
    let kept = games(&d.join("r")).len();
    let costs = fs::read_to_string(d.join("r/costs.csv")).unwrap();
    for line in costs.lines().skip(1) {
        assert_eq!(line.split(',').nth(1), Some(&*kept.to_string()), "{costs}");
    }
    kept
}

/// The resumed run equals one that never stopped (the engine, fixed, plays greedy
/// deterministically), none of the kept games played again.
fn resume_equals_a_whole_run(d: &Path, kept: usize) {
    ok(d, &[&ARGS[..], &["--resume"]].concat());
    ok(
        d,
        &["run", "e.toml", "--out", "whole", "--quiet", "--no-report"],
    );
    let resumed = games(&d.join("r"));
    let whole = games(&d.join("whole"));
    assert_eq!(resumed.len(), whole.len());
    assert!(kept > 0 && kept < whole.len(), "{kept}");
    for (i, (a, b)) in resumed.iter().zip(&whole).enumerate() {
        assert_eq!(a.moves, b.moves, "game {i}");
    }
}

/// The second signal drops the game of an engine asleep for good (a 60 s stall
/// deadline): the run ends within seconds, not at the deadline, as `interrupted`
/// with one line and exit 130, and no engine process outlives it. Before, the
/// second signal quit on the spot and left `status = "running"`.
#[test]
fn a_second_signal_drops_the_games_in_flight_at_once() {
    let dir = Dir::new();
    let d = dir.path();
    // Its 40th move (the third game or so) is never answered.
    sleeper(d, "sleep", "40", "60s", 16);
    let child = start_until_asleep(d);
    child.signal("-INT");
    std::thread::sleep(Duration::from_millis(300));
    let second = Instant::now();
    child.signal("-TERM");
    let output = child.output();
    let waited = second.elapsed();
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "stopping after the games in flight (Ctrl-C or SIGTERM again to drop them)"
        ),
        "{stderr}"
    );
    let kept = stopped_as(d, "interrupted");
    let rows = games(&d.join("r"));
    assert!(rows.len() < 16, "the sleeper's game is dropped");
    assert!(
        rows.iter().all(|r| r.termination == "normal"),
        "no game ended by the stop is kept: {rows:?}"
    );
    let pids = fs::read_to_string(d.join("m.pid")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.lines().any(alive) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<&str> = pids.lines().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "engines outlived the stop: {left:?}");
    resume_equals_a_whole_run(d, kept);
}

/// A first signal waits for the games in flight, but an engine asleep holds it up no
/// longer than its stall deadline: its game is then lost as `stalled`, and kept.
#[test]
fn a_stalled_engine_holds_a_first_stop_no_longer_than_its_stall_deadline() {
    let dir = Dir::new();
    let d = dir.path();
    sleeper(d, "sleep", "40", "3s", 16);
    let child = start_until_asleep(d);
    let first = Instant::now();
    child.signal("-INT");
    let output = child.output();
    let waited = first.elapsed();
    // The 3 s deadline began before the signal; the slack is for a loaded machine.
    assert!(waited < Duration::from_secs(3 + 5), "{waited:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let kept = stopped_as(d, "interrupted");
    let rows = games(&d.join("r"));
    assert_eq!(
        rows.last().map(|r| r.termination.as_ref()),
        Some("stalled"),
        "{rows:?}"
    );
    assert_eq!(
        rows.iter().filter(|r| r.termination == "stalled").count(),
        1,
        "{rows:?}"
    );
    assert!(rows.len() < 16);
    // The stalled game is a result; the resume keeps it and plays the rest.
    ok(d, &[&ARGS[..], &["--resume"]].concat());
    let resumed = games(&d.join("r"));
    assert_eq!(resumed.len(), 16);
    for (a, b) in resumed.iter().zip(&rows) {
        assert_eq!((&a.moves, &a.termination), (&b.moves, &b.termination));
    }
    assert_eq!(kept, rows.len());
}
