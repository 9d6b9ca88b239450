//! Engine benchmarks: perft from the 8x8 start (bulk-counted) beside a plain scalar
//! bitboard perft (issue 14's yardstick), and 10x10 perft.
//!
//! `cargo bench --bench engine -- --once WHICH DEPTH` counts once from the 8x8 start
//! and exits, for instruction counts under `valgrind --tool=callgrind`, which the
//! shared machine's load does not disturb. WHICH: `plain`, or a flip kernel name
//! (`portable`, `carry`, `avx2`), or `project` (the kernel `perft` picks).

#[path = "plain_perft.rs"]
mod plain_perft;

use criterion::{criterion_group, Criterion, Throughput};
use reversi_lab::board::{Board, FlipKernel, Size10, Size8};
use reversi_lab::perft::{perft, perft_with};
use std::hint::black_box;

mod common;

/// 8x8 counts from the public table in src/perft.rs.
const LEAVES: [(u32, u64); 2] = [(9, 3_005_288), (10, 24_571_284)];

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (depth, leaves) in LEAVES {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("8x8 depth {depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(Board::<Size8>::start()), depth), leaves));
        });
        group.bench_function(format!("plain scalar 8x8 depth {depth}"), |b| {
            let (player, opponent) = plain_perft::START;
            b.iter(|| {
                assert_eq!(
                    plain_perft::perft(black_box(player), black_box(opponent), depth),
                    leaves
                );
            });
        });
    }
    // Each kernel at the deeper count, to see which the CPU favours.
    let (depth, leaves) = LEAVES[1];
    for &kernel in FlipKernel::ALL {
        group.bench_function(format!("8x8 depth {depth} {} flips", kernel.name()), |b| {
            b.iter(|| {
                let count = perft_with(black_box(Board::<Size8>::start()), depth, kernel);
                assert_eq!(count, leaves);
            });
        });
    }
    group.bench_function("10x10 depth 7", |b| {
        b.iter(|| perft(black_box(Board::<Size10>::start()), 7));
    });
    group.finish();
}

/// `--once WHICH DEPTH`: one count from the 8x8 start, printed.
fn once(which: &str, depth: &str) {
    let depth: u32 = depth.parse().expect("--once DEPTH is a number");
    let start = Board::<Size8>::start();
    let leaves = match which {
        "project" => perft(start, depth),
        "plain" => plain_perft::perft(plain_perft::START.0, plain_perft::START.1, depth),
        name => match FlipKernel::ALL.iter().find(|k| k.name() == name) {
            Some(&kernel) => perft_with(start, depth, kernel),
            None => panic!("--once {name}: use plain, project or a kernel name"),
        },
    };
    println!("{leaves}");
}

criterion_group!(benches, perft_benches);

fn main() {
    common::main_with_once(once, benches);
}
