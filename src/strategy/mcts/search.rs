//! One search: iterations of selection (UCB1, PUCT, RAVE), expansion, a leaf's value
//! and the backup of results and proven margin bounds (score-bounded MCTS-Solver), under
//! an iteration, node or time budget; then the move to play.

use super::leaf::{logistic, Leaf};
use super::tree::{Node, Tree, NO_TABLE};
use super::SOLVER_BITS;
use crate::board::{squares, Bits, Board, Geometry, Square};
use crate::game::Rules;
use crate::strategy::{draw_below, Budget, Context, Evaluator, GameRng, Solver};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

/// What a finished game is worth to a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    Win,
    /// The final margin, scaled from -cells..cells to 0..1.
    Margin,
}

/// Which root move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Final {
    /// The most visited (the robust child).
    Visits,
    /// The best mean result.
    Value,
}

/// A search's settings, from the spec and the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Iterations a move (None: no iteration budget).
    pub iterations: Option<u64>,
    /// Tree nodes a move.
    pub nodes: Option<u64>,
    /// Time a move.
    pub time: Option<Duration>,
    /// The exploration constant.
    pub c: f64,
    /// What results are.
    pub objective: Objective,
    /// GRAVE's reference count (0: off).
    pub rave: u32,
    /// GRAVE's bias in its all-moves-as-first weight.
    pub rave_bias: f64,
    /// Progressive bias's weight (0: PUCT with a prior).
    pub bias: f64,
    /// A playout's weight in a leaf's value beside an evaluation's.
    pub mix: f64,
    /// Solve leaves with at most this many empties (0: only finished games are proven).
    pub solve: u32,
    /// The prior softmax's temperature.
    pub temperature: f64,
    /// Which root move is played.
    pub final_move: Final,
    /// The rules games are scored under.
    pub rules: Rules,
    /// Whether the tree is kept between a game's moves.
    pub reuse: bool,
}

/// More than the legal moves of any position on the largest board (10x10: 96 empties):
/// the size of the buffer priors are worked in.
const MOST_MOVES: usize = 128;
/// Iterations between two readings of the clock.
const CLOCK_EVERY: u64 = 16;

/// A search over a tree: the settings and the means of valuing leaves.
pub struct Search<'a, G: Geometry> {
    /// The settings.
    pub settings: &'a Settings,
    /// How leaves are valued.
    pub leaf: &'a Leaf<G>,
    /// PUCT's prior evaluation.
    pub prior: Option<&'a dyn Evaluator<G>>,
}

