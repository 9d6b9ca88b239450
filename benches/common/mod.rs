//! What several benchmarks share: a `match` between two strategies, as the CLI runs
//! it, and a `main` with a one-run mode for instruction counts.

// Each benchmark uses a part of this module.
#![allow(dead_code)]

use criterion::Criterion;

use reversi_lab::lab::{MatchOptions, MatchPlan};

/// `reversi-lab match A B --games GAMES --threads THREADS` (seed 1, 8x8, standard
/// rules, from the start position, no CSV).
pub fn match_plan(a: &str, b: &str, games: u64, threads: usize) -> MatchPlan {
    MatchPlan::new(&MatchOptions {
        games,
        threads: Some(threads),
        ..MatchOptions::new(a, b)
    })
    .unwrap()
}

/// A benchmark's `main`: `--once A B` hands A and B to `once` (one run, printed, for
/// `valgrind --tool=callgrind`, whose counts the shared machine's load does not
/// disturb) and exits; otherwise the criterion group `benches` runs.
pub fn main_with_once(once: fn(&str, &str), benches: fn()) {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--once") {
        let arg = |k: usize| args.get(at + k).map_or("", String::as_str);
        once(arg(1), arg(2));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
