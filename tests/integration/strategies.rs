//! Strategies do what their names say: hand-built positions, brute-force references
//! for the one-ply heuristics, plain minimax for alpha-beta and the solver, determinism.

use crate::reference::{self, best_moves_to_depth, minimax_to_depth};
use proptest::prelude::*;
use rand::SeedableRng;
use reversi_lab::board::{
    squares, stable_discs, Bits, Board, Color, Geometry, Position, Size10, Size4, Size6, Size8,
    Square,
};
use reversi_lab::game::{Game, Rules, Scoring};
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::lab::{play_game, Deal, Driver};
use reversi_lab::strategy::{
    AlphaBeta, Context, GameRng, History, Memory, Mode, Solver, Strategy, StrategySpec,
};

fn sq(name: &str) -> Square {
    Square::parse(name, 8).unwrap()
}

fn bits(names: &[&str]) -> u64 {
    names
        .iter()
        .map(|n| 1u64 << sq(n).index())
        .fold(0, |a, b| a | b)
}

fn build<G: Geometry>(spec: &str) -> Box<dyn Strategy<G>> {
    StrategySpec::parse(spec)
        .unwrap()
        .build::<G>(Rules::default())
        .unwrap()
}

/// Every move the strategy picks over `tries` seeds.
fn choices<G: Geometry>(strategy: &dyn Strategy<G>, board: Board<G>, tries: u64) -> Vec<String> {
    let mut memory = Memory::new();
    let mut seen: Vec<String> = (0..tries)
        .map(|seed| {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut context = Context {
                rng: &mut rng,
                memory: &mut memory,
                history: History::from_start(&[]),
            };
            strategy
                .choose(board, board.moves(), &mut context)
                .unwrap()
                .square
                .name(G::SIZE)
        })
        .collect();
    seen.sort();
    seen.dedup();
    seen
}

/// A random position `plies` moves into a random game (None if the game ended first).
fn random_position<G: Geometry>(seed: u64, plies: usize) -> Option<Board<G>> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut game = Game::<G>::new();
    let random = build::<G>("random");
    let mut memory = Memory::new();
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(game.moves()),
        };
        let m = random.choose(game.board(), game.legal_moves(), &mut context);
        let m = m.unwrap().square;
        game.play(m).unwrap();
    }
    (!game.is_over()).then(|| game.board())
}

/// [`random_position`] for a property test: a game that ends before `plies` is
/// rejected, so proptest draws another case instead of passing one that checked nothing.
fn drawn<G: Geometry>(seed: u64, plies: usize) -> Result<Board<G>, TestCaseError> {
    random_position::<G>(seed, plies)
        .ok_or_else(|| TestCaseError::reject("the random game ended before that ply"))
}

/// The moves of `board` with the highest `score`, by brute force.
fn argmax<G: Geometry>(board: Board<G>, score: impl Fn(Square) -> i64) -> Vec<String> {
    let all: Vec<(i64, String)> = squares(board.moves())
        .map(|s| (score(s), s.name(G::SIZE)))
        .collect();
    let best = all.iter().map(|(v, _)| *v).max().unwrap();
    let mut names: Vec<String> = all
        .into_iter()
        .filter(|(v, _)| *v == best)
        .map(|(_, n)| n)
        .collect();
    names.sort();
    names
}

#[test]
fn greedy_takes_the_single_biggest_flip() {
    // Black to move: c4 flips d4 only; h4 flips e4 f4 g4.
    let board = Board::<Size8>::new(bits(&["b4", "d8"]), bits(&["c4", "e4", "f4", "g4", "d7"]));
    let mut board = board;
    board.player |= bits(&["d4"]);
    board.opponent &= !bits(&["d4"]);
    assert_eq!(
        choices(build::<Size8>("greedy").as_ref(), board, 50),
        ["h4"]
    );
    // minimum-disc takes the smallest flip, and switches to the largest near the end.
    let least = argmax(board, |s| -(board.flips(s).count() as i64));
    assert_eq!(
        choices(build::<Size8>("minimum-disc").as_ref(), board, 50),
        least
    );
    assert_eq!(
        choices(
            build::<Size8>("minimum-disc:endgame=60").as_ref(),
            board,
            50
        ),
        ["h4"]
    );
}

