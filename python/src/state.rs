//! A game in progress on a board of any size, behind `Board`: the position, its legal
//! moves and a move stack with explicit passes, so that `pop` can take back anything.

use reversi_lab::board::{squares, Bits, Color, Drawing, Geometry, Position, Square, Symmetry};
use reversi_lab::game::{format_transcript, Game, Outcome, Rules};
use reversi_lab::perft::perft;
use reversi_lab::with_geometry;
use std::any::Any;

/// Why a move or a pass was refused: `IllegalMoveError` in Python.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// Nothing more can be played.
    #[error("the game is over")]
    GameOver,
    /// The square is taken or flips nothing (the message of the CLI's transcripts).
    #[error("{square} is not a legal move for {side} (legal: {legal})")]
    Illegal {
        /// The square offered.
        square: String,
        /// The side to move.
        side: Color,
        /// The legal moves, space separated.
        legal: String,
    },
    /// The side to move has no move but the game goes on.
    #[error("{side} has no legal move and must pass: call push_pass()")]
    MustPass {
        /// The side to move.
        side: Color,
    },
    /// A pass offered while a move is legal.
    #[error("{side} cannot pass: it has legal moves ({legal})")]
    CannotPass {
        /// The side to move.
        side: Color,
        /// The legal moves, space separated.
        legal: String,
    },
    /// Text that names no square of this board.
    #[error("'{text}' is not a square of the {size}x{size} board (write a move like f5: columns a-{last}, rows 1-{size})")]
    NotASquare {
        /// What was given.
        text: String,
        /// The board size.
        size: u32,
        /// The last column letter.
        last: char,
    },
}

/// A move of the stack: the position before it, and the square (None: a pass).
#[derive(Clone, Copy, Debug)]
struct Step<G: Geometry> {
    before: Position<G>,
    square: Option<Square>,
}

/// A game from `root` with every move and pass since, for one board geometry.
#[derive(Clone, Debug)]
pub struct State<G: Geometry> {
    root: Position<G>,
    position: Position<G>,
    legal: G::Bits,
    over: bool,
    stack: Vec<Step<G>>,
}

impl<G: Geometry> State<G> {
    /// A game from `root`, nothing played yet.
    #[must_use]
    pub fn new(root: Position<G>) -> Self {
        let mut state = State {
            root,
            position: root,
            legal: G::Bits::ZERO,
            over: false,
            stack: Vec::with_capacity(G::CELLS as usize),
        };
        state.refresh();
        state
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> Position<G> {
        self.position
    }

    /// Recomputes what depends on the position, once per change, since a playout
    /// asks for both after every move.
    fn refresh(&mut self) {
        self.legal = self.position.board.moves();
        self.over = self.legal.is_empty() && !self.position.board.pass().can_move();
    }

    fn names(&self, bits: G::Bits) -> String {
        squares(bits)
            .map(|s| s.name(G::SIZE))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn advance(&mut self, square: Option<Square>) {
        self.stack.push(Step {
            before: self.position,
            square,
        });
        self.position = match square {
            Some(square) => self.position.play(square),
            None => self.position.pass(),
        };
        self.refresh();
    }
}

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
    fn push(&mut self, index: u32) -> Result<(), PlayError>;
    /// Passes, when the side to move has no move and the game goes on.
    fn push_pass(&mut self) -> Result<(), PlayError>;
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
    /// The concrete `State<G>`, for code generic over the geometry.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Geometry> AnyState for State<G> {
    fn size(&self) -> u32 {
        G::SIZE
    }

    fn legal(&self) -> u128 {
        self.legal.to_u128()
    }

    fn side(&self) -> Color {
        self.position.side
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn push(&mut self, index: u32) -> Result<(), PlayError> {
        if self.legal.has(index) {
            self.advance(Some(Square::new(index)));
            return Ok(());
        }
        let side = self.position.side;
        Err(if self.over {
            PlayError::GameOver
        } else if self.legal.is_empty() {
            PlayError::MustPass { side }
        } else {
            PlayError::Illegal {
                square: Square::new(index).name(G::SIZE),
                side,
                legal: self.names(self.legal),
            }
        })
    }

    fn push_pass(&mut self) -> Result<(), PlayError> {
        if self.over {
            return Err(PlayError::GameOver);
        }
        if !self.legal.is_empty() {
            return Err(PlayError::CannotPass {
                side: self.position.side,
                legal: self.names(self.legal),
            });
        }
        self.advance(None);
        Ok(())
    }

    fn pop(&mut self) -> Option<Option<Square>> {
        let step = self.stack.pop()?;
        self.position = step.before;
        self.refresh();
        Some(step.square)
    }

    fn stack(&self) -> Vec<Option<Square>> {
        self.stack.iter().map(|step| step.square).collect()
    }

    fn transcript(&self) -> String {
        let moves: Vec<Square> = self.stack.iter().filter_map(|step| step.square).collect();
        format_transcript(&moves, G::SIZE)
    }

    fn discs(&self) -> (u128, u128) {
        (
            self.position.black().to_u128(),
            self.position.white().to_u128(),
        )
    }

    fn planes(&self) -> (u128, u128) {
        let board = self.position.board;
        (board.player.to_u128(), board.opponent.to_u128())
    }

    fn empties(&self) -> u32 {
        self.position.board.empty_count()
    }

    fn outcome(&self, rules: Rules) -> Option<Outcome> {
        self.over.then(|| rules.outcome(&self.position))
    }

    fn obf(&self) -> String {
        self.position.to_obf()
    }

    fn root_obf(&self) -> String {
        self.root.to_obf()
    }

    fn drawing(&self) -> String {
        Drawing::new(self.position).status(false).to_string()
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self.position.board, depth)
    }

    fn transformed(&self, symmetry: Symmetry) -> Box<dyn AnyState> {
        let position = Position {
            board: self.position.board.transform(symmetry),
            side: self.position.side,
        };
        Box::new(State::new(position))
    }

    fn copied(&self, with_stack: bool) -> Box<dyn AnyState> {
        if with_stack {
            Box::new(self.clone())
        } else {
            Box::new(State::new(self.position))
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The start position of a board of `size` (already checked).
#[must_use]
pub fn start(size: u32) -> Box<dyn AnyState> {
    with_geometry!(size, G => Box::new(State::new(Position::<G>::start())))
}

/// The position of an OBF line, on the board its square count gives (already checked).
pub fn from_obf(
    line: &str,
    size: u32,
) -> Result<Box<dyn AnyState>, reversi_lab::board::ParsePositionError> {
    with_geometry!(size, G => {
        let position = Position::<G>::from_obf(line)?;
        Ok(Box::new(State::new(position)) as Box<dyn AnyState>)
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
        let game = Game::<G>::from_transcript(text)?;
        let mut state = State::new(Position::<G>::start());
        for &square in game.moves() {
            if state.legal.is_empty() {
                state.advance(None);
            }
            state.advance(Some(square));
        }
        Ok(Box::new(state) as Box<dyn AnyState>)
    })
}
