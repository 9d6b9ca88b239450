//! `reversi-lab compare`: two runs of one field, before and after a change. Seeds alone
//! change nothing significant; a stronger strategy under the same name is found and
//! marked as changed; runs of different fields are refused in one line.

use reversi_lab::lab::rows::read_csv;
use reversi_lab::studies::compare::Change;
use std::fs;
use std::path::Path;

use crate::common;
use common::{ok, run_in, Dir};

/// A field of four; `depth` is the searching player's, `size` the board's.
fn field(name: &str, seed: u64, depth: u32, size: u32) -> String {
    format!(
        "name = \"{name}\"\nseed = {seed}\nsize = {size}\ngames_per_pair = 120\n[openings]\nrandom_plies = 2\n\
         [[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n\
         [[players]]\nname = \"search\"\nstrategy = {{ kind = \"alphabeta\", depth = {depth}, eval = {{ kind = \"mobility\" }} }}\n\
         [[players]]\nname = \"random\"\nstrategy = \"random\"\n\
         [[players]]\nname = \"corners\"\nstrategy = \"corner-first\"\n"
    )
}

fn play(dir: &Path, name: &str, text: &str) {
    let file = format!("{name}.toml");
    fs::write(dir.join(&file), text).unwrap();
    ok(dir, &["run", &file, "--quiet", "--no-report"]);
}

fn changes(folder: &Path) -> Vec<Change> {
    read_csv(&folder.join("compare.csv")).unwrap()
}

