//! What a new user trips on, kept fixed: non-finite numbers, strategies that would
//! never finish, unbounded threads, library wording, missing files, `solve` budgets,
//! `--force`, `--resume` from `run.toml`, two runs into one folder, and where a run
//! was made (command line, commit, host) kept in `run.toml`.

use crate::common::{refused, reversi_lab, run_in, Dir};

const SMALL: &str = "name = \"small\"\ngames_per_pair = 4\n[[players]]\nname = \"g\"\nstrategy = \"greedy\"\n[[players]]\nname = \"r\"\nstrategy = \"random\"\n";

#[test]
fn non_finite_numbers_are_refused() {
    refused(
        &["match", "eval:corners=nan", "random", "--games", "2"],
        "corners = NaN is not a finite number",
    );
    refused(
        &["match", "alphabeta:eval=(eval:mobility=inf)", "random"],
        "mobility = inf is not a finite number",
    );
    let dir = Dir::new();
    let config = dir.path().join("e.toml");
    std::fs::write(
        &config,
        SMALL.replace("\"greedy\"", "{ kind = \"eval\", corners = nan }"),
    )
    .unwrap();
    refused(
        &["run", config.to_str().unwrap(), "--out", "x"],
        "players.strategy.corners = NaN is not a finite number",
    );
    let sprt = "name = \"s\"\nformat = \"head-to-head\"\n[sprt]\nelo0 = 0\nelo1 = inf\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"random\"\n";
    std::fs::write(&config, sprt).unwrap();
    refused(
        &["run", config.to_str().unwrap(), "--out", "x"],
        "sprt.elo1 = inf is not a finite number",
    );
}

#[test]
fn strategies_that_would_never_finish_are_refused_before_any_game() {
    refused(&["match", "solver", "random"], "use alphabeta:endgame=22");
    refused(
        &["match", "alphabeta:depth=60", "random"],
        "bound each move with nodes = N",
    );
    refused(
        &["match", "alphabeta:endgame=40", "random"],
        "use endgame = 22 or less",
    );
    reversi_lab()
        .args([
            "match",
            "alphabeta:depth=60,nodes=200",
            "random",
            "--games",
            "2",
        ])
        .assert()
        .success();
    reversi_lab()
        .args(["match", "solver", "random", "--games", "2", "--size", "4"])
        .assert()
        .success();
}

#[test]
fn thread_counts_are_bounded() {
    refused(
        &["perft", "5", "--threads", "10000"],
        "at most 1024 threads",
    );
    refused(
        &["match", "greedy", "random", "--threads", "100000"],
        "at most 1024",
    );
    refused(&["run", "--threads", "5000", "--out", "x"], "at most 1024");
}

#[test]
fn library_wording_does_not_leak() {
    refused(
        &["match", "weighted:table=1", "random"],
        "table = 1 is not accepted: use a list of n*n whole numbers",
    );
    refused(
        &["match", "alphabeta:depth=-2", "random"],
        "depth = -2 is not accepted: use a whole number from 1 to 60",
    );
    refused(
        &["match", "mobility:normalised=3", "random"],
        "normalised = 3 is not accepted: use true or false",
    );
}

#[test]
fn a_missing_position_file_is_named() {
    refused(
        &["perft", "3", "--position", "nofile.obf"],
        "nofile.obf: no such file",
    );
}

