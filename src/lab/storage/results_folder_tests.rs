//! Tests of the results folder: its files, its kinds, its records.

use super::*;
use crate::lab::{run, Format, RunOptions};
use std::fs;
use std::sync::atomic::AtomicBool;

/// A finished round robin of three quick players in `dir/name`, and its folder.
fn played(dir: &Path, name: &str) -> ResultsFolder {
    let text = r#"
name = "folder-test"
format = "gauntlet"
challengers = ["greedy"]
games_per_pair = 2
size = 6
move_time = "5s"
[[players]]
name = "greedy"
strategy = { kind = "greedy" }
[[players]]
name = "random"
strategy = { kind = "random" }
clock = "60+1"
[[players]]
name = "corner"
strategy = { kind = "corner-first" }
"#;
    let experiment = Experiment::parse(text, "t.toml", Path::new(".")).unwrap();
    let stop = AtomicBool::new(false);
    let out = dir.join(name);
    run(
        &experiment,
        &RunOptions {
            out: Some(out.clone()),
            resume: false,
            force: false,
            quiet: true,
            stop: &stop,
            shard: None,
            played: None,
        },
    )
    .unwrap();
    ResultsFolder::open(&out).unwrap()
}

fn message(error: Error) -> String {
    match error {
        Error::Input(message) => message,
        other => panic!("expected bad input, got {other:?}"),
    }
}

#[test]
fn every_file_has_its_own_name() {
    let mut names: Vec<&str> = FolderFile::ALL.iter().map(|f| f.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), FolderFile::ALL.len());
    // The names other modules give are these.
    assert_eq!(Compression::None.file_name(), FolderFile::Games.name());
    assert_eq!(
        Compression::Zstd.file_name(),
        FolderFile::CompressedGames.name()
    );
    assert_eq!(super::super::folder::LOCK_FILE, "run.lock");
    assert_eq!(crate::lab::running::cost::COSTS_FILE, "costs.csv");
    assert_eq!(crate::lab::running::setup::OPENINGS_COPY, "openings.txt");
    assert_eq!(FolderFile::EngineLogs.name(), "engines");
    assert!(FolderFile::Shards.is_folder() && !FolderFile::RunRecord.is_folder());
}

#[test]
fn each_kind_is_recognised_by_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let kind_with = |files: &[&str]| {
        let dir = tmp.path().join(files.join("+"));
        fs::create_dir_all(&dir).unwrap();
        for file in files {
            fs::write(dir.join(file), "").unwrap();
        }
        ResultsFolder::at(&dir).kind()
    };
    assert_eq!(kind_with(&[]), None);
    assert_eq!(kind_with(&["notes.txt"]), None);
    assert_eq!(kind_with(&["run.toml"]), Some(FolderKind::Run));
    assert_eq!(kind_with(&["run.toml", "trace.csv"]), Some(FolderKind::Run));
    assert_eq!(kind_with(&["tune.toml"]), Some(FolderKind::Tune));
    assert_eq!(kind_with(&["trace.csv"]), Some(FolderKind::Tune));
    assert_eq!(kind_with(&["games.csv"]), Some(FolderKind::GamesOnly));
    assert_eq!(kind_with(&["games.csv.zst"]), Some(FolderKind::GamesOnly));
    // A folder named like a file does not count.
    let odd = tmp.path().join("odd");
    fs::create_dir_all(odd.join("run.toml")).unwrap();
    assert_eq!(ResultsFolder::at(&odd).kind(), None);
    // Listed: only the results folders, by name.
    let listed: Vec<PathBuf> = ResultsFolder::within(tmp.path())
        .unwrap()
        .iter()
        .map(|f| f.dir().to_path_buf())
        .collect();
    assert_eq!(listed.len(), 6);
    assert!(listed.windows(2).all(|w| w[0] < w[1]));
    assert!(!listed.iter().any(|p| p.ends_with("odd")));
}

#[test]
fn a_missing_folder_or_record_says_what_to_give() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nowhere");
    assert_eq!(
        message(ResultsFolder::open(&missing).unwrap_err()),
        format!(
            "results folder {} does not exist: give the folder a run wrote, such as results/default",
            missing.display()
        )
    );
    let file = tmp.path().join("a-file");
    fs::write(&file, "").unwrap();
    assert_eq!(
        message(ResultsFolder::open(&file).unwrap_err()),
        format!(
            "{} is a file, not a results folder: give the folder a run wrote, such as results/default",
            file.display()
        )
    );
    let empty = ResultsFolder::open(tmp.path()).unwrap();
    assert_eq!(
        message(empty.record("give another").unwrap_err()),
        format!(
            "{} is not a results folder (no run.toml): give another",
            tmp.path().display()
        )
    );
    assert!(empty.record_if_any().unwrap().is_none());
    assert_eq!(empty.status().unwrap(), None);
}

#[test]
fn a_half_written_record_is_refused_as_run_toml_load_refuses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = played(tmp.path(), "cut");
    let path = folder.path(FolderFile::RunRecord);
    let whole = fs::read_to_string(&path).unwrap();
    fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let direct = message(RunToml::load(&path).unwrap_err());
    assert!(
        direct.ends_with("(was it written by reversi-lab?)"),
        "{direct}"
    );
    assert_eq!(message(folder.record("unused").unwrap_err()), direct);
    assert_eq!(message(folder.status().unwrap_err()), direct);
    // Still a run's folder: --force may replace it.
    assert_eq!(folder.kind(), Some(FolderKind::Run));
}

#[test]
fn a_played_folder_loads_its_typed_records() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = played(tmp.path(), "played");
    assert_eq!(folder.kind(), Some(FolderKind::Run));
    for file in [
        FolderFile::RunRecord,
        FolderFile::Games,
        FolderFile::Pairs,
        FolderFile::Standings,
        FolderFile::Costs,
    ] {
        assert!(folder.has(file), "{}", file.name());
    }
    assert!(!folder.has(FolderFile::Lock), "the lock goes with the run");
    assert_eq!(
        folder.games(),
        Some((folder.path(FolderFile::Games), Compression::None))
    );
    assert_eq!(folder.status().unwrap(), Some(Status::Complete));
    let record = folder.record("unused").unwrap();
    assert_eq!(record.kind(), RecordKind::Run);
    let recorded = record
        .recorded_experiment(&folder.path(FolderFile::RunRecord))
        .unwrap();
    assert_eq!(recorded.own.name, "folder-test");
    assert_eq!(recorded.own.format, Format::Gauntlet);
    assert_eq!(recorded.own.challengers, ["greedy"]);
    assert_eq!(recorded.setup.size, 6);
    assert_eq!(recorded.setup.move_time.as_deref(), Some("5s"));
    let names: Vec<&str> = recorded
        .own
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["greedy", "random", "corner"]);
    assert_eq!(recorded.own.players[1].clock.as_deref(), Some("60+1"));
    // The same experiment, validated.
    let experiment = folder.experiment(&record).unwrap();
    assert_eq!(experiment.total_games(), 4);
    let tally = Experiment::recorded_for_tally(&record.experiment, "t").unwrap();
    assert_eq!(tally.pairs(), experiment.pairs());
    let mut shard = record.clone();
    shard.run.shard = Some("1/2".into());
    assert_eq!(shard.kind(), RecordKind::Shard("1/2".into()));
    let mut import = shard;
    import.import = Some(crate::lab::import::record::ImportInfo {
        players: Vec::new(),
        sources: Vec::new(),
    });
    assert_eq!(import.kind(), RecordKind::Import);
}
