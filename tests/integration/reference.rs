//! The bitboard engine against a deliberately simple array implementation of the rules,
//! written independently here, on random playouts of every board size; and the plain
//! minimax the searches are checked against (`strategies`, `analyze`), shared with the
//! library's unit tests.

use proptest::prelude::*;
use reversi_lab::board::{
    squares, Bits, Board, Color, FlipKernel, Flipper, Geometry, Position, Size10, Size4, Size6,
    Size8, Square, Symmetry,
};
use reversi_lab::game::{Game, Rules, Scoring};
use reversi_lab::perft::perft;

// One text with the library's `strategy::reference`, which the solver's unit tests use:
// that file's top says why it is compiled into both.
#[path = "../../src/strategy/reference.rs"]
mod plain;
pub(crate) use plain::{
    best_moves, best_moves_to_depth, minimax, minimax_to_depth, move_values, play_line,
};

/// The rules as a beginner would write them: a grid of cells and a walk per direction.
/// Also what golden games are replayed under (golden.rs), independently of the engine.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Reference {
    size: usize,
    cells: Vec<i8>, // 1 = side to move, -1 = other side, 0 = empty
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Reference {
    fn from_board<G: Geometry>(board: Board<G>) -> Self {
        let size = G::SIZE as usize;
        let cells = (0..G::CELLS)
            .map(|i| {
                if board.player.has(i) {
                    1
                } else if board.opponent.has(i) {
                    -1
                } else {
                    0
                }
            })
            .collect();
        Reference { size, cells }
    }

    pub(crate) fn start(size: usize) -> Self {
        let mut cells = vec![0; size * size];
        let (lo, hi) = (size / 2 - 1, size / 2);
        // Black (to move) on the lower-left/upper-right diagonal of the centre, white on the other.
        cells[lo * size + lo] = -1;
        cells[hi * size + hi] = -1;
        cells[lo * size + hi] = 1;
        cells[hi * size + lo] = 1;
        Reference { size, cells }
    }

    fn flips(&self, index: usize) -> Vec<usize> {
        if self.cells[index] != 0 {
            return Vec::new();
        }
        let n = self.size as i32;
        let (x0, y0) = ((index % self.size) as i32, (index / self.size) as i32);
        let mut all = Vec::new();
        for (dx, dy) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            while x >= 0 && y >= 0 && x < n && y < n && self.cells[(y * n + x) as usize] == -1 {
                run.push((y * n + x) as usize);
                x += dx;
                y += dy;
            }
            if !run.is_empty()
                && x >= 0
                && y >= 0
                && x < n
                && y < n
                && self.cells[(y * n + x) as usize] == 1
            {
                all.extend(run);
            }
        }
        all.sort_unstable();
        all
    }

    pub(crate) fn moves(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| !self.flips(i).is_empty())
            .collect()
    }

    pub(crate) fn play(&self, index: usize) -> Self {
        let mut next = self.clone();
        for f in self.flips(index) {
            next.cells[f] = 1;
        }
        next.cells[index] = 1;
        next.pass()
    }

    pub(crate) fn pass(&self) -> Self {
        Reference {
            size: self.size,
            cells: self.cells.iter().map(|c| -c).collect(),
        }
    }

    /// Discs of the side to move, of the other side, and empty squares.
    pub(crate) fn discs(&self) -> (i32, i32, i32) {
        let count = |v: i8| self.cells.iter().filter(|&&c| c == v).count() as i32;
        (count(1), count(-1), count(0))
    }

    fn score(&self, rules: Rules) -> i32 {
        let own = self.cells.iter().filter(|&&c| c == 1).count() as i32;
        let other = self.cells.iter().filter(|&&c| c == -1).count() as i32;
        let empty = self.cells.iter().filter(|&&c| c == 0).count() as i32;
        let diff = if rules.anti { other - own } else { own - other };
        match rules.scoring {
            Scoring::Count => diff,
            Scoring::WinnerGetsEmpties if diff > 0 => diff + empty,
            Scoring::WinnerGetsEmpties if diff < 0 => diff - empty,
            Scoring::WinnerGetsEmpties => 0,
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            let passed = self.pass();
            if passed.moves().is_empty() {
                return 1;
            }
            return passed.perft(depth - 1);
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}

fn indices<B: Bits>(bits: B) -> Vec<usize> {
    squares(bits).map(|s| s.index() as usize).collect()
}

/// Plays a random game on both implementations, comparing every step; `choices`
/// picks the moves. Returns the number of placements.
fn random_playout<G: Geometry>(choices: &[u16]) -> Result<u32, TestCaseError> {
    let mut board = Board::<G>::start();
    let mut reference = Reference::start(G::SIZE as usize);
    prop_assert_eq!(Reference::from_board(board), reference.clone());
    let mut game = Game::<G>::new();
    let mut placements = 0u32;
    let mut step = 0usize;
    loop {
        let moves = indices(board.moves());
        prop_assert_eq!(&moves, &reference.moves());
        // Symmetries commute with move generation.
        let sym = Symmetry::ALL[step % 8];
        prop_assert_eq!(
            board.transform(sym).moves(),
            sym.apply_bits::<G>(board.moves())
        );
        if moves.is_empty() {
            let passed = board.pass();
            prop_assert_eq!(passed.can_move(), !reference.pass().moves().is_empty());
            if !passed.can_move() {
                prop_assert!(board.is_game_over());
                prop_assert!(game.is_over());
                for anti in [false, true] {
                    for scoring in [Scoring::Count, Scoring::WinnerGetsEmpties] {
                        let rules = Rules { scoring, anti };
                        prop_assert_eq!(rules.final_score(board), reference.score(rules));
                    }
                }
                return Ok(placements);
            }
            board = passed;
            reference = reference.pass();
            continue;
        }
        let chosen = moves[choices[step % choices.len()] as usize % moves.len()];
        step += 1;
        let square = Square::new(chosen as u32);
        prop_assert_eq!(indices(board.flips(square)), reference.flips(chosen));
        board = board.play(square);
        reference = reference.play(chosen);
        prop_assert_eq!(Reference::from_board(board), reference.clone());
        game.play(square)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(
            game.board().player | game.board().opponent,
            board.player | board.opponent
        );
        placements += 1;
        prop_assert!(
            placements <= G::CELLS - 4,
            "game longer than n*n-4 placements"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn engine_agrees_with_reference_4x4(choices in prop::collection::vec(any::<u16>(), 1..40)) {
        random_playout::<Size4>(&choices)?;
    }

    #[test]
    fn engine_agrees_with_reference_6x6(choices in prop::collection::vec(any::<u16>(), 1..60)) {
        random_playout::<Size6>(&choices)?;
    }

    #[test]
    fn engine_agrees_with_reference_8x8(choices in prop::collection::vec(any::<u16>(), 1..80)) {
        random_playout::<Size8>(&choices)?;
    }

    #[test]
    fn engine_agrees_with_reference_10x10(choices in prop::collection::vec(any::<u16>(), 1..120)) {
        random_playout::<Size10>(&choices)?;
    }

    #[test]
    fn transcripts_round_trip(choices in prop::collection::vec(any::<u16>(), 1..80)) {
        let mut game = Game::<Size8>::new();
        let mut i = 0;
        while !game.is_over() {
            let moves: Vec<Square> = squares(game.board().moves()).collect();
            game.play(moves[choices[i % choices.len()] as usize % moves.len()]).unwrap();
            i += 1;
        }
        let replay = Game::<Size8>::from_transcript(&game.transcript()).unwrap();
        prop_assert_eq!(replay.position(), game.position());
        let obf = game.position().to_obf();
        prop_assert_eq!(Position::<Size8>::from_obf(&obf).unwrap(), *game.position());
    }
}

#[test]
fn perft_agrees_with_reference_on_every_size() {
    for depth in 1..=7 {
        assert_eq!(
            perft(Board::<Size4>::start(), depth),
            Reference::start(4).perft(depth)
        );
        assert_eq!(
            perft(Board::<Size6>::start(), depth),
            Reference::start(6).perft(depth)
        );
    }
    for depth in 1..=5 {
        assert_eq!(
            perft(Board::<Size8>::start(), depth),
            Reference::start(8).perft(depth)
        );
        assert_eq!(
            perft(Board::<Size10>::start(), depth),
            Reference::start(10).perft(depth)
        );
    }
}

#[test]
fn whole_4x4_tree_is_finite() {
    // Every 4x4 game ends within 12 placements plus passes, so deep counts stop growing.
    let full = perft(Board::<Size4>::start(), 40);
    assert_eq!(perft(Board::<Size4>::start(), 60), full);
    assert_eq!(Reference::start(4).perft(30), full);
}

#[test]
fn start_position_colours() {
    let position = Position::<Size8>::start();
    assert_eq!(position.side, Color::Black);
    let black: Vec<String> = squares(position.black()).map(|s| s.name(8)).collect();
    let white: Vec<String> = squares(position.white()).map(|s| s.name(8)).collect();
    assert_eq!(black, ["e4", "d5"]);
    assert_eq!(white, ["d4", "e5"]);
}

/// Depth 10 is where `perft` stops using the fixed kernel and times the kernels
/// to pick the fastest on this CPU (`perft_kernel`): whichever wins, the count is
/// the published one (Aart Bik's, checked against Egaroucid). About a second.
#[test]
fn perft_10_8x8_with_the_timed_kernel() {
    let start = Board::<Size8>::start();
    let chosen = reversi_lab::perft::perft_kernel::<Size8>(10);
    assert!(FlipKernel::ALL.contains(&chosen));
    assert_eq!(perft(start, 10), 24_571_284);
    assert_eq!(
        reversi_lab::perft::perft_with(start, 10, chosen),
        24_571_284
    );
}

/// Source: Aart Bik's published 8x8 perft counts, checked against Egaroucid.
#[test]
#[ignore = "takes several seconds in the test profile; run with --ignored"]
fn deep_perft_8x8() {
    let start = Board::<Size8>::start();
    assert_eq!(perft(start, 11), 212_258_800);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The 8x8 fast flip code (AVX2 where the build has it) equals the portable one.
    #[test]
    fn fast_flips_equal_portable_flips(a in any::<u64>(), b in any::<u64>(), square in 0u32..64) {
        let player = a & !b & !(1 << square);
        let opponent = b & !(1 << square);
        let board = Board::<Size8>::new(player, opponent);
        prop_assert_eq!(
            board.flips(Square::new(square)),
            reversi_lab::board::portable_flips::<Size8>(player, opponent, square)
        );
    }

    /// Every flip kernel equals the portable code, on boards where the opponent
    /// holds about half the squares and on boards where it holds most of them
    /// (long runs, reaching the edges).
    #[test]
    fn every_kernel_equals_portable_flips(
        a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), square in 0u32..64
    ) {
        let placed = 1u64 << square;
        for opponent in [b & !placed, (b | c) & !placed] {
            let player = a & !opponent & !placed;
            let portable = reversi_lab::board::portable_flips::<Size8>(player, opponent, square);
            for &kernel in FlipKernel::ALL {
                let flips = reversi_lab::with_flipper!(kernel, F => F::flips::<Size8>(player, opponent, square));
                prop_assert_eq!(flips, portable, "{:?}", kernel);
            }
        }
    }
}
