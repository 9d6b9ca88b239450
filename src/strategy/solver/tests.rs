//! The solver against a plain minimax on random positions (every size, both
//! modes, every rule), and its parallel search against its serial one.

use super::*;
use crate::board::{Size10, Size4, Size6, Size8};
use crate::game::Scoring;
use crate::strategy::reference::best_moves;
use proptest::prelude::*;

const RULES: [Rules; 4] = [
    Rules {
        scoring: Scoring::WinnerGetsEmpties,
        anti: false,
    },
    Rules {
        scoring: Scoring::Count,
        anti: false,
    },
    Rules {
        scoring: Scoring::WinnerGetsEmpties,
        anti: true,
    },
    Rules {
        scoring: Scoring::Count,
        anti: true,
    },
];

/// A position `empties` squares from a full board, reached by random moves
/// from the start (None if the game ended first).
fn random_position<G: Geometry>(mut seed: u64, empties: u32) -> Option<Board<G>> {
    let mut board = Board::<G>::start();
    while board.empty_count() > empties {
        let moves = board.moves();
        if moves.is_empty() {
            if !board.pass().can_move() {
                return None;
            }
            board = board.pass();
            continue;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let pick = (seed >> 33) as usize % moves.count() as usize;
        board = board.play(squares(moves).nth(pick).expect("in range"));
    }
    Some(board)
}

/// Checks both modes on `board` against minimax.
fn check<G: Geometry>(board: Board<G>, rules: Rules) -> Result<(), TestCaseError> {
    let (expected, all_best) = best_moves(board, rules);
    let mut memory = Memory::new();
    let all = Solver::new(rules, 12)
        .with_mode(Mode::All)
        .solve(board, &mut memory);
    prop_assert_eq!(all.score, expected);
    prop_assert_eq!(all.best, all_best);
    memory.new_game();
    let one = Solver::new(rules, 12).solve(board, &mut memory);
    prop_assert_eq!(one.score, expected);
    if all_best.is_empty() {
        prop_assert!(one.best.is_empty());
    } else {
        prop_assert_eq!(one.best.count(), 1);
        prop_assert!(!(one.best & all_best).is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn equals_minimax_on_8x8(seed in any::<u64>(), empties in 0u32..=10, rule in 0usize..4) {
        if let Some(board) = random_position::<Size8>(seed, empties) {
            check(board, RULES[rule])?;
        }
    }

    #[test]
    fn equals_minimax_on_other_sizes(seed in any::<u64>(), empties in 0u32..=10, rule in 0usize..4) {
        if let Some(board) = random_position::<Size6>(seed, empties) {
            check(board, RULES[rule])?;
        }
        if let Some(board) = random_position::<Size10>(seed, empties) {
            check(board, RULES[rule])?;
        }
    }
}

#[test]
fn solves_whole_4x4_games_under_every_rule() {
    for rules in RULES {
        let board = Board::<Size4>::start();
        check(board, rules).unwrap();
    }
}

#[test]
fn two_threads_find_the_serial_score_and_move() {
    // Positions deep enough for the search to split (SPLIT_MIN empties and more).
    let mut solved = 0;
    for seed in 0..40u64 {
        let Some(board) = random_position::<Size8>(seed, 16) else {
            continue;
        };
        let rules = RULES[(seed % 4) as usize];
        let serial = Solver::new(rules, 16);
        let parallel = serial.with_threads(2);
        let one = serial.solve(board, &mut Memory::new());
        let split = parallel.solve(board, &mut Memory::new());
        assert_eq!(
            (one.score, one.best),
            (split.score, split.best),
            "seed {seed}"
        );
        let all = serial.with_mode(Mode::All);
        let ties = all.solve(board, &mut Memory::new());
        let split_ties = all.with_threads(2).solve(board, &mut Memory::new());
        assert_eq!(
            ties,
            Solution {
                nodes: ties.nodes,
                ..split_ties
            }
        );
        assert_eq!(ties.score, one.score);
        assert!(!(ties.best & one.best).is_empty());
        solved += 1;
        if solved == 6 {
            break;
        }
    }
    assert_eq!(solved, 6);
}

#[test]
fn a_spent_budget_gives_up_and_forgets() {
    let board = random_position::<Size8>(5, 16).unwrap();
    let solver = Solver::new(Rules::default(), 14);
    let mut memory = Memory::new();
    let budget = Budget {
        nodes: Some(100),
        time: None,
    };
    let spent = solver.solve_within(board, &mut memory, budget).unwrap_err();
    assert!(spent >= 100, "{spent}");
    // Nothing of the unfinished search is reused: the full solve is exact.
    let exact = solver.solve(board, &mut memory);
    let fresh = solver.solve(board, &mut Memory::new());
    assert_eq!((exact.score, exact.best), (fresh.score, fresh.best));
}

#[test]
fn a_finished_game_scores_itself() {
    let board = Board::<Size8>::new(u64::MAX >> 1, 1 << 63);
    let solution = Solver::new(Rules::default(), 10).solve(board, &mut Memory::new());
    assert_eq!((solution.score, solution.best), (62, 0));
}

/// Solves `board` on one thread with or without the pattern evaluation (its
/// ordering, aspiration and selective passes): every best move and the score.
fn solve_ordered<G: Geometry>(board: Board<G>, rules: Rules, pattern: bool) -> (i32, G::Bits) {
    let table = SolverTable::new(16);
    let shared = Shared {
        rules,
        table: &table,
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        limit: u64::MAX,
        deadline: None,
        cancel: None,
        parallel: false,
    };
    let mut search = Search::new(&shared);
    assert!(
        search.eval.is_some(),
        "8x8 under the standard rules orders by patterns"
    );
    if !pattern {
        search.eval = None;
    }
    passes(&mut search, board, Mode::All)
}

#[test]
fn the_pattern_ordering_and_selective_passes_change_no_score_or_best_move() {
    // 8x8 under the standard rules, deep enough for the estimates (from 12
    // empties), the root's aspiration window (from 16) and the selective passes
    // before the exact one (from 18).
    let mut solved = 0;
    for seed in 100..140u64 {
        let Some(board) = random_position::<Size8>(seed, 18) else {
            continue;
        };
        let rules = Rules::default();
        assert_eq!(
            solve_ordered(board, rules, true),
            solve_ordered(board, rules, false),
            "seed {seed}"
        );
        solved += 1;
        if solved == 5 {
            break;
        }
    }
    assert_eq!(solved, 5);
}