#[test]
fn corner_strategies_take_corners_then_edges() {
    // Black b2.. white: a legal corner a1 (over b2 to c3).
    let board = Board::<Size8>::new(bits(&["c3", "e5"]), bits(&["b2", "d4", "f6"]));
    assert!(board.moves() & bits(&["a1"]) != 0);
    assert!(board.moves() & bits(&["g7"]) != 0);
    assert_eq!(
        choices(build::<Size8>("corner-first").as_ref(), board, 50),
        ["a1"]
    );
    assert_eq!(
        choices(build::<Size8>("corner-edge").as_ref(), board, 50),
        ["a1"]
    );
    assert_eq!(
        choices(build::<Size8>("weighted").as_ref(), board, 50),
        ["a1"]
    );
    // No corner, one edge move (d1 over d2 to d3) and inner moves.
    let board = Board::<Size8>::new(bits(&["d3", "c5"]), bits(&["d2", "d4", "e5", "f5"]));
    let legal: Vec<String> = squares(board.moves()).map(|s| s.name(8)).collect();
    assert_eq!(legal, ["d1", "e3", "d5"]);
    assert_eq!(
        choices(build::<Size8>("corner-edge").as_ref(), board, 50),
        ["d1"]
    );
    let greedy = argmax(board, |s| i64::from(board.flips(s).count()));
    assert_eq!(
        choices(build::<Size8>("corner-first").as_ref(), board, 80),
        greedy
    );
}

#[test]
fn random_reaches_every_move() {
    let board = Board::<Size8>::start();
    assert_eq!(
        choices(build::<Size8>("random").as_ref(), board, 200),
        ["c4", "d3", "e6", "f5"]
    );
    // Ties are random too: greedy at the start flips one disc with every move.
    assert_eq!(
        choices(build::<Size8>("greedy").as_ref(), board, 200).len(),
        4
    );
}

#[test]
fn parity_moves_into_the_only_odd_region() {
    // A nearly full board: the empties are a1 (alone: odd) and g8+h8 (even). Black
    // can play a1 (over b1 to c1) or g8 (over f8 to e8).
    let empty = bits(&["a1", "g8", "h8"]);
    let black = bits(&["c1", "e8"]);
    let white = !empty & !black & bits(&["b1", "f8"]) | bits(&["b1", "f8"]);
    let rest = !empty & !black & !white;
    // Fill the rest so that neither extra move exists: alternate colours in checks.
    let board = Board::<Size8>::new(
        black | (rest & 0xAAAA_AAAA_AAAA_AAAA),
        white | (rest & 0x5555_5555_5555_5555),
    );
    let legal: Vec<String> = squares(board.moves()).map(|s| s.name(8)).collect();
    assert!(legal.contains(&"a1".to_string()), "{legal:?}");
    let parity = build::<Size8>("parity:endgame=20,base=random");
    assert_eq!(choices(parity.as_ref(), board, 50), ["a1"]);
}

#[test]
fn stability_prefers_stable_discs() {
    let board = random_position::<Size8>(7, 40).unwrap();
    let expected = argmax(board, |s| {
        let after = board.play(s).pass();
        let (own, other) = stable_discs(after);
        i64::from(own.count()) - i64::from(other.count())
    });
    assert_eq!(
        choices(build::<Size8>("stability").as_ref(), board, 100),
        expected
    );
}

#[test]
fn pattern_plays_the_best_pattern_value() {
    let weights = reversi_lab::strategy::pattern::Weights::shipped();
    for (seed, plies) in [(3, 12), (11, 30), (19, 44)] {
        let board = random_position::<Size8>(seed, plies).unwrap();
        let expected = argmax(board, |s| {
            let after = board.play(s).pass();
            i64::from(weights.evaluate(after.player, after.opponent))
        });
        assert_eq!(
            choices(build::<Size8>("pattern").as_ref(), board, 100),
            expected,
            "seed {seed}"
        );
    }
}

