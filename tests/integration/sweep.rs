//! `reversi-lab sweep` on a tiny sweep (6x6, depth 1 to 3): its files and their
//! documented header, ratings that rise with depth, the same sweep.csv whatever the
//! thread count, the report, the folder conventions and one-line errors.

use reversi_lab::lab::rows::{read_csv, CostRow};
use std::fs;

use crate::common;
use common::{ok, run_in, Dir};

/// Depth 1 to 3 of a mobility search on 6x6: a few seconds.
const TINY: &str = r#"
name = "tiny"
seed = 11
size = 6
games_per_pair = 16
[openings]
random_plies = 4
[sweep]
base = "alphabeta:eval=mobility"
parameter = "depth"
values = [1, 2, 3]
"#;

/// The documented header of sweep.csv (docs/sweeps.md).
const HEADER: &str = "variant,parameter,value,scale,games,score,rating,rating_low,rating_high,gain,gain_per_step,moves,nodes_per_move,gain_per_node_doubling";

#[test]
fn a_tiny_depth_sweep() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    let out = ok(
        d,
        &[
            "sweep",
            "tiny.toml",
            "--out",
            "one",
            "--quiet",
            "--threads",
            "1",
        ],
    );
    assert!(out.contains("depth=3"), "{out}");
    ok(
        d,
        &[
            "sweep",
            "tiny.toml",
            "--out",
            "two",
            "--quiet",
            "--threads",
            "2",
        ],
    );
    let one = d.join("one");
    for file in [
        "sweep.csv",
        "costs.csv",
        "standings.csv",
        "report.md",
        "report.html",
        "charts/sweep-rating.png",
        "charts/sweep-rating.svg",
        "charts/sweep-cost.png",
        "charts/sweep-cost.svg",
    ] {
        assert!(one.join(file).is_file(), "{file} missing");
    }
    let text = fs::read_to_string(one.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[1].starts_with("depth=1,depth,1,linear,32,"), "{text}");
    // Every column is byte-identical whatever the thread count: time per move,
    // which is not, lives in costs.csv.
    assert_eq!(
        text,
        fs::read_to_string(d.join("two/sweep.csv")).unwrap(),
        "sweep.csv depends on the thread count"
    );
    // Deeper is stronger, and costs more nodes.
    let rows: Vec<Vec<String>> = lines[1..]
        .iter()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let number = |row: &Vec<String>, column: usize| row[column].parse::<f64>().unwrap();
    assert!(number(&rows[2], 6) > number(&rows[0], 6), "{text}");
    for pair in rows.windows(2) {
        assert!(number(&pair[1], 12) > number(&pair[0], 12), "{text}");
        let gain = number(&pair[1], 6) - number(&pair[0], 6);
        assert!((number(&pair[1], 9) - gain).abs() < 0.11, "{text}");
    }
    assert_eq!(rows[0][9], "", "the first variant has no gain");
    // Ratings match the standings' fit.
    let standings = fs::read_to_string(one.join("standings.csv")).unwrap();
    let rating = &rows[1][6];
    assert!(
        standings
            .lines()
            .any(|l| l.contains("depth=2") && l.contains(&format!(",{rating},"))),
        "{standings}"
    );
    let costs: Vec<CostRow> = read_csv(&one.join("costs.csv")).unwrap();
    assert!(
        costs.iter().all(|c| c.ms_per_move.is_some()),
        "searches are timed"
    );
    let report = fs::read_to_string(one.join("report.md")).unwrap();
    assert!(report.starts_with("# Sweep report: tiny"), "{report}");
    assert!(
        report.contains("## Sweep: strength against cost over depth"),
        "{report}"
    );
    assert!(report.contains("charts/sweep-cost.svg"), "{report}");
    // `report` draws it again from the folder.
    fs::remove_file(one.join("report.md")).unwrap();
    fs::remove_file(one.join("charts/sweep-rating.png")).unwrap();
    ok(d, &["report", "one"]);
    assert!(one.join("charts/sweep-rating.png").is_file());
    let again = fs::read_to_string(one.join("report.md")).unwrap();
    assert!(again.contains("gain per unit"), "{again}");
}

