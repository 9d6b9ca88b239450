//! `mcts` everywhere a strategy goes: the same games on any thread count through
//! `match`, and its time budget held over a thousand moves.

use crate::common::{ok, Dir};
use reversi_lab::board::{Board, Size8};
use reversi_lab::game::Rules;
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::strategy::clock::TIME_MARGIN;
use reversi_lab::strategy::{random_square, Context, History, Memory, StrategySpec};
use std::time::{Duration, Instant};

#[test]
fn the_same_games_on_any_thread_count() {
    let dir = Dir::new();
    for (threads, extra) in [
        ("1", &[][..]),
        ("2", &[][..]),
        ("1", &["--size", "6", "--anti"][..]),
        ("2", &["--size", "6", "--anti"][..]),
    ] {
        let csv = format!("games-{threads}-{}.csv", extra.len());
        let mut args = vec![
            "match",
            "mcts:iterations=300,rave=50",
            "mcts:iterations=200,rollout=greedy,epsilon=0.2",
            "--games",
            "6",
            "--seed",
            "11",
            "--threads",
            threads,
            "--csv",
            &csv,
        ];
        args.extend(extra);
        ok(dir.path(), &args);
    }
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(read("games-1-0.csv"), read("games-2-0.csv"));
    assert_eq!(read("games-1-3.csv"), read("games-2-3.csv"));
    assert_ne!(read("games-1-0.csv"), read("games-1-3.csv"));
}

#[test]
fn the_time_budget_holds_over_a_thousand_moves() {
    let budget = Duration::from_millis(4);
    let mcts = StrategySpec::parse("mcts:time=4ms")
        .unwrap()
        .build::<Size8>(Rules::default())
        .unwrap();
    let mut rng = game_rng(5);
    let mut memory = Memory::new();
    let mut board = Board::<Size8>::start();
    let mut longest = Duration::ZERO;
    let mut moves = 0u32;
    while moves < 1000 {
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
        longest = longest.max(started.elapsed());
        // Half the moves at random, so that the positions vary.
        board = board.play(if moves.is_multiple_of(2) {
            square
        } else {
            random_square(legal, &mut rng)
        });
        moves += 1;
    }
    assert!(longest <= budget + TIME_MARGIN, "{longest:?}");
}
