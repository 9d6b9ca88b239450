//! The whole `run` pipeline (games, CSV formatting and writing, statistics) beside
//! `match` over the same games (no CSV): greedy against greedy from the start, as
//! the throughput figure measures them (`run` should keep 90% of `match`).
//!
//! `cargo bench --bench runner -- --once WHICH[:THREADS] GAMES` plays GAMES games once
//! (on 2 threads unless told) and exits, for instruction counts under callgrind.
//! WHICH: `run` or `match`.

use criterion::{criterion_group, BatchSize, Criterion, Throughput};
use reversi_lab::lab::MatchPlan;
use reversi_lab::lab::{run, Experiment, Format, RunOptions, RunSummary, Setup};
use reversi_lab::strategy::StrategySpec;
use std::sync::atomic::AtomicBool;

mod common;

const GAMES: u64 = 100_000;

fn experiment(threads: usize, games: u64) -> Experiment {
    let setup = Setup {
        threads: Some(threads),
        ..Setup::default()
    };
    let greedy = StrategySpec::parse("greedy").unwrap();
    Experiment::builder("bench", setup)
        .format(Format::HeadToHead)
        .games_per_pair(games)
        .player("a", greedy.clone())
        .player("b", greedy)
        .build()
        .unwrap()
}

/// `reversi-lab match greedy greedy --games GAMES --threads T`: the same games as
/// the experiment's (one pair, seed 1, A black in even games).
fn match_plan(threads: usize, games: u64) -> MatchPlan {
    common::match_plan("greedy", "greedy", games, threads)
}

/// `reversi-lab run` of `experiment` into a new folder in `dir`, quietly.
fn run_into(experiment: &Experiment, dir: &std::path::Path, stop: &AtomicBool) -> RunSummary {
    let options = RunOptions {
        out: Some(dir.join("out")),
        resume: false,
        force: false,
        quiet: true,
        stop,
        shard: None,
        played: None,
    };
    run(experiment, &options).unwrap()
}

fn runner(c: &mut Criterion) {
    let mut group = c.benchmark_group("run");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let experiment = experiment(threads, GAMES);
        group.bench_function(format!("greedy vs greedy, {threads} thread(s)"), |b| {
            // A fresh folder per run, made before the clock starts; returned, so that
            // deleting it (a file of about 19 MB) happens after the clock stops.
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| (run_into(&experiment, dir.path(), &stop), dir),
                BatchSize::PerIteration,
            );
        });
        let plan = match_plan(threads, GAMES);
        group.bench_function(
            format!("match greedy vs greedy, {threads} thread(s)"),
            |b| {
                b.iter(|| plan.tally().unwrap().0);
            },
        );
    }
    group.finish();
}

/// `--once WHICH[:THREADS] GAMES`: one run of either side (2 threads unless told),
/// its game count printed.
fn once(which: &str, games: &str) {
    let games: u64 = games.parse().expect("--once GAMES is a number");
    let (which, threads) = which.split_once(':').unwrap_or((which, "2"));
    let threads: usize = threads.parse().expect("--once WHICH:THREADS, a number");
    match which {
        "run" => {
            let dir = tempfile::tempdir().unwrap();
            let experiment = experiment(threads, games);
            let summary = run_into(&experiment, dir.path(), &AtomicBool::new(false));
            println!("{}", summary.games);
        }
        "match" => {
            let tally = match_plan(threads, games).tally().unwrap().0;
            println!("{:?}", tally.paired.games);
        }
        other => panic!("--once {other}: use run or match"),
    }
}

criterion_group!(benches, runner);

fn main() {
    common::main_with_once(once, benches);
}
