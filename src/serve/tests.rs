//! The engine against the built strategy, seeds and the GGF board (the game line's
//! passes and undo are tested in `game::line`).

use super::*;
use crate::board::Size6;
use crate::strategy::random_square;
use crate::strategy::spec::{GreedySpec, MAX_UNBUDGETED_DEPTH};
use crate::with_geometry;

/// A game of `spec` against itself as the built strategy plays it with one memory
/// and the generator of `seed`, as the engine does: each turn (None: a pass).
pub(crate) fn self_play<G: Geometry>(spec: &str, seed: u64) -> Vec<Option<Square>> {
    let strategy = StrategySpec::parse(spec)
        .unwrap()
        .build::<G>(RULES)
        .unwrap();
    let mut memory = Memory::new();
    memory.new_game();
    let mut rng = game_rng(seed);
    let mut position = Position::<G>::start();
    let mut turns = Vec::new();
    while !position.board.is_game_over() {
        let moves = position.board.moves();
        if moves.is_empty() {
            turns.push(None);
            position = position.pass();
            continue;
        }
        let square = if moves.count() == 1 {
            Square::new(moves.lowest())
        } else {
            let mut context = Context {
                rng: &mut rng,
                memory: &mut memory,
                history: History::at(position),
            };
            strategy
                .choose(position.board, moves, &mut context)
                .unwrap()
                .square
        };
        turns.push(Some(square));
        position = position.play(square);
    }
    turns
}

/// The engine's game against itself, asking for hints and analysis between moves
/// when `meddle` is set.
fn engine_play<G: Geometry>(spec: &str, seed: u64, meddle: bool) -> Vec<Option<Square>> {
    let spec = StrategySpec::parse(spec).unwrap();
    let mut engine = Engine::<G>::new(&spec, Position::start(), 99).unwrap();
    engine.new_game(Position::start(), seed);
    while !engine.line.is_over() {
        if meddle {
            let _ = engine.values();
            let _ = engine.value_at(engine.line.position().board);
            let _ = engine.peek();
        }
        let square = engine.choose().square;
        engine.line.play_turn(square).unwrap();
    }
    engine.line.turns().iter().map(|t| t.square).collect()
}

#[test]
fn the_engine_plays_the_built_strategys_moves() {
    let cases: [(&str, u32); 6] = [
        ("alphabeta:depth=2,eval=pattern,endgame=10", 8),
        ("alphabeta:depth=3,endgame=8", 6),
        ("alphabeta:depth=6,eval=mobility", 6),
        ("solver", 4),
        ("weighted", 8),
        ("random", 6),
    ];
    for (spec, size) in cases {
        for seed in [1, 7] {
            let (built, engine, meddled) = with_geometry!(size, G => (
                self_play::<G>(spec, seed),
                engine_play::<G>(spec, seed, false),
                engine_play::<G>(spec, seed, true),
            ));
            assert_eq!(engine, built, "{spec} on {size}x{size}, seed {seed}");
            assert_eq!(meddled, built, "hints changed {spec}'s moves");
        }
    }
}

#[test]
fn games_are_numbered_once_begun() {
    let mut games = Games::new(5);
    assert_eq!(games.new_game(), Seeds(5).game(0, 0));
    assert_eq!(games.new_game(), Seeds(5).game(0, 0));
    games.begin();
    assert_eq!(games.new_game(), Seeds(5).game(0, 1));
    assert_eq!((games.number(), games.seed()), (1, Seeds(5).game(0, 1)));
}

#[test]
fn ggf_boards_read_any_layout() {
    let start = Position::<crate::board::Size8>::start();
    let spaced = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
    assert_eq!(ggf_board(spaced), Ok(start));
    let compact = spaced.replace(' ', "").replacen('8', "8 ", 1);
    assert_eq!(ggf_board(&compact), Ok(start));
    let white = ggf_board::<crate::board::Size8>(&spaced.replace(" *", " O")).unwrap();
    assert_eq!(white.side, Color::White);
    assert!(ggf_board::<Size6>(spaced).is_err());
    assert!(ggf_board::<crate::board::Size8>("8 ---").is_err());
}

