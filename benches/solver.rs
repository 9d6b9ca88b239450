//! Exact solver benchmarks: positions of random games with 18 empties, solved for
//! one best move, for every best move, and on two threads.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use reversi_lab::board::{Board, Size8};
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::strategy::{Context, Memory, Mode, Solver, StrategySpec};

/// The positions: random games stopped at 18 empties (the same on every run).
fn positions(count: u64, empties: u32) -> Vec<Board<Size8>> {
    let random = StrategySpec::parse("random")
        .unwrap()
        .build::<Size8>(Rules::default())
        .unwrap();
    (0..)
        .filter_map(|seed| {
            let mut rng = game_rng(seed);
            let mut memory = Memory::new();
            let mut game = Game::<Size8>::new();
            while game.board().empty_count() > empties && !game.is_over() {
                let mut context = Context {
                    rng: &mut rng,
                    memory: &mut memory,
                    history: reversi_lab::strategy::History::from_start(game.moves()),
                };
                let m = random.choose(game.board(), game.legal_moves(), &mut context);
                let m = m.expect("random does not fault").square;
                game.play_unchecked(m);
            }
            (!game.is_over()).then(|| game.board())
        })
        .take(count as usize)
        .collect()
}

fn solver(c: &mut Criterion) {
    let boards = positions(4, 18);
    let mut memory = Memory::new();
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(boards.len() as u64));
    let one = Solver::new(Rules::default(), 22);
    for (name, solver) in [
        ("4 positions, 18 empties, one best move", one),
        (
            "4 positions, 18 empties, every best move",
            one.with_mode(Mode::All),
        ),
        ("4 positions, 18 empties, 2 threads", one.with_threads(2)),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|&board| {
                        memory.new_game();
                        solver.solve(board, &mut memory).score
                    })
                    .sum::<i32>()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