#[test]
fn neighbours_and_a_panel() {
    let dir = Dir::new();
    let d = dir.path();
    let chain = TINY.replace(
        "values = [1, 2, 3]",
        "values = [1, 2, 3]\nplays = \"neighbours\"",
    );
    fs::write(d.join("chain.toml"), chain).unwrap();
    ok(d, &["sweep", "chain.toml", "--out", "chain", "--quiet"]);
    let pairs = fs::read_to_string(d.join("chain/pairs.csv")).unwrap();
    let played: Vec<&str> = pairs.lines().skip(1).map(|l| &l[..15]).collect();
    assert_eq!(played, ["depth=1,depth=2", "depth=2,depth=3"], "{pairs}");
    let report = fs::read_to_string(d.join("chain/report.md")).unwrap();
    assert!(
        report.contains("head-to-head over the previous [95%]"),
        "{report}"
    );
    assert!(
        report.contains("Neighbouring values played each other"),
        "{report}"
    );
    let panel = TINY.replace(
        "values = [1, 2, 3]",
        "values = [1, 3]\nplays = \"panel\"\npanel = [\"greedy\", { name = \"ab2\", strategy = \"alphabeta:depth=2\" }]",
    );
    fs::write(d.join("panel.toml"), panel).unwrap();
    ok(d, &["sweep", "panel.toml", "--out", "panel", "--quiet"]);
    let text = fs::read_to_string(d.join("panel/sweep.csv")).unwrap();
    assert_eq!(text.lines().count(), 3, "the variants only: {text}");
    let pairs = fs::read_to_string(d.join("panel/pairs.csv")).unwrap();
    assert_eq!(
        pairs.lines().count(),
        5,
        "2 variants x 2 panel players: {pairs}"
    );
    let report = fs::read_to_string(d.join("panel/report.md")).unwrap();
    assert!(
        report.contains("played a fixed panel, not each other: "),
        "{report}"
    );
    assert!(
        report.contains("greedy (") && report.contains("ab2 ("),
        "{report}"
    );
    assert!(
        !report.contains("Neighbouring values played each other"),
        "{report}"
    );
}

