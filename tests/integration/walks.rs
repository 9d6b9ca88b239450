//! The recorded bad-input cases of the new-user walks (`tests/walks/*.toml`), replayed:
//! each is a command line with the exit code and message fragments it must give.

use crate::common::{run_in, Dir};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One recorded case (the format is described in `tests/walks/README.md`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    item: String,
    args: Vec<String>,
    exit: i32,
    #[serde(default)]
    stderr: Vec<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    dirs: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Walk {
    case: Vec<Case>,
}

/// What is wrong with one case's outcome, if anything.
fn check(case: &Case) -> Option<String> {
    let dir = Dir::new();
    for folder in &case.dirs {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    for (name, text) in &case.files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }
    let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = run_in(dir.path(), &args);
    let mut wrong = Vec::new();
    if code != case.exit {
        wrong.push(format!("exit {code}, expected {}", case.exit));
    }
    for fragment in &case.stderr {
        if !stderr.contains(fragment.as_str()) {
            wrong.push(format!("stderr lacks {fragment:?}"));
        }
    }
    for fragment in &case.stdout {
        if !stdout.contains(fragment.as_str()) {
            wrong.push(format!("stdout lacks {fragment:?}"));
        }
    }
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        wrong.push("a panic".to_string());
    }
    if case.exit == 2 && stderr.trim_end().lines().count() != 1 {
        wrong.push("a refusal of more than one line".to_string());
    }
    (!wrong.is_empty()).then(|| {
        format!(
            "item {} {:?}: {}\n  stdout: {}\n  stderr: {}",
            case.item,
            case.args,
            wrong.join("; "),
            stdout.trim_end(),
            stderr.trim_end()
        )
    })
}

/// Every case of every walk file: the cases run in parallel on the test's threads.
#[test]
fn every_recorded_case_behaves() {
    let folder = crate::common::root().join("tests/walks");
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let walk: Walk =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            cases.extend(walk.case);
        }
    }
    assert!(!cases.is_empty(), "no case in {}", folder.display());
    let failures: Vec<String> = std::thread::scope(|scope| {
        let chunks: Vec<_> = cases
            .chunks(cases.len().div_ceil(4))
            .map(|chunk| scope.spawn(move || chunk.iter().filter_map(check).collect::<Vec<_>>()))
            .collect();
        chunks.into_iter().flat_map(|c| c.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} recorded cases misbehave:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
