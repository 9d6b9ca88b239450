//! A textbook UCT, written apart from `src/strategy/mcts` to check its strength against
//! the built-in `weighted:preset=classic` (issue 49's 90% target; docs/mcts.md).
//!
//! UCB1 (`c` sqrt(ln N / n), results win 1 / draw 0.5 / loss 0), one child expanded an
//! iteration, uniform random playouts, the most visited root child played. Its tree is a
//! plain `Vec` of nodes with `Vec` children; only the library's board and game API is used
//! for moves. Games come in colour-swapped pairs from random 6-ply openings drawn by the
//! example's own seeded generator.
//!
//! Run: `cargo run --release --example uct_textbook -- [--games 400] [--iterations 10000]
//! [--c 1.4142] [--seed 1] [--threads 1] [--csv FILE]` (prints W/D/L, the score and a 95%
//! pentanomial interval; `--csv` writes one line per game: pair, uct colour, margin for
//! uct, transcript).

use rand::{Rng, SeedableRng};
use reversi_lab::board::{Bits, Board, Color, Size8, Square};
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::folder;
use reversi_lab::strategy::{Context, GameRng, History, Memory, Strategy, StrategySpec};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

type B8 = Board<Size8>;

/// A pair's points for the UCT side (0, 0.5 or 1 a game) and its games' csv lines.
type PairResult = ([f64; 2], String);

/// One node: the position after `mv` (None: a pass), its statistics from the view of the
/// side that made `mv` (the parent's side to move).
struct Node {
    board: B8,
    children: Vec<usize>,
    untried: Vec<Option<Square>>,
    visits: f64,
    wins: f64,
    mv: Option<Square>,
    parent: usize,
}

/// The moves from `board`: its legal squares, or one pass if it has none and the game
/// goes on, or nothing when the game is over.
fn moves_of(board: B8) -> Vec<Option<Square>> {
    let moves = board.moves();
    if !moves.is_empty() {
        let mut list = Vec::new();
        let mut m = moves;
        while !m.is_empty() {
            list.push(Some(Square::new(m.lowest())));
            m = m.without_lowest();
        }
        list
    } else if board.pass().moves().is_empty() {
        Vec::new()
    } else {
        vec![None]
    }
}

fn apply(board: B8, mv: Option<Square>) -> B8 {
    match mv {
        Some(square) => board.play(square),
        None => board.pass(),
    }
}

/// 1, 0.5 or 0 for the side to move at the finished `board`.
fn result_for_mover(board: B8) -> f64 {
    match Rules::default().final_score(board).signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// A uniform random game from `board` to its end: the result for `board`'s side to move.
fn playout(mut board: B8, rng: &mut GameRng) -> f64 {
    let mut flipped = false;
    loop {
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if passed.moves().is_empty() {
                let r = result_for_mover(board);
                return if flipped { 1.0 - r } else { r };
            }
            board = passed;
        } else {
            let k = rng.gen_range(0..moves.count());
            board = board.play(Square::new(moves.nth(k)));
        }
        flipped = !flipped;
    }
}

/// The most visited root move after `iterations` of UCT from `root`.
fn uct(root: B8, iterations: u32, c: f64, rng: &mut GameRng) -> Square {
    let mut nodes = vec![Node {
        board: root,
        children: Vec::new(),
        untried: moves_of(root),
        visits: 0.0,
        wins: 0.0,
        mv: None,
        parent: usize::MAX,
    }];
    for _ in 0..iterations {
        // Selection: down through fully expanded nodes by UCB1.
        let mut n = 0;
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
            let log_parent = nodes[n].visits.ln();
            let mut best = usize::MAX;
            let mut best_value = f64::NEG_INFINITY;
            for &child in &nodes[n].children {
                let ch = &nodes[child];
                let value = ch.wins / ch.visits + c * (log_parent / ch.visits).sqrt();
                if value > best_value {
                    best_value = value;
                    best = child;
                }
            }
            n = best;
        }
        // Expansion: one untried move, drawn at random.
        if !nodes[n].untried.is_empty() {
            let k = rng.gen_range(0..nodes[n].untried.len());
            let mv = nodes[n].untried.swap_remove(k);
            let board = apply(nodes[n].board, mv);
            nodes.push(Node {
                board,
                children: Vec::new(),
                untried: moves_of(board),
                visits: 0.0,
                wins: 0.0,
                mv,
                parent: n,
            });
            let child = nodes.len() - 1;
            nodes[n].children.push(child);
            n = child;
        }
        // Simulation: the result for the side that moved into n is 1 - the mover's.
        let mut result = 1.0 - playout(nodes[n].board, rng);
        // Backpropagation: each level up, the other side's view.
        loop {
            nodes[n].visits += 1.0;
            nodes[n].wins += result;
            if nodes[n].parent == usize::MAX {
                break;
            }
            n = nodes[n].parent;
            result = 1.0 - result;
        }
    }
    let best = nodes[0]
        .children
        .iter()
        .copied()
        .max_by(|&a, &b| nodes[a].visits.total_cmp(&nodes[b].visits))
        .expect("a move to choose");
    nodes[best].mv.expect("a root with moves has no pass child")
}

