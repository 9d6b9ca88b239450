//! One layout for every sharded command (issue 52): `--out DIR` names the whole run's
//! folder for `run` as for `sweep` and `ablate`, shards go to `DIR/shards/I-of-N`, and
//! every hint about a shard names the command that made it; a second stop ends a
//! built-in search already in progress.

use crate::common::{ok, run_in, Dir};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

const RR: &str = "name = \"rr\"\nseed = 7\nsize = 6\ngames_per_pair = 6\n[openings]\nrandom_plies = 2\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"mobility\"\nstrategy = \"mobility\"\n";

const FILES: [&str; 3] = ["games.csv", "pairs.csv", "standings.csv"];

/// Refused in one line with exit code 2; the message.
fn refused(d: &Path, args: &[&str]) -> String {
    let (code, _, stderr) = run_in(d, args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// Every shard given the same `--out` goes to its `shards/I-of-N` there, where a
/// plain `merge DIR` finds them: byte-identical to the single run. Before, each shard
/// wrote into DIR itself, over the one before it.
#[test]
fn one_out_for_every_shard_of_a_run_is_the_folder_merge_joins() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), RR).unwrap();
    ok(
        d,
        &["run", "e.toml", "--out", "single", "--quiet", "--no-report"],
    );
    for i in 1..=3 {
        let shard = format!("{i}/3");
        ok(
            d,
            &[
                "run", "e.toml", "--shard", &shard, "--out", "split", "--quiet",
            ],
        );
        assert!(d.join(format!("split/shards/{i}-of-3/games.csv")).is_file());
    }
    assert!(
        !d.join("split/games.csv").exists(),
        "no shard in the run's folder"
    );
    // Finished: played again with --resume (as the scheduler recipes do), nothing changes.
    ok(
        d,
        &[
            "run", "e.toml", "--shard", "2/3", "--out", "split", "--resume", "--quiet",
        ],
    );
    // The shard's folder given itself still means that shard.
    ok(
        d,
        &[
            "run",
            "e.toml",
            "--shard",
            "3/3",
            "--out",
            "split/shards/3-of-3",
            "--resume",
            "--quiet",
        ],
    );
    let said = refused(d, &["report", "split/shards/1-of-3"]);
    assert!(
        said.contains("merge the shards first (reversi-lab merge split)"),
        "{said}"
    );
    ok(d, &["merge", "split", "--quiet", "--no-report"]);
    for file in FILES {
        assert!(
            fs::read(d.join("single").join(file)).unwrap()
                == fs::read(d.join("split").join(file)).unwrap(),
            "{file}"
        );
    }
    // Another shard's folder as --out is refused, naming the run's folder.
    let said = refused(
        d,
        &[
            "run",
            "e.toml",
            "--shard",
            "1/3",
            "--out",
            "split/shards/2-of-3",
        ],
    );
    assert!(
        said.contains("is another shard's folder, but this run plays shard 1/3: give --out split"),
        "{said}"
    );
}

/// A shard written into `--out DIR` itself (the layout before) still resumes there;
/// another shard to the same DIR is refused in one line saying where to move it.
#[test]
fn a_shard_in_the_old_layout_resumes_in_place_and_another_is_told_to_move_it() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), RR).unwrap();
    ok(
        d,
        &[
            "run",
            "e.toml",
            "--shard",
            "1/2",
            "--out",
            "x/shards/1-of-2",
            "--quiet",
        ],
    );
    fs::rename(d.join("x/shards/1-of-2"), d.join("old")).unwrap();
    let before = fs::read(d.join("old/games.csv")).unwrap();
    ok(
        d,
        &[
            "run", "e.toml", "--shard", "1/2", "--out", "old", "--resume", "--quiet",
        ],
    );
    assert_eq!(fs::read(d.join("old/games.csv")).unwrap(), before);
    assert!(!d.join("old/shards").exists());
    let said = refused(
        d,
        &["run", "e.toml", "--shard", "2/2", "--out", "old", "--quiet"],
    );
    assert!(
        said.contains("old holds shard 1/2 itself")
            && said.contains("move it to old/shards/1-of-2"),
        "{said}"
    );
    assert!(!d.join("old/shards").exists(), "nothing written");
}

const SWEEP: &str = "name = \"tiny\"\nseed = 11\nsize = 6\ngames_per_pair = 4\n[sweep]\nbase = \"alphabeta:eval=mobility\"\nparameter = \"depth\"\nvalues = [1, 2]\n";

