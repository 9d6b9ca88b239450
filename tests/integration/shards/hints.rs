//! What a folder of shards says before and after its merge (from the last walk): a
//! hint that gives a command gives one that works as written (`--out` included, the
//! shard named), a folder holding only `shards/` is "not merged yet" to `report`,
//! `compare`, `run --resume` and a study's `--merge`, and a second merge writes
//! nothing when it changes nothing.

use crate::common::{ok, refused_in, Dir};
use std::fs;
use std::path::Path;

const E: &str = "name = \"e\"\nseed = 7\nsize = 6\ngames_per_pair = 6\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"mobility\"\nstrategy = \"mobility\"\n";

const SWEEP: &str = "name = \"sw\"\nseed = 3\nsize = 6\ngames_per_pair = 2\n[sweep]\nbase = \"alphabeta\"\nparameter = \"depth\"\nvalues = [1, 2]\n";

/// Both shards of `e.toml` split in two, in `d/M`.
fn two_shards_in_m(d: &Path) {
    fs::write(d.join("e.toml"), E).unwrap();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        ok(
            d,
            &["run", "e.toml", "--shard", &shard, "--out", "M", "--quiet"],
        );
    }
}

/// Refused in one line with exit code 2; the message.
fn refused(d: &Path, args: &[&str]) -> String {
    refused_in(d, args, "")
}

/// The command line in backticks after `after` in `message`, its placeholders
/// filled in as the user would, run as written: it must succeed.
fn run_the_hint(d: &Path, message: &str, after: &str, fill: &[(&str, &str)]) -> String {
    let start = message
        .find(after)
        .unwrap_or_else(|| panic!("{after}: {message}"));
    let rest = &message[start + after.len()..];
    let line = rest.split(['`', ')']).next().unwrap();
    let mut line = line.to_string();
    for (placeholder, value) in fill {
        line = line.replace(placeholder, value);
    }
    let words = shlex::split(&line).unwrap();
    assert_eq!(words[0], "reversi-lab", "{line}");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    ok(d, &[&args[..], &["--quiet"]].concat());
    line
}

/// Before, the hints named `run CONFIG --shard I/N` without `--out`, so the shard they
/// played went to results/e/, where this merge never looked.
#[test]
fn a_merges_hints_name_the_folder_and_the_shard_and_work_as_written() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), E).unwrap();
    ok(
        d,
        &["run", "e.toml", "--out", "single", "--quiet", "--no-report"],
    );
    ok(
        d,
        &["run", "e.toml", "--shard", "1/3", "--out", "M", "--quiet"],
    );
    let said = refused(d, &["merge", "M", "--shards", "4"]);
    assert!(
        said.contains("(reversi-lab run CONFIG --shard I/4 --out M)"),
        "{said}"
    );
    let said = refused(d, &["merge", "M"]);
    assert!(
        said.contains(
            "shards 2/3, 3/3 are missing: run them (reversi-lab run CONFIG --shard I/3 --out M)"
        ),
        "{said}"
    );
    for i in ["2", "3"] {
        run_the_hint(
            d,
            &said,
            "(",
            &[("CONFIG", "e.toml"), ("I/", &format!("{i}/"))],
        );
    }
    // A shard of another seed: the hint replays that very shard over it.
    fs::remove_dir_all(d.join("M/shards/3-of-3")).unwrap();
    ok(
        d,
        &[
            "run", "e.toml", "--shard", "3/3", "--out", "M", "--seed", "9", "--quiet",
        ],
    );
    let said = refused(d, &["merge", "M"]);
    let line = run_the_hint(
        d,
        &said,
        "rerun the odd one with `",
        &[("CONFIG", "e.toml")],
    );
    assert_eq!(line, "reversi-lab run e.toml --shard 3/3 --out M --force");
    ok(d, &["merge", "M", "--quiet", "--no-report"]);
    for file in ["games.csv", "standings.csv"] {
        assert!(
            fs::read(d.join("M").join(file)).unwrap()
                == fs::read(d.join("single").join(file)).unwrap(),
            "{file}"
        );
    }
    // `run --shard` of a sweep file: the sweep's own shards, into the same folder.
    fs::write(d.join("sw.toml"), SWEEP).unwrap();
    let said = refused(d, &["run", "sw.toml", "--shard", "1/2", "--out", "S"]);
    for i in ["1", "2"] {
        let line = run_the_hint(
            d,
            &said,
            "play its shards with `",
            &[("I/N", &format!("{i}/2"))],
        );
        assert_eq!(
            line,
            format!("reversi-lab sweep sw.toml --shard {i}/2 --out S")
        );
    }
    run_the_hint(d, &said, "join them with `", &[]);
    assert!(d.join("S/sweep.csv").is_file());
}

