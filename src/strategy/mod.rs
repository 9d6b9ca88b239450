//! Strategies: what chooses a move, one heuristic per file, built from a spec (see `spec`).

mod alphabeta;
mod answer;
pub mod clock;
mod corner;
pub mod engine;
mod error;
mod eval;
mod greedy;
pub mod kind;
pub mod logs;
pub mod mcts;
mod minimum_disc;
mod mobility;
mod param_info;
mod parity;
pub mod pattern;
pub mod python;
mod random;
#[cfg(test)]
pub(crate) mod reference;
mod registry;
pub mod scale;
pub mod solver;
pub mod spec;
mod stability;
mod table;
mod weighted;

pub use alphabeta::probcut;
pub use alphabeta::{proven_margin, terminal_value, AlphaBeta, EVAL_LIMIT, WIN};
pub use answer::{best_first, Answer, Choice, Fault, Notes, Pick, Picked, Visited, Visits};
pub use corner::{CornerEdge, CornerFirst};
pub use error::SpecError;
pub use eval::{EvalWeights, Feature, FeatureEval, Features, FEATURE_COUNT};
pub use greedy::{DiscEval, Greedy};
pub use minimum_disc::MinimumDisc;
pub use mobility::MobilityEval;
pub use parity::Parity;
pub use random::RandomMove;
pub use solver::{Budget, Mode, Solver, SolverTable};
pub use spec::StrategySpec;
pub use stability::StabilityEval;
pub use table::TranspositionTable;
pub use weighted::WeightedEval;

use crate::board::{squares, Bits, Board, Geometry, Square};
use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The per-game random number generator: Xoshiro256++ (schedule version 2; version 1
/// was ChaCha8), seeded by `seed_from_u64` (SplitMix64). It is the same on every
/// platform and a few instructions a draw, where ChaCha8's seeding and 256-byte block
/// refill were about a tenth of a random game; a game needs no cryptographic strength.
pub type GameRng = Xoshiro256PlusPlus;

/// A game generator's whole state, as four words: how reversi-lab's own GTP server and
/// client hand the game's generator over with each move (`reversi_lab-genmove`), so
/// that a strategy served as an engine draws exactly what it would draw built in.
#[must_use]
pub fn rng_state(rng: &GameRng) -> [u64; 4] {
    #[derive(serde::Deserialize)]
    struct State {
        s: [u64; 4],
    }
    serde_json::to_value(rng)
        .and_then(serde_json::from_value::<State>)
        .map(|state| state.s)
        .expect("the generator's state is four words")
}

/// The generator whose state is `words` (see [`rng_state`]).
#[must_use]
pub fn rng_from_state(words: [u64; 4]) -> GameRng {
    serde_json::from_value(serde_json::json!({ "s": words }))
        .expect("four words are a generator's state")
}

/// State a player keeps between its moves and games (a search's table, an engine's
/// running process, a search tree), declared by the family that keeps it and held in
/// the player's [`Memory`].
pub trait PlayerState: std::any::Any + Send + Sync {
    /// Forgets what the previous game taught, so that a game's moves depend only on
    /// that game (and so on neither thread count nor game order).
    fn new_game(&mut self);
}

/// What a player may change while it thinks: per player and per worker, never shared
/// between threads. Each family keeps its own state here, of its own type.
pub struct Memory<G: Geometry> {
    states: Vec<Box<dyn PlayerState>>,
    /// Nodes searched since the memory was made (search strategies count here).
    pub nodes: u64,
    /// The side's clock under a time control (see [`clock::Timed`]).
    pub clock: clock::Clock,
    /// What the strategy noted of its last pick besides the move (see [`Notes`]).
    pub notes: Notes,
    /// Raised by whoever asked for the move once its answer is no longer wanted (a
    /// web page closed, a run's games in flight dropped by a second stop): searches
    /// (alpha-beta, MCTS, the solver) stop at their next look at the clock, as at a deadline.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    geometry: std::marker::PhantomData<G>,
}

impl<G: Geometry> Default for Memory<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Geometry> std::fmt::Debug for Memory<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memory")
            .field("states", &self.states.len())
            .field("nodes", &self.nodes)
            .field("clock", &self.clock)
            .finish()
    }
}

