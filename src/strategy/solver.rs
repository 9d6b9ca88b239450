//! `solver`: exact endgame play by negamax alpha-beta to the end of the game.

use super::table::{Bound, TranspositionTable};
use super::{random_square, Context, Memory, Strategy};
use crate::board::{squares, Bits, Board, Geometry, Indices, Square};
use crate::game::Rules;
use std::time::{Duration, Instant};

/// Plays the move with the best exact final score under the rules in force.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    /// The rules the final score is counted under.
    pub rules: Rules,
    /// log2 of the transposition table size.
    pub table_bits: u32,
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<B: Bits> {
    /// The exact final score for the side to move (positive: a win by that margin).
    pub score: i32,
    /// Every move that reaches it (empty when the side to move must pass).
    pub best: B,
    /// Positions visited.
    pub nodes: u64,
}

/// Empties at or above which the solver probes its table: below, a probe costs
/// more than re-searching.
const TABLE_MIN_EMPTIES: u32 = 7;
/// Empties at or below which moves are found square by square (`value_small`).
const SMALL_EMPTIES: u32 = 5;
/// Empties at or above which moves are sorted fastest-first (fewest replies).
const ORDER_MIN_EMPTIES: u32 = 5;

struct Search<'a, G: Geometry> {
    rules: Rules,
    table: &'a mut TranspositionTable<G>,
    nodes: u64,
    /// The node count at which the search gives up (u64::MAX: never).
    limit: u64,
    /// The time at which it gives up, checked every few thousand interior nodes.
    deadline: Option<Instant>,
    /// Interior nodes since the last look at the clock.
    since_clock: u32,
}

/// How much a solve may spend before it gives up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Wall time.
    pub time: Option<Duration>,
}