/// Before, `report M` and `compare` said "missing run.toml (run reversi-lab run ...)",
/// `run --out M --resume` "nothing to resume", and `sweep FILE --merge` asked for
/// the file and `--games` the plain run's shards were never played from.
#[test]
fn a_folder_of_unmerged_shards_says_so_and_names_the_merge() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), E).unwrap();
    fs::write(d.join("sw.toml"), SWEEP).unwrap();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        ok(
            d,
            &["run", "e.toml", "--shard", &shard, "--out", "M", "--quiet"],
        );
    }
    let not_merged = "M holds the shards of a sharded run, not merged yet (it has no run.toml of its own): merge them with `reversi-lab merge M`";
    let said = refused(d, &["report", "M"]);
    assert!(
        said.contains(not_merged) && said.ends_with("then report the merged folder\n"),
        "{said}"
    );
    let said = refused(d, &["compare", "M", "M"]);
    assert!(said.contains(not_merged), "{said}");
    let said = refused(d, &["sweep", "sw.toml", "--merge", "--out", "M"]);
    assert!(
        said.contains("M holds the shards of `reversi-lab run`, not of `reversi-lab sweep`: merge them with `reversi-lab merge M`"),
        "{said}"
    );
    // A shard a node's kill left unfinished: resuming M names that shard's resume.
    let record = d.join("M/shards/2-of-2/run.toml");
    let text = fs::read_to_string(&record).unwrap();
    fs::write(
        &record,
        text.replace("status = \"complete\"", "status = \"interrupted\""),
    )
    .unwrap();
    for args in [
        &["run", "--out", "M", "--resume"][..],
        &["run", "e.toml", "--out", "M", "--resume"],
    ] {
        let said = refused(d, args);
        assert!(
            said.contains("M holds the shards of a sharded run, not one run to resume: continue the unfinished shard with `reversi-lab run --shard 2/2 --out M --resume`, then merge them with `reversi-lab merge M`"),
            "{args:?}: {said}"
        );
    }
    run_the_hint(
        d,
        &refused(d, &["run", "--out", "M", "--resume"]),
        "continue the unfinished shard with `",
        &[],
    );
    let said = refused(d, &["run", "--out", "M", "--resume"]);
    assert!(
        said.contains("nothing to resume in M: it holds the shards of a sharded run, all finished, and no run of its own: merge them with `reversi-lab merge M`"),
        "{said}"
    );
    run_the_hint(d, &said, "merge them with `", &[]);
    ok(d, &["report", "M"]);
}

/// Before, a second `merge D` said "nothing changed" and then "wrote 10 files" (the
/// report made again from the same games). It now writes nothing, as it says; a
/// report that is missing is made, and said to be.
#[test]
fn a_second_merge_that_changes_nothing_writes_nothing() {
    let dir = Dir::new();
    let d = dir.path();
    two_shards_in_m(d);
    let first = ok(d, &["merge", "M", "--quiet"]);
    assert!(
        first.contains("merged 18 games") && first.contains("wrote "),
        "{first}"
    );
    let page = d.join("M/report.html");
    let before = (
        fs::read(&page).unwrap(),
        fs::metadata(&page).unwrap().modified().unwrap(),
    );
    let again = ok(d, &["merge", "M", "--quiet"]);
    assert_eq!(again.lines().count(), 1, "{again}");
    assert!(
        again.contains("nothing changed") && !again.contains("wrote"),
        "{again}"
    );
    let after = (
        fs::read(&page).unwrap(),
        fs::metadata(&page).unwrap().modified().unwrap(),
    );
    assert!(before == after, "the report is left as it was");
    fs::remove_file(&page).unwrap();
    let again = ok(d, &["merge", "M", "--quiet"]);
    assert!(
        again.contains("nothing changed") && again.contains("its report was missing: wrote "),
        "{again}"
    );
    assert!(page.is_file());
}

