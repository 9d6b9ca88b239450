//! Strategies: what chooses a move, one heuristic per file, built from a spec (see `spec`).

mod alphabeta;
pub mod clock;
mod corner;
pub mod engine;
mod error;
mod eval;
mod greedy;
pub mod kind;
mod minimum_disc;
mod mobility;
mod param_info;
mod parity;
pub mod pattern;
mod random;
mod registry;
pub mod solver;
pub mod spec;
mod stability;
mod table;
mod weighted;

pub use alphabeta::probcut;
pub use alphabeta::{proven_margin, terminal_value, AlphaBeta, EVAL_LIMIT, WIN};
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

/// What a strategy may change while it thinks: per player and per game, never shared.
#[derive(Debug, Default)]
pub struct Memory<G: Geometry> {
    search_table: Option<TranspositionTable<G>>,
    solver_table: Option<SolverTable<G>>,
    /// Nodes searched since the memory was made (search strategies count here).
    pub nodes: u64,
    /// An external engine's running process, kept from game to game.
    pub engine: Option<engine::Session>,
    /// The game's moves so far, set by the game loop for an external engine (see
    /// [`Strategy::external`]), which must tell its process what the other side did.
    pub history: Vec<Square>,
    /// The position the game started from, where it is not the standard start (`play
    /// --position`), set with `history` for an external engine.
    pub start: Option<crate::board::Position<G>>,
    /// The fault that made the last choice worthless (an engine's crash, stall or
    /// illegal move, any player's move past its time): the game loop then forfeits
    /// the game. With what happened.
    pub fault: Option<(crate::game::Termination, String)>,
    /// The side's clock under a time control (see [`clock::Timed`]).
    pub clock: clock::Clock,
}

impl<G: Geometry> Memory<G> {
    /// Empty memory.
    #[must_use]
    pub fn new() -> Self {
        Memory {
            search_table: None,
            solver_table: None,
            nodes: 0,
            engine: None,
            history: Vec::new(),
            start: None,
            fault: None,
            clock: clock::Clock::default(),
        }
    }

    /// Forgets everything learnt in the previous game, so that a game's moves
    /// depend only on that game (and so on neither thread count nor game order).
    pub fn new_game(&mut self) {
        if let Some(table) = &mut self.search_table {
            table.clear();
        }
        if let Some(table) = &mut self.solver_table {
            table.clear();
        }
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
        self.fault = None;
        self.clock.new_game();
    }

    /// The heuristic search's transposition table, made on first use with 2^`bits` entries.
    pub fn search_table(&mut self, bits: u32) -> &mut TranspositionTable<G> {
        table_slot(
            &mut self.search_table,
            bits,
            TranspositionTable::bits,
            TranspositionTable::new,
        )
    }

    /// The exact solver's table, kept apart because its values are on another scale.
    pub fn solver_table(&mut self, bits: u32) -> &mut SolverTable<G> {
        table_slot(
            &mut self.solver_table,
            bits,
            SolverTable::bits,
            SolverTable::new,
        )
    }
}

/// The table in `slot`, made anew when there is none or it has another size.
fn table_slot<T>(
    slot: &mut Option<T>,
    bits: u32,
    bits_of: impl Fn(&T) -> u32,
    make: impl Fn(u32) -> T,
) -> &mut T {
    if slot.as_ref().is_none_or(|t| bits_of(t) != bits) {
        *slot = Some(make(bits));
    }
    slot.as_mut().expect("just made")
}

/// What a strategy is given besides the position.
pub struct Context<'a, G: Geometry> {
    /// The game's random number generator: the only source of randomness.
    pub rng: &'a mut GameRng,
    /// The player's memory for this game.
    pub memory: &'a mut Memory<G>,
}

/// Chooses a move for the side to move. Strategies are shared by all threads, so
/// everything mutable lives in the [`Context`].
pub trait Strategy<G: Geometry>: Send + Sync {
    /// Chooses one of `moves` (never empty, always legal moves of `board`).
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square;

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

    /// Whether its moves are timed for `costs.csv`: a search takes microseconds to
    /// seconds, while a one-ply rule takes about as long as reading the clock, so
    /// timing each of its moves would slow a run by a third and measure mostly the clock.
    fn searches(&self) -> bool {
        false
    }

    /// Whether it plays through an outside process (an engine): the game loop then
    /// hands it the game so far in [`Memory::history`], and after each choice looks
    /// for a [`Memory::fault`], which loses the game for it.
    fn external(&self) -> bool {
        false
    }

    /// What an external engine says it is (its `name` and `version`); None for the others.
    fn identity(&self) -> Option<String> {
        None
    }

    /// Where the results go and the player's name, for an external engine's log
    /// (`engines/<player>-<worker>.log`); nothing for the others.
    fn attach(&self, folder: &std::path::Path, player: &str) {
        let _ = (folder, player);
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
pub fn best_by<B: Bits>(
    moves: B,
    rng: &mut GameRng,
    mut score: impl FnMut(Square) -> i32,
) -> Square {
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
    random_square(ties, rng)
}

/// A one-ply player over an evaluation: the move after which the evaluation,
/// from the mover's point of view, is highest.
pub struct OnePly<E> {
    /// The evaluation.
    pub eval: E,
}

impl<G: Geometry, E: Evaluator<G>> Strategy<G> for OnePly<E> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        best_by(moves, context.rng, |square| {
            // After the move the opponent is to move; pass to look from the mover's side.
            self.eval.evaluate(board.play(square).pass())
        })
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
