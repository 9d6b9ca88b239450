//! A game in progress on a board of any size, behind `Board`: the library's game line
//! (`game::Line`: the position, its legal moves and every turn with explicit passes, so
//! that `pop` can take back anything), its geometry erased.

use reversi_lab::board::{Bits, Color, Drawing, Geometry, Position, Square, Symmetry};
use reversi_lab::game::{Line, MoveError, Outcome, Rules};
use reversi_lab::perft::perft;
use reversi_lab::with_geometry;
use std::any::Any;

/// What `Board` needs of a game, whatever the board size: bit sets travel as `u128`.
pub trait AnyState: Send + Sync {
    /// The board size.
    fn size(&self) -> u32;
    /// The legal moves of the side to move.
    fn legal(&self) -> u128;
    /// The colour to move.
    fn side(&self) -> Color;
    /// Whether neither side can move.
    fn is_over(&self) -> bool;
    /// Plays square `index` (below the number of squares) for the side to move.
    fn push(&mut self, index: u32) -> Result<(), MoveError>;
    /// Passes, when the side to move has no move and the game goes on.
    fn push_pass(&mut self) -> Result<(), MoveError>;
    /// Takes back the last move or pass and returns it (None: the stack was empty).
    fn pop(&mut self) -> Option<Option<Square>>;
    /// The moves and passes since the root, oldest first.
    fn stack(&self) -> Vec<Option<Square>>;
    /// The moves since the root as a transcript (`f5d6`, passes implied).
    fn transcript(&self) -> String;
    /// Black's and white's discs.
    fn discs(&self) -> (u128, u128);
    /// The side to move's and the other side's discs.
    fn planes(&self) -> (u128, u128);
    /// Empty squares.
    fn empties(&self) -> u32;
    /// The outcome under `rules`, once the game is over.
    fn outcome(&self, rules: Rules) -> Option<Outcome>;
    /// The position as an OBF line.
    fn obf(&self) -> String;
    /// The position the stack starts from, as an OBF line.
    fn root_obf(&self) -> String;
    /// The text drawing of `reversi-lab show` without its status line, which
    /// `Board` writes with the result once the game is over.
    fn drawing(&self) -> String;
    /// Leaves of the game tree `depth` plies down (passes count as plies).
    fn perft(&self, depth: u32) -> u64;
    /// The position seen through `symmetry`, with an empty stack.
    fn transformed(&self, symmetry: Symmetry) -> Box<dyn AnyState>;
    /// A copy, with or without the move stack.
    fn copied(&self, with_stack: bool) -> Box<dyn AnyState>;
    /// The concrete `Line<G>`, for code generic over the geometry.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Geometry> AnyState for Line<G> {
    fn size(&self) -> u32 {
        G::SIZE
    }

    fn legal(&self) -> u128 {
        self.legal_moves().to_u128()
    }

    fn side(&self) -> Color {
        Line::side(self)
    }

    fn is_over(&self) -> bool {
        Line::is_over(self)
    }

    fn push(&mut self, index: u32) -> Result<(), MoveError> {
        self.play(Square::new(index))
    }

    fn push_pass(&mut self) -> Result<(), MoveError> {
        self.pass()
    }

    fn pop(&mut self) -> Option<Option<Square>> {
        self.undo().map(|turn| turn.square)
    }

    fn stack(&self) -> Vec<Option<Square>> {
        self.turns().iter().map(|turn| turn.square).collect()
    }

    fn transcript(&self) -> String {
        Line::transcript(self)
    }

    fn discs(&self) -> (u128, u128) {
        let position = self.position();
        (position.black().to_u128(), position.white().to_u128())
    }

    fn planes(&self) -> (u128, u128) {
        let board = self.board();
        (board.player.to_u128(), board.opponent.to_u128())
    }

    fn empties(&self) -> u32 {
        self.board().empty_count()
    }

    fn outcome(&self, rules: Rules) -> Option<Outcome> {
        Line::outcome(self, rules)
    }

    fn obf(&self) -> String {
        self.position().to_obf()
    }

    fn root_obf(&self) -> String {
        self.start().to_obf()
    }

    fn drawing(&self) -> String {
        Drawing::new(self.position()).status(false).to_string()
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self.board(), depth)
    }

    fn transformed(&self, symmetry: Symmetry) -> Box<dyn AnyState> {
        let position = Position {
            board: self.board().transform(symmetry),
            side: Line::side(self),
        };
        Box::new(Line::new(position))
    }

    fn copied(&self, with_stack: bool) -> Box<dyn AnyState> {
        if with_stack {
            Box::new(self.clone())
        } else {
            Box::new(Line::new(self.position()))
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The start position of a board of `size` (already checked).
#[must_use]
pub fn start(size: u32) -> Box<dyn AnyState> {
    with_geometry!(size, G => Box::new(Line::new(Position::<G>::start())))
}

/// The position of an OBF line, on the board its square count gives (already checked).
pub fn from_obf(
    line: &str,
    size: u32,
) -> Result<Box<dyn AnyState>, reversi_lab::board::ParsePositionError> {
    with_geometry!(size, G => {
        let position = Position::<G>::from_obf(line)?;
        Ok(Box::new(Line::new(position)) as Box<dyn AnyState>)
    })
}

/// The game of a transcript from the start of a board of `size` (already checked), its
/// passes between moves made explicit (a pass after the last move is left to the
/// caller); errors name the ply, as the CLI's do.
pub fn from_transcript(
    text: &str,
    size: u32,
) -> Result<Box<dyn AnyState>, reversi_lab::game::TranscriptError> {
    with_geometry!(size, G => {
        let mut line = Line::new(Position::<G>::start());
        line.play_transcript(text)?;
        Ok(Box::new(line) as Box<dyn AnyState>)
    })
}
