//! `reversi-lab run` end to end: results files, determinism across thread counts,
//! resuming after a kill or Ctrl-C, and every bad-input case failing before any game.

use crate::common::{read, reversi_lab, Dir};
use std::path::Path;

mod resume;
mod timed;

const SMALL: &str = r#"
name = "small"
seed = 7
games_per_pair = 6
[openings]
random_plies = 4
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "weighted"
strategy = { kind = "weighted", preset = "classic" }
[[players]]
name = "ab"
strategy = { kind = "alphabeta", depth = 2, eval = { kind = "mobility" }, endgame = 8 }
"#;

fn run(config: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    reversi_lab()
        .arg("run")
        .arg(config)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_full_run_writes_every_file() {
    let dir = Dir::new();
    let config = dir.write("small.toml", SMALL);
    let out = dir.path().join("out");
    let output = run(&config, &out, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("18 games in ") && stdout.contains("games/s"),
        "{stdout}"
    );

    let games = read(&out.join("games.csv"));
    let mut lines = games.lines();
    assert_eq!(
        lines.next().unwrap(),
        "game_id,pair_id,opening,black,white,black_discs,white_discs,result,margin,plies,passes,moves,seed,termination"
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 18);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[1], (i / 6).to_string());
        // Colour-swapped pairs share their opening, and every game starts with it.
        assert!(row[11].starts_with(&row[2]));
        assert_eq!(row[2].len(), 8);
        let (b, w): (i32, i32) = (row[5].parse().unwrap(), row[6].parse().unwrap());
        let margin: i32 = row[8].parse().unwrap();
        assert_eq!(
            row[7],
            if margin > 0 {
                "black"
            } else if margin < 0 {
                "white"
            } else {
                "draw"
            }
        );
        assert!(margin.signum() == (b - w).signum());
        assert_eq!(row[11].len() as u32, 2 * row[9].parse::<u32>().unwrap());
    }
    assert_eq!(rows[0][2], rows[1][2]);
    assert_eq!(
        (rows[0][3].as_str(), rows[1][4].as_str()),
        ("greedy", "greedy")
    );

    let pairs = read(&out.join("pairs.csv"));
    assert!(pairs.starts_with("player_a,player_b,games,wins,draws,losses,score,"));
    assert_eq!(pairs.lines().count(), 4);
    assert!(pairs.contains("\ngreedy,weighted,6,"));
    let standings = read(&out.join("standings.csv"));
    assert!(standings.starts_with(
        "rank,player,games,wins,draws,losses,score,rating,rating_low,rating_high\n1,"
    ));
    assert_eq!(standings.lines().count(), 4);
    let run_toml = read(&out.join("run.toml"));
    for key in [
        "status = \"complete\"",
        "threads = ",
        "started = ",
        "elapsed_seconds = ",
        "games_per_second = ",
        "version = ",
    ] {
        assert!(
            run_toml.contains(key),
            "{key} missing from run.toml:\n{run_toml}"
        );
    }
    assert!(
        run_toml.contains("table_bits = 14"),
        "defaults are written out:\n{run_toml}"
    );

    // Without --resume an existing folder is never touched.
    let again = run(&config, &out, &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists: pass --resume"));
    assert_eq!(read(&out.join("games.csv")), games);
}