/// Reference scores for the one-ply heuristics, computed from scratch.
fn mobility_score<G: Geometry>(board: Board<G>, s: Square) -> i64 {
    let after = board.play(s);
    i64::from(after.pass().moves().count()) - i64::from(after.moves().count())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn one_ply_heuristics_choose_an_argmax(seed in any::<u64>(), plies in 4usize..50) {
        let board = drawn::<Size8>(seed, plies)?;
        let tries = 60;
        let greedy = argmax(board, |s| i64::from(board.flips(s).count()));
        prop_assert_eq!(choices(build::<Size8>("greedy").as_ref(), board, tries), greedy);
        let mobility = argmax(board, |s| mobility_score(board, s));
        prop_assert_eq!(choices(build::<Size8>("mobility").as_ref(), board, tries), mobility);
        let table = reversi_lab::strategy::spec::SquaresSpec { preset: Some("classic".into()), ..Default::default() }
            .table(8)
            .unwrap();
        let weighted = argmax(board, |s| {
            let after = board.play(s);
            let own: i64 = squares(after.opponent).map(|q| i64::from(table[q.index() as usize])).sum();
            let other: i64 = squares(after.player).map(|q| i64::from(table[q.index() as usize])).sum();
            own - other
        });
        prop_assert_eq!(choices(build::<Size8>("weighted:preset=classic").as_ref(), board, tries), weighted);
    }
}

