//! The search against the exact solver: UCT's root values approach minimax on 4x4,
//! MCTS-Solver's proven values and moves are the solver's (anti rules too); the
//! playout policy is the strategy it names; bad parameters are refused in one line.

use super::*;
use crate::board::{squares, Bits, Size4, Size8};
use crate::game::{Rules, Scoring};
use crate::strategy::{GameRng, Memory, Mode, StrategySpec};
use rand::SeedableRng;

fn player<G: Geometry>(text: &str, rules: Rules) -> Mcts<G> {
    match StrategySpec::parse(text).unwrap() {
        StrategySpec::Mcts(spec) => spec.player::<G>(rules).unwrap(),
        other => panic!("not mcts: {other:?}"),
    }
}

/// A position `empties` squares from a full board, by random moves (None if the game
/// ended first).
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
    board.can_move().then_some(board)
}

/// The exact score and every best move, by the exact solver.
fn exact<G: Geometry>(board: Board<G>, rules: Rules) -> (i32, G::Bits) {
    let solution = Solver::new(rules, 14)
        .with_mode(Mode::All)
        .solve(board, &mut Memory::new());
    (solution.score, solution.best)
}

const RULES: [Rules; 3] = [
    Rules {
        scoring: Scoring::WinnerGetsEmpties,
        anti: false,
    },
    Rules {
        scoring: Scoring::Count,
        anti: true,
    },
    Rules {
        scoring: Scoring::Count,
        anti: false,
    },
];

/// The result a win/draw/loss objective gives an exact score.
fn result(score: i32) -> f64 {
    f64::from(score.signum() + 1) / 2.0
}