/// A shard with no game to play (more shards than game pairs) is whole at once, so
/// replacing it with `--force` succeeds; it said "stopped before the new run wrote a
/// game" and left the old folder (the walk's hint for mismatched seeds is `--force`).
#[test]
fn an_empty_shard_is_replaced_by_force() {
    let dir = Dir::new();
    let d = dir.path();
    let two = "name = \"t\"\nseed = 1\ngames_per_pair = 2\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n[[players]]\nname = \"b\"\nstrategy = \"random\"\n";
    fs::write(d.join("e.toml"), two).unwrap();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        ok(
            d,
            &["run", "e.toml", "--shard", &shard, "--out", "M", "--quiet"],
        );
    }
    let replaced = ok(
        d,
        &[
            "run", "e.toml", "--shard", "3/3", "--out", "M", "--force", "--quiet",
        ],
    );
    assert!(replaced.contains("0 games"), "{replaced}");
    assert!(d.join("M/shards/3-of-3/run.toml").is_file());
    let merged = ok(d, &["merge", "M", "--quiet"]);
    assert!(merged.contains("merged 2 games"), "{merged}");
}

/// Before, `run --out M --resume` with shard 2/3 never played said the shards were
/// "all finished" and named the merge, which then refused for the missing shard (the
/// new user's walk). The hint now names the missing shard, and works as written.
#[test]
fn resume_of_a_folder_missing_a_shard_names_it() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), E).unwrap();
    for i in [1, 3] {
        let shard = format!("{i}/3");
        ok(
            d,
            &["run", "e.toml", "--shard", &shard, "--out", "M", "--quiet"],
        );
    }
    let message = refused(d, &["run", "--out", "M", "--resume"]);
    assert!(
        message.contains("shard 2/3 is missing") && !message.contains("all finished"),
        "{message}"
    );
    run_the_hint(d, &message, "play it with `", &[("CONFIG", "e.toml")]);
    let merged = ok(d, &["merge", "M", "--quiet"]);
    assert!(merged.contains("merged 18 games"), "{merged}");
}

/// Before, `report` of shards with one missing named only the merge, which then
/// refused for the missing shard.
#[test]
fn a_report_of_shards_with_one_missing_names_that_shard_first() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), E).unwrap();
    ok(
        d,
        &["run", "e.toml", "--shard", "1/2", "--out", "M", "--quiet"],
    );
    let said = refused(d, &["report", "M"]);
    assert!(
        said.contains("not merged yet (it has no run.toml of its own): shard 2/2 is missing: play it with `reversi-lab run CONFIG --shard 2/2 --out M`, then merge them with `reversi-lab merge M`"),
        "{said}"
    );
}

/// Before, `export` of unmerged shards said the folder was no results folder.
#[test]
fn export_and_replay_of_unmerged_shards_name_the_merge() {
    let dir = Dir::new();
    let d = dir.path();
    two_shards_in_m(d);
    let said = refused(d, &["export", "M", "--format", "ggf", "--out", "m.ggf"]);
    assert!(
        said.contains("M holds the shards of a sharded run, not merged yet")
            && said
                .contains("merge them with `reversi-lab merge M`, then export the merged folder"),
        "{said}"
    );
    let said = refused(d, &["replay", "M", "--game", "1"]);
    assert!(
        said.contains("merge them with `reversi-lab merge M`, then replay the merged folder"),
        "{said}"
    );
}