fn alphabeta<G: Geometry>(
    depth: u32,
    eval: &str,
    table: bool,
    ordering: bool,
    rules: Rules,
) -> AlphaBeta<G> {
    AlphaBeta {
        depth,
        eval: StrategySpec::parse(eval)
            .unwrap()
            .build_evaluator::<G>()
            .unwrap(),
        endgame: 0,
        nodes: None,
        time: None,
        probcut: None,
        table,
        ordering,
        table_bits: 12,
        rules,
        geometry: std::marker::PhantomData,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn alphabeta_equals_minimax(seed in any::<u64>(), plies in 2usize..56, depth in 1u32..4, which in 0usize..5) {
        let board = drawn::<Size8>(seed, plies)?;
        let evals = ["weighted", "mobility", "eval", "greedy", "pattern"];
        let rules = Rules::default();
        let reference_eval = StrategySpec::parse(evals[which]).unwrap().build_evaluator::<Size8>().unwrap();
        let expected = best_moves_to_depth(board, depth, reference_eval.as_ref(), rules);
        for (table, ordering) in [(false, false), (true, true), (true, false), (false, true)] {
            let player = alphabeta::<Size8>(depth, evals[which], table, ordering, rules);
            let mut memory = Memory::new();
            let found = player.search(board, board.moves(), &mut memory);
            prop_assert_eq!(found, expected, "table {} ordering {}", table, ordering);
            let values = player.move_values(board, board.moves(), &mut memory);
            let exact: Vec<(Square, i32)> = squares(board.moves())
                .map(|s| (s, -minimax_to_depth(board.play(s), depth - 1, reference_eval.as_ref(), rules)))
                .collect();
            prop_assert_eq!(values, exact, "table {} ordering {}", table, ordering);
        }
    }

    #[test]
    fn alphabeta_equals_minimax_on_small_boards_and_anti(seed in any::<u64>(), plies in 0usize..20, depth in 1u32..6) {
        let rules = Rules { scoring: Scoring::Count, anti: true };
        let board = drawn::<Size6>(seed, plies)?;
        let eval = StrategySpec::parse("mobility").unwrap().build_evaluator::<Size6>().unwrap();
        let expected = best_moves_to_depth(board, depth, eval.as_ref(), rules);
        let player = alphabeta::<Size6>(depth, "mobility", true, true, rules);
        prop_assert_eq!(player.search(board, board.moves(), &mut Memory::new()), expected);
    }

    /// Square-weight evaluations value the moves above the horizon from their
    /// flips alone: on 4x4 and 6x6, where wipe-outs and full boards at the horizon
    /// are common, under both rules.
    #[test]
    fn alphabeta_by_square_weights_equals_minimax(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..5, anti in any::<bool>()) {
        let rules = Rules { scoring: if anti { Scoring::Count } else { Scoring::WinnerGetsEmpties }, anti };
        for eval in ["greedy", "weighted:preset=explorer"] {
            let board = drawn::<Size4>(seed, plies % 10)?;
            let reference = StrategySpec::parse(eval).unwrap().build_evaluator::<Size4>().unwrap();
            let expected = best_moves_to_depth(board, depth, reference.as_ref(), rules);
            let player = alphabeta::<Size4>(depth, eval, true, true, rules);
            prop_assert_eq!(player.search(board, board.moves(), &mut Memory::new()), expected, "{}", eval);
            let board = drawn::<Size6>(seed, plies)?;
            let reference = StrategySpec::parse(eval).unwrap().build_evaluator::<Size6>().unwrap();
            let expected = best_moves_to_depth(board, depth, reference.as_ref(), rules);
            let player = alphabeta::<Size6>(depth, eval, true, true, rules);
            prop_assert_eq!(player.search(board, board.moves(), &mut Memory::new()), expected, "{}", eval);
        }
    }
}

/// Checks every search option against the plain search (no ordering, no table:
/// itself checked against minimax above) at `depth`, on `board` and on the position
/// two plies later searched with the same memory (so with a table that the first
/// search filled, as in a game): the best value and every move that reaches it.
fn same_as_plain<G: Geometry>(
    board: Board<G>,
    depth: u32,
    eval: &str,
    rules: Rules,
) -> Result<(), TestCaseError> {
    let plain = alphabeta::<G>(depth, eval, false, false, rules);
    let later = {
        let after = board.play(Square::new(board.moves().lowest()));
        let moves = after.moves();
        let after = if moves.is_empty() {
            after.pass()
        } else {
            after.play(Square::new(moves.lowest()))
        };
        Some(after).filter(|b| !b.moves().is_empty())
    };
    // (table, ordering, node budget): a budget deepens iteratively, with aspiration windows.
    for (table, ordering, nodes) in [
        (true, true, None),
        (true, true, Some(u64::MAX / 2)),
        (true, false, None),
        (false, true, None),
    ] {
        let mut player = alphabeta::<G>(depth, eval, table, ordering, rules);
        player.nodes = nodes;
        let mut memory = Memory::new();
        for position in std::iter::once(board).chain(later) {
            let expected = plain.search(position, position.moves(), &mut Memory::new());
            let found = player.search(position, position.moves(), &mut memory);
            prop_assert_eq!(
                found,
                expected,
                "table {} ordering {} nodes {:?}",
                table,
                ordering,
                nodes
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn deep_alphabeta_equals_the_plain_search(seed in any::<u64>(), plies in 0usize..54, depth in 5u32..8, anti in any::<bool>()) {
        let rules = Rules { scoring: if anti { Scoring::Count } else { Scoring::WinnerGetsEmpties }, anti };
        same_as_plain(drawn::<Size8>(seed, plies)?, depth, "weighted", rules)?;
        let board = drawn::<Size6>(seed, plies % 30)?;
        same_as_plain(board, depth, "mobility", rules)?;
        same_as_plain(board, depth, "weighted:preset=explorer", rules)?;
        let board = drawn::<Size10>(seed, plies + 20)?;
        same_as_plain(board, depth.min(6), "eval", rules)?;
        same_as_plain(board, depth.min(6), "greedy", rules)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn solver_equals_brute_force(seed in any::<u64>(), empties in 1u32..=10, rule in 0usize..3) {
        let rules = [
            Rules::default(),
            Rules { scoring: Scoring::Count, anti: false },
            Rules { scoring: Scoring::WinnerGetsEmpties, anti: true },
        ][rule];
        let board = drawn::<Size8>(seed, (60 - empties) as usize)?;
        let (expected, expected_best) = reference::best_moves(board, rules);
        let solver = Solver::new(rules, 12).with_mode(Mode::All);
        let solution = solver.solve(board, &mut Memory::new());
        prop_assert_eq!(solution.score, expected);
        prop_assert_eq!(solution.best, expected_best);
        let exact = reference::move_values(board, rules);
        prop_assert_eq!(solver.move_values(board, board.moves(), &mut Memory::new()), exact);
    }
}

#[test]
fn solver_solves_whole_4x4_games() {
    // The whole 4x4 game from the start, solved two ways.
    let board = Board::<Size4>::start();
    let solution = Solver::new(Rules::default(), 12).solve(board, &mut Memory::new());
    assert_eq!(solution.score, reference::minimax(board, Rules::default()));
}

#[test]
fn alphabeta_endgame_plays_like_the_solver() {
    let board = random_position::<Size8>(3, 50).unwrap();
    let exact = Solver::new(Rules::default(), 14)
        .with_mode(Mode::All)
        .solve(board, &mut Memory::new());
    let expected: Vec<String> = squares(exact.best).map(|s| s.name(8)).collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(
        choices(
            build::<Size8>("alphabeta:depth=2,endgame=12").as_ref(),
            board,
            40
        ),
        expected
    );
    assert_eq!(
        choices(build::<Size8>("solver").as_ref(), board, 40),
        expected
    );
}

#[test]
fn node_budget_limits_the_search() {
    let board = random_position::<Size8>(11, 20).unwrap();
    let full = alphabeta::<Size8>(6, "weighted", true, true, Rules::default());
    let mut memory = Memory::new();
    let _ = full.search(board, board.moves(), &mut memory);
    let unbounded = memory.nodes;
    let mut budgeted = alphabeta::<Size8>(6, "weighted", true, true, Rules::default());
    budgeted.nodes = Some(2000);
    let mut memory = Memory::new();
    let _ = budgeted.search(board, board.moves(), &mut memory);
    assert!(memory.nodes < unbounded, "{} vs {unbounded}", memory.nodes);
    assert!(memory.nodes <= 2000 + 1, "{}", memory.nodes);
}

#[test]
fn same_seed_same_game_and_thread_count_does_not_matter() {
    for spec in [
        "random",
        "greedy",
        "alphabeta:depth=2,eval=mobility",
        "parity:base=corner-edge",
        "eval",
    ] {
        let a = build::<Size8>(spec);
        let b = build::<Size8>("weighted");
        let game = |seed| {
            let mut memories = [Memory::new(), Memory::new()];
            play_game(
                [a.as_ref(), b.as_ref()],
                Game::new(),
                &mut game_rng(seed),
                memories.each_mut(),
            )
            .transcript()
        };
        assert_eq!(game(5), game(5), "{spec}");
        // The play driver gives every game its own seed, whatever the thread count.
        let transcripts = |threads: usize| {
            let driver = Driver::<Size8>::new(Some(threads)).unwrap();
            driver.play(
                &[a.as_ref(), b.as_ref()],
                0..40,
                |g| {
                    let seats = if g % 2 == 0 { [0, 1] } else { [1, 0] };
                    (
                        (),
                        Deal {
                            seats,
                            start: Game::new(),
                            seed: 9 + g,
                        },
                    )
                },
                |_, (), game| game.transcript(),
                None,
            )
        };
        assert_eq!(transcripts(1), transcripts(2), "{spec}");
    }
    let random = build::<Size8>("random");
    let mut memories = [Memory::new(), Memory::new()];
    let g1 = play_game(
        [random.as_ref(), random.as_ref()],
        Game::new(),
        &mut game_rng(1),
        memories.each_mut(),
    );
    let g2 = play_game(
        [random.as_ref(), random.as_ref()],
        Game::new(),
        &mut game_rng(2),
        memories.each_mut(),
    );
    assert_ne!(g1.transcript(), g2.transcript());
}

#[test]
fn every_strategy_plays_every_size_and_the_anti_rules() {
    fn all<G: Geometry>() {
        let rules = Rules {
            scoring: Scoring::Count,
            anti: true,
        };
        // External engines and Python callables need a program: they play in
        // tests/integration/engines.rs and python_worker.rs.
        for kind in reversi_lab::strategy::spec::KINDS
            .iter()
            .filter(|k| !["engine", "python"].contains(&k.name))
        {
            if kind.name == "pattern" && G::SIZE != 8 {
                let refused = StrategySpec::parse("pattern").unwrap().build::<G>(rules);
                assert!(refused.is_err(), "pattern on {}x{}", G::SIZE, G::SIZE);
                continue;
            }
            let spec = match kind.name {
                "solver" => "alphabeta:depth=1,endgame=8".to_string(),
                "alphabeta" => "alphabeta:depth=2,eval=eval".to_string(),
                other => other.to_string(),
            };
            let strategy = StrategySpec::parse(&spec)
                .unwrap()
                .build::<G>(rules)
                .unwrap();
            let greedy = build::<G>("greedy");
            let mut memories = [Memory::new(), Memory::new()];
            let game = play_game(
                [strategy.as_ref(), greedy.as_ref()],
                Game::new(),
                &mut game_rng(3),
                memories.each_mut(),
            );
            assert!(game.is_over());
            let outcome = game.outcome(rules).unwrap();
            let fewer_black = outcome.black_discs < outcome.white_discs;
            if outcome.black_discs != outcome.white_discs {
                assert_eq!(
                    outcome.winner == Some(Color::Black),
                    fewer_black,
                    "anti rules on {}",
                    G::SIZE
                );
            }
        }
    }
    all::<Size4>();
    all::<Size6>();
    all::<Size8>();
    all::<reversi_lab::board::Size10>();
}

#[test]
fn the_solver_wins_anti_reversi_endgames_by_losing_discs() {
    // Under the anti rules the solver's choice must be the brute-force anti optimum.
    let rules = Rules {
        scoring: Scoring::Count,
        anti: true,
    };
    let board = random_position::<Size8>(21, 52).unwrap();
    let solution = Solver::new(rules, 12).solve(board, &mut Memory::new());
    assert_eq!(solution.score, reference::minimax(board, rules));
    let _ = Position::<Size8>::start();
}

#[test]
fn move_values_are_what_strategies_choose_by() {
    let board = random_position::<Size8>(7, 20).unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    let mut memory = Memory::new();
    let mut values = |spec: &str| {
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(&[]),
        };
        build::<Size8>(spec).move_values(board, board.moves(), &mut context)
    };
    let flips: Vec<(Square, i32)> = squares(board.moves())
        .map(|s| (s, board.flips(s).count() as i32))
        .collect();
    assert_eq!(values("greedy"), Some(flips.clone()));
    let fewest: Vec<(Square, i32)> = flips.iter().map(|&(s, f)| (s, -f)).collect();
    assert_eq!(values("minimum-disc"), Some(fewest));
    let mobility = values("mobility").unwrap();
    assert_eq!(
        mobility.iter().map(|&(s, _)| s).collect::<Vec<_>>(),
        squares(board.moves()).collect::<Vec<_>>()
    );
    for rule_based in ["random", "corner-first", "corner-edge", "parity"] {
        assert_eq!(values(rule_based), None, "{rule_based}");
    }
    // The endgame hands over to the solver, values included.
    let late = random_position::<Size8>(3, 52).unwrap();
    let solver = Solver::new(Rules::default(), 12);
    let exact = solver.move_values(late, late.moves(), &mut Memory::new());
    let mut context = Context {
        rng: &mut rng,
        memory: &mut Memory::new(),
        history: History::from_start(&[]),
    };
    let searched = build::<Size8>("alphabeta:depth=2,endgame=12").move_values(
        late,
        late.moves(),
        &mut context,
    );
    assert_eq!(searched, Some(exact));
}
