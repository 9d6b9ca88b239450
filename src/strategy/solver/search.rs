//! The solver's search: null-window alpha-beta (PVS) with fastest-first ordering,
//! a shared table, enhanced transposition and stability cut-offs, and Young
//! Brothers Wait splitting over rayon's threads.

use super::table::{Bounds, Confidence, SolverTable, EXACT};
use crate::board::{Bits, Board, Geometry, Indices, Protected, Square};
use crate::game::Rules;
use crate::strategy::mobility::potential_mobility;
use crate::strategy::pattern::{Weights, SCALE};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// Above every score (scores never leave -CELLS..=CELLS).
pub(super) const INF: i32 = 1000;
/// Empties at or below which `last` finishes the game without move generation.
pub(super) const LAST: u32 = 5;
/// Empties at or above which the table is used: below, a probe costs more than it saves.
const TABLE_MIN: u32 = 8;
/// Empties at or above which moves are sorted fastest-first; below, by parity alone.
const ORDER_MIN: u32 = 7;
/// Empties at or above which every child is looked up before searching (ETC).
const ETC_MIN: u32 = 14;
/// Empties at or above which stable discs may prove a cut-off.
const STABILITY_MIN: u32 = 7;
/// Empties at or above which a node's younger brothers are searched in parallel.
const SPLIT_MIN: u32 = 13;
/// Empties at or above which moves are ordered by the pattern evaluation too (8x8,
/// standard rules): each child's estimate, after a search of one ply from
/// `ESTIMATE_DEEPER` empties on. Chosen by nodes over FFO #40-#42 on one thread
/// (from 10, 12, 14 or 16 empties; depth 1 from 14, 16, 18 or 20; depth 2 from
/// 20 or 24 searched more nodes, not fewer).
const ESTIMATE_MIN: u32 = 12;
const ESTIMATE_DEEPER: u32 = 18;
/// What a disc of estimate weighs in the ordering key, in sixteenths of a reply.
/// With the shipped weights and the selective passes, 3 and 4 visited the fewest
/// nodes over FFO #40-#52 on one thread (2.63 G and 2.65 G; 6: 2.74 G, 10: 3.00 G,
/// 16: 3.32 G): the estimate is a noisy one, so it only breaks near-ties of mobility.
const ESTIMATE_WEIGHT: i32 = 4;
/// Empties from which a selective pass may cut a node (see `Search::probcut`):
/// below, its values are exact, and the exact pass reuses them.
const PROBCUT_MIN: u32 = 14;
/// Plies of the estimate a selective cut is predicted from.
const PROBCUT_DEPTH: u32 = 2;
/// The estimate's error against exact scores, in discs: the held-out set's root mean
/// square error of the evaluation itself is 7.1 to 8.1 discs at 16-27 empties
/// (docs/training.md); 6 instead of 8 searched 4% more nodes over FFO #40-#52.
const PROBCUT_SIGMA: i32 = 8;
/// Nodes between two looks at the budget and the clock.
const SYNC_EVERY: u64 = 4096;

/// What every thread of one solve shares.
pub(super) struct Shared<'a, G: Geometry> {
    pub rules: Rules,
    pub table: &'a SolverTable<G>,
    /// Set once the budget is spent: from then on values are meaningless.
    pub stop: AtomicBool,
    /// Nodes reported by all threads so far (for the budget).
    pub nodes: AtomicU64,
    pub limit: u64,
    pub deadline: Option<Instant>,
    /// The memory's flag for an answer no longer wanted (read with the clock).
    pub cancel: Option<std::sync::Arc<AtomicBool>>,
    /// Whether nodes may split over rayon's threads.
    pub parallel: bool,
}

/// The cut-off flags of the splits a helper works under: once a brother
/// cuts off, everything below it is wasted work and stops.
#[derive(Clone, Copy)]
pub(super) struct Abort<'c> {
    flag: &'c AtomicBool,
    up: Option<&'c Abort<'c>>,
}

impl Abort<'_> {
    fn raised(&self) -> bool {
        self.flag.load(Relaxed) || self.up.is_some_and(Abort::raised)
    }
}