impl<G: Geometry> Memory<G> {
    /// Empty memory.
    #[must_use]
    pub fn new() -> Self {
        Memory {
            states: Vec::new(),
            nodes: 0,
            clock: clock::Clock::default(),
            notes: Notes::default(),
            cancel: None,
            geometry: std::marker::PhantomData,
        }
    }

    /// Whether the move's answer is no longer wanted (see [`Memory::cancel`]).
    #[must_use]
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Starts a new game: every state forgets the last one (see [`PlayerState::new_game`]).
    pub fn new_game(&mut self) {
        for state in &mut self.states {
            state.new_game();
        }
        self.clock.new_game();
        self.notes.clear();
    }

    /// The player's state of type `T`, made by `make` when there is none or the one
    /// kept does not `fit` (a table of another size).
    pub fn state<T: PlayerState>(
        &mut self,
        fits: impl FnOnce(&T) -> bool,
        make: impl FnOnce() -> T,
    ) -> &mut T {
        let at = self.position::<T>();
        let at = match at {
            Some(at) if fits(downcast(&mut self.states[at])) => at,
            Some(at) => {
                self.states[at] = Box::new(make());
                at
            }
            None => {
                self.states.push(Box::new(make()));
                self.states.len() - 1
            }
        };
        downcast(&mut self.states[at])
    }

    /// The player's state of type `T` if it has one.
    pub fn find_state<T: PlayerState>(&mut self) -> Option<&mut T> {
        let at = self.position::<T>()?;
        Some(downcast(&mut self.states[at]))
    }

    /// Drops the player's state of type `T` (an engine's process after a fault).
    pub fn drop_state<T: PlayerState>(&mut self) {
        if let Some(at) = self.position::<T>() {
            self.states.remove(at);
        }
    }

    fn position<T: PlayerState>(&self) -> Option<usize> {
        let wanted = std::any::TypeId::of::<T>();
        self.states
            .iter()
            .position(|state| (**state).type_id() == wanted)
    }
}

/// A kept state as its own type (its position was found by that type).
fn downcast<T: PlayerState>(state: &mut Box<dyn PlayerState>) -> &mut T {
    let any: &mut dyn std::any::Any = &mut **state;
    any.downcast_mut::<T>()
        .expect("a state is found by its type")
}

/// The game so far, as a strategy is shown it: the position it started from and the
/// moves since (passes are implied: a side with no legal move passes).
#[derive(Clone, Copy, Debug)]
pub struct History<'a, G: Geometry> {
    /// Where the game started (see [`start`](Self::start)).
    start: Start<G>,
    /// The moves since, in order.
    pub moves: &'a [Square],
}

/// Where a game started. The standard start is said apart: it is where the driver's
/// games start, and a fast game makes a context at every move (a whole position was
/// three words to write each time, where this is one byte).
#[derive(Clone, Copy, Debug)]
enum Start<G: Geometry> {
    Standard,
    At(crate::board::Position<G>),
}

impl<G: Geometry> History<'_, G> {
    /// No game: only the position to move from (an analysis of one position).
    #[must_use]
    pub fn at(position: crate::board::Position<G>) -> Self {
        History {
            start: Start::At(position),
            moves: &[],
        }
    }

    /// The game of a line: its start and its moves.
    #[must_use]
    pub fn of(line: &crate::game::Line<G>) -> History<'_, G> {
        History {
            start: Start::At(line.start()),
            moves: line.moves(),
        }
    }

    /// A game from the standard start with `moves` played.
    #[inline]
    #[must_use]
    pub fn from_start(moves: &[Square]) -> History<'_, G> {
        History {
            start: Start::Standard,
            moves,
        }
    }

    /// Where the game started.
    #[must_use]
    pub fn start(&self) -> crate::board::Position<G> {
        match self.start {
            Start::Standard => crate::board::Position::start(),
            Start::At(position) => position,
        }
    }
}