#[test]
fn seeds_alone_change_nothing_and_a_stronger_strategy_is_found() {
    let tmp = Dir::new();
    let dir = tmp.path();
    play(dir, "before", &field("before", 1, 1, 8));
    play(dir, "reseeded", &field("reseeded", 2, 1, 8));
    play(dir, "deeper", &field("deeper", 1, 3, 8));

    // Another seed: the same players, no change survives Holm's correction.
    let stdout = ok(
        dir,
        &[
            "compare",
            "results/before",
            "results/reseeded",
            "--out",
            "same",
        ],
    );
    assert!(stdout.contains("| search | same |"), "{stdout}");
    let rows = changes(&dir.join("same"));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.significant_holm == "no"), "{rows:?}");
    assert!(rows.iter().all(|r| r.spec_changed == "no"));
    // Nothing changed, so nothing singles out an anchor: the field's mean, said so.
    assert!(rows.iter().all(|r| r.anchor == "mean"));
    assert!(
        stdout.contains("No player's strategy changed") && stdout.contains("the field's mean"),
        "{stdout}"
    );
    for r in &rows {
        // The interval is change +/- 1.96 sqrt(se_a^2 + se_b^2), se from each rating's interval.
        let se = |low: f64, high: f64| (high - low) / (2.0 * 1.959_964);
        let se_d = se(r.rating_a_low.unwrap(), r.rating_a_high.unwrap())
            .hypot(se(r.rating_b_low.unwrap(), r.rating_b_high.unwrap()));
        let change = r.rating_b.unwrap() - r.rating_a.unwrap();
        assert!((r.change.unwrap() - change).abs() < 0.11, "{r:?}");
        assert!(
            (r.change_high.unwrap() - (change + 1.959_964 * se_d)).abs() < 0.3,
            "{r:?}"
        );
        assert!(r.p_holm.unwrap() >= r.p_value.unwrap());
    }

    // Depth 3 for depth 1 under the same name: its rating rises, significantly, and
    // the output says its strategy changed.
    let stdout = ok(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "deeper",
        ],
    );
    assert!(stdout.contains("| search | changed |"), "{stdout}");
    let rows = changes(&dir.join("deeper"));
    let search = rows.iter().find(|r| r.player == "search").unwrap();
    assert_eq!(search.spec_changed, "yes");
    assert!(search.change.unwrap() > 0.0, "{search:?}");
    assert_eq!(search.significant_holm, "yes", "{search:?}");
    // Anchored on the unchanged players (the default), their changes are noise: none
    // is significant, though the field's mean moved with `search`.
    assert!(
        stdout.contains("Anchor: the players whose strategy is the same in both runs"),
        "{stdout}"
    );
    for r in rows.iter().filter(|r| r.player != "search") {
        assert_eq!(r.spec_changed, "no");
        assert_eq!(r.anchor, "unchanged");
        assert_eq!(r.significant_holm, "no", "{r:?}");
    }
    // Their mean is 0 in both runs.
    let mean = |f: fn(&Change) -> Option<f64>| {
        rows.iter()
            .filter(|r| r.player != "search")
            .map(|r| f(r).unwrap())
            .sum::<f64>()
            / 3.0
    };
    assert!(mean(|r| r.rating_a).abs() < 0.2 && mean(|r| r.rating_b).abs() < 0.2);
    let md = fs::read_to_string(dir.join("deeper/compare.md")).unwrap();
    assert!(
        md.contains("The strategy changed under the same name for: search."),
        "{md}"
    );
    for chart in ["charts/compare.png", "charts/compare.svg"] {
        assert!(dir.join("deeper").join(chart).is_file(), "{chart}");
    }
    let svg = fs::read_to_string(dir.join("deeper/charts/compare.svg")).unwrap();
    assert!(
        svg.contains("search (changed) *"),
        "the chart stars the change"
    );

    // The same inputs give the same files; a second run into the folder is refused
    // until --force.
    let csv = fs::read(dir.join("deeper/compare.csv")).unwrap();
    let (code, _, stderr) = run_in(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "deeper",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("already exists") && stderr.contains("--force"),
        "{stderr}"
    );
    ok(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "deeper",
            "--force",
        ],
    );
    assert_eq!(fs::read(dir.join("deeper/compare.csv")).unwrap(), csv);

    // --anchor NAME: that player is rated 0 in both runs, its change 0 and untested.
    let stdout = ok(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "on-greedy",
            "--anchor",
            "greedy",
        ],
    );
    assert!(stdout.contains("Anchor: greedy"), "{stdout}");
    let rows = changes(&dir.join("on-greedy"));
    let greedy = rows.iter().find(|r| r.player == "greedy").unwrap();
    assert_eq!(
        (
            greedy.rating_a,
            greedy.rating_b,
            greedy.change,
            greedy.p_value
        ),
        (Some(0.0), Some(0.0), Some(0.0), None),
        "{greedy:?}"
    );
    assert!(rows.iter().all(|r| r.anchor == "greedy"));
    // One player anchors less firmly than three: the interval is wider, the gain the same.
    let search = rows.iter().find(|r| r.player == "search").unwrap();
    assert!(search.change.unwrap() > 50.0, "{search:?}");

    // --anchor mean: the field's mean, as each run's standings.csv has it.
    ok(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "on-mean",
            "--anchor",
            "mean",
        ],
    );
    let rows = changes(&dir.join("on-mean"));
    let standings: Vec<reversi_lab::lab::rows::StandingRow> =
        read_csv(&dir.join("results/deeper/standings.csv")).unwrap();
    for r in &rows {
        assert_eq!(r.anchor, "mean");
        let s = standings.iter().find(|s| s.player == r.player).unwrap();
        assert!(
            (r.rating_b.unwrap() - s.rating.unwrap()).abs() < 0.11,
            "{r:?}"
        );
    }
    let md = fs::read_to_string(dir.join("on-mean/compare.md")).unwrap();
    assert!(md.contains("Anchor: the field's mean"), "{md}");

    // An unknown anchor: one line naming it, exit 2, nothing written.
    let (code, stdout, stderr) = run_in(
        dir,
        &[
            "compare",
            "results/before",
            "results/deeper",
            "--out",
            "on-nobody",
            "--anchor",
            "nobody",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--anchor nobody: no such player"),
        "{stderr}"
    );
    assert!(stdout.is_empty() && !dir.join("on-nobody").exists());
}

#[test]
fn different_fields_are_refused_in_one_line() {
    let tmp = Dir::new();
    let dir = tmp.path();
    play(dir, "base", &field("base", 1, 1, 6));
    play(dir, "bigger", &field("bigger", 1, 1, 8));
    let anti = field("anti", 1, 1, 6).replace("[openings]", "[rules]\nanti = true\n[openings]");
    play(dir, "anti", &anti);
    let renamed = field("renamed", 1, 1, 6).replace("\"corners\"", "\"edges\"");
    play(dir, "renamed", &renamed);
    for (other, says) in [
        ("bigger", "size is 6 in one and 8 in the other"),
        // As a config writes them, not Rust's `Rules { .. }` (issue 52, item 35).
        (
            "anti",
            "the rules differ (scoring = \"winner-gets-empties\", anti = false against scoring = \"winner-gets-empties\", anti = true;",
        ),
        (
            "renamed",
            "only in the first: corners; only in the second: edges",
        ),
        ("missing", "is not a results folder"),
    ] {
        let (code, stdout, stderr) = run_in(
            dir,
            &["compare", "results/base", &format!("results/{other}")],
        );
        assert_eq!(code, 2, "{other}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{other}: {stderr}");
        assert!(stdout.is_empty());
    }
    assert!(!dir.join("results/compare-base-vs-bigger").exists());
}