impl<G: Geometry> Search<'_, G> {
    /// The exact value with few empties: moves are found by trying each empty
    /// square's flips instead of generating the move set, which is cheaper when
    /// only a handful of squares are empty.
    fn value_small(&mut self, board: Board<G>, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empty = board.empty();
        let mut best = i32::MIN;
        for index in Indices(empty) {
            let flips = G::flips(board.player, board.opponent, index);
            if flips.is_empty() {
                continue;
            }
            let child = board.play_flips(Square::new(index), flips);
            let value = if child.empty().is_empty() {
                self.nodes += 1;
                -self.rules.final_score(child)
            } else {
                -self.value_small(child, -beta, -alpha, false)
            };
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best == i32::MIN {
            if passed {
                // Neither side can move: the game is over.
                return self.rules.final_score(board);
            }
            return -self.value_small(board.pass(), -beta, -alpha, true);
        }
        best
    }

    /// Whether the budget is spent: from then on every value is meaningless and
    /// nothing is stored, and the caller discards the result.
    fn spent(&mut self) -> bool {
        if self.nodes >= self.limit {
            return true;
        }
        if let Some(deadline) = self.deadline {
            self.since_clock += 1;
            if self.since_clock >= 4096 {
                self.since_clock = 0;
                if Instant::now() >= deadline {
                    self.limit = self.nodes;
                    return true;
                }
            }
        }
        false
    }

    fn value(&mut self, board: Board<G>, mut alpha: i32, beta: i32) -> i32 {
        if board.empty_count() <= SMALL_EMPTIES {
            return self.value_small(board, alpha, beta, false);
        }
        if self.spent() {
            return 0;
        }
        self.nodes += 1;
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return self.rules.final_score(board);
            }
            return -self.value(passed, -beta, -alpha);
        }
        let empties = board.empty_count();
        if empties == 1 {
            // The last square: play it; the game is then over.
            let next = board.play(Square::new(moves.lowest()));
            self.nodes += 1;
            return -self.rules.final_score(next);
        }
        let alpha_in = alpha;
        let mut table_move = None;
        if empties >= TABLE_MIN_EMPTIES {
            if let Some(entry) = self.table.probe(board) {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
                table_move = entry.best;
            }
        }
        let mut best = i32::MIN;
        let mut best_move = None;
        if empties >= ORDER_MIN_EMPTIES {
            let mut list = [(0i32, 0u8); 128];
            let mut count = 0;
            for index in Indices(moves) {
                let child = board.play(Square::new(index));
                // Fewest replies first; the table's move before all; corners early.
                let mut key = (child.moves().count() as i32) * 16;
                if G::CORNERS.has(index) {
                    key -= 8;
                }
                if table_move == Some(Square::new(index)) {
                    key = i32::MIN;
                }
                list[count] = (key, index as u8);
                count += 1;
            }
            let list = &mut list[..count];
            list.sort_unstable_by_key(|&(key, index)| (key, index));
            for (position, &(_, index)) in list.iter().enumerate() {
                let square = Square::new(u32::from(index));
                let child = board.play(square);
                // Principal variation search: later moves are first tried with a
                // null window and searched again only if they might be better.
                let value = if position == 0 || i64::from(beta) - i64::from(alpha) <= 1 {
                    -self.value(child, -beta, -alpha)
                } else {
                    let probe = -self.value(child, -alpha - 1, -alpha);
                    if probe > alpha && probe < beta {
                        -self.value(child, -beta, -probe)
                    } else {
                        probe
                    }
                };
                if value > best {
                    best = value;
                    best_move = Some(square);
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        } else {
            for index in Indices(moves) {
                let square = Square::new(index);
                let value = -self.value(board.play(square), -beta, -alpha);
                if value > best {
                    best = value;
                    best_move = Some(square);
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        if empties >= TABLE_MIN_EMPTIES {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if self.nodes < self.limit {
                self.table.store(board, best, u8::MAX, bound, best_move);
            }
        }
        best
    }
}

impl Solver {
    /// Solves `board` exactly: its score and every move that reaches it.
    pub fn solve<G: Geometry>(&self, board: Board<G>, memory: &mut Memory<G>) -> Solution<G::Bits> {
        match self.solve_within(board, memory, Budget::default()) {
            Ok(solution) => solution,
            Err(_) => unreachable!("an unlimited budget is never spent"),
        }
    }

    /// Solves `board` within `budget`. When the budget runs out the search stops
    /// and returns `Err` with the nodes visited (the table is cleared, so no
    /// value of the unfinished search is ever reused).
    pub fn solve_within<G: Geometry>(
        &self,
        board: Board<G>,
        memory: &mut Memory<G>,
        budget: Budget,
    ) -> Result<Solution<G::Bits>, u64> {
        let rules = self.rules;
        let table = memory.solver_table(self.table_bits);
        let mut search = Search {
            rules,
            table,
            nodes: 0,
            limit: budget.nodes.unwrap_or(u64::MAX),
            deadline: budget.time.and_then(|t| Instant::now().checked_add(t)),
            since_clock: 0,
        };
        let (score, best) = search.root(board);
        let nodes = search.nodes;
        let spent = nodes >= search.limit;
        if spent {
            search.table.clear();
        }
        memory.nodes += nodes;
        if spent {
            Err(nodes)
        } else {
            Ok(Solution { score, best, nodes })
        }
    }
}

impl<G: Geometry> Search<'_, G> {
    fn root(&mut self, board: Board<G>) -> (i32, G::Bits) {
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            let score = if passed.can_move() {
                -self.value(passed, -i32::MAX, i32::MAX)
            } else {
                self.rules.final_score(board)
            };
            return (score, G::Bits::ZERO);
        }
        // Fastest-first at the root too, then every move searched with the window
        // (best - 1, +inf) so that ties with the best are found exactly.
        let mut order: Vec<(u32, u32)> = Indices(moves)
            .map(|i| (board.play(Square::new(i)).moves().count(), i))
            .collect();
        order.sort_unstable();
        let mut best = i32::MIN;
        let mut ties = G::Bits::ZERO;
        for (_, index) in order {
            let square = Square::new(index);
            let alpha = if best == i32::MIN {
                -i32::MAX
            } else {
                best - 1
            };
            let value = -self.value(board.play(square), -i32::MAX, -alpha);
            if value > best {
                best = value;
                ties = G::Bits::bit(index);
            } else if value == best {
                ties |= G::Bits::bit(index);
            }
        }
        (best, ties)
    }
}

impl Solver {
    /// Every move's exact final score for the side to move.
    pub fn move_values<G: Geometry>(
        &self,
        board: Board<G>,
        moves: G::Bits,
        memory: &mut Memory<G>,
    ) -> Vec<(Square, i32)> {
        squares(moves)
            .map(|s| (s, -self.solve(board.play(s), memory).score))
            .collect()
    }
}

impl<G: Geometry> Strategy<G> for Solver {
    fn choose(&self, board: Board<G>, _moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        let solution = self.solve(board, context.memory);
        random_square(solution.best, context.rng)
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        Some(Solver::move_values(self, board, moves, context.memory))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;

    #[test]
    fn a_finished_game_scores_itself() {
        let solver = Solver {
            rules: Rules::default(),
            table_bits: 10,
        };
        let board = Board::<Size8>::new(u64::MAX >> 1, 1 << 63);
        let mut memory = Memory::new();
        let solution = solver.solve(board, &mut memory);
        assert_eq!(solution.score, 62);
        assert_eq!(solution.best, 0);
    }
}
