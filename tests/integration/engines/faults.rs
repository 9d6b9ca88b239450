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
        common::binary(),
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
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = served_gtp(&script, "no-ids", "0", &marker);
    fs::write(
        d.join("e.toml"),
        experiment(&engine, ", start_timeout = \"20s\"", 4),
    )
    .unwrap();
    // A reply taken as late would leave the start-up waiting out its 20 s and fail:
    // the run succeeding with every game normal is the proof, with no clock read.
    ok(
        d,
        &["run", "e.toml", "--out", "r", "--quiet", "--no-report"],
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
    let dir = Dir::new();
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

/// Item 52.17: an engine that fails at start-up is refused in one line that quotes
/// the end of its standard error and says how it ended, the same on every run; a
/// missing `dir` is named as the problem, not the program.
#[test]
fn a_start_up_failure_quotes_the_engines_standard_error() {
    let dir = Dir::new();
    let d = dir.path();
    let fails = "sh -c 'echo starting >&2; echo \"invalid argument for option -l\" >&2; exit 2'";
    for protocol in ["gtp", "nboard"] {
        let spec = format!("{protocol}:{fails}");
        for _ in 0..3 {
            let (code, _, stderr) = run_in(d, &["match", &spec, "greedy", "--games", "2"]);
            assert_eq!(code, 2, "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("it exited (exit status: 2)"), "{stderr}");
            assert!(
                stderr.contains(
                    "its standard error ends 'starting | invalid argument for option -l'"
                ),
                "{stderr}"
            );
        }
    }
    if let Some(rhino) = rhino() {
        let spec = format!("gtp:{rhino} -l 9");
        let (code, _, stderr) = run_in(d, &["match", &spec, "greedy", "--games", "2"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("invalid argument for option"), "{stderr}");
        assert!(stderr.contains("it exited (exit status: 1)"), "{stderr}");
    }
    let config = experiment(&["gtp-rhino"], ", dir = \"no-such-folder\"", 2);
    fs::write(d.join("e.toml"), config).unwrap();
    let (code, _, stderr) = run_in(d, &["run", "e.toml", "--out", "r", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("its dir ") && stderr.contains("no-such-folder does not exist"),
        "{stderr}"
    );
    assert!(!stderr.contains("on PATH"), "{stderr}");
}

/// Item 52.24: a chatty engine's log keeps its head and its tail and says what was
/// cut; a reply line past the cap is garbage, a fault that loses the game.
#[test]
fn logs_and_reply_lines_are_held_to_their_caps() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    // 8 MB on its standard error before it starts, then a served greedy.
    let chatty = format!(
        "head -c 8000000 /dev/zero | tr '\\0' x | fold -w 99 >&2; exec '{bin}' gtp --strategy greedy"
    );
    fs::write(d.join("c.toml"), experiment(&["sh", "-c", &chatty], "", 2)).unwrap();
    ok(
        d,
        &[
            "run",
            "c.toml",
            "--out",
            "c",
            "--quiet",
            "--no-report",
            "--threads",
            "1",
        ],
    );
    let log = fs::read(d.join("c/engines/engine-1.log")).unwrap();
    assert!(log.len() <= 3 * 1024 * 1024 + 300, "{}", log.len());
    assert!(log.len() >= 2 * 1024 * 1024, "{}", log.len());
    let text = String::from_utf8_lossy(&log);
    assert!(text.starts_with("xxxx"), "the head is kept");
    assert!(
        text.contains("bytes of this log cut here"),
        "the cut is said"
    );
    assert!(text.trim_end().ends_with('x'), "the tail is kept");

    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = served_gtp(&script, "long", "5", &marker);
    fs::write(d.join("l.toml"), experiment(&engine, "", 6)).unwrap();
    ok(
        d,
        &["run", "l.toml", "--out", "l", "--quiet", "--no-report"],
    );
    let logs = one_game_lost_by(&d.join("l"), "long", "illegal");
    assert!(
        logs.contains("it wrote a line longer than 1048576 bytes"),
        "{logs}"
    );
}

/// Item 52.16: an engine's deadlines change no finished game, so a run continues
/// after they changed; a change that does is refused, naming the player and the key.
#[test]
fn a_resume_takes_new_deadlines_and_names_any_other_change() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    let config =
        |strategy: &str, extra: &str| experiment(&[bin, "gtp", "--strategy", strategy], extra, 4);
    let args = ["run", "e.toml", "--out", "r", "--quiet", "--no-report"];
    fs::write(
        d.join("e.toml"),
        config("greedy", ", stall_timeout = \"5s\""),
    )
    .unwrap();
    ok(d, &args);
    fs::write(
        d.join("e.toml"),
        config(
            "greedy",
            ", stall_timeout = \"60s\", start_timeout = \"20s\"",
        ),
    )
    .unwrap();
    ok(d, &[&args[..], &["--resume"]].concat());
    assert_eq!(games(&d.join("r")).len(), 4);
    fs::write(d.join("e.toml"), config("weighted", "")).unwrap();
    let (code, _, stderr) = run_in(d, &[&args[..], &["--resume"]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("player \"engine\": strategy.command = [")
            && stderr.contains("\"weighted\"] now"),
        "{stderr}"
    );
    assert!(!stderr.contains("timeout"), "{stderr}");
}

/// Item 52.16: the new deadline of a fixed engine is what `run.toml` records once the
/// resumed run goes on (the broken-engine stop, then a longer `stall_timeout`).
#[test]
fn a_resumed_run_records_the_engines_new_deadline() {
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("broken").display().to_string();
    fs::write(&marker, "").unwrap();
    let script = misbehave();
    let engine = served_gtp(&script, "while-exit", "3", &marker);
    let config = |stall: &str| experiment(&engine, &format!(", stall_timeout = \"{stall}\""), 8);
    fs::write(d.join("e.toml"), config("5s")).unwrap();
    let args = crate::common::run_e_into_r("1");
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    assert!(record.contains("stall_timeout = \"5s\""), "{record}");
    fs::remove_file(&marker).unwrap();
    fs::write(d.join("e.toml"), config("90s")).unwrap();
    ok(d, &[&args[..], &["--resume"]].concat());
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    assert!(record.contains("status = \"complete\""), "{record}");
    assert!(record.contains("stall_timeout = \"1m 30s\""), "{record}");
    assert_eq!(games(&d.join("r")).len(), 8);
}

/// A walk's leftover of item 52.3: a `stall_timeout` shorter than `start_timeout`
/// holds for a move (a stalled move waited for the longer of the two), and the log
/// names the command and the deadline that passed.
#[test]
fn a_short_stall_timeout_holds_under_a_longer_start_timeout() {
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = served_gtp(&script, "sleep", "5", &marker);
    let extra = ", stall_timeout = \"1s\", start_timeout = \"20s\"";
    fs::write(d.join("e.toml"), experiment(&engine, extra, 6)).unwrap();
    ok(d, &crate::common::run_e_into_r("1"));
    let logs = one_game_lost_by(&d.join("r"), "sleep", "stalled");
    // The deadline that passed is the stall's: it was the longer start_timeout's.
    assert!(
        logs.contains("no answer to '")
            && logs.contains("genmove")
            && logs.contains("within 1.0 s"),
        "{logs}"
    );
}

/// Walk leftovers of item 52.9: after the three-fault stop, `match --format json` says
/// it stopped (and whom for), where the JSON had no such field; a `--logs` folder used
/// again marks where the new session's lines begin.
#[test]
fn a_stopped_match_says_so_in_json_and_reused_logs_are_marked() {
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let engine = served_gtp(&script, "always-exit", "2", &marker);
    let spec = format!("gtp:{}", engine.join(" "));
    let args = [
        "match",
        &spec,
        "greedy",
        "--games",
        "20",
        "--threads",
        "1",
        "--logs",
        "logs",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 3, "{stdout}");
    assert_eq!(json["stopped"]["player"], "A", "{stdout}");
    assert_eq!(json["stopped"]["termination"], "crash", "{stdout}");
    let (code, stdout, _) = run_in(d, &args);
    assert_eq!(code, 2);
    assert!(stdout.contains("\"stopped\":{"), "{stdout}");
    let logs = engine_logs(&d.join("logs/engines"));
    assert_eq!(
        logs.matches("a new session starts here").count(),
        1,
        "{logs}"
    );
    let (_, stdout, _) = run_in(
        d,
        &[
            "match", "greedy", "random", "--games", "2", "--format", "json",
        ],
    );
    assert!(stdout.contains("\"stopped\":null"), "{stdout}");
}