#[test]
fn a_folder_is_never_overwritten_silently() {
    let dir = Dir::new();
    let d = dir.path();
    let small = TINY.replace("games_per_pair = 16", "games_per_pair = 2");
    fs::write(d.join("s.toml"), small).unwrap();
    ok(d, &["sweep", "s.toml", "--out", "r", "--quiet"]);
    let before = fs::read(d.join("r/sweep.csv")).unwrap();
    let (code, _, stderr) = run_in(d, &["sweep", "s.toml", "--out", "r", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--force") || stderr.contains("--resume"),
        "{stderr}"
    );
    ok(d, &["sweep", "s.toml", "--out", "r", "--quiet", "--resume"]);
    ok(d, &["sweep", "s.toml", "--out", "r", "--quiet", "--force"]);
    assert_eq!(before, fs::read(d.join("r/sweep.csv")).unwrap());
}

/// `--resume` takes the sweep file as it is now: games per pair given by `--games` at
/// the start must be given again, and a resume without them is refused, naming the
/// field, rather than silently keeping either value.
#[test]
fn resume_needs_the_games_given_at_the_start() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("s.toml"), TINY).unwrap();
    ok(
        d,
        &["sweep", "s.toml", "--out", "r", "--quiet", "--games", "2"],
    );
    let before = fs::read(d.join("r/sweep.csv")).unwrap();
    let (code, _, stderr) = run_in(d, &["sweep", "s.toml", "--out", "r", "--quiet", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr
            .contains("games_per_pair = 2 in run.toml but 16 now (pass --games 2 to continue it)"),
        "{stderr}"
    );
    ok(
        d,
        &[
            "sweep", "s.toml", "--out", "r", "--quiet", "--resume", "--games", "2",
        ],
    );
    assert_eq!(before, fs::read(d.join("r/sweep.csv")).unwrap());
    let games = fs::read_to_string(d.join("r/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 3 * 2, "{games}");
}

/// A sweep played with another generator (schedule version 1, or none recorded)
/// is not continued.
#[test]
fn resume_refuses_another_schedule_version() {
    let dir = Dir::new();
    let d = dir.path();
    let small = TINY.replace("games_per_pair = 16", "games_per_pair = 2");
    fs::write(d.join("s.toml"), small).unwrap();
    ok(d, &["sweep", "s.toml", "--out", "r", "--quiet"]);
    let record = fs::read_to_string(d.join("r/run.toml")).unwrap();
    fs::write(
        d.join("r/run.toml"),
        record.replace("schedule_version = 2\n", ""),
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["sweep", "s.toml", "--out", "r", "--quiet", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("schedule version 1 (ChaCha8)"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn bad_sweeps_exit_2_with_one_line() {
    let dir = Dir::new();
    let d = dir.path();
    for (from, to, says) in [
        (
            "parameter = \"depth\"",
            "parameter = \"dpth\"",
            "did you mean `depth`?",
        ),
        (
            "alphabeta:eval=mobility",
            "random",
            "has no parameters to sweep",
        ),
        (
            "values = [1, 2, 3]",
            "values = [3, 2]",
            "in increasing order",
        ),
        (
            "values = [1, 2, 3]",
            "values = [1, \"deep\"]",
            "not a number",
        ),
        ("values = [1, 2, 3]", "values = [0, 1]", "depth = 0"),
        (
            "values = [1, 2, 3]",
            "range = { from = 0, to = 100, steps = 3 }\nscale = \"log\"",
            "from above 0",
        ),
        (
            "values = [1, 2, 3]",
            "values = [1, 2]\nplays = \"panel\"",
            "needs panel",
        ),
    ] {
        fs::write(d.join("bad.toml"), TINY.replace(from, to)).unwrap();
        let (code, stdout, stderr) = run_in(d, &["sweep", "bad.toml", "--quiet"]);
        assert_eq!(code, 2, "{to}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{to}: {stderr}");
    }
    // A sweep file given to `run` says which command reads it.
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    let (code, _, stderr) = run_in(d, &["run", "tiny.toml", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("reversi-lab sweep tiny.toml"), "{stderr}");
}

/// A sweep killed with `kill -9` and resumed writes the same files as one that was
/// never interrupted: games, tables, and the costs behind `sweep.csv`'s `moves` and
/// `nodes_per_move` (checkpointed with the games, so a kill loses none of them).
#[test]
fn kill_9_and_resume_gives_the_same_sweep() {
    let dir = Dir::new();
    let d = dir.path();
    let big = TINY.replace("games_per_pair = 16", "games_per_pair = 400");
    fs::write(d.join("s.toml"), big).unwrap();
    let args = ["sweep", "s.toml", "--quiet", "--threads", "1", "--out"];
    let mut killed_part_way = false;
    for attempt in 0..5 {
        let out = format!("killed{attempt}");
        let mut child = common::in_dir(d)
            .args(args)
            .arg(&out)
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill once some games are on disk, part-way through.
        let games = d.join(&out).join("games.csv");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while fs::read(&games).map_or(0, |g| g.iter().filter(|&&b| b == b'\n').count())
            < 300 * (attempt + 1)
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        if d.join(&out).join("sweep.csv").exists() {
            continue; // it finished first: try again, later in the sweep
        }
        killed_part_way = true;
        let resumed = [&args[..], &[out.as_str(), "--resume"]].concat();
        ok(d, &resumed);
        ok(d, &[&args[..], &["whole"]].concat());
        for file in ["games.csv", "pairs.csv", "standings.csv", "sweep.csv"] {
            assert_eq!(
                fs::read_to_string(d.join("whole").join(file)).unwrap(),
                fs::read_to_string(d.join(&out).join(file)).unwrap(),
                "{file}"
            );
        }
        let costs = |dir: &str| -> Vec<(String, u64, u64, u64)> {
            read_csv::<CostRow>(&d.join(dir).join("costs.csv"))
                .unwrap()
                .into_iter()
                .map(|r| (r.player, r.games, r.moves, r.nodes))
                .collect()
        };
        assert_eq!(costs("whole"), costs(&out));
        assert!(d.join(&out).join("charts/sweep-cost.png").exists());
        break;
    }
    assert!(killed_part_way, "every attempt finished before the kill");
}

/// A sweep over an engine's command-line argument: the value goes where the command
/// says `{}`. The engine is reversi-lab's own GTP server, its search depth the argument,
/// so the variants must rank by depth; without `{}` the sweep is refused in one line.
#[test]
fn a_sweep_over_an_engines_argument() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    let sweep = |command: &str| {
        format!(
            "name = \"levels\"\nsize = 6\ngames_per_pair = 20\nthreads = 2\n[openings]\nrandom_plies = 4\n[sweep]\nbase = {{ kind = \"engine\", command = [\"{bin}\", \"gtp\", \"--strategy\", \"{command}\"] }}\nparameter = \"command\"\nvalues = [1, 4]\n"
        )
    };
    fs::write(
        d.join("levels.toml"),
        sweep("alphabeta:eval=mobility,depth={}"),
    )
    .unwrap();
    ok(d, &["sweep", "levels.toml", "--out", "levels", "--quiet"]);
    let rows = fs::read_to_string(d.join("levels/sweep.csv")).unwrap();
    let variants: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(variants, ["command=1", "command=4"], "{rows}");
    let score = |line: &str| line.split(',').nth(5).unwrap().parse::<f64>().unwrap();
    let scores: Vec<f64> = rows.lines().skip(1).map(score).collect();
    assert!(scores[1] > scores[0], "depth 4 should beat depth 1: {rows}");
    let games = fs::read_to_string(d.join("levels/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 21);
    assert!(
        games.lines().skip(1).all(|l| l.ends_with(",normal")),
        "{games}"
    );

    fs::write(
        d.join("fixed.toml"),
        sweep("alphabeta:eval=mobility,depth=2"),
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["sweep", "fixed.toml", "--out", "fixed", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("put {} in its command where the value goes"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// Issue 52, items 30 and 36: a weight that barely changes the search's cost gets no
/// gain per doubling of nodes (it was -117,838 Elo a doubling for 55.9 to 55.8 nodes)
/// and no cost chart, and the report says why; whole values are written as such.
#[test]
fn a_weight_that_barely_changes_cost_gets_no_gain_per_node_doubling() {
    let dir = Dir::new();
    let d = dir.path();
    let config = r#"
name = "weight"
seed = 3
size = 6
games_per_pair = 8
[openings]
random_plies = 4
[sweep]
base = "alphabeta:depth=2,eval=eval"
parameter = "eval.mobility"
values = [8, 9]
"#;
    fs::write(d.join("weight.toml"), config).unwrap();
    ok(d, &["sweep", "weight.toml", "--out", "w", "--quiet"]);
    let csv = fs::read_to_string(d.join("w/sweep.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(rows[0][2], "8", "{csv}");
    assert_eq!(rows[1][2], "9", "{csv}");
    let nodes: Vec<f64> = rows.iter().map(|r| r[12].parse().unwrap()).collect();
    assert!((nodes[1] / nodes[0]).log2().abs() < 0.25, "{csv}");
    assert_eq!(rows[1][13], "", "gain_per_node_doubling: {csv}");
    assert!(!d.join("w/charts/sweep-cost.png").exists());
    let report = fs::read_to_string(d.join("w/report.md")).unwrap();
    assert!(
        report.contains("No chart against cost: nodes per move stay between"),
        "{report}"
    );
}

/// The files a sharded study merged must equal, byte for byte, those of one machine
/// (the report too, but for its times a move and its provenance).
const SAME: [&str; 4] = ["games.csv", "pairs.csv", "standings.csv", "sweep.csv"];

/// Issue 52, item 29: a sweep shards and merges like a run. Its shards (into
/// results/<name>/shards/) and `sweep FILE --merge` give the very files one machine
/// writes, sweep.csv and the report included; a shard writes no sweep.csv.
#[test]
fn a_sharded_sweep_merged_equals_the_single_one() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    ok(d, &["sweep", "tiny.toml", "--out", "one", "--quiet"]);
    for shard in ["1/3", "2/3", "3/3"] {
        let out = ok(
            d,
            &[
                "sweep",
                "tiny.toml",
                "--shard",
                shard,
                "--quiet",
                "--threads",
                "1",
            ],
        );
        assert!(
            !out.contains("depth=1 "),
            "a shard prints no ratings: {out}"
        );
    }
    assert!(d.join("results/tiny/shards/2-of-3/games.csv").is_file());
    assert!(!d.join("results/tiny/shards/2-of-3/sweep.csv").exists());
    let merged = ok(d, &["sweep", "tiny.toml", "--merge", "--quiet"]);
    assert!(merged.contains("merged 48 games from 3 shards"), "{merged}");
    assert!(merged.contains("depth=3"), "{merged}");
    for file in SAME {
        let single = fs::read(d.join("one").join(file)).unwrap();
        let joined = fs::read(d.join("results/tiny").join(file)).unwrap();
        assert!(single == joined, "{file} differs from the single sweep's");
    }
    let report = fs::read_to_string(d.join("results/tiny/report.md")).unwrap();
    assert!(
        report.contains("## Sweep: strength against cost over depth"),
        "{report}"
    );
    // Merged again (a recipe submitted twice): nothing changes, sweep.csv stays.
    let again = ok(d, &["sweep", "tiny.toml", "--merge", "--quiet"]);
    assert!(again.contains("nothing changed"), "{again}");
    assert_eq!(
        fs::read(d.join("one/sweep.csv")).unwrap(),
        fs::read(d.join("results/tiny/sweep.csv")).unwrap()
    );
    // Shards of another sweep file are named, not merged into this one's sweep.csv.
    let other = TINY.replace("values = [1, 2, 3]", "values = [1, 2, 4]");
    fs::write(d.join("other.toml"), other).unwrap();
    let (code, _, stderr) = run_in(
        d,
        &["sweep", "other.toml", "--merge", "--out", "results/tiny"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("was played from another file or with other settings"),
        "{stderr}"
    );
    // `run --shard` of a sweep file names the sweep's own --shard.
    let (code, _, stderr) = run_in(d, &["run", "tiny.toml", "--shard", "1/2"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`reversi-lab sweep tiny.toml --shard I/N`"),
        "{stderr}"
    );
}

/// Issue 52, item 29: an ablation shards and merges the same way (ablation.csv
/// and ablation.md equal one machine's).
#[test]
fn a_sharded_ablation_merged_equals_the_single_one() {
    let dir = Dir::new();
    let d = dir.path();
    let ablation = "name = \"abl\"\ngames_per_pair = 4\nalone = true\nsize = 6\n[openings]\nrandom_plies = 2\n[player]\nkind = \"eval\"\ndiscs = 1\nmobility = 5\ncorners = 20\n";
    fs::write(d.join("abl.toml"), ablation).unwrap();
    ok(d, &["ablate", "abl.toml", "--out", "one", "--quiet"]);
    for shard in ["1/2", "2/2"] {
        ok(d, &["ablate", "abl.toml", "--shard", shard, "--quiet"]);
    }
    ok(d, &["ablate", "abl.toml", "--merge", "--quiet"]);
    for file in [
        "games.csv",
        "pairs.csv",
        "standings.csv",
        "ablation.csv",
        "ablation.md",
    ] {
        let single = fs::read(d.join("one").join(file)).unwrap();
        let joined = fs::read(d.join("results/abl").join(file)).unwrap();
        assert!(
            single == joined,
            "{file} differs from the single ablation's"
        );
    }
}

/// Issue 52, item 29 (a walk's leftover): `--out DIR` names the study's folder for
/// its shards and its merge alike (shard I of N in `DIR/shards/I-of-N`, where `--merge
/// --out DIR` finds it; before, the shard went into DIR itself and the merge found no
/// shards), and a merge's hints name the study's own command, not `run CONFIG`.
#[test]
fn a_studys_out_names_one_folder_for_shards_and_merge_and_hints_name_the_study() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    ok(d, &["sweep", "tiny.toml", "--out", "one", "--quiet"]);
    let shard = |n: &'static str| {
        [
            "sweep",
            "tiny.toml",
            "--shard",
            n,
            "--out",
            "split",
            "--quiet",
        ]
    };
    ok(d, &shard("1/2"));
    assert!(d.join("split/shards/1-of-2/games.csv").is_file());
    assert!(!d.join("split/games.csv").exists());
    let merge = ["sweep", "tiny.toml", "--merge", "--out", "split", "--quiet"];
    let (code, _, stderr) = run_in(d, &merge);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "shard 2/2 is missing: run it (reversi-lab sweep FILE --shard 2/2 --out split)"
        ),
        "{stderr}"
    );
    ok(d, &shard("2/2"));
    ok(d, &merge);
    for file in SAME {
        let single = fs::read(d.join("one").join(file)).unwrap();
        let joined = fs::read(d.join("split").join(file)).unwrap();
        assert!(single == joined, "{file} differs from the single sweep's");
    }
    // An ablation's hints name `ablate`.
    let ablation = "name = \"abl\"\ngames_per_pair = 2\nalone = true\nsize = 6\n[player]\nkind = \"eval\"\ndiscs = 1\nmobility = 5\n";
    fs::write(d.join("abl.toml"), ablation).unwrap();
    ok(
        d,
        &[
            "ablate", "abl.toml", "--shard", "2/2", "--out", "a", "--quiet",
        ],
    );
    let (code, _, stderr) = run_in(d, &["ablate", "abl.toml", "--merge", "--out", "a"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr
            .contains("shard 1/2 is missing: run it (reversi-lab ablate FILE --shard 1/2 --out a)"),
        "{stderr}"
    );
}
