//! Sharded runs merged back: byte-identical to one machine's run for every format and
//! shard count, SPRT cut where one machine stops, and every bad merge refused whole.

use std::fs;
use std::path::Path;

use crate::common;

mod hints;
use common::{ok, refused_in, reversi_lab, run_in, Dir};

const PLAYERS: &str = "[openings]\nrandom_plies = 4\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"corners\"\nstrategy = \"corner-first\"\n[[players]]\nname = \"mobility\"\nstrategy = \"mobility\"\n";

fn round_robin() -> String {
    format!("name = \"rr\"\nseed = 7\ngames_per_pair = 10\n{PLAYERS}")
}

fn gauntlet() -> String {
    format!("name = \"gauntlet\"\nseed = 3\nformat = \"gauntlet\"\nchallengers = [\"greedy\", \"mobility\"]\ngames_per_pair = 12\n{PLAYERS}")
}

/// Stops well inside its budget: greedy against random.
fn head_to_head() -> String {
    "name = \"h2h\"\nseed = 5\nformat = \"head-to-head\"\ngames_per_pair = 600\n[openings]\nrandom_plies = 2\n[sprt]\nelo0 = 0\nelo1 = 200\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n".into()
}

const FILES: [&str; 3] = ["games.csv", "pairs.csv", "standings.csv"];

/// Plays `config` on one machine and in 1, 2, 3 and 7 shards, and checks each merge.
fn merged_equals_single(config: &str, expect_cut: bool) {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), config).unwrap();
    let line = ok(
        d,
        &["run", "e.toml", "--out", "single", "--quiet", "--no-report"],
    );
    assert_eq!(line.contains("SPRT accepted"), expect_cut, "{line}");
    for n in [1, 2, 3, 7] {
        let results = format!("sharded-{n}");
        for i in 1..=n {
            let shard = format!("{i}/{n}");
            let out = format!("{results}/shards/{i}-of-{n}");
            let threads = if i % 2 == 0 { "1" } else { "2" };
            let args = ["run", "e.toml", "--shard", &shard, "--out", &out];
            let mut args = args.to_vec();
            args.extend(["--quiet", "--threads", threads]);
            ok(d, &args);
            assert!(
                !d.join(&out).join("pairs.csv").exists(),
                "a shard writes no figures"
            );
        }
        let merged = ok(d, &["merge", &results, "--quiet", "--no-report"]);
        assert_eq!(merged.contains("SPRT accepted"), expect_cut, "{merged}");
        for file in FILES {
            let single = fs::read(d.join("single").join(file)).unwrap();
            let merged = fs::read(d.join(&results).join(file)).unwrap();
            assert!(single == merged, "{file} differs with {n} shards");
        }
    }
}

#[test]
fn round_robin_merges_to_the_single_run() {
    merged_equals_single(&round_robin(), false);
}

#[test]
fn gauntlet_merges_to_the_single_run() {
    merged_equals_single(&gauntlet(), false);
}

#[test]
fn head_to_head_sprt_is_cut_where_one_machine_stops() {
    merged_equals_single(&head_to_head(), true);
}