#[test]
fn solve_gives_up_within_its_budget_and_checks_its_table() {
    let dir = Dir::new();
    let file = dir.path().join("p.obf");
    // 14 empties: far more than 50 nodes.
    std::fs::write(
        &file,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18\n",
    )
    .unwrap();
    let (code, stdout, _) = run_in(
        dir.path(),
        &["solve", "p.obf", "--max-nodes", "50", "--table-bits", "12"],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("UNSOLVED: gave up after"), "{stdout}");
    assert!(stdout.contains("1 UNSOLVED"), "{stdout}");
    let (code, stdout, _) = run_in(dir.path(), &["solve", "p.obf", "--table-bits", "12"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("expected +18: ok"), "{stdout}");
    let path = file.to_str().unwrap();
    refused(&["solve", path, "--table-bits", "27"], "use 10 to 26");
    refused(&["solve", path, "--time", "0"], "--time 0");
}

#[test]
fn force_replaces_and_resume_reads_run_toml() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    let first = run_in(
        d,
        &[
            "run",
            "small.toml",
            "--games",
            "6",
            "--seed",
            "3",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(first.0, 0, "{}", first.2);
    let games = std::fs::read_to_string(d.join("results/small/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 7);
    // Without flags the folder is refused, and the message names the ways out.
    let again = run_in(d, &["run", "small.toml", "--quiet", "--no-report"]);
    assert_eq!(again.0, 2);
    assert!(
        again.2.contains("--resume") && again.2.contains("--force"),
        "{}",
        again.2
    );
    // --resume with the config given again: the config speaks for its games and seed,
    // so those given as flags at the start are asked for again, by name...
    let refused = run_in(
        d,
        &["run", "small.toml", "--resume", "--quiet", "--no-report"],
    );
    assert_eq!(refused.0, 2, "{}", refused.2);
    assert!(
        refused
            .2
            .contains("games_per_pair = 6 in run.toml but 4 now (pass --games 6")
            && refused
                .2
                .contains("seed = 3 in run.toml but 1 now (pass --seed 3"),
        "{}",
        refused.2
    );
    let resumed = run_in(
        d,
        &[
            "run",
            "small.toml",
            "--resume",
            "--games",
            "6",
            "--seed",
            "3",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(resumed.0, 0, "{}", resumed.2);
    assert_eq!(
        std::fs::read_to_string(d.join("results/small/games.csv")).unwrap(),
        games
    );
    // ...while without the config, run.toml supplies everything.
    let from_folder = run_in(
        d,
        &[
            "run",
            "--out",
            "results/small",
            "--resume",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(from_folder.0, 0, "{}", from_folder.2);
    // A setting that differs is named.
    let other = run_in(
        d,
        &[
            "run",
            "small.toml",
            "--resume",
            "--games",
            "8",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(other.0, 2);
    assert!(
        other.2.contains("games_per_pair = 6 in run.toml but 8 now"),
        "{}",
        other.2
    );
    // --force replaces the folder with the new run.
    let forced = run_in(
        d,
        &[
            "run",
            "small.toml",
            "--force",
            "--games",
            "2",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(forced.0, 0, "{}", forced.2);
    let games = std::fs::read_to_string(d.join("results/small/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3);
    let left: Vec<_> = std::fs::read_dir(d.join("results")).unwrap().collect();
    assert_eq!(left.len(), 1, "the replaced folder is gone");
    // A file is not a results folder.
    std::fs::write(d.join("file"), "").unwrap();
    let file = run_in(d, &["run", "small.toml", "--out", "file", "--resume"]);
    assert_eq!(file.0, 2, "{}", file.2);
    assert!(
        file.2.contains("is a file, not a results folder"),
        "{}",
        file.2
    );
}

#[test]
fn a_second_run_into_a_folder_in_use_is_refused() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    let args = ["run", "small.toml", "--out", "r", "--quiet", "--no-report"];
    assert_eq!(run_in(d, &args).0, 0);
    // A lock held by a live process (this test's own, as a run holds it: flock)
    // refuses the second run...
    let held = std::fs::File::create(d.join("r/run.lock")).unwrap();
    held.lock().unwrap();
    let resume = [
        "run",
        "small.toml",
        "--out",
        "r",
        "--resume",
        "--quiet",
        "--no-report",
    ];
    let (code, _, stderr) = run_in(d, &resume);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("is being written by another reversi-lab run"),
        "{stderr}"
    );
    let (code, _, stderr) = run_in(d, &["run", "small.toml", "--out", "r", "--force"]);
    assert_eq!(code, 2, "{stderr}");
    // ...and a lock file left by a process that is gone (a kill: the system released
    // its lock) is taken over, whatever pid it names.
    drop(held);
    std::fs::write(d.join("r/run.lock"), "4000000000").unwrap();
    assert_eq!(run_in(d, &resume).0, 0);
    assert!(!d.join("r/run.lock").exists(), "the lock goes with the run");
}

#[test]
fn match_openings_csv_and_json_for_scripts() {
    let dir = Dir::new();
    let d = dir.path();
    let args = [
        "match",
        "greedy",
        "random",
        "--games",
        "20",
        "--openings",
        "4",
        "--csv",
        "m.csv",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(json["games"], 20);
    assert_eq!(json["model"], "pentanomial");
    assert_eq!(json["n"], 10);
    let csv = std::fs::read_to_string(d.join("m.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 21);
    assert!(rows[0].starts_with("game_id,pair_id,opening,black,white,"));
    // Games 2k and 2k+1 share a 4-ply opening with colours swapped.
    let field = |row: &str, i: usize| row.split(',').nth(i).unwrap().to_string();
    assert_eq!(field(rows[1], 2), field(rows[2], 2));
    assert_eq!(field(rows[1], 2).len(), 8);
    assert_eq!(
        (field(rows[1], 3), field(rows[2], 3)),
        ("greedy".into(), "random".into())
    );
    // The CSV's wins agree with the summary.
    let wins = rows[1..]
        .iter()
        .filter(|r| {
            let (black, result) = (field(r, 3), field(r, 7));
            (black == "greedy" && result == "black") || (black == "random" && result == "white")
        })
        .count();
    assert_eq!(json["wins"], wins as u64);
    // The same match without a CSV gives the same numbers, and an existing file is refused.
    let without_csv = [&args[..7], &args[9..]].concat();
    let (_, again, _) = run_in(d, &without_csv);
    let again: serde_json::Value = serde_json::from_str(again.trim()).unwrap();
    assert_eq!(
        (again["wins"].clone(), again["draws"].clone()),
        (json["wins"].clone(), json["draws"].clone())
    );
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 2);
    assert!(stderr.contains("m.csv already exists"), "{stderr}");

    let (code, stdout, _) = run_in(d, &["strategies", "--format", "json"]);
    assert_eq!(code, 0);
    let kinds: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let alphabeta = kinds
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "alphabeta")
        .unwrap();
    assert!(alphabeta["params"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "depth" && p["default"] == "4"));

    std::fs::write(
        d.join("p.obf"),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18\n",
    )
    .unwrap();
    let (code, stdout, _) = run_in(
        d,
        &["solve", "p.obf", "--format", "json", "--table-bits", "12"],
    );
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["score"], 18);
    assert_eq!(lines[0]["agrees"], true);
    assert_eq!(lines[1]["positions"], 1);
}

#[test]
fn a_partial_run_can_be_reported() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    let args = [
        "run",
        "small.toml",
        "--out",
        "r",
        "--games",
        "40",
        "--quiet",
        "--no-report",
    ];
    assert_eq!(run_in(d, &args).0, 0);
    // As a kill leaves it: status running, no pairs or standings, half a row at the end.
    let run_toml = std::fs::read_to_string(d.join("r/run.toml")).unwrap();
    std::fs::write(
        d.join("r/run.toml"),
        run_toml.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    std::fs::remove_file(d.join("r/pairs.csv")).unwrap();
    std::fs::remove_file(d.join("r/standings.csv")).unwrap();
    let games = std::fs::read_to_string(d.join("r/games.csv")).unwrap();
    let keep: String = games.lines().take(11).map(|l| format!("{l}\n")).collect();
    std::fs::write(d.join("r/games.csv"), format!("{keep}25,0,,g,r,3")).unwrap();
    let (code, _, stderr) = run_in(d, &["report", "r"]);
    assert_eq!(code, 0, "{stderr}");
    let report = std::fs::read_to_string(d.join("r/report.md")).unwrap();
    assert!(
        report.contains("PARTIAL RESULTS: 10 of 40 games so far"),
        "{report}"
    );
    assert!(std::fs::read_to_string(d.join("r/report.html"))
        .unwrap()
        .contains("PARTIAL RESULTS"));
}

#[test]
fn force_and_resume_guard_what_is_not_theirs() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    // --force never replaces a folder reversi-lab did not write.
    std::fs::create_dir(d.join("precious")).unwrap();
    std::fs::write(d.join("precious/notes.txt"), "mine").unwrap();
    let (code, _, stderr) = run_in(d, &["run", "small.toml", "--out", "precious", "--force"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("is not a reversi-lab results folder"),
        "{stderr}"
    );
    assert!(d.join("precious/notes.txt").is_file());
    // Nothing to resume without a config is an error, not the default experiment.
    let (code, _, stderr) = run_in(d, &["run", "--out", "typo", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("nothing to resume in typo"), "{stderr}");
    assert!(!d.join("typo").exists());
    // Another thread count is no reason to refuse a resume.
    let args = [
        "run",
        "small.toml",
        "--out",
        "r",
        "--threads",
        "1",
        "--quiet",
        "--no-report",
    ];
    assert_eq!(run_in(d, &args).0, 0);
    let (code, _, stderr) = run_in(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "r",
            "--resume",
            "--threads",
            "2",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_tune_resumes_only_with_its_own_file() {
    let dir = Dir::new();
    let d = dir.path();
    let tune = std::fs::read_to_string(crate::common::root().join("tests/golden/tune-small.toml"))
        .unwrap()
        .replace("iterations = 12", "iterations = 2")
        .replace("games = 24", "games = 4");
    std::fs::write(d.join("t.toml"), &tune).unwrap();
    let args = ["tune", "t.toml", "--out", "t", "--quiet"];
    assert_eq!(run_in(d, &args).0, 0);
    assert!(d.join("t/tune.toml").is_file());
    let resume = ["tune", "t.toml", "--out", "t", "--quiet", "--resume"];
    assert_eq!(run_in(d, &resume).0, 0);
    std::fs::write(d.join("t.toml"), tune.replace("seed = 1", "seed = 99")).unwrap();
    let (code, _, stderr) = run_in(d, &resume);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("was made by a different tune file"),
        "{stderr}"
    );
}

#[test]
fn run_toml_records_where_the_run_was_made_and_resume_ignores_it() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    let args = ["run", "small.toml", "--out", "r", "--quiet", "--no-report"];
    assert_eq!(run_in(d, &args).0, 0);
    let path = d.join("r/run.toml");
    let recorded = std::fs::read_to_string(&path).unwrap();
    assert!(
        recorded.contains("command = \"")
            && recorded.contains(" run small.toml --out r --quiet --no-report\""),
        "{recorded}"
    );
    assert!(recorded.contains("\nhost = \""), "{recorded}");
    // Outside a git repository (a temporary folder, usually) no commit, and no error.
    let in_repository = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(d)
        .output()
        .is_ok_and(|o| o.status.success());
    assert_eq!(
        recorded.contains("\ncommit = "),
        in_repository,
        "{recorded}"
    );
    // Another machine or command line does not stop a resume, and a folder written
    // before these were recorded still loads.
    let older: String = recorded
        .lines()
        .filter(|l| !l.starts_with("command =") && !l.starts_with("host ="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(
        &path,
        older.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    let resume = ["run", "small.toml", "--out", "r", "--resume", "--quiet"];
    let (code, _, stderr) = run_in(d, &resume);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run_in(d, &["report", "r"]);
    assert_eq!(code, 0, "{stderr}");
}

#[path = "hardening/integrity.rs"]
mod integrity;

#[path = "hardening/outputs.rs"]
mod outputs;

#[path = "hardening/shard_layout.rs"]
mod shard_layout;