#[test]
fn uct_root_values_approach_minimax_on_4x4() {
    let mut checked = 0;
    for seed in 0..12u64 {
        let rules = RULES[seed as usize % RULES.len()];
        let Some(board) = random_position::<Size4>(seed, 12 - (seed % 3) as u32) else {
            continue;
        };
        let (score, best) = exact(board, rules);
        let mut errors = Vec::new();
        for iterations in [30, 20000] {
            let mcts = player::<Size4>(&format!("mcts:iterations={iterations}"), rules);
            let mut rng = GameRng::seed_from_u64(seed);
            let mut memory = Memory::new();
            let mut context = Context {
                rng: &mut rng,
                memory: &mut memory,
                history: crate::strategy::History::from_start(&[]),
            };
            let tree = mcts.search(board, board.moves(), &mut context);
            let square = tree.best(&mcts.settings).unwrap();
            let chosen = tree
                .stats()
                .into_iter()
                .find(|m| m.square == square)
                .unwrap();
            // Its value: proven (finished games back up in every search), else its mean.
            let (lower, upper) = chosen.bounds;
            let value = if lower == upper || lower > 0 || upper < 0 {
                result(if lower > 0 { lower } else { upper })
            } else {
                chosen.mean
            };
            errors.push((value - result(score)).abs());
            if iterations == 20000 {
                // The move played reaches the minimax result.
                let (after, _) = exact(board.play(square), rules);
                assert_eq!(result(-after), result(score), "seed {seed}: {square:?}");
                let _ = best;
            }
        }
        assert!(errors[1] <= 0.1, "seed {seed}: {errors:?}");
        assert!(errors[1] <= errors[0] + 0.02, "seed {seed}: {errors:?}");
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}

/// Searches `board` until its root is proven, with leaves solved at `solve` empties.
fn prove<G: Geometry>(board: Board<G>, rules: Rules, objective: &str, solve: u32) -> Tree<G> {
    let mcts = player::<G>(
        &format!("mcts:nodes=50000000,objective={objective},solve={solve}"),
        rules,
    );
    let mut rng = GameRng::seed_from_u64(1);
    let mut memory = Memory::new();
    let mut context = Context {
        rng: &mut rng,
        memory: &mut memory,
        history: crate::strategy::History::from_start(&[]),
    };
    let tree = mcts.search(board, board.moves(), &mut context);
    let root = tree.nodes[0];
    let proven = match objective {
        "margin" => root.lower == root.upper,
        _ => root.lower > 0 || root.upper < 0 || root.lower == root.upper,
    };
    assert!(proven, "not proven: {root:?}");
    tree
}

#[test]
fn mcts_solver_proves_what_the_solver_finds() {
    let mut checked = 0;
    let mut seed = 0u64;
    while checked < 200 {
        seed += 1;
        let empties = 8 + (seed % 7) as u32;
        let Some(board) = random_position::<Size8>(seed * 7919, empties) else {
            continue;
        };
        let rules = RULES[seed as usize % RULES.len()];
        let (score, best) = exact(board, rules);
        let objective = if seed.is_multiple_of(2) {
            "margin"
        } else {
            "win"
        };
        let tree = prove(board, rules, objective, empties.saturating_sub(5).max(1));
        let settings = player::<Size8>(&format!("mcts:objective={objective}"), rules).settings;
        let played = tree.best(&settings).unwrap();
        // The root's bounds are for the side that moved into it.
        let root = tree.nodes[0];
        if objective == "margin" {
            assert_eq!(-i32::from(root.lower), score, "seed {seed}");
            assert!(best.has(played.index()), "seed {seed}: {played:?}");
        } else {
            let (after, _) = exact(board.play(played), rules);
            assert_eq!(result(-after), result(score), "seed {seed}");
            if root.upper < 0 {
                assert!(score > 0, "seed {seed}");
            } else if root.lower > 0 {
                assert!(score < 0, "seed {seed}");
            } else {
                assert_eq!(score, 0, "seed {seed}");
            }
        }
        checked += 1;
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let board = Board::<Size8>::start();
    let mcts = player::<Size8>("mcts:iterations=500,rave=100", Rules::default());
    let run = |seed| {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut memory = Memory::new();
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: crate::strategy::History::from_start(&[]),
        };
        mcts.search(board, board.moves(), &mut context).stats()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
    let visits: u32 = run(3).iter().map(|m| m.visits).sum();
    assert_eq!(visits, 500);
}

#[test]
fn a_greedy_playout_is_greedy() {
    use super::leaf::Rollout;
    let rules = Rules::default();
    let greedy = StrategySpec::parse("greedy")
        .unwrap()
        .build::<Size8>(rules)
        .unwrap();
    let rollout = Rollout::Policy {
        policy: StrategySpec::parse("greedy")
            .unwrap()
            .build::<Size8>(rules)
            .unwrap(),
        epsilon: 0.0,
    };
    for seed in 0..20 {
        let Some(board) = random_position::<Size8>(seed, 40) else {
            continue;
        };
        let (mut a, mut b) = (GameRng::seed_from_u64(seed), GameRng::seed_from_u64(seed));
        let (mut ma, mut mb) = (Memory::new(), Memory::new());
        let ending = rollout.play_out(
            board,
            &mut Context {
                rng: &mut a,
                memory: &mut ma,
                history: crate::strategy::History::from_start(&[]),
            },
        );
        // The same game by greedy itself.
        let mut here = board;
        let mut context = Context {
            rng: &mut b,
            memory: &mut mb,
            history: crate::strategy::History::from_start(&[]),
        };
        while !here.is_game_over() {
            let moves = here.moves();
            here = if moves.is_empty() {
                here.pass()
            } else {
                here.play(greedy.choose(here, moves, &mut context).unwrap().square)
            };
        }
        // The playout ends having found that neither side can move: one pass on.
        assert_eq!(ending.board, here.pass(), "seed {seed}");
    }
}

#[test]
fn priors_follow_the_evaluation() {
    let board = random_position::<Size8>(5, 40).unwrap();
    let mcts = player::<Size8>("mcts:iterations=2,prior=weighted", Rules::default());
    let mut rng = GameRng::seed_from_u64(1);
    let mut memory = Memory::new();
    let mut context = Context {
        rng: &mut rng,
        memory: &mut memory,
        history: crate::strategy::History::from_start(&[]),
    };
    let tree = mcts.search(board, board.moves(), &mut context);
    let eval = StrategySpec::parse("weighted")
        .unwrap()
        .build_evaluator::<Size8>()
        .unwrap();
    let children: Vec<Node> = tree.root_children().map(|(_, c)| *c).collect();
    let total: f32 = children.iter().map(|c| c.prior).sum();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    for a in &children {
        for b in &children {
            let value = |n: &Node| eval.evaluate(board.play(n.square.unwrap()).pass());
            if value(a) > value(b) {
                assert!(a.prior > b.prior, "{a:?} {b:?}");
            }
        }
    }
}

#[test]
fn bad_parameters_are_refused_in_one_line_naming_the_range() {
    let refusal = |text: &str| StrategySpec::parse(text).unwrap_err().to_string();
    for (text, expected) in [
        ("mcts:iterations=0", "strategy 'mcts': iterations = 0 is out of range: use 1 to 1000000000"),
        ("mcts:nodes=0", "strategy 'mcts': nodes = 0 is out of range: use 1 to 1000000000"),
        ("mcts:c=-1", "strategy 'mcts': c = -1 is out of range: use 0 to 100"),
        ("mcts:epsilon=2", "strategy 'mcts': epsilon = 2 is out of range: use 0 to 1"),
        ("mcts:solve=21", "strategy 'mcts': solve = 21 is out of range: use 0 to 20"),
        ("mcts:rave=2000000", "strategy 'mcts': rave = 2000000 is out of range: use 0 to 1000000"),
        ("mcts:objective=score", "strategy 'mcts': objective = score is not known: use win or margin"),
        ("mcts:final_move=best", "strategy 'mcts': final_move = best is not known: use visits or value"),
        ("mcts:time=5x", "strategy 'mcts': time = 5x is not a time: write it like time=100ms or time=2s"),
        ("mcts:prior=random", "mcts prior: 'random' is not an evaluation: use weighted, mobility, stability, pattern, eval, python or greedy (disc count)"),
        ("mcts:rollout=(alphabeta:depth=0)", "mcts rollout: strategy 'alphabeta': depth = 0 is out of range: use 1 to 60"),
    ] {
        let message = refusal(text);
        assert_eq!(message, expected);
        assert_eq!(message.lines().count(), 1);
    }
}

#[test]
fn specs_read_back_as_written() {
    for text in [
        "mcts",
        "mcts:iterations=10000",
        "mcts:time=200ms,prior=(pattern),value=(pattern),solve=14",
        "mcts:rollout=(weighted:preset=classic),epsilon=0.1,rave=300,objective=margin",
    ] {
        let spec = StrategySpec::parse(text).unwrap();
        let again = StrategySpec::from_table(&spec.to_table()).unwrap();
        assert_eq!(spec, again, "{text}");
    }
}

/// A search whose budget ends before its first iteration (`nodes` below a playout,
/// a clock nearly spent) still plays a legal move.
#[test]
fn a_search_with_no_iteration_plays_a_legal_move() {
    use crate::board::{Bits as _, Position, Size8};
    use crate::strategy::{Context, GameRng, History, Memory, StrategySpec};
    use rand::SeedableRng;
    let player = StrategySpec::parse("mcts:nodes=1")
        .unwrap()
        .build::<Size8>(crate::game::Rules::default())
        .unwrap();
    let start = Position::<Size8>::start();
    let moves = start.board.moves();
    let mut rng = GameRng::seed_from_u64(1);
    let mut memory = Memory::new();
    let mut context = Context {
        rng: &mut rng,
        memory: &mut memory,
        history: History::at(start),
    };
    let choice = player.choose(start.board, moves, &mut context).unwrap();
    assert!(moves.has(choice.square.index()));
}
