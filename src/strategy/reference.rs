//! The reference the searches are checked against: plain minimax over every move, with
//! no pruning, table, ordering or thread, so slow and plainly right.
//!
//! One text compiled twice: here as `strategy::reference` for the library's unit tests
//! (the solver's), and as `reference` in the integration tests, whose `main.rs` includes
//! this file by path for `strategies` and `analyze`. They cannot reach a `#[cfg(test)]`
//! module of the library (they link the library built without `cfg(test)`), and making
//! it public would ship it in every build and the Python wheel. Both crates name the
//! library `reversi_lab` (the unit tests by `extern crate self` in `lib.rs`), so the
//! paths below read the same in both.
#![allow(dead_code)] // each of the two crates uses its part

use reversi_lab::board::{squares, Bits, Board, Geometry, Square};
use reversi_lab::game::Rules;
use reversi_lab::strategy::{terminal_value, Evaluator};

/// The exact value for the side to move: the final score under `rules` after best play
/// by both sides (a side without a move passes; the game ends when neither can move).
pub fn minimax<G: Geometry>(board: Board<G>, rules: Rules) -> i32 {
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        return if passed.can_move() {
            -minimax(passed, rules)
        } else {
            rules.final_score(board)
        };
    }
    squares(moves)
        .map(|s| -minimax(board.play(s), rules))
        .max()
        .expect("a move")
}

/// Each legal move with its exact value for the side to move, in square order.
pub fn move_values<G: Geometry>(board: Board<G>, rules: Rules) -> Vec<(Square, i32)> {
    squares(board.moves())
        .map(|s| (s, -minimax(board.play(s), rules)))
        .collect()
}

/// The exact value and every move that reaches it (none when the side must pass).
pub fn best_moves<G: Geometry>(board: Board<G>, rules: Rules) -> (i32, G::Bits) {
    let value = minimax(board, rules);
    let mut best = G::Bits::ZERO;
    for (s, v) in move_values(board, rules) {
        if v == value {
            best |= G::Bits::bit(s.index());
        }
    }
    (value, best)
}

/// Minimax `depth` plies deep over `eval`, with alpha-beta's conventions: a pass uses no
/// depth, a finished game scores `terminal_value`, and at the horizon only a full board
/// or a wipe-out is recognised as finished.
pub fn minimax_to_depth<G: Geometry>(
    board: Board<G>,
    depth: u32,
    eval: &dyn Evaluator<G>,
    rules: Rules,
) -> i32 {
    if depth == 0 {
        if board.empty() == G::Bits::ZERO
            || board.player == G::Bits::ZERO
            || board.opponent == G::Bits::ZERO
        {
            return terminal_value(rules, board);
        }
        return eval.evaluate(board);
    }
    let moves = board.moves();
    if moves.is_empty() {
        if !board.pass().can_move() {
            return terminal_value(rules, board);
        }
        return -minimax_to_depth(board.pass(), depth, eval, rules);
    }
    squares(moves)
        .map(|s| -minimax_to_depth(board.play(s), depth - 1, eval, rules))
        .max()
        .expect("a move")
}

/// `minimax_to_depth` at the root (`depth` at least 1, a side with a move): the value
/// and every move that reaches it.
pub fn best_moves_to_depth<G: Geometry>(
    board: Board<G>,
    depth: u32,
    eval: &dyn Evaluator<G>,
    rules: Rules,
) -> (i32, G::Bits) {
    let mut best = i32::MIN;
    let mut ties = G::Bits::ZERO;
    for s in squares(board.moves()) {
        let v = -minimax_to_depth(board.play(s), depth - 1, eval, rules);
        if v > best {
            best = v;
            ties = G::Bits::bit(s.index());
        } else if v == best {
            ties |= G::Bits::bit(s.index());
        }
    }
    (best, ties)
}

/// Plays `line` from `board` (passes implied), each move checked legal: the position
/// at its end, and whether the side to move there is the side to move at the start.
pub fn play_line<G: Geometry>(mut board: Board<G>, line: &[Square]) -> (Board<G>, bool) {
    let mut same = true;
    for (ply, square) in line.iter().enumerate() {
        if !board.can_move() {
            board = board.pass();
            same = !same;
        }
        assert!(
            board.moves().has(square.index()),
            "ply {ply} of {line:?} is illegal"
        );
        board = board.play(*square);
        same = !same;
    }
    (board, same)
}
