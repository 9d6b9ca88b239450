//! Protocol overhead: greedy served by `reversi-lab gtp` (this bench's program, started
//! as the served engine: the library's `gtp` command) and played as an engine
//! against built-in greedy on 2 threads (target: at least 2,000 games/s), beside
//! built-in greedy against itself on 2 threads, in games/s.
//!
//! Each iteration is a whole `match` through the library (`MatchPlan::tally`): the
//! engine's check at build time and one served process per worker started, every
//! move of the engine's side a GTP round trip, so what separates the two figures is
//! the protocol (the pipes, the text, the process switches).
//!
//! `cargo bench --bench protocol -- --once WHICH GAMES` plays GAMES games once on 2
//! threads, prints A's tally and exits (for `strace -c -f`, `perf` or callgrind).
//! WHICH: `gtp` (served greedy against greedy) or `builtin` (greedy against greedy).

use criterion::{criterion_group, Criterion, SamplingMode, Throughput};
use reversi_lab::lab::MatchPlan;
use reversi_lab::stats::Paired;
use std::time::Duration;

mod common;

/// Games a served match plays per sample (2 s at the target).
const SERVED_GAMES: u64 = 4_000;
/// Games a built-in match plays per sample.
const BUILT_IN_GAMES: u64 = 100_000;
const THREADS: usize = 2;

/// This bench's own program, started with `--serve`: it then runs
/// `reversi-lab gtp --strategy greedy` through the library's command line, as the
/// `reversi-lab` binary does (the benchmarks are a package of their own, which cannot
/// name the binary of another).
fn served_greedy() -> String {
    let binary = std::env::current_exe().expect("the bench knows its own path");
    let binary = binary.to_str().expect("the bench's path is UTF-8");
    let quoted = shlex::try_quote(binary).expect("the bench's path has no NUL byte");
    format!("gtp:{quoted} {SERVE}")
}

/// The first argument that makes this program the served engine.
const SERVE: &str = "--serve";

/// Serves greedy over GTP on stdin and stdout, through `reversi_lab_cli::commands::Cli`.
fn serve() -> std::process::ExitCode {
    use clap::Parser;
    let cli =
        reversi_lab_cli::commands::Cli::parse_from(["reversi-lab", "gtp", "--strategy", "greedy"]);
    match cli.run() {
        Ok(outcome) => std::process::ExitCode::from(outcome.exit_code()),
        Err(err) => {
            eprintln!("error: {err}");
            std::process::ExitCode::from(err.exit_code())
        }
    }
}

fn plan(which: &str, games: u64) -> MatchPlan {
    match which {
        "gtp" => common::match_plan(&served_greedy(), "greedy", games, THREADS),
        "builtin" => common::match_plan("greedy", "greedy", games, THREADS),
        other => panic!("{other}: use gtp or builtin"),
    }
}

/// Plays the plan on 2 threads: A's results.
fn play(plan: &MatchPlan) -> Paired {
    let (tally, _, threads) = plan.tally().unwrap();
    assert_eq!(threads, THREADS);
    tally.paired
}

/// The served strategy plays the built-in one's games (the generator goes with each
/// move), so the served match's results must be the built-in match's: a fault (a
/// forfeit) or a lost reply would show here. Checked once, off the clock.
fn check_served_plays_as_built_in() {
    let served = play(&plan("gtp", SERVED_GAMES));
    let built_in = play(&plan("builtin", SERVED_GAMES));
    assert_eq!(served.games.games(), SERVED_GAMES);
    assert_eq!(
        served, built_in,
        "served greedy's games are built-in greedy's"
    );
}

fn protocol(c: &mut Criterion) {
    check_served_plays_as_built_in();
    let mut group = c.benchmark_group("protocol");
    // Ten samples of the same number of matches (one served match each, a few
    // built-in ones), in about 20 s and 5 s.
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for (which, name, games, seconds) in [
        ("gtp", "served greedy (gtp) vs greedy", SERVED_GAMES, 20),
        ("builtin", "greedy vs greedy", BUILT_IN_GAMES, 5),
    ] {
        let plan = plan(which, games);
        group.measurement_time(Duration::from_secs(seconds));
        group.throughput(Throughput::Elements(games));
        group.bench_function(format!("{name}, {THREADS} threads"), |b| {
            b.iter(|| play(&plan));
        });
    }
    group.finish();
}

/// `--once WHICH GAMES`: one match on 2 threads, A's tally printed.
fn once(which: &str, games: &str) {
    let games: u64 = games
        .parse()
        .expect("--once WHICH GAMES: GAMES is a number");
    let plan = plan(which, games);
    let clock = std::time::Instant::now();
    let (tally, _, _) = plan.tally().unwrap();
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "{which}: {:?} in {seconds:.3} s, {:.0} games/s",
        tally.paired,
        games as f64 / seconds
    );
}

criterion_group!(benches, protocol);

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some(SERVE) {
        return serve();
    }
    common::main_with_once(once, benches);
    std::process::ExitCode::SUCCESS
}