/// What a strategy is given besides the position.
pub struct Context<'a, G: Geometry> {
    /// The game's random number generator: the only source of randomness.
    pub rng: &'a mut GameRng,
    /// The player's memory for this game.
    pub memory: &'a mut Memory<G>,
    /// The game so far.
    pub history: History<'a, G>,
}

/// Chooses a move for the side to move. Strategies are shared by all threads, so
/// everything mutable lives in the [`Context`].
pub trait Strategy<G: Geometry>: Send + Sync {
    /// Picks one of `moves` (never empty, always legal moves of `board`): the move and
    /// its value, what a game needs. What else it knows of the pick (its time, depth,
    /// principal variation) it writes into `context.memory.notes`, which the caller
    /// cleared (see [`Notes`]).
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked;

    /// Chooses one of `moves` as [`pick`](Self::pick) does, with all it knows of the
    /// choice: for the callers that show one (serve, `play`'s `eval`, `watch`,
    /// `analyze`). Not for a strategy to implement: it is `pick` and the notes.
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Answer {
        context.memory.notes.clear();
        let pick = self.pick(board, moves, context)?;
        Ok(Choice::noted(pick, &context.memory.notes))
    }

    /// The value of each of `moves` for the side to move on the strategy's own scale
    /// (larger is better), in square order; None for strategies that choose by a rule
    /// rather than by a value (random, corner-first, parity). For analysis (the Python
    /// package's `Strategy.scores`): games never call it.
    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let _ = (board, moves, context);
        None
    }

    /// One search's view of `moves` (`mcts`'s visits, what its values rest on): each
    /// move's value as [`Strategy::move_values`] gives it with its visits, and the move
    /// the same search chooses with its line; None for strategies that count no
    /// visits. For `play`'s `eval`, so that its list and its line agree.
    fn move_visits(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Visits> {
        let _ = (board, moves, context);
        None
    }

    /// What an external engine says it is (its `name` and `version`); None for the others.
    fn identity(&self) -> Option<String> {
        None
    }

    /// Where the player's logs go (an external engine's standard error), opened by
    /// the layer that holds the results folder; nothing for players that keep none.
    fn attach(&self, logs: &logs::Logs) {
        let _ = logs;
    }

    /// Whether it writes a log under the folder [`attach`](Self::attach) names, so that
    /// a message about its faults may point there (a Python callable in this process
    /// writes none: its faults go to the host, the Python package's warnings).
    fn keeps_log(&self) -> bool {
        self.identity().is_some()
    }

    /// Whether it plays [`random_square`] of the legal moves and nothing else, so that
    /// the game loop may make that draw itself (a random game is mostly the loop).
    fn uniform_random(&self) -> bool {
        false
    }
}

/// A static evaluation of a position from the point of view of the side to move
/// (`board.player`). Larger is better for that side.
pub trait Evaluator<G: Geometry>: Send + Sync {
    /// The value of `board` for `board.player`.
    fn evaluate(&self, board: Board<G>) -> i32;

    /// The square weights (row-major from a1) when the evaluation is exactly the
    /// sum of the weights of own discs minus those of the opponent's, else None.
    /// A search then values a move from the discs it flips, without the position
    /// after it (see `alphabeta`'s horizon nodes).
    fn square_weights(&self) -> Option<&[i32]> {
        None
    }

    /// The sum of the square weights over `set` (zero without square weights):
    /// what the discs a move flips are worth. Evaluations with a faster way than
    /// one weight per square (a table by row, a disc count) say so here.
    fn weight_sum(&self, set: G::Bits) -> i32 {
        self.square_weights().map_or(0, |weights| {
            squares(set).map(|s| weights[s.index() as usize]).sum()
        })
    }
}

/// A uniformly random square of a non-empty set: the k-th square for k drawn by
/// [`draw_below`]`(count)`, the draw every game of schedule version 2 is made with.
#[must_use]
#[inline]
pub fn random_square<B: Bits>(set: B, rng: &mut GameRng) -> Square {
    let count = set.count();
    debug_assert!(count > 0, "random_square of an empty set");
    Square::new(set.nth(draw_below(count, rng)))
}