/// A plain `merge` of a sweep's shards, `report` and `compare` of one, and the web's
/// cluster page name the sweep's own command (the shard's run.toml records it), not
/// `run CONFIG` or a plain `merge`.
#[test]
fn hints_about_a_studys_shards_name_the_study() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("sw.toml"), SWEEP).unwrap();
    fs::write(
        d.join("other.toml"),
        SWEEP.replace("seed = 11", "seed = 12"),
    )
    .unwrap();
    ok(
        d,
        &[
            "sweep", "sw.toml", "--shard", "1/2", "--out", "s", "--quiet",
        ],
    );
    ok(
        d,
        &[
            "sweep",
            "other.toml",
            "--shard",
            "2/2",
            "--out",
            "s",
            "--quiet",
        ],
    );
    let record = fs::read_to_string(d.join("s/shards/1-of-2/run.toml")).unwrap();
    assert!(record.contains("study = \"sweep\""), "{record}");
    let said = refused(d, &["merge", "s"]);
    assert!(
        said.contains(
            "belong to different experiments (seed = 11 in shard 1/2 but 12 in shard 2/2)"
        ) && said.contains("`reversi-lab sweep FILE --shard 2/2 --out s --force`")
            && !said.contains("run CONFIG"),
        "{said}"
    );
    // Shards of one sweep: a plain merge would join its variants as one run's players
    // and lose sweep.csv, so it names the sweep's own merge and writes nothing.
    ok(
        d,
        &[
            "sweep", "sw.toml", "--shard", "1/2", "--out", "t", "--quiet",
        ],
    );
    ok(
        d,
        &[
            "sweep", "sw.toml", "--shard", "2/2", "--out", "t", "--quiet",
        ],
    );
    let said = refused(d, &["merge", "t"]);
    assert!(
        said.contains("these are the shards of a sweep")
            && said.contains("`reversi-lab sweep FILE --merge --out t`"),
        "{said}"
    );
    assert!(!d.join("t/games.csv").exists() && !d.join("t/run.toml").exists());
    ok(d, &["sweep", "sw.toml", "--merge", "--out", "t", "--quiet"]);
    assert!(d.join("t/sweep.csv").exists());
    let merges = "merge the shards first (reversi-lab sweep FILE --merge --out s)";
    let said = refused(d, &["report", "s/shards/1-of-2"]);
    assert!(said.contains(merges), "{said}");
    ok(d, &["sweep", "sw.toml", "--out", "whole", "--quiet"]);
    let said = refused(d, &["compare", "whole", "s/shards/1-of-2"]);
    assert!(said.contains(merges), "{said}");
    // An ablation's shard says `ablate`.
    let ablation = "name = \"abl\"\ngames_per_pair = 2\nalone = true\nsize = 6\n[player]\nkind = \"eval\"\ndiscs = 1\nmobility = 5\n";
    fs::write(d.join("abl.toml"), ablation).unwrap();
    ok(
        d,
        &[
            "ablate", "abl.toml", "--shard", "2/2", "--out", "a", "--quiet",
        ],
    );
    let said = refused(d, &["report", "a/shards/2-of-2"]);
    assert!(
        said.contains("(reversi-lab ablate FILE --merge --out a)"),
        "{said}"
    );
    // The web's page of the sweep's shards.
    fs::remove_dir_all(d.join("whole")).unwrap();
    let server = crate::web::Server::start(d, &[]);
    let (status, page) = server.get("/folder?path=s");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("reversi-lab sweep FILE --merge --out"),
        "{page}"
    );
    assert!(!page.contains("reversi-lab merge"), "{page}");
}

/// Complete rows of `games.csv` in `dir` (header aside).
fn rows(dir: &Path) -> Vec<String> {
    let text = fs::read_to_string(dir.join("games.csv")).unwrap_or_default();
    text.lines().skip(1).map(str::to_string).collect()
}

/// The second signal ends a built-in search in progress (an exact solve of 22
/// empties on 8x8, seconds at this profile) at once: the run exits within a moment as
/// `interrupted`, its game dropped, and `--resume` equals a run that never stopped.
/// Before, the process waited for the search to end.
#[test]
fn a_second_signal_stops_a_built_in_search_in_progress() {
    let dir = Dir::new();
    let d = dir.path();
    let config = "name = \"deep\"\nseed = 3\nformat = \"head-to-head\"\ngames_per_pair = 2\n[[players]]\nname = \"solver\"\nstrategy = \"alphabeta:depth=2,endgame=22\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n";
    fs::write(d.join("e.toml"), config).unwrap();
    let args = crate::common::run_e_into_r("1");
    let whole = Instant::now();
    ok(
        d,
        &[
            "run",
            "e.toml",
            "--out",
            "whole",
            "--quiet",
            "--no-report",
            "--threads",
            "1",
        ],
    );
    let game = whole.elapsed() / 2;
    let child = crate::common::Running::start(
        crate::common::in_dir(d)
            .args(args)
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped()),
    );
    // The first game's solve begun: its first moves take a few milliseconds.
    child.wait_for_file(&d.join("r/games.csv"), Duration::from_secs(60));
    std::thread::sleep(Duration::from_millis(500));
    child.signal("-INT");
    std::thread::sleep(Duration::from_millis(200));
    let second = Instant::now();
    child.signal("-TERM");
    let output = child.output();
    let waited = second.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        waited < Duration::from_secs(3) && waited * 3 < game,
        "{waited:?} after the second signal (a game takes {game:?}): {stderr}"
    );
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    assert!(record.contains("status = \"interrupted\""), "{record}");
    assert!(
        rows(&d.join("r")).is_empty(),
        "the game in flight is dropped"
    );
    ok(d, &[&args[..], &["--resume"]].concat());
    assert_eq!(rows(&d.join("r")), rows(&d.join("whole")));
}
