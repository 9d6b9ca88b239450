//! Nothing lost, nothing silently wrong: races for one folder, resumes into folders
//! that are not runs, kills in the middle of a sweep, files cut or empty, and outputs
//! that a failure must not leave half-written.

use super::SMALL;
use crate::common::{in_dir, reversi_lab, run_in, Dir};
use std::fs;
use std::path::Path;

fn spawn_run(dir: &Path, config: &str, out: &str) -> std::process::Child {
    in_dir(dir)
        .args([
            "run",
            config,
            "--games",
            "400",
            "--threads",
            "1",
            "--out",
            out,
        ])
        .args(["--quiet", "--no-report"])
        .std()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Two runs started together into one new folder: one plays, the other is refused,
/// and the folder holds exactly the winner's games, every time.
#[test]
fn two_runs_into_one_new_folder_never_mix() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("m.toml"), SMALL).unwrap();
    fs::write(
        d.join("m2.toml"),
        SMALL.replace("name = \"small\"", "name = \"small\"\nseed = 7"),
    )
    .unwrap();
    for round in 0..100 {
        let out = format!("race{round}");
        let a = spawn_run(d, "m.toml", &out);
        let b = spawn_run(d, "m2.toml", &out);
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let codes = [a.status.code(), b.status.code()];
        assert!(
            codes == [Some(0), Some(2)] || codes == [Some(2), Some(0)],
            "round {round}: {codes:?} {} {}",
            String::from_utf8_lossy(&a.stderr),
            String::from_utf8_lossy(&b.stderr)
        );
        let games = fs::read_to_string(d.join(&out).join("games.csv")).unwrap();
        // 2 players, 400 games per pair: 400 rows and the header, ids 0 to 399 once each.
        assert_eq!(games.lines().count(), 401, "round {round}");
        let record = fs::read_to_string(d.join(&out).join("run.toml")).unwrap();
        let winner_seeded = codes[1] == Some(0);
        assert_eq!(
            record.contains("seed = 7"),
            winner_seeded,
            "round {round}: {record}"
        );
        assert!(!d.join(&out).join("run.lock").exists());
    }
}

/// `--resume` into a folder that is not a run's leaves its files alone.
#[test]
fn resume_refuses_a_folder_without_a_run() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("m.toml"), SMALL).unwrap();
    fs::create_dir(d.join("notes")).unwrap();
    fs::write(d.join("notes/report.md"), "my notes\n").unwrap();
    let (code, _, stderr) = run_in(
        d,
        &["run", "m.toml", "--out", "notes", "--resume", "--quiet"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("nothing to resume in notes"), "{stderr}");
    assert_eq!(
        fs::read_to_string(d.join("notes/report.md")).unwrap(),
        "my notes\n"
    );
    assert_eq!(fs::read_dir(d.join("notes")).unwrap().count(), 1);
    // A folder that does not exist yet is simply started.
    let (code, _, stderr) = run_in(
        d,
        &[
            "run",
            "m.toml",
            "--out",
            "new",
            "--resume",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
}

/// A seed or games per pair changed in the config is refused on `--resume`, naming
/// the field, as the same change given as a flag is.
#[test]
fn resume_refuses_a_config_whose_seed_or_games_changed() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("m.toml"), SMALL).unwrap();
    let run = ["run", "m.toml", "--out", "r", "--quiet", "--no-report"];
    assert_eq!(run_in(d, &run).0, 0);
    let resume = [
        "run",
        "m.toml",
        "--out",
        "r",
        "--resume",
        "--quiet",
        "--no-report",
    ];
    for (changed, field) in [
        (
            SMALL.replace("games_per_pair = 4", "games_per_pair = 6"),
            "games_per_pair = 4 in run.toml but 6 now",
        ),
        (format!("seed = 9\n{SMALL}"), "seed = "),
    ] {
        fs::write(d.join("m.toml"), changed).unwrap();
        let (code, _, stderr) = run_in(d, &resume);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(field), "{stderr}");
    }
    fs::write(d.join("m.toml"), SMALL).unwrap();
    assert_eq!(run_in(d, &resume).0, 0);
}

