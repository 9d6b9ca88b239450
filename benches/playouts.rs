//! Random games: `random` against `random` through the match path (the schedule,
//! the driver, the game record, the per-game Xoshiro256++ generator) beside a plain
//! playout loop over `Board` with a small fast generator, the floor the match path
//! is held to (90% of its games per second). One thread each.
//!
//! `cargo bench --bench playouts -- --once WHICH GAMES` plays GAMES games once and
//! exits, for instruction counts under `valgrind --tool=callgrind`, which the shared
//! machine's load does not disturb. WHICH: `plain` or `match`.

use criterion::{criterion_group, Criterion, Throughput};
use reversi_lab::board::{Bits, Board, Size8, Square};
use reversi_lab::lab::schedule::splitmix;
use reversi_lab::lab::MatchPlan;
use std::hint::black_box;

mod common;

const GAMES: u64 = 100_000;

/// The plain loop: per game a splitmix64 stream seeded by the game number, a move
/// picked by a multiply-shift draw and the k-th set bit, until neither side can move.
/// Returns the discs of the side to move at the ends, so nothing is optimised away.
fn plain_playouts(games: u64) -> u64 {
    let mut discs = 0u64;
    for game in 0..games {
        let mut state = splitmix(game);
        let mut board = Board::<Size8>::start();
        loop {
            let mut moves = board.moves();
            if moves == 0 {
                board = board.pass();
                moves = board.moves();
                if moves == 0 {
                    break;
                }
            }
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let draw = splitmix(state) >> 32;
            let k = ((draw * u64::from(moves.count_ones())) >> 32) as u32;
            board = board.play(Square::new(moves.nth(k)));
        }
        discs += u64::from(board.player_count());
    }
    discs
}

/// `reversi-lab match random random --games GAMES --threads 1`.
fn random_match() -> MatchPlan {
    common::match_plan("random", "random", GAMES, 1)
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random games");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("plain playout loop, 1 thread", |b| {
        b.iter(|| plain_playouts(black_box(GAMES)));
    });
    let plan = random_match();
    group.bench_function("match random vs random, 1 thread", |b| {
        b.iter(|| plan.tally().unwrap().0);
    });
    group.finish();
}

/// `--once WHICH GAMES`: one run of either side, its result printed.
fn once(which: &str, games: &str) {
    let games: u64 = games.parse().expect("--once GAMES is a number");
    match which {
        "plain" => println!("{}", plain_playouts(games)),
        "match" => {
            let plan = common::match_plan("random", "random", games, 1);
            println!("{:?}", plan.tally().unwrap().0.paired.games);
        }
        other => panic!("--once {other}: use plain or match"),
    }
}

criterion_group!(benches, playouts);

fn main() {
    common::main_with_once(once, benches);
}
