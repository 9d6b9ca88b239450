//! Engine benchmarks: perft from the 8x8 start (bulk-counted) and move generation.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use reversi_lab::board::{Board, Size10, Size8};
use reversi_lab::perft::perft;
use std::hint::black_box;

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    // NOTE: leaf counts from the public 8x8 table in src/perft.rs.
    for (depth, leaves) in [(9u32, 3_005_288u64), (10, 24_571_284)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("8x8 depth {depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(Board::<Size8>::start()), depth), leaves));
        });
    }
    group.bench_function("10x10 depth 7", |b| {
        b.iter(|| perft(black_box(Board::<Size10>::start()), 7));
    });
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