struct Options {
    games: usize,
    iterations: u32,
    c: f64,
    seed: u64,
    threads: usize,
    csv: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        games: 400,
        iterations: 10_000,
        c: std::f64::consts::SQRT_2,
        seed: 1,
        threads: 1,
        csv: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        let bad = || -> ! {
            eprintln!("bad value '{value}' for {}: see the file's header", pair[0]);
            std::process::exit(2)
        };
        match pair[0].as_str() {
            "--games" => o.games = value.parse().unwrap_or_else(|_| bad()),
            "--iterations" => o.iterations = value.parse().unwrap_or_else(|_| bad()),
            "--c" => o.c = value.parse().unwrap_or_else(|_| bad()),
            "--seed" => o.seed = value.parse().unwrap_or_else(|_| bad()),
            "--threads" => o.threads = value.parse().unwrap_or_else(|_| bad()),
            "--csv" => o.csv = Some(value.to_string()),
            other => {
                eprintln!("unknown option '{other}': use --games, --iterations, --c, --seed, --threads or --csv");
                std::process::exit(2)
            }
        }
    }
    o
}

/// One game from `opening` (6 random plies): black's margin and the transcript.
fn play_game(
    opening: &[Square],
    uct_colour: Color,
    o: &Options,
    opponent: &dyn Strategy<Size8>,
    rng: &mut GameRng,
) -> (i32, String) {
    let mut game: Game<Size8> = Game::new();
    for &square in opening {
        game.play(square).expect("the opening is legal");
    }
    let mut memory = Memory::new();
    while !game.is_over() {
        let board = game.board();
        let square = if game.side() == uct_colour {
            uct(board, o.iterations, o.c, rng)
        } else {
            let moves = game.legal_moves();
            let mut context = Context {
                rng: &mut *rng,
                memory: &mut memory,
                history: History::from_start(game.moves()),
            };
            opponent
                .choose(board, moves, &mut context)
                .expect("weighted classic does not fault")
                .square
        };
        game.play(square).expect("a legal move");
    }
    let outcome = game.outcome(Rules::default()).expect("the game is over");
    (outcome.margin, game.transcript())
}

fn main() {
    let o = options();
    let pairs = o.games.div_ceil(2);
    let opponent = StrategySpec::parse("weighted:preset=classic")
        .and_then(|spec| spec.build::<Size8>(Rules::default()))
        .expect("the built-in weighted classic");
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<PairResult>>> = Mutex::new(vec![None; pairs]);
    std::thread::scope(|scope| {
        for _ in 0..o.threads.max(1) {
            scope.spawn(|| loop {
                let pair = next.fetch_add(1, Ordering::Relaxed);
                if pair >= pairs {
                    break;
                }
                let mut rng = GameRng::seed_from_u64(o.seed.wrapping_mul(1_000_003) + pair as u64);
                let mut opening = Vec::new();
                let mut board = B8::start();
                for _ in 0..6 {
                    let moves = moves_of(board);
                    let mv = moves[rng.gen_range(0..moves.len())];
                    if let Some(square) = mv {
                        opening.push(square);
                    }
                    board = apply(board, mv);
                }
                let mut points = [0.0; 2];
                let mut lines = String::new();
                for (g, colour) in [Color::Black, Color::White].into_iter().enumerate() {
                    let (black_margin, transcript) =
                        play_game(&opening, colour, &o, opponent.as_ref(), &mut rng);
                    let margin = if colour == Color::Black {
                        black_margin
                    } else {
                        -black_margin
                    };
                    points[g] = match margin.signum() {
                        1 => 1.0,
                        0 => 0.5,
                        _ => 0.0,
                    };
                    lines.push_str(&format!("{pair},{},{margin},{transcript}\n", colour.name()));
                }
                let done = {
                    let mut r = results.lock().expect("no thread panicked");
                    r[pair] = Some((points, lines));
                    r.iter().filter(|x| x.is_some()).count()
                };
                eprintln!("pair {pair} done ({done}/{pairs}): {points:?}");
            });
        }
    });
    let results: Vec<PairResult> = results
        .into_inner()
        .expect("no thread panicked")
        .into_iter()
        .map(|r| r.expect("every pair played"))
        .collect();
    let all: Vec<f64> = results.iter().flat_map(|(p, _)| *p).collect();
    let (w, d, l) = (
        all.iter().filter(|&&p| p == 1.0).count(),
        all.iter().filter(|&&p| p == 0.5).count(),
        all.iter().filter(|&&p| p == 0.0).count(),
    );
    let pair_scores: Vec<f64> = results.iter().map(|(p, _)| (p[0] + p[1]) / 2.0).collect();
    let n = pair_scores.len() as f64;
    let mean = pair_scores.iter().sum::<f64>() / n;
    let var = pair_scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "textbook UCT (c={}, {} iterations) against weighted:preset=classic, {} games, seed {}: {w}/{d}/{l} (W/D/L), score {:.1}% [{:.1}, {:.1}]",
        o.c,
        o.iterations,
        all.len(),
        o.seed,
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half).min(1.0)
    );
    if let Some(path) = &o.csv {
        let text: String = results.iter().map(|(_, l)| l.as_str()).collect();
        let csv = format!("pair,uct,margin,transcript\n{text}");
        if let Err(e) = folder::write_atomically(std::path::Path::new(path), csv) {
            eprintln!("{e}");
            std::process::exit(2)
        }
    }
}
