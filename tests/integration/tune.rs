//! `reversi-lab tune`: a small tune end to end, determinism, resuming from the trace,
//! CMA-ES, and bad input stopped before any game.

use crate::common::{read, reversi_lab, Dir};
use std::path::Path;

const TUNE: &str = r#"
name = "t"
seed = 4
iterations = 8
games_per_iteration = 8
[openings]
random_plies = 4
[player]
kind = "alphabeta"
depth = 1
eval = { kind = "eval", discs = 1, mobility = 0, potential_mobility = 0, frontier = 0, corners = 0, x_squares = 0, c_squares = 0, stable = 0, parity = 0 }
[[params]]
name = "eval.corners"
min = -20
max = 80
step = 4
[[params]]
name = "eval.mobility"
min = -10
max = 40
step = 2
[validation]
games = 20
panel = [{ name = "greedy", strategy = "greedy" }]
"#;

fn tune(config: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    reversi_lab()
        .arg("tune")
        .arg(config)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_small_tune_writes_trace_best_charts_and_validation() {
    let dir = Dir::new();
    let config = dir.write("t.toml", TUNE);
    let out = dir.path().join("out");
    let output = tune(&config, &out, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("eval.corners")
            && stdout.contains("tuned vs start:")
            && stdout.contains("tuned vs greedy:"),
        "{stdout}"
    );
    let trace = read(&out.join("trace.csv"));
    assert!(trace.starts_with("iteration,result,eval.corners,eval.mobility\n"));
    assert_eq!(trace.lines().count(), 1 + 8);
    for chart in [
        "parameters.png",
        "parameters.svg",
        "results.png",
        "results.svg",
    ] {
        assert!(out.join("charts").join(chart).exists(), "{chart}");
    }
    // best.toml is a player an experiment file can include as it is.
    let best = read(&out.join("best.toml"));
    let experiment = format!(
        "name = \"uses-best\"\ngames_per_pair = 2\n{best}\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n"
    );
    reversi_lab::lab::Experiment::parse(&experiment, "uses-best", Path::new(".")).unwrap();
    let report = read(&out.join("report.md"));
    assert!(
        report.contains("## Validation") && report.contains("tuned vs start"),
        "{report}"
    );
    assert!(report.contains("significant") || report.contains("NOT significant"));
    assert!(out.join("validation-start/pairs.csv").exists());
    // Tuned values: the mean of the last 10% of the iterations, the final point beside it.
    assert!(
        report.contains("| parameter | start | tuned | final iteration | bounds |"),
        "{report}"
    );
    // Validation plays held-out openings, listed in the tune's folder.
    let openings = read(&out.join("validation-openings.txt"));
    let listed: Vec<&str> = openings.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        listed.len(),
        10,
        "one per game pair of a 20-game validation"
    );
    assert!(
        report.contains("validation openings: 10 held out"),
        "{report}"
    );
    let games = read(&out.join("validation-greedy/games.csv"));
    for opening in &listed[..3] {
        assert!(games.contains(&format!(",{opening},")), "{opening}");
    }
}