/// One thread's search.
pub(super) struct Search<'s, 'a, G: Geometry> {
    pub shared: &'s Shared<'a, G>,
    /// The splits this search is a helper of.
    abort: Option<&'s Abort<'s>>,
    /// Positions visited by this search and the helpers it waited for.
    pub nodes: u64,
    synced: u64,
    next_sync: u64,
    /// The board's four quarters, the regions whose parity orders moves.
    pub quadrants: [G::Bits; 4],
    /// The squares by kind, in the order the last plies try them.
    pub kinds: [G::Bits; 4],
    /// The pattern evaluation that orders deep nodes (8x8 under the standard rules).
    pub eval: Option<&'static Weights>,
    /// The pass's confidence (`EXACT`, or a selective pass's); a split's helpers
    /// take their parent's.
    pub confidence: Confidence,
}

/// A split's best value so far and the move's place in its list.
type Found = Option<(i32, usize)>;

/// A move list: squares and their ordering keys, best key first after sorting.
/// Two arrays of plain integers, so that an empty list is a cheap memset (an
/// array of `(i32, u8)` pairs was cleared field by field).
pub(super) struct Moves {
    keys: [i32; 128],
    squares: [u8; 128],
    len: usize,
}

impl Default for Moves {
    fn default() -> Self {
        Self::new()
    }
}

impl Moves {
    /// An empty list, filled by `Search::order` in the caller's frame (a returned
    /// list was copied, a kilobyte a node).
    pub fn new() -> Self {
        Moves {
            keys: [0; 128],
            squares: [0; 128],
            len: 0,
        }
    }

    /// The moves' squares, best first.
    pub fn squares(&self) -> &[u8] {
        &self.squares[..self.len]
    }

    /// Puts `square` first, the others keeping their order (if it is listed).
    pub fn promote(&mut self, square: Square) {
        let squares = &mut self.squares[..self.len];
        if let Some(at) = squares.iter().position(|&s| u32::from(s) == square.index()) {
            squares[..=at].rotate_right(1);
            self.keys[..=at].rotate_right(1);
        }
    }
}

impl<'s, 'a, G: Geometry> Search<'s, 'a, G> {
    pub fn new(shared: &'s Shared<'a, G>) -> Self {
        Search {
            shared,
            abort: None,
            nodes: 0,
            synced: 0,
            next_sync: SYNC_EVERY.min(shared.limit),
            quadrants: crate::board::quadrants::<G>(),
            kinds: crate::board::square_kinds::<G>(),
            eval: (G::CELLS == 64 && shared.rules == Rules::default()).then(Weights::shipped),
            confidence: EXACT,
        }
    }