#[test]
fn depth_goes_to_searches_within_bounds() {
    let depth = |spec: &StrategySpec, d: &str| match with_depth(spec, d) {
        Ok(Some(StrategySpec::Alphabeta(ab))) => Ok((ab.depth, ab.endgame)),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e),
    };
    let spec = StrategySpec::parse(DEFAULT_STRATEGY).unwrap();
    assert_eq!(depth(&spec, "5"), Ok((5, 22)));
    // The default has a time budget, so any depth up to 60 is safe.
    assert_eq!(depth(&spec, "30"), Ok((30, 22)));
    assert_eq!(depth(&spec, "60"), Ok((60, 22)));
    let fixed = StrategySpec::parse("alphabeta:depth=8,eval=pattern").unwrap();
    assert_eq!(depth(&fixed, "12"), Ok((MAX_UNBUDGETED_DEPTH, 0)));
    // Out of range or no number: refused with the range, never bent into it.
    for bad in ["13", "99", "0", "-3", "abc", "", "4.5"] {
        let e = depth(&fixed, bad).unwrap_err();
        assert!(e.contains("from 1 to 12"), "{bad}: {e}");
        assert!(e.contains(&format!("set depth {bad}:")), "{bad}: {e}");
    }
    assert!(depth(&spec, "61").unwrap_err().contains("from 1 to 60"));
    let budgeted = StrategySpec::parse("alphabeta:nodes=1000").unwrap();
    assert_eq!(depth(&budgeted, "30").map(|d| d.0), Ok(30));
    assert_eq!(
        with_depth(&StrategySpec::Greedy(GreedySpec {}), "4"),
        Ok(None)
    );
    assert_eq!(
        with_depth(&StrategySpec::Greedy(GreedySpec {}), "-3"),
        Ok(None)
    );
    let parity = StrategySpec::parse("parity:base=(alphabeta:depth=2)").unwrap();
    assert!(matches!(with_depth(&parity, "4"), Ok(Some(_))));
    assert!(with_depth(&parity, "0").is_err());
    assert!(check(&spec).is_ok());
    assert!(check(&StrategySpec::parse("solver").unwrap()).is_err());
}

#[test]
fn words_of_both_protocols() {
    assert_eq!(colour("B"), Some(Color::Black));
    assert_eq!(colour("White"), Some(Color::White));
    assert_eq!(colour("x"), None);
    for pass in ["pass", "PASS", "pa", "PS", "@@@@"] {
        assert_eq!(move_word(pass, 8), Some(None), "{pass}");
    }
    assert_eq!(move_word("F5", 8), Some(Square::parse("f5", 8)));
    assert_eq!(move_word("j10", 10), Some(Square::parse("j10", 10)));
    assert_eq!(move_word("i9", 8), None);
}

/// A position of `empties` empty squares whose exact value is a draw, found by seeded
/// random play (6x6: small enough to solve at once).
fn a_drawn_position(empties: u32) -> Position<Size6> {
    let solver = crate::strategy::Solver::new(RULES, 16);
    for seed in 0.. {
        let mut rng = game_rng(seed);
        let mut position = Position::<Size6>::start();
        while position.board.empty_count() > empties && !position.board.is_game_over() {
            let moves = position.board.moves();
            position = if moves.is_empty() {
                position.pass()
            } else {
                position.play(random_square(moves, &mut rng))
            };
        }
        let board = position.board;
        if board.empty_count() == empties
            && board.moves().count() > 1
            && solver.solve(board, &mut Memory::new()).score == 0
        {
            return position;
        }
    }
    unreachable!("a seed gives a drawn position")
}

#[test]
fn values_come_from_the_choice_and_a_solved_draw_is_exact() {
    let position = a_drawn_position(10);
    for spec in ["solver", "alphabeta:depth=2,endgame=12"] {
        let spec = StrategySpec::parse(spec).unwrap();
        let mut engine = Engine::<Size6>::new(&spec, position, 3).unwrap();
        let choice = engine.choose();
        let drawn = Some(Eval {
            discs: 0.0,
            exact: true,
        });
        assert_eq!(choice.eval, drawn, "{spec:?}");
        assert_eq!(engine.value_at(position.board), drawn, "{spec:?}");
    }
    // Above its endgame a search states an estimate, on its evaluation's scale.
    let spec = StrategySpec::parse("alphabeta:depth=2,endgame=4").unwrap();
    let mut engine = Engine::<Size6>::new(&spec, position, 3).unwrap();
    let eval = engine.choose().eval.expect("a search states its value");
    assert!(!eval.exact);
}