/// A uniform draw from `0..count` (count > 0): Lemire's multiply-and-reject on the
/// generator's 32-bit output (D. Lemire, "Fast Random Integer Generation in an
/// Interval", 2019): the high half of `output * count`, drawn again only while the low
/// half is below `2^32 mod count`, so exactly uniform. One multiplication a draw in all
/// but a few in a billion, where rand 0.8's `gen_range` (schedule version 1) redrew a
/// third of its draws (it rejects more than it must, to skip the modulo).
#[must_use]
#[inline]
pub fn draw_below(count: u32, rng: &mut GameRng) -> u32 {
    debug_assert!(count > 0, "a draw from an empty range");
    let mut product = u64::from(rng.next_u32()) * u64::from(count);
    if (product as u32) < count {
        let threshold = count.wrapping_neg() % count;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(count);
        }
    }
    (product >> 32) as u32
}

/// The move with the highest score, ties broken uniformly at random.
#[must_use]
#[inline]
pub fn best_by<B: Bits>(moves: B, rng: &mut GameRng, score: impl FnMut(Square) -> i32) -> Square {
    best_valued_by(moves, rng, score).square()
}

/// [`best_by`] with the best score: the pick of a strategy that chooses by a value.
/// Inlined, so that a one-ply rule's answer is made where its caller wants it (out
/// of line, a fast game paid a call and a copy of the answer at every move).
#[must_use]
#[inline]
pub fn best_valued_by<B: Bits>(
    moves: B,
    rng: &mut GameRng,
    mut score: impl FnMut(Square) -> i32,
) -> Pick {
    let mut best = i32::MIN;
    let mut ties = B::ZERO;
    for square in squares(moves) {
        let value = score(square);
        if value > best {
            best = value;
            ties = B::bit(square.index());
        } else if value == best {
            ties |= B::bit(square.index());
        }
    }
    Pick::valued(random_square(ties, rng), best)
}

/// A one-ply player over an evaluation: the move after which the evaluation,
/// from the mover's point of view, is highest.
pub struct OnePly<E> {
    /// The evaluation.
    pub eval: E,
}

impl<G: Geometry, E: Evaluator<G>> Strategy<G> for OnePly<E> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        Ok(best_valued_by(moves, context.rng, |square| {
            // After the move the opponent is to move; pass to look from the mover's side.
            self.eval.evaluate(board.play(square).pass())
        }))
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        _: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let value = |square| self.eval.evaluate(board.play(square).pass());
        Some(squares(moves).map(|s| (s, value(s))).collect())
    }
}

impl<G: Geometry> Evaluator<G> for Box<dyn Evaluator<G>> {
    fn evaluate(&self, board: Board<G>) -> i32 {
        (**self).evaluate(board)
    }

    fn square_weights(&self) -> Option<&[i32]> {
        (**self).square_weights()
    }

