//! `solver`: exact endgame play: the best final score and a best move (or all of them).

mod last;
mod pv;
mod search;
mod spec;
mod table;

pub use spec::SolverSpec;
pub use table::{Bounds, Confidence, Place, SolverTable, EXACT};

use super::{random_square, Context, Memory, Pick, Picked, Strategy};
use crate::board::{squares, Bits, Board, Geometry, Square};
use crate::game::Rules;
use crate::strategy::pattern::SCALE;
use search::{Moves, Search, Shared, INF};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Which best moves a solve reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// One best move: later moves only have to be proved no better (the fastest).
    #[default]
    One,
    /// Every move that reaches the best score: each must be proved equal or worse.
    All,
}

/// Plays the move with the best exact final score under the rules in force.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    /// The rules the final score is counted under.
    pub rules: Rules,
    /// log2 of the transposition table size.
    pub table_bits: u32,
    /// One best move or all of them.
    pub mode: Mode,
    /// Threads searching each position (1: the calling thread alone).
    pub threads: usize,
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<B: Bits> {
    /// The exact final score for the side to move (positive: a win by that margin).
    pub score: i32,
    /// A best move (`Mode::One`) or every move that reaches the score
    /// (`Mode::All`); empty when the side to move must pass.
    pub best: B,
    /// Positions visited.
    pub nodes: u64,
}

/// How much a solve may spend before it gives up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Wall time.
    pub time: Option<Duration>,
}

impl Solver {
    /// A one-best-move, single-threaded solver.
    #[must_use]
    pub const fn new(rules: Rules, table_bits: u32) -> Self {
        Solver {
            rules,
            table_bits,
            mode: Mode::One,
            threads: 1,
        }
    }

    /// The same solver reporting best moves as `mode` says.
    #[must_use]
    pub const fn with_mode(self, mode: Mode) -> Self {
        Solver { mode, ..self }
    }

    /// The same solver on `threads` threads.
    #[must_use]
    pub const fn with_threads(self, threads: usize) -> Self {
        Solver { threads, ..self }
    }

    /// The solver games play with: every best move, so that ties are broken at
    /// random by the game's generator, as games always have been.
    #[must_use]
    pub const fn for_play(rules: Rules, table_bits: u32) -> Self {
        Solver::new(rules, table_bits).with_mode(Mode::All)
    }

    /// Solves `board` exactly: its score and its best move (or moves, by `mode`); once
    /// the answer is no longer wanted (`Memory::cancel`), score 0 and every legal move.
    pub fn solve<G: Geometry>(&self, board: Board<G>, memory: &mut Memory<G>) -> Solution<G::Bits> {
        match self.solve_within(board, memory, Budget::default()) {
            Ok(solution) => solution,
            // An unlimited budget is never spent: the answer is no longer wanted
            // (`Memory::cancel`), so any legal move does.
            Err(nodes) => Solution {
                score: 0,
                best: board.moves(),
                nodes,
            },
        }
    }

    /// Solves `board` within `budget`. When the budget runs out (or the answer is no
    /// longer wanted, `Memory::cancel`) the search stops
    /// and returns `Err` with the nodes visited (the table is cleared, so no
    /// value of the unfinished search is ever reused). With more than one
    /// thread the score and `Mode::All`'s moves are the same; `Mode::One` reports
    /// the first move in the root's order that reaches the score, and from 18
    /// empties that order comes from selective passes whose values depend on how
    /// the threads race, so among equal moves the one reported may differ.
    pub fn solve_within<G: Geometry>(
        &self,
        board: Board<G>,
        memory: &mut Memory<G>,
        budget: Budget,
    ) -> Result<Solution<G::Bits>, u64> {
        let cancel = memory.cancel.clone();
        let table = SolverTable::kept(memory, self.table_bits);
        let shared = Shared {
            rules: self.rules,
            table,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limit: budget.nodes.unwrap_or(u64::MAX),
            deadline: budget.time.and_then(|t| Instant::now().checked_add(t)),
            cancel,
            parallel: self.threads > 1,
        };
        let run = || {
            let mut search = Search::new(&shared);
            let found = passes(&mut search, board, self.mode);
            search.sync();
            (found, search.nodes)
        };
        let pool = (self.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(self.threads)
                    .build()
                    .ok()
            })
            .flatten();
        let ((score, best), nodes) = match &pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        let spent = shared.stop.load(Relaxed);
        memory.nodes += nodes;
        if spent {
            SolverTable::kept(memory, self.table_bits).clear();
            Err(nodes)
        } else {
            Ok(Solution { score, best, nodes })
        }
    }
}

/// The selective passes before an exact solve, by confidence (in tenths of the
/// estimate's error). Chosen by time on FFO #40-#49 on 2 threads (t = 1.0 and 2.0:
/// 19.4 to 20.1 s; 0.5, 1.0, 1.5 and 2.0: 17.9 to 18.4 s; steps of 0.4 to 2.0: 16.7 to
/// 17.1 s; steps of 0.3 to 2.1: 16.1 to 16.4 s; steps of 0.2 to 2.0: 16.5 to 17.2 s),
/// and on #50-#52 (1.0 and 2.0: 27.3 s; steps of 0.4: 26.1 s; steps of 0.3: 25.5 s).
const PASSES: [Confidence; 7] = [3, 6, 9, 12, 15, 18, 21];
/// Empties from which a solve starts with selective passes.
const PASS_MIN: u32 = 18;