impl<G: Geometry> Search<'_, G> {
    /// Iterates until a budget is spent or the root is proven.
    pub fn run(&self, tree: &mut Tree<G>, deadline: Option<Instant>, context: &mut Context<'_, G>) {
        let iterations = self.settings.iterations.unwrap_or(u64::MAX);
        let nodes = self.settings.nodes.unwrap_or(u64::MAX);
        let start = tree.iterations;
        while tree.iterations - start < iterations && (tree.nodes.len() as u64) < nodes {
            if self.proven(&tree.nodes[0]) {
                break;
            }
            if (tree.iterations - start).is_multiple_of(CLOCK_EVERY)
                && (deadline.is_some_and(|d| Instant::now() >= d) || context.memory.cancelled())
            {
                break;
            }
            if !self.iterate(tree, deadline, context) {
                break;
            }
            tree.iterations += 1;
        }
        context.memory.nodes += tree.iterations - start;
    }

    /// Whether a node's worth is known under the objective.
    fn proven(&self, node: &Node) -> bool {
        match self.settings.objective {
            Objective::Margin => node.lower == node.upper,
            Objective::Win => node.lower > 0 || node.upper < 0 || node.lower == node.upper,
        }
    }

    /// The result a final margin is worth.
    fn result(&self, margin: i32) -> f64 {
        match self.settings.objective {
            Objective::Win => match margin.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            },
            Objective::Margin => {
                (0.5 + f64::from(margin) / f64::from(2 * G::CELLS)).clamp(0.0, 1.0)
            }
        }
    }

    /// A proven node's result (the objective decides from its bounds).
    fn proven_result(&self, node: &Node) -> f64 {
        if node.lower > 0 {
            self.result(i32::from(node.lower).max(1))
        } else if node.upper < 0 {
            self.result(i32::from(node.upper).min(-1))
        } else {
            self.result(i32::from(node.lower))
        }
    }

    /// One iteration: down to a leaf, its value, and back up. False when a leaf's exact
    /// solve ran past the move's deadline (or the answer is no longer wanted): the
    /// iteration is dropped, and the search ends with what it had.
    fn iterate(
        &self,
        tree: &mut Tree<G>,
        deadline: Option<Instant>,
        context: &mut Context<'_, G>,
    ) -> bool {
        let rave = tree.grave();
        tree.path.clear();
        tree.path.push(0);
        let mut board = tree.root;
        let mut played = [G::Bits::ZERO; 2];
        let mut index = 0usize;
        // GRAVE's reference: the deepest node so far with a table, and its depth.
        let mut reference = None;
        // The result for the side that moved into the last node of the path, and
        // whether that node's bounds changed.
        let (result, proved) =
            loop {
                let node = tree.nodes[index];
                if self.proven(&node) {
                    break (self.proven_result(&node), false);
                }
                if node.first.is_none() {
                    let moves = if index == 0 {
                        tree.root_moves
                    } else {
                        board.moves()
                    };
                    if moves.is_empty() && !board.pass().can_move() {
                        let margin = -self.settings.rules.final_score(board);
                        self.prove(tree, index, margin);
                        break (self.result(margin), true);
                    }
                    if index != 0 && board.empty_count() <= self.settings.solve {
                        // Within the move's deadline: a leaf of many empties could take
                        // seconds; with no clock (an iteration budget) it has no limit, so
                        // the same games come on any machine.
                        let budget = Budget {
                            nodes: None,
                            time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                        };
                        let Ok(solution) = Solver::new(self.settings.rules, SOLVER_BITS)
                            .solve_within(board, context.memory, budget)
                        else {
                            return false;
                        };
                        let score = solution.score;
                        self.prove(tree, index, -score);
                        break (self.result(-score), true);
                    }
                    if index != 0 && node.visits == 0 {
                        break (
                            self.value(board, &mut played, tree.path.len() - 1, context),
                            false,
                        );
                    }
                    self.expand(tree, index, board, moves, context.rng);
                }
                let depth = tree.path.len() - 1;
                if let Some(place) = tree.table_of(index) {
                    reference = Some((place, depth));
                }
                let child = self.select(tree, index, reference.map(|(p, d)| (p, depth - d)));
                let square = tree.nodes[child].square;
                match square {
                    Some(square) => {
                        played[(tree.path.len() - 1) % 2] |= G::Bits::bit(square.index());
                        board = board.play(square);
                    }
                    None => board = board.pass(),
                }
                index = child;
                tree.path.push(child as u32);
            };
        self.back_up(tree, result, proved, rave.then_some(played));
        true
    }

    /// The value of an unvisited leaf for the side that moved into it.
    fn value(
        &self,
        board: Board<G>,
        played: &mut [G::Bits; 2],
        depth: usize,
        context: &mut Context<'_, G>,
    ) -> f64 {
        // With both, each is weighed by `mix`; one weighed 0 is not computed.
        let (rollout, value) = match (&self.leaf.rollout, &self.leaf.value) {
            (Some(_), Some(_)) if self.settings.mix >= 1.0 => (self.leaf.rollout.as_ref(), None),
            (Some(_), Some(_)) if self.settings.mix <= 0.0 => (None, self.leaf.value.as_ref()),
            (rollout, value) => (rollout.as_ref(), value.as_ref()),
        };
        let weight = if value.is_none() {
            1.0
        } else if rollout.is_none() {
            0.0
        } else {
            self.settings.mix
        };
        let mut sum = 0.0;
        if let Some(rollout) = rollout {
            let ending = rollout.play_out(board, context);
            let score = self.settings.rules.final_score(ending.board);
            let own = if ending.same_side { score } else { -score };
            sum += weight * self.result(-own);
            played[depth % 2] |= ending.played[0];
            played[(depth + 1) % 2] |= ending.played[1];
        }
        if let Some(eval) = value {
            let value = f64::from(eval.evaluate(board));
            sum += (1.0 - weight) * (1.0 - logistic(value, self.leaf.scale));
        }
        sum
    }

    /// Sets a node's bounds to an exact margin.
    fn prove(&self, tree: &mut Tree<G>, index: usize, margin: i32) {
        let margin = margin.clamp(-127, 127) as i8;
        tree.nodes[index].lower = margin;
        tree.nodes[index].upper = margin;
    }

    /// Gives a node its children: one a move (or one pass), with priors under PUCT, in
    /// an order drawn from the game's generator. Selection tries unvisited children in
    /// their order and breaks ties by it, so in square order every sparsely visited
    /// node's value would rest on its lowest squares' moves (a1, b1, b2 and h1 on
    /// 8x8: corners and the squares beside them) and never on a8 or h8's.
    fn expand(
        &self,
        tree: &mut Tree<G>,
        index: usize,
        board: Board<G>,
        moves: G::Bits,
        rng: &mut GameRng,
    ) {
        let first = tree.nodes.len();
        if moves.is_empty() {
            tree.nodes.push(Node::new(None, G::CELLS, 1.0));
        } else {
            for square in squares(moves) {
                tree.nodes.push(Node::new(Some(square), G::CELLS, 0.0));
            }
            let children = &mut tree.nodes[first..];
            for last in (1..children.len()).rev() {
                let pick = draw_below(last as u32 + 1, rng) as usize;
                children.swap(last, pick);
            }
            if let Some(prior) = self.prior {
                self.set_priors(&mut tree.nodes[first..], board, prior);
            }
        }
        if tree.grave() {
            tree.table.resize(tree.nodes.len(), NO_TABLE);
        }
        let children = (tree.nodes.len() - first) as u8;
        let node = &mut tree.nodes[index];
        node.first = NonZeroU32::new(first as u32);
        node.children = children;
    }

    /// The children's priors: a softmax over their values for the mover, standardised
    /// (so that any evaluation's scale will do) and divided by the temperature. Worked
    /// in a buffer on the stack: an expansion allocates nothing.
    fn set_priors(&self, children: &mut [Node], board: Board<G>, prior: &dyn Evaluator<G>) {
        let mut buffer = [0.0f64; MOST_MOVES];
        let values = &mut buffer[..children.len()];
        for (value, child) in values.iter_mut().zip(children.iter()) {
            let square = child.square.expect("a move");
            *value = f64::from(prior.evaluate(board.play(square).pass()));
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let spread = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
        let spread = if spread > 0.0 { spread } else { 1.0 };
        let top = values.iter().copied().fold(f64::MIN, f64::max);
        for value in values.iter_mut() {
            *value = ((*value - top) / spread / self.settings.temperature).exp();
        }
        let sum: f64 = values.iter().sum();
        for (child, weight) in children.iter_mut().zip(values.iter()) {
            child.prior = (weight / sum) as f32;
        }
    }

    /// The child to descend to. `reference`: GRAVE's table to use (the first record's
    /// place) and how many plies above this node its node is.
    pub(super) fn select(
        &self,
        tree: &Tree<G>,
        index: usize,
        reference: Option<(usize, usize)>,
    ) -> usize {
        let node = tree.nodes[index];
        let range = node.child_range();
        let children = &tree.nodes[range.clone()];
        let best_lower = children.iter().map(|c| c.lower).max().unwrap_or(i8::MIN);
        let parent_visits = f64::from(node.visits.max(1));
        let log = parent_visits.ln();
        let root_sqrt = parent_visits.sqrt();
        // The reference table's records for this node's mover.
        let amaf = reference.map(|(place, above)| {
            &tree.amaf[place + (above % 2) * G::CELLS as usize..][..G::CELLS as usize]
        });
        let bias = self.settings.rave_bias;
        let first_play = 1.0 - node.mean();
        let mut best = range.start;
        let mut best_score = f64::NEG_INFINITY;
        for (place, child) in range.zip(children) {
            // A child that cannot do better than a sibling has proven is left alone.
            if child.upper < best_lower {
                continue;
            }
            let visits = f64::from(child.visits);
            let mut mean = if child.visits == 0 {
                first_play
            } else {
                child.mean()
            };
            if let (Some(amaf), Some(square)) = (amaf, child.square) {
                let record = amaf[square.index() as usize];
                if record.visits > 0 {
                    let a = f64::from(record.visits);
                    let beta = a / (a + visits + bias * a * visits);
                    mean = (1.0 - beta) * mean + beta * f64::from(record.total) / a;
                }
            }
            let score = if self.prior.is_some() && self.settings.bias == 0.0 {
                mean + self.settings.c * f64::from(child.prior) * root_sqrt / (1.0 + visits)
            } else if child.visits == 0 {
                // Every move once before any twice (UCB1), in the children's order.
                f64::INFINITY
            } else {
                mean + self.settings.c * (log / visits).sqrt()
                    + self.settings.bias * f64::from(child.prior) / (1.0 + visits)
            };
            if score > best_score {
                best_score = score;
                best = place;
            }
        }
        best
    }

    /// Adds the iteration's result along the path, RAVE's beside it, and backs proven
    /// bounds up while they change.
    fn back_up(&self, tree: &mut Tree<G>, result: f64, proved: bool, played: Option<[G::Bits; 2]>) {
        let mut result = result;
        let mut proving = proved;
        for depth in (0..tree.path.len()).rev() {
            let index = tree.path[depth] as usize;
            let node = &mut tree.nodes[index];
            node.visits += 1;
            node.total += result as f32;
            // `result` is now the side to move here's, the mover into each child.
            result = 1.0 - result;
            if proving && depth + 1 < tree.path.len() {
                proving = self.bound(tree, index);
            }
            if let Some(played) = played {
                self.record(
                    tree,
                    index,
                    result,
                    [played[depth % 2], played[(depth + 1) % 2]],
                );
            }
        }
    }

    /// GRAVE: gives a node that has reached the reference count its table, and adds
    /// the iteration to its table: `result` for its side to move, who played `played[0]`
    /// (the other side `played[1]`) there or below.
    fn record(&self, tree: &mut Tree<G>, index: usize, result: f64, played: [G::Bits; 2]) {
        let node = tree.nodes[index];
        if tree.table_of(index).is_none() {
            if node.visits < self.settings.rave || node.first.is_none() {
                return;
            }
            tree.add_table(index);
        }
        let place = tree.table_of(index).expect("just made");
        for (side, (moves, result)) in played.into_iter().zip([result, 1.0 - result]).enumerate() {
            let records = &mut tree.amaf[place + side * G::CELLS as usize..][..G::CELLS as usize];
            for square in squares(moves) {
                let record = &mut records[square.index() as usize];
                record.visits += 1;
                record.total += result as f32;
            }
        }
    }

    /// Recomputes a node's bounds from its children's; whether they changed.
    fn bound(&self, tree: &mut Tree<G>, index: usize) -> bool {
        let node = tree.nodes[index];
        let children = &tree.nodes[node.child_range()];
        let lower = children.iter().map(|c| c.lower).max().expect("expanded");
        let upper = children.iter().map(|c| c.upper).max().expect("expanded");
        let (lower, upper) = (upper.saturating_neg(), lower.saturating_neg());
        let changed = (lower, upper) != (node.lower, node.upper);
        tree.nodes[index].lower = lower;
        tree.nodes[index].upper = upper;
        changed
    }
}