    fn weight_sum(&self, set: G::Bits) -> i32 {
        (**self).weight_sum(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_square_is_the_kth_of_the_draw() {
        // A draw, then the k lowest squares taken off one by one.
        let walk = |set: u128, rng: &mut GameRng| {
            let mut rest = set;
            for _ in 0..draw_below(set.count_ones(), rng) {
                rest &= rest - 1;
            }
            rest.trailing_zeros()
        };
        let (mut a, mut b) = (GameRng::seed_from_u64(7), GameRng::seed_from_u64(7));
        let mut set = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        for _ in 0..2000 {
            assert_eq!(random_square(set, &mut a).index(), walk(set, &mut b));
            set = set.rotate_left(7) ^ (set >> 3);
            set |= 1;
        }
    }

    /// The draw as a game of schedule version 2 makes it: the generator of seed 1
    /// gives these draws on every platform.
    #[test]
    fn draws_are_pinned_and_uniform() {
        let mut rng = GameRng::seed_from_u64(1);
        let draws: Vec<u32> = (2..12).map(|count| draw_below(count, &mut rng)).collect();
        assert_eq!(draws, [1, 2, 0, 3, 1, 4, 7, 4, 0, 1]);
        // Without a redraw (likely for small counts), the high half of output * count.
        let mut again = GameRng::seed_from_u64(1);
        let plain: Vec<u32> = (2..12u32)
            .map(|count| ((u64::from(again.next_u32()) * u64::from(count)) >> 32) as u32)
            .collect();
        assert_eq!(draws, plain);
        // Each value of 0..count about equally often, and nothing outside it.
        for count in [1, 2, 3, 7, 10, 33] {
            let mut seen = vec![0u32; count as usize];
            for _ in 0..count * 2000 {
                seen[draw_below(count, &mut rng) as usize] += 1;
            }
            assert!(
                seen.iter().all(|&n| (1700..2300).contains(&n)),
                "{count}: {seen:?}"
            );
        }
        // Near 2^32 a third of the outputs is rejected, and the rest stays uniform.
        let count = (1u32 << 31) + (1 << 30);
        let high = (0..3000)
            .filter(|_| draw_below(count, &mut rng) >= count / 2)
            .count();
        assert!((1350..1650).contains(&high), "{high}");
    }

    /// An eval's list starts with the move its line starts with when values tie.
    #[test]
    fn best_first_puts_the_chosen_move_first_among_equals() {
        let [a, b, c] = [Square::new(19), Square::new(26), Square::new(37)];
        let mut values = vec![(a, 2), (b, 5), (c, 5)];
        best_first(&mut values, Some(c));
        assert_eq!(values, [(c, 5), (b, 5), (a, 2)]);
        best_first(&mut values, None);
        assert_eq!(values, [(b, 5), (c, 5), (a, 2)]);
        // A better value stays first whatever was chosen.
        best_first(&mut values, Some(a));
        assert_eq!(values, [(b, 5), (c, 5), (a, 2)]);
    }

    /// A caller's choice carries what the strategy noted of that pick and nothing an
    /// earlier pick left in the player's notes (the game loop takes only the time).
    #[test]
    fn a_choice_carries_the_notes_of_its_own_pick() {
        use crate::board::Size8;
        let board = Board::<Size8>::start();
        let mut memory = Memory::new();
        memory.notes.timed(std::time::Duration::from_millis(5));
        memory.notes.searched(4);
        memory.notes.set_pv(vec![Square::new(19), Square::new(18)]);
        let mut rng = GameRng::seed_from_u64(1);
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(&[]),
        };
        let rule = Greedy.choose(board, board.moves(), &mut context).unwrap();
        assert_eq!(rule.value, Some(1));
        assert_eq!(
            (rule.elapsed(), rule.depth(), rule.pv()),
            (None, None, &[][..])
        );
        let search = StrategySpec::parse("alphabeta:depth=3")
            .unwrap()
            .build::<Size8>(crate::game::Rules::default())
            .unwrap();
        let searched = search.choose(board, board.moves(), &mut context).unwrap();
        assert!(searched.elapsed().is_some());
        assert_eq!(searched.depth(), Some(3));
        assert_eq!(searched.pv().first(), Some(&searched.square));
        // The game loop's pick leaves the time for it to take, once.
        let pick = search.pick(board, board.moves(), &mut context).unwrap();
        assert!(board.moves().has(pick.square().index()));
        assert!(context.memory.notes.take_nanos().is_some());
        assert_eq!(context.memory.notes.take_nanos(), None);
    }

    #[test]
    fn ties_are_broken_uniformly() {
        let mut rng = GameRng::seed_from_u64(1);
        let set = 0b1011u64;
        let mut counts = [0u32; 4];
        for _ in 0..3000 {
            counts[random_square(set, &mut rng).index() as usize] += 1;
        }
        assert_eq!(counts[2], 0);
        for &c in &[counts[0], counts[1], counts[3]] {
            assert!((850..1150).contains(&c), "{counts:?}");
        }
        let mut seen = 0u64;
        for _ in 0..200 {
            let s = best_by(
                0b1111u64,
                &mut rng,
                |s| if s.index() % 2 == 0 { 5 } else { 1 },
            );
            seen |= 1 << s.index();
        }
        assert_eq!(seen, 0b0101);
    }
}
