//! Random games: `random` against `random` through the match path (the schedule,
//! the driver, the game record, the per-game Xoshiro256++ generator) beside a plain
//! playout loop over `Board` with a small fast generator, the floor the match path
//! is held to (90% of its games per second). One thread each. Beside them, `mcts`
//! with random playouts from the start: its iterations a second, held to 70% of the
//! plain loop's games a second (an iteration is a playout plus the tree's work).
//!
//! `cargo bench --bench playouts -- --once WHICH GAMES` plays GAMES games once and
//! exits, for instruction counts under `valgrind --tool=callgrind`, which the shared
//! machine's load does not disturb. WHICH: `plain`, `match` or `mcts` (GAMES
//! iterations from the start; prints the tree's nodes and bytes a node). `--once budget
//! MOVES`: MOVES moves of `mcts:time=4ms` (half of them played at random, so that the
//! positions vary), their wall time a move: mean, 99th percentile and longest against
//! the budget and its margin, the timing figure the unit test (timed by CPU) leaves out.

use criterion::{criterion_group, Criterion, Throughput};
use reversi_lab::board::{Bits, Board, Size8, Square};
use reversi_lab::game::Rules;
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::lab::schedule::splitmix;
use reversi_lab::lab::MatchPlan;
use reversi_lab::strategy::mcts::Tree;
use reversi_lab::strategy::{Context, History, Memory, StrategySpec};
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

/// Iterations of one `mcts` search from the start.
const ITERATIONS: u64 = 100_000;

/// One `mcts` search of `iterations` random-playout iterations from the start (seed 1,
/// one thread): the tree.
fn mcts_search(iterations: u64) -> Tree<Size8> {
    let StrategySpec::Mcts(spec) =
        StrategySpec::parse(&format!("mcts:iterations={iterations}")).unwrap()
    else {
        unreachable!("an mcts spec")
    };
    let mcts = spec.player::<Size8>(Rules::default()).unwrap();
    let mut rng = game_rng(1);
    let mut memory = Memory::new();
    let mut context = Context {
        rng: &mut rng,
        memory: &mut memory,
        history: History::from_start(&[]),
    };
    let board = Board::<Size8>::start();
    mcts.search(board, board.moves(), &mut context)
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
    let mut group = c.benchmark_group("mcts iterations");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    group.bench_function("mcts random playouts from the start, 1 thread", |b| {
        b.iter(|| mcts_search(black_box(ITERATIONS)).nodes.len());
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
        "mcts" => {
            let tree = mcts_search(games);
            println!(
                "{} iterations, {} nodes, {} bytes a node",
                tree.iterations,
                tree.nodes.len(),
                tree.bytes_per_node()
            );
        }
        "budget" => time_budget(games),
        other => panic!("--once {other}: use plain, match, mcts or budget"),
    }
}

/// `moves` moves of `mcts:time=4ms` by the wall clock: mean, 99th percentile and
/// longest, printed beside the budget and the margin a move may take past it.
fn time_budget(moves: u64) {
    use reversi_lab::strategy::clock::TIME_MARGIN;
    use reversi_lab::strategy::random_square;
    use std::time::{Duration, Instant};
    let mcts = StrategySpec::parse("mcts:time=4ms")
        .unwrap()
        .build::<Size8>(Rules::default())
        .unwrap();
    let mut rng = game_rng(5);
    let mut memory = Memory::new();
    let mut board = Board::<Size8>::start();
    let mut times = Vec::new();
    while (times.len() as u64) < moves {
        if board.is_game_over() {
            board = Board::start();
        }
        let legal = board.moves();
        if legal == 0 {
            board = board.pass();
            continue;
        }
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(&[]),
        };
        let started = Instant::now();
        let square = mcts.choose(board, legal, &mut context).unwrap().square;
        times.push(started.elapsed());
        let random = times.len() % 2 == 0;
        board = board.play(if random {
            random_square(legal, &mut rng)
        } else {
            square
        });
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "{} moves of mcts:time=4ms: mean {:.2} ms, p99 {:.2} ms, longest {:.2} ms (budget 4 ms, margin {} ms)",
        times.len(),
        ms(mean),
        ms(times[times.len() * 99 / 100]),
        ms(times[times.len() - 1]),
        TIME_MARGIN.as_millis()
    );
}

criterion_group!(benches, playouts);

fn main() {
    common::main_with_once(once, benches);
}