/// What the search knows of one root move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub square: Square,
    /// Iterations through it.
    pub visits: u32,
    /// Its mean result for the mover (0 to 1).
    pub mean: f64,
    /// The proven bounds of its final margin for the mover.
    pub bounds: (i32, i32),
}

impl<G: Geometry> Tree<G> {
    /// Each root move's statistics, in square order (the tree must have been searched).
    #[must_use]
    pub fn stats(&self) -> Vec<MoveStats> {
        let mut stats: Vec<MoveStats> = self
            .root_children()
            .filter_map(|(_, c)| {
                c.square.map(|square| MoveStats {
                    square,
                    visits: c.visits,
                    mean: c.mean(),
                    bounds: (i32::from(c.lower), i32::from(c.upper)),
                })
            })
            .collect();
        stats.sort_by_key(|m| m.square.index());
        stats
    }

    /// The move to play: a proven best move when there is one, else by visits (or by
    /// value) among the moves not proven worse than another.
    #[must_use]
    pub fn best(&self, settings: &Settings) -> Option<Square> {
        let stats = self.stats();
        let best_lower = stats.iter().map(|m| m.bounds.0).max()?;
        let proven_win = settings.objective == Objective::Win && best_lower > 0;
        let proven_best = stats.iter().any(|m| {
            m.bounds.0 == best_lower
                && stats
                    .iter()
                    .all(|o| o.square == m.square || o.bounds.1 <= best_lower)
        });
        if proven_win || proven_best {
            return stats
                .iter()
                .filter(|m| m.bounds.0 == best_lower)
                .max_by(|a, b| {
                    a.visits
                        .cmp(&b.visits)
                        .then(b.square.index().cmp(&a.square.index()))
                })
                .map(|m| m.square);
        }
        // Moves proven lost are played only when every move is.
        let hopeful = |m: &&MoveStats| {
            m.bounds.1 >= best_lower && (settings.objective != Objective::Win || m.bounds.1 >= 0)
        };
        let pool: Vec<&MoveStats> = if stats.iter().any(|m| hopeful(&m)) {
            stats.iter().filter(hopeful).collect()
        } else {
            stats.iter().collect()
        };
        let key = |m: &MoveStats| match settings.final_move {
            Final::Visits => (f64::from(m.visits), m.mean),
            Final::Value => (
                if m.visits == 0 { -1.0 } else { m.mean },
                f64::from(m.visits),
            ),
        };
        // Ties go to the lowest square, so that the choice is the same on every run.
        pool.into_iter()
            .rev()
            .max_by(|a, b| key(a).partial_cmp(&key(b)).expect("finite"))
            .map(|m| m.square)
    }
}