#[test]
fn default_folders_and_resume_of_a_shard() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), round_robin()).unwrap();
    ok(
        d,
        &["run", "e.toml", "--out", "single", "--quiet", "--no-report"],
    );
    ok(d, &["run", "e.toml", "--shard", "1/2", "--quiet"]);
    // A killed shard: cut its games.csv mid-row and mark it running; --resume finishes it.
    ok(d, &["run", "e.toml", "--shard", "2/2", "--quiet"]);
    let shard = d.join("results/rr/shards/2-of-2");
    let games = fs::read(shard.join("games.csv")).unwrap();
    fs::write(shard.join("games.csv"), &games[..games.len() / 2]).unwrap();
    let run = fs::read_to_string(shard.join("run.toml")).unwrap();
    fs::write(
        shard.join("run.toml"),
        run.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    let (code, _, stderr) = run_in(d, &["merge", "results/rr", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("did not finish")
            && stderr.contains("`reversi-lab run --shard 2/2 --out results/rr --resume`"),
        "{stderr}"
    );
    assert!(!d.join("results/rr/games.csv").exists());
    // The hint as it is said: the shard's run.toml gives the config and games again.
    ok(
        d,
        &[
            "run",
            "--shard",
            "2/2",
            "--out",
            "results/rr",
            "--resume",
            "--quiet",
        ],
    );
    // Another shard index cannot resume this folder.
    let (code, _, stderr) = run_in(
        d,
        &[
            "run",
            "e.toml",
            "--shard",
            "1/2",
            "--out",
            "results/rr/shards/2-of-2",
            "--resume",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "is another shard's folder, but this run plays shard 1/2: give --out results/rr"
        ),
        "{stderr}"
    );
    ok(d, &["merge", "results/rr", "--quiet"]);
    for file in FILES {
        assert_eq!(
            fs::read(d.join("single").join(file)).unwrap(),
            fs::read(d.join("results/rr").join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(d.join("results/rr/report.html").exists());
    let record = fs::read_to_string(d.join("results/rr/run.toml")).unwrap();
    assert!(
        record
            .contains("merged_from = [\"results/rr/shards/1-of-2\", \"results/rr/shards/2-of-2\"]"),
        "{record}"
    );
    // Merging again gives the same games: nothing changes, without --force.
    let again = ok(d, &["merge", "results/rr", "--quiet", "--no-report"]);
    assert!(
        again.contains("already holds these 60 merged games"),
        "{again}"
    );
    ok(
        d,
        &["merge", "results/rr", "--quiet", "--force", "--no-report"],
    );
}

#[test]
fn shard_auto_reads_the_scheduler() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), round_robin()).unwrap();
    // Runs `--shard auto` under a scheduler's environment (and none of the other's).
    let auto = |extra: &[&str], env: &[(&str, &str)]| {
        let mut cmd = reversi_lab();
        cmd.current_dir(d)
            .args(["run", "e.toml", "--shard", "auto", "--quiet"])
            .args(extra)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX");
        for (key, value) in env {
            cmd.env(key, value);
        }
        cmd.output().unwrap()
    };
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
    ];
    let kubernetes = [("JOB_COMPLETION_INDEX", "0")];
    for (extra, env, folder) in [
        (&[][..], &slurm[..], "2-of-3"),
        (&["--shards", "3"][..], &kubernetes[..], "1-of-3"),
    ] {
        let out = auto(extra, env);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(d
            .join("results/rr/shards")
            .join(folder)
            .join("games.csv")
            .exists());
    }
    let out = auto(&[], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("found no scheduler"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
}

/// Three complete shards of the round robin in `d/results/rr/shards`.
fn three_shards(d: &Path) {
    fs::write(d.join("e.toml"), round_robin()).unwrap();
    for i in 1..=3 {
        ok(
            d,
            &["run", "e.toml", "--shard", &format!("{i}/3"), "--quiet"],
        );
    }
}

/// A bad merge: exit 2, one line naming `needle`, and no merged games written.
fn bad_merge(d: &Path, args: &[&str], needle: &str) {
    refused_in(d, args, needle);
    assert!(!d.join("results/rr/games.csv").exists());
    assert!(!d.join("results/rr/games.csv.merging").exists());
}

#[test]
fn bad_merges_are_refused_whole() {
    let dir = Dir::new();
    let d = dir.path();
    three_shards(d);
    let shards = d.join("results/rr/shards");
    let merge = ["merge", "results/rr", "--quiet"];

    // A missing shard.
    fs::rename(shards.join("3-of-3"), d.join("away")).unwrap();
    bad_merge(d, &merge, "shard 3/3 is missing");
    // Two folders with one index.
    fs::rename(d.join("away"), shards.join("3-of-3")).unwrap();
    copy(&shards.join("2-of-3"), &shards.join("2-of-3-copy"));
    bad_merge(d, &merge, "are both shard 2/3");
    fs::remove_dir_all(shards.join("2-of-3-copy")).unwrap();

    // Still running: status running and a live process holds the lock.
    let run2 = shards.join("2-of-3/run.toml");
    let record = fs::read_to_string(&run2).unwrap();
    fs::write(&run2, record.replace("\"complete\"", "\"running\"")).unwrap();
    // A running shard holds its lock (flock) as a run does.
    let lock = fs::File::create(shards.join("2-of-3/run.lock")).unwrap();
    lock.lock().unwrap();
    bad_merge(
        d,
        &merge,
        "shard 2/3 (results/rr/shards/2-of-3) is still running",
    );
    drop(lock);
    fs::remove_file(shards.join("2-of-3/run.lock")).unwrap();
    fs::write(&run2, record.replace("\"complete\"", "\"interrupted\"")).unwrap();
    bad_merge(d, &merge, "did not finish");
    // Another reversi-lab version.
    fs::write(&run2, record.replace("version = \"", "version = \"9.")).unwrap();
    bad_merge(d, &merge, "rerun the shards with one version");
    // A shard of another schedule version (its games' generator), or of none recorded.
    assert!(record.contains("schedule_version = 2\n"), "{record}");
    fs::write(
        &run2,
        record.replace("schedule_version = 2\n", "schedule_version = 1\n"),
    )
    .unwrap();
    bad_merge(d, &merge, "schedule version 1 (ChaCha8)");
    fs::write(&run2, record.replace("schedule_version = 2\n", "")).unwrap();
    bad_merge(d, &merge, "rerun the shards with this version");
    fs::write(&run2, &record).unwrap();

    // A shard of another experiment (another seed).
    fs::rename(shards.join("3-of-3"), d.join("away")).unwrap();
    ok(
        d,
        &["run", "e.toml", "--shard", "3/3", "--seed", "8", "--quiet"],
    );
    bad_merge(
        d,
        &merge,
        "different experiments (seed = 7 in shard 1/3 but 8 in shard 3/3)",
    );
    let (_, _, stderr) = run_in(d, &merge);
    assert!(
        !stderr.contains("--seed") && stderr.contains("--shard 3/3 --out results/rr --force"),
        "{stderr}"
    );
    fs::remove_dir_all(shards.join("3-of-3")).unwrap();
    // A shard of another split, in the folder of this split's third (moved there by hand).
    ok(
        d,
        &[
            "run",
            "e.toml",
            "--shard",
            "3/4",
            "--out",
            "elsewhere",
            "--quiet",
        ],
    );
    fs::rename(d.join("elsewhere/shards/3-of-4"), shards.join("3-of-3")).unwrap();
    bad_merge(
        d,
        &merge,
        "holds shards of 2 splits (3, 4 shards): pass --shards N",
    );
    bad_merge(
        d,
        &["merge", "results/rr", "--shards", "3", "--quiet"],
        "shard 3/3 is missing",
    );
    fs::remove_dir_all(shards.join("3-of-3")).unwrap();
    fs::rename(d.join("away"), shards.join("3-of-3")).unwrap();

    // A truncated games.csv (whole rows lost) and a changed one.
    let games = shards.join("3-of-3/games.csv");
    let bytes = fs::read(&games).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let cut: String = text.lines().take(9).map(|l| format!("{l}\n")).collect();
    fs::write(&games, cut).unwrap();
    bad_merge(d, &merge, "(it was truncated)");
    fs::write(&games, text.replacen(",greedy,", ",nobody,", 1)).unwrap();
    bad_merge(d, &merge, "shard 3/3");
    fs::write(&games, &bytes).unwrap();
    // Not shards at all.
    bad_merge(d, &["merge", "e.toml"], "is not a folder");
    bad_merge(
        d,
        &[
            "merge",
            "results/rr/shards/1-of-3",
            "results/rr/shards/2-of-3",
        ],
        "shard 3/3 is missing",
    );
    ok(d, &merge);
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn openings_files_travel_with_the_shards() {
    let dir = Dir::new();
    let d = dir.path();
    fs::create_dir_all(d.join("exp")).unwrap();
    let config = round_robin().replace("random_plies = 4", "file = \"list.txt\"");
    fs::write(d.join("exp/e.toml"), &config).unwrap();
    fs::write(d.join("exp/list.txt"), "f5d6\nf5f6\n").unwrap();
    ok(d, &["run", "exp/e.toml", "--shard", "1/2", "--quiet"]);
    // The shard keeps its openings: resuming without the config finds them.
    ok(
        d,
        &[
            "run",
            "--out",
            "results/rr/shards/1-of-2",
            "--shard",
            "1/2",
            "--resume",
            "--quiet",
        ],
    );
    // A shard played after the file changed is another experiment.
    fs::write(d.join("exp/list.txt"), "f5d6\nf5f4\n").unwrap();
    ok(d, &["run", "exp/e.toml", "--shard", "2/2", "--quiet"]);
    let (code, _, stderr) = run_in(d, &["merge", "results/rr", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("their openings files differ"), "{stderr}");
    fs::write(d.join("exp/list.txt"), "f5d6\nf5f6\n").unwrap();
    ok(
        d,
        &["run", "exp/e.toml", "--shard", "2/2", "--quiet", "--force"],
    );
    fs::remove_dir_all(d.join("exp")).unwrap();
    ok(d, &["merge", "results/rr", "--quiet", "--no-report"]);
}

/// Shards and `merge` with an external engine (reversi-lab's own GTP server, which
/// takes the game's generator with each move, so its games replay exactly): the merge
/// equals the single run byte for byte, and keeps what the engine said it is.
#[test]
fn an_engine_experiment_merges_to_the_single_run() {
    let bin = common::binary();
    let config = format!(
        "name = \"rr\"\nseed = 5\nsize = 6\ngames_per_pair = 8\n[openings]\nrandom_plies = 2\n[[players]]\nname = \"served\"\nstrategy = {{ kind = \"engine\", command = [\"{bin}\", \"gtp\", \"--strategy\", \"alphabeta:depth=2,eval=mobility\"] }}\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"weighted\"\nstrategy = \"weighted\"\n"
    );
    merged_equals_single(&config, false);
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), &config).unwrap();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let out = format!("rr/shards/{i}-of-2");
        ok(
            d,
            &["run", "e.toml", "--shard", &shard, "--out", &out, "--quiet"],
        );
    }
    ok(d, &["merge", "rr", "--quiet", "--no-report"]);
    let record = fs::read_to_string(d.join("rr/run.toml")).unwrap();
    assert!(
        record.contains("[run.engines]") && record.contains("served = \"reversi-lab"),
        "{record}"
    );
}

/// Flips the outcome of the first decided game in `text` (a `games.csv`): discs
/// swapped, result and margin reversed, as a hand edit would.
fn flip_one_game(text: &str) -> String {
    let mut done = false;
    text.lines()
        .map(|line| {
            let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
            if !done && (f[7] == "black" || f[7] == "white") {
                done = true;
                f.swap(5, 6);
                f[7] = if f[7] == "black" { "white" } else { "black" }.into();
                f[8] = (-f[8].parse::<i32>().unwrap()).to_string();
            }
            f.join(",") + "\n"
        })
        .collect()
}

/// Issue 52, item 27: a shard whose rows were edited after it finished is refused by
/// the digest of its games it recorded, and so is one that records none.
#[test]
fn an_edited_row_of_a_shard_is_caught() {
    let dir = Dir::new();
    let d = dir.path();
    three_shards(d);
    let shard = d.join("results/rr/shards/2-of-3");
    let games = shard.join("games.csv");
    let bytes = fs::read_to_string(&games).unwrap();
    let flipped = flip_one_game(&bytes);
    assert_ne!(flipped, bytes);
    fs::write(&games, &flipped).unwrap();
    let merge = ["merge", "results/rr", "--quiet"];
    bad_merge(
        d,
        &merge,
        "shard 2/3 (results/rr/shards/2-of-3/games.csv): its games differ from those it recorded",
    );
    fs::write(&games, &bytes).unwrap();
    let run = shard.join("run.toml");
    let record = fs::read_to_string(&run).unwrap();
    assert!(record.contains("games_sha256 = \""), "{record}");
    let stripped: String = record
        .lines()
        .filter(|l| !l.starts_with("games_sha256"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&run, stripped).unwrap();
    bad_merge(d, &merge, "records no digest of its games");
    fs::write(&run, record).unwrap();
    ok(d, &merge);
}

/// Issue 52, item 27: with `compress = "zstd"` the merged `games.csv.zst` is byte for
/// byte a single machine's (one frame), whatever the shard and thread counts, and a
/// single run resumed after an interruption seals its file the same way.
#[test]
fn compressed_merges_equal_the_single_run_byte_for_byte() {
    let dir = Dir::new();
    let d = dir.path();
    let config = round_robin().replace("seed = 7\n", "seed = 7\ncompress = \"zstd\"\n");
    fs::write(
        d.join("e.toml"),
        config.replace("games_per_pair = 10", "games_per_pair = 400"),
    )
    .unwrap();
    let quiet = ["--quiet", "--no-report"];
    let single = |out: &str, threads: &str| {
        let mut args = vec!["run", "e.toml", "--out", out, "--threads", threads];
        args.extend(quiet);
        ok(d, &args);
        fs::read(d.join(out).join("games.csv.zst")).unwrap()
    };
    let one = single("one", "1");
    let text = zstd::decode_all(one.as_slice()).unwrap();
    assert!(
        text.len() > 3 << 17,
        "the text spans several pieces of the seal"
    );
    assert_eq!(
        one,
        single("two", "2"),
        "the thread count shows in the file"
    );
    // A run killed mid-file and resumed: its frames are sealed into one at the end.
    let packed = d.join("two/games.csv.zst");
    fs::write(&packed, &one[..one.len() / 2]).unwrap();
    let run = d.join("two/run.toml");
    let record = fs::read_to_string(&run).unwrap();
    fs::write(
        &run,
        record.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    fs::remove_file(d.join("two/costs.csv")).unwrap();
    ok(
        d,
        &[
            "run",
            "e.toml",
            "--out",
            "two",
            "--resume",
            "--quiet",
            "--no-report",
        ],
    );
    assert!(
        fs::read(&packed).unwrap() == one,
        "a resumed run's file is not sealed"
    );
    for n in [2, 3] {
        for i in 1..=n {
            let shard = format!("{i}/{n}");
            let threads = if i % 2 == 0 { "1" } else { "2" };
            let out = format!("s{n}/shards/{i}-of-{n}");
            ok(
                d,
                &[
                    "run",
                    "e.toml",
                    "--shard",
                    &shard,
                    "--out",
                    &out,
                    "--threads",
                    threads,
                    "--quiet",
                ],
            );
        }
        let mut args = vec!["merge", &format!("s{n}")]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        args.extend(quiet.map(String::from));
        ok(d, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let merged = fs::read(d.join(format!("s{n}/games.csv.zst"))).unwrap();
        assert!(merged == one, "games.csv.zst differs with {n} shards");
    }
}

/// Issue 52, item 29: a tune does not shard (each step needs the last one's games):
/// `run --shard` and `cluster` refuse it in one line naming the command to run
/// instead; a sweep given to `run --shard` is pointed to its own `--shard`.
#[test]
fn studies_that_do_not_shard_are_refused_in_one_line() {
    let dir = Dir::new();
    let d = dir.path();
    let tune = "name = \"t\"\niterations = 4\ngames_per_iteration = 4\n[player]\nkind = \"eval\"\ndiscs = 1\ncorners = 0\n[[params]]\nname = \"corners\"\nmin = -20\nmax = 80\nstep = 4\n";
    fs::write(d.join("t.toml"), tune).unwrap();
    for args in [
        &["run", "t.toml", "--shard", "1/2"][..],
        &["cluster", "slurm", "t.toml", "--shards", "2"][..],
        &[
            "cluster",
            "kubernetes",
            "t.toml",
            "--shards",
            "2",
            "--image",
            "x",
        ][..],
    ] {
        let (code, _, stderr) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("tune file, which does not shard")
                && stderr.contains("`reversi-lab tune t.toml` on one machine"),
            "{stderr}"
        );
    }
    let sweep = "name = \"s\"\ngames_per_pair = 2\n[sweep]\nbase = \"alphabeta\"\nparameter = \"depth\"\nvalues = [1, 2]\n";
    fs::write(d.join("s.toml"), sweep).unwrap();
    let (code, _, stderr) = run_in(d, &["run", "s.toml", "--shard", "1/2"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("play its shards with `reversi-lab sweep s.toml --shard I/N`"),
        "{stderr}"
    );
    assert!(!d.join("results").exists());
}

/// Issue 52, item 35: `replay` of a shard numbers its games as the whole run does
/// (the game_id column, as `show` and `export` do) and says so.
#[test]
fn replay_of_a_shard_says_its_games_are_numbered_as_the_runs() {
    let dir = Dir::new();
    let d = dir.path();
    three_shards(d);
    let shard = "results/rr/shards/2-of-3";
    ok(d, &["replay", shard, "--game", "2", "--out", "g.svg"]);
    let svg = fs::read_to_string(d.join("g.svg")).unwrap();
    assert!(
        svg.contains("game 2 of the run (shard 2/3)"),
        "the title does not say it"
    );
    let (code, _, stderr) = run_in(d, &["replay", shard, "--game", "0", "--out", "h.svg"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "(shard 2/3): a shard holds the run's games dealt to it, numbered as in the whole run"
        ),
        "{stderr}"
    );
}