#[test]
fn tunes_are_deterministic_and_resume_from_their_trace() {
    let dir = Dir::new();
    let no_validation = TUNE.replace("[validation]\ngames = 20", "[validation]\nskip = true");
    let one = dir.write(
        "one.toml",
        no_validation.replace("seed = 4", "seed = 4\nthreads = 1"),
    );
    let two = dir.write(
        "two.toml",
        no_validation.replace("seed = 4", "seed = 4\nthreads = 2"),
    );
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    assert!(tune(&one, &a, &[]).status.success());
    assert!(tune(&two, &b, &[]).status.success());
    assert_eq!(read(&a.join("trace.csv")), read(&b.join("trace.csv")));
    // --threads overrides the file's, and changes nothing either.
    let flag = dir.path().join("flag");
    assert!(tune(&two, &flag, &["--threads", "1"]).status.success());
    assert_eq!(read(&a.join("trace.csv")), read(&flag.join("trace.csv")));
    let zero = tune(&two, &dir.path().join("zero"), &["--threads", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    // Interrupted after 3 iterations, with a partial line: --resume finishes identically.
    let full = read(&a.join("trace.csv"));
    let lines: Vec<&str> = full.lines().collect();
    let c = dir.path().join("c");
    std::fs::create_dir(&c).unwrap();
    std::fs::write(
        c.join("trace.csv"),
        format!(
            "{}\n{}\n{}\n{}\n4,0.1",
            lines[0], lines[1], lines[2], lines[3]
        ),
    )
    .unwrap();
    let output = tune(&one, &c, &["--resume"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(read(&c.join("trace.csv")), full);
    assert_eq!(read(&c.join("best.toml")), read(&a.join("best.toml")));
    // Without --resume an existing folder is refused.
    assert_eq!(tune(&one, &c, &[]).status.code(), Some(2));
    // So is a tune of another schedule version (its games' generator): a folder
    // without `schedule.toml` is of version 1.
    assert_eq!(read(&c.join("schedule.toml")), "schedule_version = 2\n");
    for edited in [Some("schedule_version = 1\n"), None] {
        match edited {
            Some(text) => std::fs::write(c.join("schedule.toml"), text).unwrap(),
            None => std::fs::remove_file(c.join("schedule.toml")).unwrap(),
        }
        let output = tune(&one, &c, &["--resume"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("schedule version 1 (ChaCha8)")
                && stderr.contains("--force to tune again"),
            "{stderr}"
        );
    }
}

#[test]
fn cmaes_tunes_and_resumes() {
    let dir = Dir::new();
    let text = TUNE
        .replace("name = \"t\"", "name = \"c\"\nmethod = \"cmaes\"")
        .replace("[validation]\ngames = 20", "[validation]\nskip = true");
    let config = dir.write("c.toml", &text);
    let full = dir.path().join("full");
    let output = tune(&config, &full, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let trace = read(&full.join("trace.csv"));
    assert_eq!(trace.lines().count(), 1 + 8);
    let lines: Vec<&str> = trace.lines().collect();
    let part = dir.path().join("part");
    std::fs::create_dir(&part).unwrap();
    std::fs::write(
        part.join("trace.csv"),
        format!("{}\n{}\n{}\n", lines[0], lines[1], lines[2]),
    )
    .unwrap();
    assert!(tune(&config, &part, &["--resume"]).status.success());
    assert_eq!(read(&part.join("trace.csv")), trace);
    assert_eq!(read(&part.join("best.toml")), read(&full.join("best.toml")));
}

#[test]
fn bad_tunes_fail_before_any_game() {
    let dir = Dir::new();
    for (text, needle) in [
        (
            TUNE.replace("name = \"eval.corners\"", "name = \"eval.corner\""),
            "did you mean 'eval.corners'",
        ),
        (
            TUNE.replace("min = -20\nmax = 80", "min = 80\nmax = -20"),
            "is not below max",
        ),
        (
            TUNE.replace(
                "name = \"eval.corners\"",
                "name = \"eval.corners\"\nstart = 500",
            ),
            "start = 500 is outside [-20, 80]",
        ),
        (
            TUNE.replace("iterations = 8", "iterations = 0"),
            "iterations = 0",
        ),
        (
            TUNE.replace("games_per_iteration = 8", "games_per_iteration = 7"),
            "games_per_iteration = 7",
        ),
        (TUNE.replace("step = 4", "step = 0"), "step = 0"),
        (
            TUNE.replace("depth = 1", "depth = 1\nbogus = 2"),
            "unknown parameter",
        ),
        // The validation is checked before training, not after it.
        (
            TUNE.replace("[validation]\ngames = 20", "[validation]\ngames = 3"),
            "bad.toml: [validation] games = 3 is odd",
        ),
        (
            TUNE.replace(
                "[validation]\ngames = 20",
                "[validation]\ngames = 20\nelo1 = -20",
            ),
            "bad.toml: [validation] elo1 = -20: the validation's SPRT tests elo0 = 0 against elo1",
        ),
        // The same parameter twice.
        (
            TUNE.replace(
                "name = \"eval.mobility\"\nmin = -10\nmax = 40",
                "name = \"eval.corners\"\nmin = -10\nmax = 40",
            ),
            "[[params]] names 'eval.corners' twice",
        ),
    ] {
        let config = dir.write("bad.toml", &text);
        let out = dir.path().join("never");
        let output = tune(&config, &out, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert_eq!(output.status.code(), Some(2), "{needle}: {stderr}");
        assert!(stderr.contains(needle), "expected '{needle}' in {stderr}");
        assert!(!out.exists(), "no folder for bad input ({needle})");
    }
}

/// `[validation]` changes nothing of the training: a resume may change it (after a
/// finished tune, to validate again), and the folder keeps the new file.
#[test]
fn a_resume_may_change_the_validation() {
    let dir = Dir::new();
    let quick = TUNE.replace("iterations = 8", "iterations = 2");
    let config = dir.write("t.toml", quick.replace("games = 20", "games = 10"));
    let out = dir.path().join("out");
    assert!(tune(&config, &out, &[]).status.success());
    let trace = read(&out.join("trace.csv"));
    dir.write("t.toml", &quick);
    let again = tune(&config, &out, &["--resume"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(read(&out.join("trace.csv")), trace);
    assert!(read(&out.join("tune.toml")).contains("games = 20"));
    // Training settings still may not change.
    dir.write("t.toml", quick.replace("seed = 4", "seed = 5"));
    let refused = tune(&config, &out, &["--resume"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("made by a different tune file"));
}
