//! Engines that answer in odd forms or fail in ways a user must be told about: replies
//! without ids, a fresh process after every fault, start-up failures that quote the
//! engine's standard error, logs and reply lines held to their caps, and a resume
//! after an engine's deadlines changed.

use super::*;

/// `misbehave.py MODE N MARKER -- reversi-lab gtp --strategy greedy`, as words.
fn served_gtp<'a>(script: &'a str, mode: &'a str, nth: &'a str, marker: &'a str) -> Vec<&'a str> {
    vec![
        script,
        mode,
        nth,
        marker,
        "--",
        env!("CARGO_BIN_EXE_reversi-lab"),
        "gtp",
        "--strategy",
        "greedy",
    ]
}

/// Item 52.10: an engine that drops GTP's ids answers `= 0.1.0` to `2 version`; its
/// leading digit is no id, so the reply is taken (not dropped as late) and the engine
/// plays.
#[test]
fn replies_without_ids_are_read_whatever_their_first_word() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = served_gtp(&script, "no-ids", "0", &marker);
    fs::write(
        d.join("e.toml"),
        experiment(&engine, ", start_timeout = \"20s\"", 4),
    )
    .unwrap();
    let began = Instant::now();
    ok(
        d,
        &["run", "e.toml", "--out", "r", "--quiet", "--no-report"],
    );
    assert!(
        began.elapsed() < Duration::from_secs(15),
        "{:?}",
        began.elapsed()
    );
    let rows = games(&d.join("r"));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.termination == "normal"), "{rows:?}");
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        record.contains(&format!("engine = \"reversi-lab {version}\"")),
        "{record}"
    );
}

/// Item 52.18: after an illegal or garbage answer the next game starts a fresh
/// process, as after a crash or a stall.
#[test]
fn an_illegal_or_garbage_answer_restarts_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // How many processes a run starts: the strategy is built (and its engine
    // checked) more than once before the worker starts its own.
    let processes = |mode: &str, nth: &str| -> usize {
        let marker = d.join(format!("m-{mode}-{nth}")).display().to_string();
        let script = misbehave();
        let engine = served_gtp(&script, mode, nth, &marker);
        fs::write(d.join("e.toml"), experiment(&engine, "", 6)).unwrap();
        let out = format!("r-{mode}-{nth}");
        ok(
            d,
            &[
                "run",
                "e.toml",
                "--out",
                &out,
                "--quiet",
                "--no-report",
                "--threads",
                "1",
            ],
        );
        let pids = fs::read_to_string(format!("{marker}.pid")).unwrap();
        pids.lines().count()
    };
    let clean = processes("illegal", "0");
    for mode in ["illegal", "garbage"] {
        let started = processes(mode, "5");
        one_game_lost_by(&d.join(format!("r-{mode}-5")), mode, "illegal");
        // One more than a clean run: the one after the fault.
        assert_eq!(started, clean + 1, "{mode}");
    }
}
