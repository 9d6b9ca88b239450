//! Strategy benchmarks: playout speed (greedy), alpha-beta games at depth 4 and 6
//! (plain against ordered with a table, over the same games), over the feature
//! evaluation, and the exact solver.
//! `cargo bench --bench strategies -- --once NAME` plays one benchmark's games once
//! and prints its moves per game (for callgrind: instructions per game, load-independent).

use criterion::{criterion_group, Criterion, Throughput};
use reversi_lab::board::{Board, Size8};
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::play_game;
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::strategy::{Memory, Solver, Strategy, StrategySpec};
use std::hint::black_box;

fn build(spec: &str) -> Box<dyn Strategy<Size8>> {
    StrategySpec::parse(spec)
        .unwrap()
        .build::<Size8>(Rules::default())
        .unwrap()
}

/// Plays `games` games, each opening with `random_plies` random moves, on one thread;
/// returns the moves played and a digest of them (equal digests: the same games).
fn play(
    a: &dyn Strategy<Size8>,
    b: &dyn Strategy<Size8>,
    games: u64,
    random_plies: usize,
) -> (u32, u64) {
    let random = build("random");
    let mut memories = [Memory::new(), Memory::new()];
    let mut total = 0;
    let mut digest = 0u64;
    for index in 0..games {
        let mut rng = game_rng(index);
        let mut game = Game::<Size8>::new();
        for _ in 0..random_plies {
            let mut context = reversi_lab::strategy::Context {
                rng: &mut rng,
                memory: &mut memories[0],
                history: reversi_lab::strategy::History::from_start(game.moves()),
            };
            let m = random.choose(game.board(), game.legal_moves(), &mut context);
            let m = m.expect("random does not fault").square;
            game.play_unchecked(m);
        }
        let players = if index % 2 == 0 { [a, b] } else { [b, a] };
        let game = play_game(players, game, &mut rng, memories.each_mut());
        total += game.moves().len() as u32;
        for square in game.moves() {
            digest = (digest ^ u64::from(square.index())).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    (total, digest)
}

/// Random plies opening every alpha-beta benchmark game.
const RANDOM_PLIES: usize = 4;

/// The alpha-beta benchmarks: name, spec and games. The plain and the ordered search
/// of a depth play the same games (same count, same openings): both choose among
/// the same best moves with the game's generator, so the games are move for move
/// alike and games per second compare the searches fairly.
const ALPHABETA: &[(&str, &str, u64)] = &[
    (
        "alphabeta depth 4 plain",
        "alphabeta:depth=4,eval=(weighted:preset=classic),table=false,ordering=false",
        100,
    ),
    (
        "alphabeta depth 4",
        "alphabeta:depth=4,eval=(weighted:preset=classic)",
        100,
    ),
    (
        "alphabeta depth 6 plain",
        "alphabeta:depth=6,eval=(weighted:preset=classic),table=false,ordering=false",
        12,
    ),
    (
        "alphabeta depth 6",
        "alphabeta:depth=6,eval=(weighted:preset=classic)",
        12,
    ),
    // The tunable evaluation's features sit at every leaf: this one measures them.
    ("alphabeta depth 4 eval", "alphabeta:depth=4,eval=eval", 30),
];

/// `--once NAME`: plays the games of the alpha-beta benchmark NAME once and prints
/// the games and their moves.
fn once(name: &str) {
    let Some(&(_, spec, games)) = ALPHABETA.iter().find(|(n, _, _)| *n == name) else {
        let names: Vec<&str> = ALPHABETA.iter().map(|(n, _, _)| *n).collect();
        panic!("--once {name}: use one of {names:?}");
    };
    let player = build(spec);
    let (moves, digest) = play(player.as_ref(), player.as_ref(), games, RANDOM_PLIES);
    println!("{name}: {games} games, {moves} moves, digest {digest:016x}");
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("games");
    let greedy = build("greedy");
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("greedy vs greedy", |b| {
        b.iter(|| play(greedy.as_ref(), greedy.as_ref(), black_box(10_000), 0));
    });
    group.sample_size(10);
    for &(name, spec, games) in ALPHABETA {
        let player = build(spec);
        group.throughput(Throughput::Elements(games));
        group.bench_function(name, |b| {
            b.iter(|| {
                play(
                    player.as_ref(),
                    player.as_ref(),
                    black_box(games),
                    RANDOM_PLIES,
                )
            });
        });
    }
    group.finish();
}

fn solver(c: &mut Criterion) {
    // Positions of random games with 16 empties: the solver's everyday load.
    let random = build("random");
    let boards: Vec<Board<Size8>> = (0..8)
        .map(|seed| {
            let mut rng = game_rng(seed);
            let mut memory = Memory::new();
            let mut game = Game::<Size8>::new();
            while game.board().empty_count() > 16 && !game.is_over() {
                let mut context = reversi_lab::strategy::Context {
                    rng: &mut rng,
                    memory: &mut memory,
                    history: reversi_lab::strategy::History::from_start(game.moves()),
                };
                let m = random.choose(game.board(), game.legal_moves(), &mut context);
                let m = m.expect("random does not fault").square;
                game.play_unchecked(m);
            }
            game.board()
        })
        .collect();
    let solver = Solver::new(Rules::default(), 20);
    let mut memory = Memory::new();
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("8 random positions, 16 empties", |b| {
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
    group.finish();
}

criterion_group!(benches, playouts, solver);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--once") {
        once(args.get(at + 1).map_or("", String::as_str));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