/// Empty, header-only and cut games files get a line in the project's words.
#[test]
fn empty_and_cut_games_files_are_named() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("m.toml"), SMALL).unwrap();
    assert_eq!(
        run_in(
            d,
            &["run", "m.toml", "--out", "r", "--quiet", "--no-report"]
        )
        .0,
        0
    );
    let games = fs::read_to_string(d.join("r/games.csv")).unwrap();
    let header = games.lines().next().unwrap().to_string();
    for (content, needle) in [
        (String::new(), "holds no games"),
        (format!("{header}\n"), "holds no games"),
    ] {
        fs::write(d.join("r/games.csv"), &content).unwrap();
        for args in [
            &["report", "r"][..],
            &["analyze", "r", "--out", "a", "--quiet"],
            &["export", "r", "--format", "ggf", "--out", "g.ggf"],
        ] {
            let (code, _, stderr) = run_in(d, args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(stderr.contains(needle), "{args:?}: {stderr}");
        }
    }
    // Cut in the middle of its third row.
    let cut: String = games.lines().take(3).collect::<Vec<_>>().join("\n")
        + "\n"
        + &games.lines().nth(3).unwrap()[..20];
    fs::write(d.join("r/games.csv"), cut).unwrap();
    for args in [
        &["report", "r"][..],
        &["analyze", "r", "--out", "a2", "--quiet"],
        &["replay", "r", "--game", "3"],
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("is cut at line 4"), "{args:?}: {stderr}");
        assert!(stderr.contains("run --resume"), "{args:?}: {stderr}");
    }
}

/// A malformed annotation in an OBF file is an error naming the line, before any solve.
#[test]
fn solve_refuses_a_malformed_annotation() {
    let dir = Dir::new();
    let d = dir.path();
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    for (annotation, needle) in [
        (
            "; G8:abc;",
            "the annotation 'G8:abc' is not a move and its score",
        ),
        (
            "; G8 +18;",
            "the annotation 'G8 +18' is not a move and its score",
        ),
        ("; Z9:+18;", "names 'z9', not a square of the 8x8 board"),
    ] {
        fs::write(
            d.join("p.obf"),
            format!("{line}; G8:+18;\n{line}{annotation}\n"),
        )
        .unwrap();
        let (code, stdout, stderr) = run_in(d, &["solve", "p.obf"]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("p.obf:2: "), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        assert!(stdout.is_empty(), "nothing is solved first: {stdout}");
    }
    fs::write(d.join("p.obf"), format!("{line}; G8:+18; H1:+12;\n")).unwrap();
    let (code, stdout, _) = run_in(d, &["solve", "p.obf"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("expected +18: ok"), "{stdout}");
}

/// `--threads 0` means the same everywhere: refused, in one line.
#[test]
fn threads_zero_is_refused_everywhere() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(
        d.join("p.obf"),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\n",
    )
    .unwrap();
    for args in [
        &[
            "match",
            "greedy",
            "random",
            "--games",
            "2",
            "--threads",
            "0",
        ][..],
        &["solve", "p.obf", "--threads", "0"],
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("--threads 0"), "{args:?}: {stderr}");
    }
}

/// Parser errors are one line in the project's words, exit 2.
#[test]
fn argument_errors_are_one_line() {
    for (args, needle) in [
        (
            &["run", "--seed", "-5"][..],
            "--seed -5: give a whole number of 0 or more",
        ),
        (
            &["match", "greedy", "random", "--games", "nan"],
            "--games nan: give a whole number",
        ),
        (&["play", "--level", "insane"], "--level insane: use one of"),
    ] {
        let output = reversi_lab().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("tip"), "{args:?}: {stderr}");
    }
}