/// Selective passes of rising confidence (from `PASS_MIN` empties, with the pattern
/// evaluation), each leaving best moves and a value for the next, then the exact
/// one. The selective values stay out of the exact pass (see [`Confidence`]): what
/// it takes from them is the order of moves and the centre of its first window.
fn passes<G: Geometry>(
    search: &mut Search<'_, '_, G>,
    board: Board<G>,
    mode: Mode,
) -> (i32, G::Bits) {
    let mut guess = None;
    if search.eval.is_some() && board.empty_count() >= PASS_MIN {
        for t in PASSES {
            search.confidence = t;
            let (value, _) = root(search, board, Mode::One, guess);
            if search.halted() {
                break;
            }
            guess = Some(value);
        }
        search.confidence = EXACT;
    }
    root(search, board, mode, guess)
}

/// The root: moves in the same order as at any node; each later move is first
/// proved worse than the best so far (`Mode::One`) or than the best minus one
/// (`Mode::All`, so that equal moves are found) and searched exactly only if not.
fn root<G: Geometry>(
    search: &mut Search<'_, '_, G>,
    board: Board<G>,
    mode: Mode,
    guess: Option<i32>,
) -> (i32, G::Bits) {
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        let score = if passed.can_move() {
            -search.value(passed, -INF, INF)
        } else {
            search.shared.rules.final_score(board)
        };
        return (score, G::Bits::ZERO);
    }
    let empties = board.empty_count();
    let hint = search
        .shared
        .table
        .probe(board, search.confidence)
        .and_then(|b| b.best);
    let mut order = Moves::new();
    if search
        .order(&mut order, board, moves, INF, empties)
        .is_some()
    {
        unreachable!("nothing reaches an infinite beta")
    }
    if let Some(hint) = hint {
        order.promote(hint);
    }
    let margin = match mode {
        Mode::One => 0,
        Mode::All => 1,
    };
    let mut best = -INF;
    let mut ties = G::Bits::ZERO;
    let mut first = None;
    for (position, &index) in order.squares().iter().enumerate() {
        let child = board.play(Square::new(u32::from(index)));
        let value = if position == 0 {
            first_value(search, child, empties, guess)
        } else {
            search.scout(child, best - margin, INF)
        };
        if value > best {
            best = value;
            ties = G::Bits::bit(u32::from(index));
            first = Some(Square::new(u32::from(index)));
        } else if value == best && mode == Mode::All {
            ties |= G::Bits::bit(u32::from(index));
        }
    }
    if !search.halted() {
        let exact = Bounds {
            lower: best,
            upper: best,
            best: first,
        };
        let confidence = search.confidence_at(empties);
        search.shared.table.store(board, empties, exact, confidence);
    }
    (best, ties)
}

/// Discs either side of the estimate the root's first move is first searched within
/// (over FFO #40-#42 on one thread: 2.5% fewer nodes than a full window; 4 and 16
/// did no better).
const ASPIRATION: i32 = 8;
/// Empties from which the root aspires (below, a solve is too quick to matter).
const ASPIRATION_MIN: u32 = 16;

/// The first move's value: searched first in a window around `guess` (the previous
/// selective pass's value) or else the pattern evaluation's estimate (aspiration),
/// which proves most of the tree with narrow bounds; widened to the side it fails
/// on until the value lies inside.
fn first_value<G: Geometry>(
    search: &mut Search<'_, '_, G>,
    child: Board<G>,
    empties: u32,
    guess: Option<i32>,
) -> i32 {
    let Some(eval) = search.eval.filter(|_| empties >= ASPIRATION_MIN) else {
        return -search.value(child, -INF, INF);
    };
    let guess = guess
        .unwrap_or_else(|| -search.estimate(eval, child, 2, -INF * SCALE, INF * SCALE) / SCALE);
    let (mut alpha, mut beta) = (guess - ASPIRATION, guess + ASPIRATION);
    // A selective pass's values need not agree from one window to the next: once
    // both sides have failed, the window is the whole range, so the loop ends.
    let (mut failed_low, mut failed_high) = (false, false);
    loop {
        let value = -search.value(child, -beta, -alpha);
        if search.halted() {
            return value;
        }
        if value <= alpha {
            failed_low = true;
            (alpha, beta) = (-INF, if failed_high { INF } else { value + 1 });
        } else if value >= beta {
            failed_high = true;
            (alpha, beta) = (if failed_low { -INF } else { value - 1 }, INF);
        } else {
            return value;
        }
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
    fn pick(&self, board: Board<G>, _moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let began = Instant::now();
        let solution = self.solve(board, context.memory);
        let square = random_square(solution.best, context.rng);
        let pv = self.principal_variation(board, square, solution.score, context.memory);
        let notes = &mut context.memory.notes;
        notes.set_pv(pv);
        notes.timed_from(began);
        Ok(Pick::valued(square, solution.score).proven())
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
mod tests;