#[test]
fn thread_count_does_not_change_a_byte() {
    let dir = Dir::new();
    let config = dir.write("small.toml", SMALL);
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    assert!(run(&config, &one, &["--threads", "1", "--games", "20"])
        .status
        .success());
    assert!(run(&config, &two, &["--threads", "2", "--games", "20"])
        .status
        .success());
    for file in ["games.csv", "pairs.csv", "standings.csv"] {
        assert_eq!(read(&one.join(file)), read(&two.join(file)), "{file}");
    }
    assert_eq!(read(&one.join("games.csv")).lines().count(), 61);
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let dir = Dir::new();
    let config = dir.write("small.toml", SMALL);
    let full = dir.path().join("full");
    assert!(run(&config, &full, &["--games", "40"]).status.success());
    // A kill: the file ends part-way through a row.
    let killed = dir.path().join("killed");
    std::fs::create_dir(&killed).unwrap();
    std::fs::copy(full.join("run.toml"), killed.join("run.toml")).unwrap();
    let games = read(&full.join("games.csv"));
    let cut = games.len() / 2 + 17;
    std::fs::write(killed.join("games.csv"), &games[..cut]).unwrap();
    let resumed = run(&config, &killed, &["--games", "40", "--resume"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for file in ["games.csv", "pairs.csv", "standings.csv"] {
        assert_eq!(read(&full.join(file)), read(&killed.join(file)), "{file}");
    }
    // Resuming with other settings is refused.
    let other = run(&config, &killed, &["--games", "20", "--resume"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("different experiment"));
}

/// A folder played with another generator (schedule version) is never continued:
/// its games and the new ones would come from two generators. A `run.toml` without
/// the version is of version 1 (ChaCha8).
#[test]
fn a_folder_of_another_schedule_version_is_not_resumed() {
    let dir = Dir::new();
    let config = dir.write("small.toml", SMALL);
    let out = dir.path().join("out");
    assert!(run(&config, &out, &["--games", "4"]).status.success());
    let record = read(&out.join("run.toml"));
    assert!(record.contains("schedule_version = 2\n"), "{record}");
    for edited in [
        record.replace("schedule_version = 2\n", "schedule_version = 1\n"),
        record.replace("schedule_version = 2\n", ""),
    ] {
        std::fs::write(out.join("run.toml"), edited).unwrap();
        let resumed = run(&config, &out, &["--games", "4", "--resume"]);
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert_eq!(resumed.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("was played with schedule version 1 (ChaCha8) but this reversi-lab plays version 2 (Xoshiro256++)")
                && stderr.contains("--force to play it again"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert!(run(&config, &out, &["--games", "4", "--force"])
        .status
        .success());
}

/// Ctrl-C, and SIGTERM (what Slurm and Kubernetes send before a kill), stop the run
/// after the games in flight with its status recorded; `--resume` finishes it.
#[test]
fn ctrl_c_and_sigterm_stop_cleanly_and_resume_finishes() {
    let dir = Dir::new();
    let config = dir.write("long.toml",
        "name = \"long\"\nformat = \"head-to-head\"\ngames_per_pair = 200000\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"corner-first\"\n",
    );
    let reference = dir.path().join("reference");
    assert!(run(&config, &reference, &[]).status.success());
    for signal in ["-INT", "-TERM"] {
        let out = dir.path().join(format!("out{signal}"));
        let child = reversi_lab()
            .args([
                "run",
                config.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ])
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(400));
        let _ = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        let output = child.wait_with_output().unwrap();
        let status = output.status;
        // Both signals exit 130 (docs/experiments.md says why not 143), and with no
        // terminal (no progress bar to end) the stop's line is not led by a blank one.
        let stderr = String::from_utf8_lossy(&output.stderr);
        if status.code() == Some(130) {
            assert!(
                stderr.starts_with("stopping after the games in flight"),
                "{signal}: {stderr:?}"
            );
        }
        // Normally interrupted (130); on a very fast machine it may have finished (0).
        assert!(
            matches!(status.code(), Some(130) | Some(0)),
            "{signal}: {status:?}"
        );
        if status.code() == Some(130) {
            let record = read(&out.join("run.toml"));
            assert!(
                record.contains("status = \"interrupted\""),
                "{signal}: {record}"
            );
        }
        let partial = read(&out.join("games.csv"));
        assert!(partial.ends_with('\n'), "only whole rows are written");
        let resumed = run(&config, &out, &["--resume"]);
        assert!(resumed.status.success());
        assert_eq!(
            read(&out.join("games.csv")),
            read(&reference.join("games.csv"))
        );
        assert_eq!(
            read(&out.join("pairs.csv")),
            read(&reference.join("pairs.csv"))
        );
    }
}

/// A resume says it is running while it plays, as a new run does: killed with -9
/// midway, its folder says running, not the interruption it resumed after.
#[test]
fn a_resume_is_marked_running_while_it_plays() {
    let dir = Dir::new();
    let config = dir.write("slow.toml",
        "name = \"slow\"\nformat = \"head-to-head\"\ngames_per_pair = 100000\n[[players]]\nname = \"a\"\nstrategy = \"alphabeta:depth=4\"\n[[players]]\nname = \"b\"\nstrategy = \"alphabeta:depth=3\"\n",
    );
    let out = dir.path().join("out");
    let start = |extra: &[&str]| {
        reversi_lab()
            .args(["run", config.to_str().unwrap(), "--out"])
            .arg(&out)
            .arg("--quiet")
            .args(extra)
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let child = start(&[]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait_with_output();
    assert!(read(&out.join("run.toml")).contains("status = \"interrupted\""));
    let mut child = start(&["--resume"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let _ = child.kill();
    let _ = child.wait();
    let record = read(&out.join("run.toml"));
    assert!(record.contains("status = \"running\""), "{record}");
}

/// `--force` keeps the folder it replaces until the new run has written a game: a
/// kill before that leaves the old results beside the new folder, not gone.
#[test]
fn force_keeps_the_old_folder_until_the_new_run_writes_a_game() {
    let dir = Dir::new();
    let quick = dir.write("quick.toml",
        "name = \"q\"\nformat = \"head-to-head\"\ngames_per_pair = 4\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"corner-first\"\n",
    );
    // A first game of seconds: a deep search on 8x8 from the start.
    let slow = dir.write("slow.toml",
        "name = \"s\"\nformat = \"head-to-head\"\ngames_per_pair = 2\nthreads = 1\n[[players]]\nname = \"deep\"\nstrategy = \"alphabeta:depth=9,eval=mobility\"\n[[players]]\nname = \"b\"\nstrategy = \"corner-first\"\n",
    );
    let out = dir.path().join("out");
    assert!(run(&quick, &out, &["--no-report"]).status.success());
    let old = read(&out.join("games.csv"));
    let mut child = reversi_lab()
        .args([
            "run",
            slow.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--force",
        ])
        .std()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the new folder is made (its record, then its games file's header),
    // before its first game ends.
    let started = std::time::Instant::now();
    while !read_or_empty(&out.join("run.toml")).contains("name = \"s\"")
        || !read_or_empty(&out.join("games.csv")).ends_with('\n')
    {
        assert!(
            started.elapsed().as_secs() < 60,
            "the new run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        read(&out.join("games.csv")).lines().count(),
        1,
        "no game was written"
    );
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("out.replaced-"))
        .collect();
    assert_eq!(kept.len(), 1, "the replaced folder is kept: {kept:?}");
    assert_eq!(read(&kept[0].join("games.csv")), old);
    // A replacement that writes its games removes the old folder.
    std::fs::remove_dir_all(&kept[0]).unwrap();
    assert!(run(&quick, &out, &["--force", "--no-report"])
        .status
        .success());
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| !e
        .unwrap()
        .path()
        .to_string_lossy()
        .contains("replaced")));
}

/// `--resume` of a run that had ended plays nothing and leaves `run.toml` as it was
/// (how the run was made, its time and speed), rather than recording the resume.
#[test]
fn resuming_a_finished_run_keeps_its_record() {
    let dir = Dir::new();
    let config = dir.write("quick.toml",
        "name = \"q\"\nformat = \"head-to-head\"\ngames_per_pair = 4\n[[players]]\nname = \"a\\nb\"\nstrategy = \"greedy\"\n[[players]]\nname = \"c\"\nstrategy = \"corner-first\"\n",
    );
    let out = dir.path().join("out");
    assert!(run(&config, &out, &["--no-report"]).status.success());
    let record = read(&out.join("run.toml"));
    let games = read(&out.join("games.csv"));
    // A player's name with a line break: rows are records, not lines.
    assert!(games.contains("\"a\nb\""), "{games}");
    assert!(run(&config, &out, &["--resume", "--no-report"])
        .status
        .success());
    assert_eq!(read(&out.join("run.toml")), record);
    assert_eq!(read(&out.join("games.csv")), games);
}

#[test]
fn sprt_stops_head_to_head_runs_deterministically() {
    let dir = Dir::new();
    let config = dir.write("sprt.toml",
        "name = \"s\"\nformat = \"head-to-head\"\ngames_per_pair = 10000\n[openings]\nrandom_plies = 6\n[sprt]\nelo0 = 0\nelo1 = 20\n[[players]]\nname = \"corner-first\"\nstrategy = \"corner-first\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n",
    );
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    let output = run(&config, &one, &["--threads", "1"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("SPRT accepted H1"));
    assert!(run(&config, &two, &["--threads", "2"]).status.success());
    assert_eq!(read(&one.join("games.csv")), read(&two.join("games.csv")));
    let pairs = read(&one.join("pairs.csv"));
    let column = |pairs: &str, name: &str| -> String {
        let mut lines = pairs.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name}"));
        row[at].to_string()
    };
    assert!(pairs.lines().next().unwrap().ends_with(
        "sprt_llr,sprt_lower,sprt_upper,sprt_pairs,sprt_result,sprt_elo,sprt_elo_low,sprt_elo_high"
    ));
    assert_eq!(column(&pairs, "sprt_result"), "H1");
    let games = read(&one.join("games.csv")).lines().count() - 1;
    assert!(games < 10000 && games.is_multiple_of(2), "{games}");
    // The LLR crossed the bound in force at the last pair played, which pairs.csv
    // names; by default that bound is Wald's moved inwards by the overshoot.
    assert_eq!(column(&pairs, "sprt_pairs"), (games / 2).to_string());
    let number = |name: &str| -> f64 { column(&pairs, name).parse().unwrap() };
    let (llr, upper) = (number("sprt_llr"), number("sprt_upper"));
    assert!(llr >= upper && upper < 2.944, "{llr} {upper}");
    assert!(read(&one.join("run.toml")).contains("overshoot = true"));
    // After the H1 stop: the median-unbiased Elo, inside its interval and below the
    // fixed-sample figure, which the early stop inflates.
    let (unbiased, low, high) = (
        number("sprt_elo"),
        number("sprt_elo_low"),
        number("sprt_elo_high"),
    );
    assert!(
        low < unbiased && unbiased < high && unbiased < number("elo"),
        "{pairs}"
    );

    // overshoot = false: Wald's bounds exactly, and never an earlier stop.
    let plain = dir.write(
        "plain.toml",
        read(&config).replace("elo1 = 20\n", "elo1 = 20\novershoot = false\n"),
    );
    let three = dir.path().join("three");
    assert!(run(&plain, &three, &[]).status.success());
    let plain_pairs = read(&three.join("pairs.csv"));
    assert_eq!(column(&plain_pairs, "sprt_upper"), "2.944");
    let plain_games = read(&three.join("games.csv")).lines().count() - 1;
    assert!(plain_games >= games, "{plain_games} {games}");
    assert!(read(&three.join("run.toml")).contains("overshoot = false"));
}

#[test]
fn every_committed_experiment_is_valid() {
    for entry in std::fs::read_dir("experiments").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            // NOTE: the file-name convention of experiments/README.md.
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            // Its players start GRhino's engine to check it: installed by .ci/run.
            let rhino = Path::new("/usr/games/gtp-rhino").exists();
            // Every experiment that plays GRhino (engines.toml, expert-vs-rhino-N.toml).
            if !rhino && read(&path).contains("gtp-rhino") {
                crate::common::missing(&format!(
                    "{name} not checked: gtp-rhino is not installed (apt-get install grhino)"
                ));
                continue;
            }
            let checked = if name.starts_with("tune-") {
                reversi_lab::studies::tune::Tune::load(&path).map(|_| ())
            } else if name.starts_with("ablation-") {
                reversi_lab::studies::ablate::Ablation::load(&path).map(|_| ())
            } else if name.starts_with("sweep-") {
                reversi_lab::studies::sweep::Sweep::load(&path).map(|_| ())
            } else {
                reversi_lab::lab::Experiment::load(&path).map(|_| ())
            };
            checked.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

#[test]
fn the_default_experiment_is_committed_and_valid() {
    let text = read(Path::new("experiments/default.toml"));
    let experiment =
        reversi_lab::lab::Experiment::parse(&text, "default.toml", Path::new("experiments"))
            .unwrap();
    let kinds: Vec<&str> = experiment.players.iter().map(|p| p.spec.kind()).collect();
    for kind in [
        "random",
        "greedy",
        "corner-first",
        "corner-edge",
        "minimum-disc",
        "weighted",
        "mobility",
        "parity",
        "stability",
        "eval",
        "alphabeta",
    ] {
        assert!(
            kinds.contains(&kind),
            "{kind} missing from the default experiment"
        );
    }
}

#[test]
fn bad_input_fails_before_any_game() {
    let dir = Dir::new();
    let openings = dir.write("openings.txt", "f5d6\n# a comment\nf5d6c3zz\n");
    let cases: Vec<(String, &str)> = vec![
        ("name = \"x\"\nplayers = [".to_string(), "x.toml:"),
        (
            SMALL.replace("seed = 7", "seed = 7\nsead = 3"),
            "unknown key `sead` in the experiment",
        ),
        (
            SMALL.replace(
                "\"greedy\"\n[[players]]\nname = \"weighted\"",
                "\"greddy\"\n[[players]]\nname = \"weighted\"",
            ),
            "did you mean 'greedy'?",
        ),
        (
            SMALL.replace("games_per_pair = 6", "games_per_pair = 0"),
            "games_per_pair = 0",
        ),
        (
            SMALL.replace("depth = 2", "depth = 0"),
            "depth = 0 is out of range",
        ),
        (
            SMALL.replace("preset = \"classic\"", "table = [1, 2, 3]"),
            "has 3 weights but the 8x8 board needs 64",
        ),
        (
            SMALL.replace("random_plies = 4", "file = \"openings.txt\""),
            "openings.txt:3: transcript ply 4",
        ),
        (SMALL.replace("seed = 7", "seed = 7\nsize = 6"), "8x8 table"),
        (
            SMALL.replace("seed = 7", "seed = 7\nsize = 5"),
            "unsupported board size 5",
        ),
        (
            SMALL.replace("random_plies = 4", "file = \"missing.txt\""),
            "cannot read",
        ),
    ];
    let _ = openings;
    for (text, needle) in cases {
        let config = dir.write("x.toml", &text);
        let out = dir.path().join("never");
        let output = run(&config, &out, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert_eq!(output.status.code(), Some(2), "{needle}: {stderr}");
        assert!(stderr.contains(needle), "expected '{needle}' in: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(
            !out.exists(),
            "nothing may be written for bad input ({needle})"
        );
    }
    let config = dir.write("ok.toml", SMALL);
    for (args, needle) in [
        (vec!["--games", "0"], "--games 0"),
        (vec!["--games", "3"], "must be even"),
        (vec!["--threads", "0"], "--threads 0"),
    ] {
        let output = run(&config, &dir.path().join("never"), &args);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains(needle));
    }
    let output = run(
        &dir.path().join("nope.toml"),
        &dir.path().join("never"),
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nope.toml"));
}

#[test]
fn an_unwritable_results_folder_is_a_clear_error() {
    let dir = Dir::new();
    let config = dir.write("small.toml", SMALL);
    // A regular file where a parent folder should be.
    let blocker = dir.write("blocker", "not a folder");
    let out = blocker.join("results");
    let output = run(&config, &out, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot create results folder"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn ablation_measures_every_feature() {
    let dir = Dir::new();
    let config = dir.write("ablation.toml",
        "name = \"abl\"\ngames_per_pair = 8\nalone = true\n[openings]\nrandom_plies = 4\n[player]\nkind = \"eval\"\ndiscs = 0\nmobility = 5\ncorners = 20\nstable = 0\nparity = 0\npotential_mobility = 0\nfrontier = 0\nx_squares = -10\nc_squares = 0\n",
    );
    let out = dir.path().join("out");
    let output = reversi_lab()
        .args([
            "ablate",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("| corners | without it | 8 |"), "{stdout}");
    let csv = read(&out.join("ablation.csv"));
    assert!(csv.starts_with(
        "feature,variant,games,full_score,elo,elo_low,elo_high,model,p_value,p_holm,significant_holm\n"
    ));
    assert!(read(&out.join("ablation.md")).contains("Holm"));
    // Three features with weights, each dropped and each alone.
    assert_eq!(csv.lines().count(), 1 + 6);
    assert!(out.join("charts/ablation.svg").exists() && out.join("report.html").exists());
    let pairs = read(&out.join("pairs.csv"));
    assert!(pairs.contains("\nfull,without-mobility,8,"));
    // --threads, as `run` takes it: the same games on one thread.
    let one = dir.path().join("one");
    let output = reversi_lab()
        .args([
            "ablate",
            config.to_str().unwrap(),
            "--out",
            one.to_str().unwrap(),
        ])
        .args(["--quiet", "--threads", "1"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(read(&one.join("games.csv")), read(&out.join("games.csv")));
    assert!(read(&one.join("run.toml")).contains("threads = 1"));

    let bad = dir.write("bad.toml", "name = \"b\"\n[player]\nkind = \"greedy\"\n");
    let output = reversi_lab()
        .args(["ablate", bad.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("ablate needs an `eval` strategy"));
}

/// A file's text, or nothing while it does not exist.
fn read_or_empty(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}
