//! The whole `run` pipeline (games, CSV formatting and writing, statistics) beside
//! `match` over the same games (no CSV): greedy against greedy from the start, as
//! the throughput figure measures them (`run` should keep 90% of `match`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use reversi_lab::commands::MatchPlan;
use reversi_lab::lab::{run, Experiment, Format, RunOptions, Setup};
use reversi_lab::strategy::StrategySpec;
use std::sync::atomic::AtomicBool;

mod common;

const GAMES: u64 = 100_000;

fn experiment(threads: usize) -> Experiment {
    let setup = Setup {
        threads: Some(threads),
        ..Setup::default()
    };
    let greedy = StrategySpec::parse("greedy").unwrap();
    Experiment::builder("bench", setup)
        .format(Format::HeadToHead)
        .games_per_pair(GAMES)
        .player("a", greedy.clone())
        .player("b", greedy)
        .build()
        .unwrap()
}

/// `reversi-lab match greedy greedy --games GAMES --threads T`: the same games as
/// the experiment's (one pair, seed 1, A black in even games).
fn match_plan(threads: usize) -> MatchPlan {
    common::match_plan("greedy", "greedy", GAMES, threads)
}

fn runner(c: &mut Criterion) {
    let mut group = c.benchmark_group("run");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let experiment = experiment(threads);
        group.bench_function(format!("greedy vs greedy, {threads} thread(s)"), |b| {
            // A fresh folder per run, made before the clock starts; returned, so that
            // deleting it (a file of about 19 MB) happens after the clock stops.
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| {
                    let options = RunOptions {
                        out: Some(dir.path().join("out")),
                        resume: false,
                        force: false,
                        quiet: true,
                        stop: &stop,
                        shard: None,
                        played: None,
                    };
                    (run(&experiment, &options).unwrap(), dir)
                },
                BatchSize::PerIteration,
            );
        });
        let plan = match_plan(threads);
        group.bench_function(
            format!("match greedy vs greedy, {threads} thread(s)"),
            |b| {
                b.iter(|| plan.tally().unwrap().0);
            },
        );
    }
    group.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
