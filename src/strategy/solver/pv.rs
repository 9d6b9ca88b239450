//! A solve's principal variation: best play for both sides from the chosen move to the
//! end of the game, read from the player's table once the solve is done (the search
//! itself does no work for it, and the table is only read, so that the next moves
//! and their node counts are those of a game that never asked).

use super::{Solver, SolverTable, EXACT};
use crate::board::{squares, Bits, Board, Geometry, Square};
use crate::strategy::Memory;

/// Empties from which a line the table does not carry is not solved out: the table
/// keeps best moves from 8 empties on, and a fresh solve of a position this small takes
/// well under a millisecond, where one of 20 empties can take a tenth of a second.
const SOLVE_OUT_MAX: u32 = 14;

/// log2 of the entries of the scratch table the end of a line is solved with.
const SCRATCH_BITS: u32 = 10;

impl Solver {
    /// The principal variation after `first` from `board`, whose exact score for the
    /// side to move is `score` (`first` reaching it): at each position a move the
    /// player's table proves to keep the score (the position after it bounded by the
    /// score from above: the table's best move first), and where it proves none, from
    /// [`SOLVE_OUT_MAX`] empties, the move of a fresh solve in a scratch memory, to the
    /// end of the game. A line the table stops carrying further from the end stops there.
    pub fn principal_variation<G: Geometry>(
        &self,
        board: Board<G>,
        first: Square,
        score: i32,
        memory: &mut Memory<G>,
    ) -> Vec<Square> {
        let mut line = vec![first];
        let mut position = board.play(first);
        // The exact score of `position` for its side to move.
        let mut target = -score;
        let mut scratch: Option<Memory<G>> = None;
        loop {
            if !position.can_move() {
                let passed = position.pass();
                if !passed.can_move() {
                    return line;
                }
                position = passed;
                target = -target;
            }
            let moves = position.moves();
            // A move is proven best where its position's entry says the opponent can
            // do no better than the score after it (an upper bound): a table's best
            // move alone proves nothing, as a bucket keeps the intersection of bounds
            // stored with different best moves.
            let proven = |table: Option<&mut SolverTable<G>>| {
                let table = table?;
                let hint = table.probe(position, EXACT).and_then(|b| b.best);
                let keeps = |square: &Square| {
                    table
                        .probe(position.play(*square), EXACT)
                        .is_some_and(|after| after.upper <= -target)
                };
                hint.filter(|s| moves.has(s.index()) && keeps(s))
                    .or_else(|| squares(moves).find(|s| keeps(s)))
            };
            let mut next = proven(memory.find_state::<SolverTable<G>>());
            if next.is_none() {
                if position.empty_count() > SOLVE_OUT_MAX {
                    return line;
                }
                let scratch = scratch.get_or_insert_with(Memory::new);
                let solution = Solver::new(self.rules, SCRATCH_BITS).solve(position, scratch);
                debug_assert_eq!(solution.score, target, "the line keeps the score");
                next = Some(Square::new(solution.best.lowest()));
            }
            let square = next.expect("a move is found or solved");
            line.push(square);
            position = position.play(square);
            target = -target;
        }
    }
}