    /// A shallow negamax over the pattern evaluation (no table, no ordering): the
    /// estimate deep nodes order their moves by, in 1/`SCALE` discs.
    pub(super) fn estimate(
        &mut self,
        eval: &Weights,
        board: Board<G>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return eval.evaluate_board(board).unwrap_or(0);
        }
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return self.shared.rules.final_score(board) * SCALE;
            }
            return -self.estimate(eval, passed, depth, -beta, -alpha);
        }
        let mut best = -INF * SCALE;
        for index in Indices(moves) {
            let value = -self.estimate(
                eval,
                board.play(Square::new(index)),
                depth - 1,
                -beta,
                -alpha,
            );
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Whether the budget is spent. Checked at every interior node, cheaply:
    /// the shared count and the clock only every `SYNC_EVERY` nodes.
    #[inline]
    pub fn stopped(&mut self) -> bool {
        if self.nodes >= self.next_sync {
            self.sync();
        }
        self.halted()
    }

    /// Whether values are now meaningless: the budget is spent or a brother
    /// of a split above cut off.
    #[inline]
    pub fn halted(&self) -> bool {
        self.shared.stop.load(Relaxed) || self.abort.is_some_and(Abort::raised)
    }

    /// Reports this search's new nodes and checks the budget.
    pub fn sync(&mut self) {
        let total = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.synced, Relaxed)
            + (self.nodes - self.synced);
        self.synced = self.nodes;
        let left = self.shared.limit.saturating_sub(total);
        self.next_sync = self.nodes + SYNC_EVERY.min(left.max(1));
        let late = self.shared.deadline.is_some_and(|d| Instant::now() >= d)
            || self.shared.cancel.as_ref().is_some_and(|c| c.load(Relaxed));
        if total >= self.shared.limit || late {
            self.shared.stop.store(true, Relaxed);
        }
    }

    /// Takes over a helper's nodes once it is done.
    fn absorb(&mut self, mut helper: Search<'_, '_, G>) {
        helper.sync();
        self.nodes += helper.nodes;
        self.synced += helper.nodes;
    }

    /// The exact score of `board` if it lies inside (alpha, beta); otherwise a
    /// bound on the far side of the window (fail-soft).
    #[inline]
    pub fn value(&mut self, board: Board<G>, alpha: i32, beta: i32) -> i32 {
        let empties = board.empty_count();
        if empties <= LAST {
            return self.last(board, alpha, beta, empties);
        }
        self.node(board, alpha, beta, empties)
    }

    /// Bounds from stable discs: the discs that count against the side to move
    /// (the opponent's, or its own under the anti rules) can never change
    /// hands, so they cap its score; the others set a floor.
    fn stability_cut(&self, board: Board<G>, alpha: i32, beta: i32) -> Option<i32> {
        let cells = G::CELLS as i32;
        let anti = self.shared.rules.anti;
        let (against, for_) = if anti {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        // Stable discs are a subset of the discs: skip when even all of them cannot cut.
        let may_fail_low = cells - 2 * against.count() as i32 <= alpha;
        let may_fail_high = 2 * for_.count() as i32 - cells >= beta;
        if !may_fail_low && !may_fail_high {
            return None;
        }
        // Only the side that may cut is computed.
        let protected = Protected::of(board);
        if may_fail_low {
            let upper = cells - 2 * protected.stable(against).count() as i32;
            if upper <= alpha {
                return Some(upper);
            }
        }
        if may_fail_high {
            let lower = 2 * protected.stable(for_).count() as i32 - cells;
            if lower >= beta {
                return Some(lower);
            }
        }
        None
    }

    /// Orders the moves fastest-first: the fewest replies (corners counted
    /// twice) and the fewest empty squares the opponent could one day reach,
    /// then corners and moves into odd regions; deep nodes on 8x8 add the
    /// pattern evaluation's estimate of the move. The weights were chosen by
    /// the nodes over FFO #40-#44 on one thread: the potential-mobility term and
    /// a corner bonus of 12 rather than 4 cut them by 12%. (The table's move is
    /// searched before the others are ordered.) With ETC, returns a value that
    /// cuts off already, if one does.
    pub(super) fn order(
        &mut self,
        list: &mut Moves,
        board: Board<G>,
        moves: G::Bits,
        beta: i32,
        empties: u32,
    ) -> Option<i32> {
        list.len = 0;
        let etc = empties >= ETC_MIN;
        let odd = self.odd_regions(board.empty());
        let shallow = self
            .eval
            .filter(|_| empties >= ESTIMATE_MIN)
            .map(|eval| (eval, u32::from(empties >= ESTIMATE_DEEPER)));
        if etc {
            // The children's probes below miss the cache: start all their loads first.
            for index in Indices(moves) {
                let child = board.play(Square::new(index));
                self.shared.table.prefetch(self.shared.table.place(child));
            }
        }
        for index in Indices(moves) {
            let child = board.play(Square::new(index));
            if etc {
                if let Some(bounds) = self.shared.table.probe(child, self.confidence) {
                    if -bounds.upper >= beta {
                        return Some(-bounds.upper);
                    }
                }
            }
            if !etc && empties > TABLE_MIN {
                // The child will probe the table: start loading its bucket now, so
                // that the load has the ordering and the sort to arrive in (over FFO
                // #40-#44 on one thread, 8% less time in four pairs).
                self.shared.table.prefetch(self.shared.table.place(child));
            }
            let key = {
                let replies = child.moves();
                let mobility = replies.count() + (replies & G::CORNERS).count();
                let corner = if G::CORNERS.has(index) { 12 } else { 0 };
                let parity = if odd.has(index) { 2 } else { 0 };
                let potential = potential_mobility(child) as i32;
                let estimate = match shallow {
                    Some((eval, depth)) => {
                        -self.estimate(eval, child, depth, -INF * SCALE, INF * SCALE)
                            * ESTIMATE_WEIGHT
                            / SCALE
                    }
                    None => 0,
                };
                -(mobility as i32) * 16 + corner + parity - potential * 2 + estimate
            };
            list.keys[list.len] = key;
            list.squares[list.len] = index as u8;
            list.len += 1;
        }
        let (keys, squares) = (&mut list.keys[..list.len], &mut list.squares[..list.len]);
        // Insertion sort: a handful of moves, and stable for equal keys.
        for i in 1..keys.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] < keys[j] {
                keys.swap(j - 1, j);
                squares.swap(j - 1, j);
                j -= 1;
            }
        }
        None
    }

    /// A node with more than `LAST` empties.
    fn node(&mut self, board: Board<G>, mut alpha: i32, mut beta: i32, empties: u32) -> i32 {
        if self.stopped() {
            return 0;
        }
        let table = self.shared.table;
        let place = (empties >= TABLE_MIN).then(|| table.place(board));
        if let Some(place) = place {
            // The probe below is a cache miss more often than not: start the load
            // now, so that it overlaps move generation and the stability bound.
            table.prefetch(place);
        }
        self.nodes += 1;
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return self.shared.rules.final_score(board);
            }
            return -self.node(passed, -beta, -alpha, empties);
        }
        if empties >= STABILITY_MIN {
            if let Some(value) = self.stability_cut(board, alpha, beta) {
                return value;
            }
        }
        if empties < ORDER_MIN {
            return self.parity_node(board, moves, alpha, beta);
        }
        let mut hint = None;
        if let Some(place) = place {
            if let Some(bounds) = table.probe_at(place, board, self.confidence) {
                if bounds.lower >= beta || bounds.lower == bounds.upper {
                    return bounds.lower;
                }
                if bounds.upper <= alpha {
                    return bounds.upper;
                }
                alpha = alpha.max(bounds.lower);
                beta = beta.min(bounds.upper);
                hint = bounds.best.filter(|square| moves.has(square.index()));
            }
        }
        if let Some(value) = self.probcut(board, alpha, beta, empties) {
            return value;
        }
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut rest = moves;
        if let Some(square) = hint {
            // The table's move first, before the others are ordered: when it cuts
            // off, their ordering is never paid for.
            best = -self.value(board.play(square), -beta, -alpha);
            best_move = hint;
            alpha = alpha.max(best);
            rest ^= G::Bits::bit(square.index());
        }
        if best < beta && !rest.is_empty() {
            let mut list = Moves::new();
            if let Some(value) = self.order(&mut list, board, rest, beta, empties) {
                return value;
            }
            let list = list.squares();
            for (position, &index) in list.iter().enumerate() {
                let searched = position + usize::from(hint.is_some());
                if searched > 0
                    && self.shared.parallel
                    && empties >= SPLIT_MIN
                    && list.len() - position >= 2
                    && !self.halted()
                {
                    // Young brothers wait: the first move is searched, the rest split.
                    let (value, square) = self.split(board, &list[position..], alpha, beta);
                    if value > best {
                        best = value;
                        best_move = square;
                    }
                    break;
                }
                let square = Square::new(u32::from(index));
                let child = board.play(square);
                let value = if searched == 0 {
                    -self.value(child, -beta, -alpha)
                } else {
                    self.scout(child, alpha, beta)
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
        }
        if let Some(place) = place.filter(|_| !self.halted()) {
            let bounds = if best >= beta {
                Bounds {
                    lower: best,
                    upper: INF,
                    best: best_move,
                }
            } else if best > alpha_in {
                Bounds {
                    lower: best,
                    upper: best,
                    best: best_move,
                }
            } else {
                Bounds {
                    lower: -INF,
                    upper: best,
                    best: best_move,
                }
            };
            table.store_at(place, board, empties, bounds, self.confidence_at(empties));
        }
        best
    }

    /// The confidence of what a node of `empties` proves in this pass: a
    /// selective pass cuts only from `PROBCUT_MIN` empties, so below it is exact.
    #[inline]
    pub(super) fn confidence_at(&self, empties: u32) -> Confidence {
        if empties >= PROBCUT_MIN {
            self.confidence
        } else {
            EXACT
        }
    }

    /// In a selective pass, a node far from the end whose shallow estimate lies
    /// well outside its window returns the bound it would most likely prove
    /// (Multi-ProbCut with `t` = the pass's confidence).
    fn probcut(&mut self, board: Board<G>, alpha: i32, beta: i32, empties: u32) -> Option<i32> {
        if self.confidence == EXACT || empties < PROBCUT_MIN {
            return None;
        }
        let eval = self.eval?;
        let margin = PROBCUT_SIGMA * SCALE * i32::from(self.confidence) / 10;
        // Only whether the estimate lies outside these decides, so it is searched
        // within them (fail-soft: a value at or beyond one is a bound past it).
        let (low, high) = (alpha * SCALE - margin, beta * SCALE + margin);
        let estimate = self.estimate(eval, board, PROBCUT_DEPTH, low, high);
        if estimate >= high {
            return Some(beta);
        }
        if estimate <= low {
            return Some(alpha);
        }
        None
    }

    /// A later move's value: a null-window probe at alpha, searched again with
    /// the window above it only if the probe says it may be better.
    #[inline]
    pub(super) fn scout(&mut self, child: Board<G>, alpha: i32, beta: i32) -> i32 {
        let probe = -self.value(child, -alpha - 1, -alpha);
        if probe > alpha && probe < beta {
            -self.value(child, -beta, -probe)
        } else {
            probe
        }
    }

    /// Searches `rest` in parallel, each with the best alpha known when it
    /// starts; once one cuts off, the others stop and their values are
    /// dropped. Returns the best value and its move: every value kept is a
    /// true bound for its move, so the maximum is exact inside the window and
    /// a bound outside it, as in the serial loop. Each thread takes the next
    /// move in order (a parallel iterator over the list would start the second
    /// thread halfway down it, on a move the serial search would rarely reach).
    fn split(
        &mut self,
        board: Board<G>,
        rest: &[u8],
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<Square>) {
        let shared_alpha = AtomicI32::new(alpha);
        let cut = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let abort = Abort {
            flag: &cut,
            up: self.abort,
        };
        let (shared, confidence) = (self.shared, self.confidence);
        let workers = rayon::current_num_threads().min(rest.len());
        let found: Vec<(Found, Search<'_, '_, G>)> = (0..workers)
            .into_par_iter()
            .with_max_len(1)
            .map(|_| {
                let mut helper = Search::new(shared);
                helper.abort = Some(&abort);
                helper.confidence = confidence;
                let mut best: Found = None;
                loop {
                    let position = next.fetch_add(1, Relaxed);
                    let alpha = shared_alpha.load(Relaxed);
                    if position >= rest.len() || alpha >= beta || helper.halted() {
                        break;
                    }
                    let child = board.play(Square::new(u32::from(rest[position])));
                    let value = helper.scout(child, alpha, beta);
                    if helper.halted() {
                        break;
                    }
                    if value > alpha {
                        shared_alpha.fetch_max(value.min(beta), Relaxed);
                    }
                    if value >= beta {
                        cut.store(true, Relaxed);
                    }
                    if best.is_none_or(|(b, _)| value > b) {
                        best = Some((value, position));
                    }
                }
                (best, helper)
            })
            .collect();
        // The best value; among equal ones, the first in the list's order.
        let mut best: Found = None;
        for (found, helper) in found {
            self.absorb(helper);
            if let Some((value, position)) = found {
                if best.is_none_or(|(b, p)| value > b || (value == b && position < p)) {
                    best = Some((value, position));
                }
            }
        }
        match best {
            Some((value, position)) => (value, Some(Square::new(u32::from(rest[position])))),
            None => (-INF, None),
        }
    }
}
