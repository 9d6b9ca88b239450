//! The search's audit against the exact solver: the order unvisited moves are tried in,
//! root values on 6x6 and 8x8 endgames of 14 empties, bounds across passes, the move
//! played when one is proven lost, solved moves' values, and the root solve's clock.

use super::tests::{exact, player, prove, random_position, result, searched, thread_cpu_time};
use super::*;
use crate::board::{squares, Size6, Size8};
use crate::game::Rules;
use crate::strategy::{proven_margin, GameRng, History, Memory, StrategySpec};
use rand::SeedableRng;
use std::num::NonZeroU32;

/// A fresh context for one search.
fn with_context<G: Geometry, T>(seed: u64, then: impl FnOnce(&mut Context<'_, G>) -> T) -> T {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut memory = Memory::new();
    let mut context = Context {
        rng: &mut rng,
        memory: &mut memory,
        history: History::from_start(&[]),
    };
    then(&mut context)
}

/// Unvisited children are tried in an order drawn from the seed, not in square order
/// (which made every sparsely visited node's value rest on its lowest squares' moves):
/// the one move a one-iteration search tries is each of the start's four over seeds.
#[test]
fn unvisited_moves_are_tried_in_an_order_drawn_from_the_seed() {
    let board = Board::<Size8>::start();
    let mut tried = 0u64;
    for seed in 0..40 {
        let tree = searched::<Size8>("mcts:iterations=1", board, seed);
        let stats = tree.stats();
        let once: Vec<_> = stats.iter().filter(|m| m.visits == 1).collect();
        assert_eq!(once.len(), 1);
        tried |= 1 << once[0].square.index();
        // Shown in square order whatever the tree's order.
        assert!(stats
            .windows(2)
            .all(|w| w[0].square.index() < w[1].square.index()));
    }
    assert_eq!(tried, board.moves(), "{tried:x}");
    // The same seed, the same order.
    let stats = |seed| searched::<Size8>("mcts:iterations=3", board, seed).stats();
    assert_eq!(stats(5), stats(5));
}

/// On endgames of 14 empties (6x6 and 8x8), the root's value (the move played's mean,
/// or its proven result) does not move away from the minimax result as iterations grow
/// (on 8x8 it hardly moves: a playout mean lags behind a narrow win), and the move
/// played at 30,000 iterations keeps the minimax result.
#[test]
fn uct_root_values_approach_minimax_on_endgames_of_14_empties() {
    fn check<G: Geometry>(seeds: std::ops::Range<u64>) -> (f64, f64, usize, usize) {
        let rules = Rules::default();
        let (mut few, mut many, mut kept, mut positions) = (0.0, 0.0, 0, 0);
        for seed in seeds {
            let Some(board) = random_position::<G>(seed * 31, 14) else {
                continue;
            };
            let (score, _) = exact(board, rules);
            for iterations in [300, 30_000] {
                let mcts = player::<G>(&format!("mcts:iterations={iterations}"), rules);
                let tree = with_context(seed, |context| mcts.search(board, board.moves(), context));
                let square = tree.best(&mcts.settings).unwrap();
                let chosen = tree
                    .stats()
                    .into_iter()
                    .find(|m| m.square == square)
                    .unwrap();
                let (lower, upper) = chosen.bounds;
                let value = if lower > 0 || upper < 0 || lower == upper {
                    result(if lower > 0 { lower } else { upper })
                } else {
                    chosen.mean
                };
                let error = (value - result(score)).abs();
                if iterations == 300 {
                    few += error;
                } else {
                    many += error;
                    let (after, _) = exact(board.play(square), rules);
                    kept += usize::from(result(-after) == result(score));
                }
            }
            positions += 1;
        }
        (few, many, kept, positions)
    }
    for (few, many, kept, positions) in [check::<Size6>(0..8), check::<Size8>(0..8)] {
        eprintln!("{positions} positions: mean error {few:.3} / {many:.3} at 300 / 30,000 iterations, {kept} keep the result");
        assert!(positions >= 6, "{positions}");
        let n = positions as f64;
        // Measured (seeds 0 to 7): 6x6 0.238 then 0.184, 8x8 0.253 then 0.252; the move
        // played kept the result in 7 of 8 and 8 of 8.
        assert!(many / n <= 0.3, "mean error {:.3} at 30,000", many / n);
        assert!(many <= few, "errors {few:.3} at 300, {many:.3} at 30,000");
        assert!(
            kept + 1 >= positions,
            "{kept} of {positions} keep the result"
        );
    }
}

/// A pass flips the side to move exactly once: in trees proven to the end through
/// passes, every root move's proven bounds hold its exact value (the solver's, which
/// passes by its own code), under both rule sets.
#[test]
fn proven_bounds_through_passes_hold_each_moves_exact_value() {
    let mut with_passes = 0;
    let mut seed = 0u64;
    while with_passes < 12 {
        seed += 1;
        assert!(seed < 2000, "too few positions with passes");
        let Some(board) = random_position::<Size8>(seed * 104_729, 9) else {
            continue;
        };
        let rules = super::tests::RULES[seed as usize % 2];
        let tree = prove(board, rules, "margin", 1);
        if !tree.nodes.iter().skip(1).any(|n| n.square.is_none()) {
            continue;
        }
        with_passes += 1;
        let solver = Solver::new(rules, 14);
        let values = solver.move_values(board, board.moves(), &mut Memory::new());
        for m in tree.stats() {
            let value = values.iter().find(|v| v.0 == m.square).unwrap().1;
            assert!(
                m.bounds.0 <= value && value <= m.bounds.1,
                "seed {seed}: {:?} is {value}, bounds {:?}",
                m.square,
                m.bounds
            );
        }
        let (score, _) = exact(board, rules);
        assert_eq!(-i32::from(tree.nodes[0].lower), score, "seed {seed}");
    }
}

/// A root expanded by hand: one child a move of `squares`, each (visits, total, lower,
/// upper).
fn tree_of(children: &[(u32, f32, i8, i8)]) -> Tree<Size8> {
    let board = Board::<Size8>::start();
    let mut tree = Tree::new(board, board.moves(), 8, false);
    for (square, &(visits, total, lower, upper)) in squares(board.moves()).zip(children) {
        tree.nodes.push(Node {
            visits,
            total,
            lower,
            upper,
            ..Node::new(Some(square), 64, 0.0)
        });
    }
    tree.nodes[0].first = NonZeroU32::new(1);
    tree.nodes[0].children = children.len() as u8;
    tree.nodes[0].visits = children.iter().map(|c| c.0).sum();
    tree
}

/// A move proven lost is never played while another is not, however many visits and
/// whatever mean it has; a move proven to win is played whatever its visits.
#[test]
fn a_proven_loss_is_never_played_while_another_move_is_not() {
    let squares: Vec<Square> = squares(Board::<Size8>::start().moves()).collect();
    for final_move in ["visits", "value"] {
        let settings =
            player::<Size8>(&format!("mcts:final_move={final_move}"), Rules::default()).settings;
        // The most visited, best-looking move is proven to lose by 2.
        let tree = tree_of(&[
            (900, 890.0, -2, -2),
            (50, 10.0, -64, 64),
            (40, 5.0, -64, 64),
            (10, 1.0, -64, 64),
        ]);
        let played = tree.best(&settings).unwrap();
        assert!(
            played == squares[1] || played == squares[2],
            "{final_move}: {played:?}"
        );
        // Every move lost: the least bad.
        let tree = tree_of(&[
            (900, 0.0, -2, -2),
            (50, 0.0, -8, -8),
            (40, 0.0, -64, -1),
            (10, 0.0, -6, -6),
        ]);
        assert_eq!(tree.best(&settings), Some(squares[0]), "{final_move}");
        // One proven win, rarely visited.
        let tree = tree_of(&[
            (900, 800.0, -64, 64),
            (3, 3.0, 4, 64),
            (40, 5.0, -64, 64),
            (10, 1.0, -64, 64),
        ]);
        assert_eq!(tree.best(&settings), Some(squares[1]), "{final_move}");
    }
}

/// At `solve` empties or fewer the root is solved: `eval`'s values are every move's
/// exact margin (shown as "wins by"), not a proven move's 1000 beside unvisited zeros.
#[test]
fn a_solved_root_shows_each_moves_exact_margin() {
    let text = "mcts:iterations=300,solve=12";
    let spec = StrategySpec::parse(text).unwrap();
    let mcts = player::<Size8>(text, Rules::default());
    let mut checked = 0;
    for seed in 1..6u64 {
        let Some(board) = random_position::<Size8>(seed * 7, 12) else {
            continue;
        };
        let values = with_context(seed, |context| {
            mcts.move_values(board, board.moves(), context)
        });
        let solver = Solver::new(Rules::default(), 14);
        let exact = solver.move_values(board, board.moves(), &mut Memory::new());
        assert_eq!(values, Some(exact.clone()), "seed {seed}");
        let none = with_context(seed, |context| {
            mcts.move_visits(board, board.moves(), context)
        });
        assert_eq!(none, None, "no visits behind a solve");
        for (_, margin) in exact {
            let shown = spec.scale().text(margin, 12);
            let expected = match margin.signum() {
                1 => format!("wins by {margin}"),
                -1 => format!("loses by {}", -margin),
                _ => "draws".to_string(),
            };
            assert_eq!(shown, expected);
        }
        // Its move is played as proven, valued at the exact score.
        let choice =
            with_context(seed, |context| mcts.choose(board, board.moves(), context)).unwrap();
        assert!(choice.is_proven());
        assert_eq!(choice.value, Some(exact_score(board)));
        // With the solve's line, played out to the game's end at the proven score (it
        // had none: eval, watch and NBoard's hint showed no line behind a solve).
        let line = choice.pv();
        assert_eq!(line.first(), Some(&choice.square), "seed {seed}");
        let (end, same) = crate::strategy::reference::play_line(board, line);
        assert!(
            !end.can_move() && !end.pass().can_move(),
            "seed {seed}: {line:?}"
        );
        let score = Rules::default().final_score(end);
        assert_eq!(
            if same { score } else { -score },
            exact_score(board),
            "seed {seed}"
        );
        checked += 1;
    }
    assert!(checked >= 3, "{checked}");
}

fn exact_score(board: Board<Size8>) -> i32 {
    exact(board, Rules::default()).0
}

/// Above `solve` empties, a root move the search has proven exactly shows its margin
/// (`WIN` plus it, "wins by"), the solver's, and the others their means in thousandths.
#[test]
fn proven_root_moves_show_their_margins() {
    let mcts = player::<Size8>("mcts:iterations=20000,solve=10", Rules::default());
    let mut proven = 0;
    for seed in 1..8u64 {
        let Some(board) = random_position::<Size8>(seed * 13, 13) else {
            continue;
        };
        let visits = with_context(seed, |context| {
            mcts.move_visits(board, board.moves(), context)
        })
        .unwrap();
        let solver = Solver::new(Rules::default(), 14);
        let exact = solver.move_values(board, board.moves(), &mut Memory::new());
        for Visited { square, value, .. } in visits.moves {
            let margin = exact.iter().find(|e| e.0 == square).unwrap().1;
            match proven_margin(value) {
                Some(shown) => {
                    assert_eq!(shown, margin, "seed {seed}: {square:?}");
                    proven += 1;
                }
                None => assert!((0..=1000).contains(&value), "{value}"),
            }
        }
    }
    assert!(proven >= 3, "{proven} proven moves");
}

/// A root solve stops at the move's time (half of it, the tree taking the rest), so a
/// move with 20 empties and `solve = 20` keeps to `time` (it took seconds before).
#[test]
fn a_root_solve_keeps_to_the_moves_time() {
    use crate::strategy::clock::TIME_MARGIN;
    let budget = std::time::Duration::from_millis(20);
    let mcts = player::<Size8>("mcts:time=20ms,solve=20", Rules::default());
    for seed in 1..4u64 {
        let board = random_position::<Size8>(seed * 5, 20).expect("a position");
        let started = thread_cpu_time();
        let choice =
            with_context(seed, |context| mcts.choose(board, board.moves(), context)).unwrap();
        let spent = thread_cpu_time() - started;
        assert!(board.moves().has(choice.square.index()));
        assert!(
            spent <= budget + TIME_MARGIN,
            "seed {seed}: {spent:?} of CPU"
        );
    }
}

/// `play`'s `eval` shows one search: its list starts with the move that search plays
/// (the robust child), the rest by visits, and its line is that choice's, the same
/// move and line `choose` gives from the same seed.
#[test]
fn move_visits_list_the_choice_first_then_by_visits_with_its_line() {
    for seed in 0..6u64 {
        let Some(board) = random_position::<Size8>(seed, 40) else {
            continue;
        };
        let mcts = player::<Size8>("mcts:iterations=800", Rules::default());
        let visits = with_context(seed, |context| {
            mcts.move_visits(board, board.moves(), context)
        })
        .unwrap();
        let chosen =
            with_context(seed, |context| mcts.choose(board, board.moves(), context)).unwrap();
        assert_eq!(visits.choice.square, chosen.square, "seed {seed}");
        assert_eq!(visits.choice.pv(), chosen.pv(), "seed {seed}");
        assert_eq!(visits.moves[0].square, chosen.square, "seed {seed}");
        assert!(visits.choice.pv().len() > 1, "seed {seed}");
        let counts: Vec<u64> = visits.moves.iter().map(|v| v.visits).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
        assert_eq!(counts.iter().sum::<u64>(), 800, "seed {seed}");
    }
}
