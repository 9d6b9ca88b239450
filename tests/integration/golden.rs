//! Golden outputs: small runs of the committed experiments must reproduce `tests/golden/` byte for byte.

use assert_cmd::Command;
use std::path::Path;

fn reversi_lab(args: &[&str]) {
    let output = Command::cargo_bin("reversi-lab")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn same(golden: &str, out: &Path, files: &[&str]) {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    for file in files {
        let expected = std::fs::read_to_string(golden.join(file)).unwrap();
        let actual = std::fs::read_to_string(out.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", out.join(file).display()));
        assert!(
            expected == actual,
            "{} differs from tests/golden/{}",
            out.join(file).display(),
            golden.join(file).display()
        );
    }
}

const RESULTS: [&str; 3] = ["games.csv", "pairs.csv", "standings.csv"];

fn run_golden(name: &str, config: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(name);
    let mut args = vec![
        "run",
        config,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--no-report",
    ];
    args.extend(extra);
    reversi_lab(&args);
    same(name, &out, &RESULTS);
}

#[test]
fn round_robin() {
    run_golden("round-robin", "experiments/default.toml", &["--games", "4"]);
}

#[test]
fn gauntlet() {
    run_golden(
        "gauntlet",
        "experiments/search-vs-heuristics.toml",
        &["--games", "6"],
    );
}

#[test]
fn head_to_head_with_an_sprt() {
    run_golden("head-to-head", "experiments/sprt-mobility.toml", &[]);
}

#[test]
fn ablation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ablation");
    reversi_lab(&[
        "ablate",
        "experiments/ablation-eval.toml",
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    same(
        "ablation",
        &out,
        &["games.csv", "pairs.csv", "standings.csv", "ablation.csv"],
    );
}

#[test]
fn tune() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tune");
    reversi_lab(&[
        "tune",
        "tests/golden/tune-small.toml",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    same(
        "tune",
        &out,
        &["trace.csv", "best.toml", "validation-openings.txt"],
    );
    for opponent in ["start", "alphabeta-2-classic"] {
        let folder = format!("validation-{opponent}");
        same(&format!("tune/{folder}"), &out.join(&folder), &RESULTS);
    }
}