/// Numbers are told what their key takes, and weights have a stated range.
#[test]
fn number_wording_names_what_the_key_takes() {
    let dir = Dir::new();
    let d = dir.path();
    for (args, needle) in [
        (
            &["match", "alphabeta:depth=nan", "random"][..],
            "depth = NaN is not accepted: use a whole number from 1 to 60",
        ),
        (
            &["match", "alphabeta:depth=four", "random"],
            "use a whole number from 1 to 60",
        ),
        (
            &["match", "eval:corners=1e308", "random"],
            "corners = 1e308 is out of range: weights go from -1e3 to 1e3",
        ),
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    fs::write(
        d.join("s.toml"),
        SMALL.replace("name = \"small\"", "name = \"small\"\nseed = nan"),
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["run", "s.toml", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("use a whole number of at least 0"),
        "{stderr}"
    );
    assert!(!stderr.contains("1.5"), "{stderr}");
    let sweep = "name = \"sw\"\nsize = 6\n[sweep]\nbase = \"alphabeta:eval=mobility\"\nparameter = \"depth\"\nvalues = [1, 1e300]\n";
    fs::write(d.join("sw.toml"), sweep).unwrap();
    let (code, _, stderr) = run_in(d, &["sweep", "sw.toml", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.len() < 300, "{stderr}");
    assert!(!stderr.contains("000000000000"), "{stderr}");
}

/// A folder is called a folder, a file a file.
#[test]
fn folders_and_files_are_told_apart() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("ok.toml"), SMALL).unwrap();
    for (args, needle) in [
        (&["show", "--position", "."][..], ". is a folder"),
        (
            &["replay", "ok.toml", "--game", "1"],
            "ok.toml is a file, not a results folder",
        ),
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// `openings` that would keep nothing says so, and writes nothing.
#[test]
fn openings_that_keep_nothing_are_refused() {
    let dir = Dir::new();
    let d = dir.path();
    let args = [
        "openings", "--plies", "2", "--size", "6", "--eval", "weighted", "--within", "0", "--out",
        "o.txt", "--quiet",
    ];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "--within 0: none of the 3 positions is that close to even (the closest is 3 away)"
        ),
        "{stderr}"
    );
    assert!(!d.join("o.txt").exists());
}

/// The README's first command does not trip the project's own replay warning.
#[test]
fn the_default_experiment_replays_no_games() {
    let dir = Dir::new();
    let (code, _, stderr) = run_in(dir.path(), &["run", "--out", "d", "--quiet"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("REPLAYED GAMES"), "{stderr}");
    let report = fs::read_to_string(dir.path().join("d/report.md")).unwrap();
    assert!(!report.contains("REPLAYED GAMES"), "{report}");
    assert!(report.contains("## Distinct games"));
}

/// The second pass of bad inputs: config values, empty arguments, a missing command,
/// a solve with no end, and damaged tables are each one line in the project's words.
#[test]
fn second_pass_of_bad_inputs() {
    let dir = Dir::new();
    let d = dir.path();
    let config = |name: &str, text: String| {
        fs::write(d.join(name), text).unwrap();
        name.to_string()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "run".into(),
                config(
                    "a.toml",
                    SMALL.replace("games_per_pair = 4", "games_per_pair = \"four\""),
                ),
            ],
            // Named by its key, with the range games per pair take.
            "games_per_pair = \"four\" is not accepted: use a whole number from 2 to 1000000000000",
        ),
        (
            vec![
                "run".into(),
                config(
                    "b.toml",
                    SMALL.replace(
                        "games_per_pair = 4",
                        "games_per_pair = 18446744073709551616",
                    ),
                ),
            ],
            "games_per_pair = 18446744073709551616 is too large for a TOML file",
        ),
        (
            vec![
                "run".into(),
                config(
                    "c.toml",
                    SMALL.replace("games_per_pair = 4", "games_per_pair = 1e300"),
                ),
            ],
            "games_per_pair = 1e300 is not accepted: use a whole number from 2 to 1000000000000",
        ),
        (
            vec![
                "run".into(),
                config("d.toml", format!("{SMALL}[rules]\nanti = \"yes\"\n")),
            ],
            "use true or false",
        ),
        (
            vec!["match".into(), "weighted:classes=5".into(), "random".into()],
            "in braces, with keys among corner",
        ),
        (
            vec!["run".into(), "a.toml".into(), "--out".into(), String::new()],
            "--out is empty: give a value",
        ),
        (
            vec!["solve".into(), String::new()],
            "FILE is empty: give a value",
        ),
        (vec![], "reversi-lab needs a command"),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, stderr) = run_in(d, &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        for leak in [
            "expected u64",
            "struct ",
            "TOML parse error",
            "invalid type",
        ] {
            assert!(!stderr.contains(leak), "{args:?}: {stderr}");
        }
    }
    // A position far from the end, with no budget: refused, not run for years.
    fs::write(
        d.join("start.obf"),
        format!(
            "{}XO{}OX{} X\n",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        ),
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["solve", "start.obf"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("60 empty squares, too many to solve exactly without a budget"),
        "{stderr}"
    );
}

/// `tune --resume` plays only into a tune's folder; damaged tables are refused.
#[test]
fn tune_resume_and_damaged_tables() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("m.toml"), SMALL).unwrap();
    assert_eq!(
        run_in(
            d,
            &["run", "m.toml", "--out", "r", "--quiet", "--no-report"]
        )
        .0,
        0
    );
    let tune = "name = \"t\"\niterations = 2\ngames_per_iteration = 4\n[player]\nkind = \"eval\"\n[[params]]\nname = \"corners\"\nmin = 0\nmax = 40\nstep = 1\n[validation]\nskip = true\n";
    fs::write(d.join("t.toml"), tune).unwrap();
    let before: Vec<_> = fs::read_dir(d.join("r"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let (code, _, stderr) = run_in(d, &["tune", "t.toml", "--out", "r", "--resume", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("nothing to resume in r: it holds no tune.toml or trace.csv"),
        "{stderr}"
    );
    let after: Vec<_> = fs::read_dir(d.join("r"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after, "the run's folder is left alone");
    for (bad, needle) in [
        (tune.replace("[validation]\nskip = true\n", "[spsa]\nr_end = -1\n[validation]\nskip = true\n"), "[spsa] r_end = -1: use a number above 0"),
        (tune.replace("name = \"t\"", "name = \"t\"\nmethod = \"cmaes\"").replace("[validation]", "[spsa]\nr_end = 2\n[validation]"), "[spsa] is for method = \"spsa\""),
        (
            tune.replace("skip = true", "panel = [{ name = \"g\", strategy = \"greedy\" }, { name = \"g\", strategy = \"random\" }]"),
            "two validation panel players are named 'g': give each its own name",
        ),
    ] {
        fs::write(d.join("bad.toml"), bad).unwrap();
        let (code, _, stderr) = run_in(d, &["tune", "bad.toml", "--out", "never", "--quiet"]);
        assert_eq!(code, 2, "{needle}: {stderr}");
        assert!(stderr.contains(needle), "{needle}: {stderr}");
        assert!(!d.join("never").exists());
    }
    // A results table cut to its header.
    let pairs = fs::read_to_string(d.join("r/pairs.csv")).unwrap();
    fs::write(d.join("r/pairs.csv"), pairs.lines().next().unwrap()).unwrap();
    let (code, _, stderr) = run_in(d, &["report", "r"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("pairs.csv holds no rows"), "{stderr}");
    // A games file with a row longer than its header.
    fs::write(d.join("r/pairs.csv"), pairs).unwrap();
    let games = fs::read_to_string(d.join("r/games.csv")).unwrap();
    let mut lines: Vec<String> = games.lines().map(str::to_string).collect();
    lines[1].push_str(",extra");
    fs::write(d.join("r/games.csv"), lines.join("\n") + "\n").unwrap();
    let (code, _, stderr) = run_in(d, &["replay", "r", "--game", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("has more fields than the header"),
        "{stderr}"
    );
    // A games file with no games: no weights fitted from nothing.
    fs::write(
        d.join("r/games.csv"),
        games.lines().next().unwrap().to_string() + "\n",
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["fit-patterns", "r", "--out", "w.bin"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("holds no games"), "{stderr}");
}

/// Issue 52's one lock: every command that writes a resumable results folder (run,
/// sweep, ablate, tune, analyze) takes the folder's lock before it reads or changes
/// the folder (`--resume`, `--force`; without them an existing folder is refused
/// first): held by another process (this test, through the library's own lock), each
/// is refused in one line, and the folder is left as it was. label and fit-probcut lock their file the same way
/// (`label::a_second_run_into_the_same_file_is_refused_and_force_keeps_the_old_file_meanwhile`,
/// `label::a_second_fit_probcut_into_the_same_file_is_refused`).
#[test]
fn every_resumable_command_waits_for_the_folders_lock() {
    let dir = Dir::new();
    let d = dir.path();
    let files = [
        ("e.toml", "name = \"e\"\ngames_per_pair = 2\nsize = 6\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"random\"\n"),
        ("s.toml", "name = \"s\"\ngames_per_pair = 2\nsize = 6\n[sweep]\nbase = \"alphabeta\"\nparameter = \"depth\"\nvalues = [1, 2]\n"),
        ("a.toml", "name = \"a\"\ngames_per_pair = 2\nsize = 6\n[player]\nkind = \"eval\"\ndiscs = 1\nmobility = 5\n"),
        ("t.toml", "name = \"t\"\niterations = 2\ngames_per_iteration = 4\nsize = 6\n[player]\nkind = \"eval\"\ndiscs = 1\ncorners = 0\n[[params]]\nname = \"corners\"\nmin = -20\nmax = 80\nstep = 4\n"),
    ];
    for (name, text) in files {
        fs::write(d.join(name), text).unwrap();
    }
    let (code, _, stderr) = run_in(
        d,
        &["run", "e.toml", "--out", "r", "--quiet", "--no-report"],
    );
    assert_eq!(code, 0, "{stderr}");
    let before = fs::read(d.join("r/games.csv")).unwrap();
    let lock = reversi_lab::lab::folder::FolderLock::acquire(&d.join("r")).unwrap();
    for (command, file) in [
        ("run", "e.toml"),
        ("sweep", "s.toml"),
        ("ablate", "a.toml"),
        ("tune", "t.toml"),
        ("analyze", ""),
    ] {
        for flag in ["--resume", "--force", "--quiet"] {
            let mut args = vec![command];
            if command == "analyze" {
                args.push("r");
            } else {
                args.extend([file, "--out", "r"]);
            }
            args.push(flag);
            let (code, _, stderr) = run_in(d, &args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            // Without --resume or --force a folder that exists is refused first.
            let exists = flag == "--quiet" && command != "analyze";
            assert!(
                stderr.contains("results folder r is being written by another reversi-lab run")
                    || exists && stderr.contains("results folder r already exists"),
                "{args:?}: {stderr}"
            );
        }
    }
    drop(lock);
    // A holder that has not written its process id yet is not called "process 0".
    let raw = fs::File::create(d.join("r/run.lock")).unwrap();
    raw.lock().unwrap();
    let (code, _, stderr) = run_in(d, &["run", "e.toml", "--out", "r", "--force"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("being written by another reversi-lab run: --force will not replace it"),
        "{stderr}"
    );
    drop(raw);
    assert_eq!(fs::read(d.join("r/games.csv")).unwrap(), before);
}
