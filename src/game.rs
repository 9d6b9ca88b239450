//! Whole games: rules and scoring, outcomes and transcripts (`f5d6c3...`); the driver's
//! [`Game`] with automatic passes, and the [`Line`] with every turn kept.

use crate::board::{square_names, Bits, Board, Color, Geometry, Position, Square, SIZES};
use serde::{Deserialize, Serialize};
use std::fmt;

mod line;
pub use line::{Line, Turn};

/// What happens to the squares still empty when a game ends early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Empty squares go to the winner (the world-championship convention).
    #[default]
    WinnerGetsEmpties,
    /// Only discs on the board count.
    Count,
}

impl Scoring {
    /// Every scoring rule, in the order messages list them.
    pub const ALL: [Scoring; 2] = [Scoring::WinnerGetsEmpties, Scoring::Count];

    /// The name the command line, config files (serde) and Python give it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::WinnerGetsEmpties => "winner-gets-empties",
            Scoring::Count => "count",
        }
    }

    /// The rule called `name`, or the one-line refusal that lists the known names.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Self::ALL.iter().map(|s| s.name()).collect();
                format!("unknown scoring '{name}': use {}", known.join(" or "))
            })
    }
}

/// The rules a game is scored under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// How empty squares at the end are counted.
    pub scoring: Scoring,
    /// Anti-reversi: the side with fewer discs wins.
    pub anti: bool,
}

impl Rules {
    /// The final score from the side to move's point of view: positive is a win,
    /// its size the margin, under these rules. Only meaningful once the game is over.
    #[inline(always)]
    #[must_use]
    pub fn final_score<G: Geometry>(self, board: Board<G>) -> i32 {
        self.score_of_counts(
            board.player_count() as i32,
            board.opponent_count() as i32,
            board.empty_count() as i32,
        )
    }

    /// The final score from the disc counts alone (`own` for the side to move),
    /// for solvers that know the counts without building the board.
    #[inline(always)]
    #[must_use]
    pub fn score_of_counts(self, own: i32, other: i32, empties: i32) -> i32 {
        let mut score = if self.anti { other - own } else { own - other };
        if matches!(self.scoring, Scoring::WinnerGetsEmpties) && score != 0 {
            score += score.signum() * empties;
        }
        score
    }

    /// The outcome of a finished position.
    #[must_use]
    pub fn outcome<G: Geometry>(self, position: &Position<G>) -> Outcome {
        let mover_score = self.final_score(position.board);
        let margin = match position.side {
            Color::Black => mover_score,
            Color::White => -mover_score,
        };
        let winner = match margin.signum() {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => None,
        };
        Outcome {
            black_discs: position.black().count(),
            white_discs: position.white().count(),
            winner,
            margin,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Black discs on the board.
    pub black_discs: u32,
    /// White discs on the board.
    pub white_discs: u32,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Black's margin under the rules: positive when black won. Under the
    /// normal rules this is black minus white discs (plus the empties to the winner).
    pub margin: i32,
}

impl Outcome {
    /// `black`, `white` or `draw`.
    #[must_use]
    pub fn result_name(&self) -> &'static str {
        match self.winner {
            Some(color) => color.name(),
            None => "draw",
        }
    }
}

/// How a game ended: on the board, or by a fault of one side (an external engine's),
/// which loses it. The names are `games.csv`'s `termination` column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Played to the end: neither side could move.
    #[default]
    Normal,
    /// A move came later than its time budget allowed.
    Time,
    /// The engine died or closed its output.
    Crash,
    /// An illegal or unreadable move.
    Illegal,
    /// No answer within the start-up or move deadline.
    Stalled,
    /// The player raised an error (a Python callable's exception).
    Error,
}

impl Termination {
    /// Every termination, in the order of their names' documentation.
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::Time,
        Termination::Crash,
        Termination::Illegal,
        Termination::Stalled,
        Termination::Error,
    ];

    /// The name in `games.csv`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Time => "time",
            Termination::Crash => "crash",
            Termination::Illegal => "illegal",
            Termination::Stalled => "stalled",
            Termination::Error => "error",
        }
    }

    /// Whether it is a player's fault (a crash, an illegal or unreadable move, a stall)
    /// rather than a result: a loss on time is a result a study of clocks measures,
    /// while faults in a row say an engine is broken.
    #[must_use]
    pub const fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::Crash | Termination::Illegal | Termination::Stalled | Termination::Error
        )
    }

    /// The termination of a name, if it is one.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A game lost by a fault: who was at fault, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Forfeit {
    /// The side at fault, which loses.
    pub loser: Color,
    /// What happened.
    pub termination: Termination,
}

/// Why a transcript could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("transcript ply {ply}: {reason}")]
pub struct TranscriptError {
    /// 1-based number of the move that failed.
    pub ply: usize,
    /// What was wrong with it.
    pub reason: String,
}

/// An illegal move or pass offered to [`Game::play`] or a [`Line`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The square is taken or flips nothing.
    #[error("{square} is not a legal move for {side} (legal: {legal})")]
    Illegal {
        /// The square offered.
        square: String,
        /// The side to move.
        side: Color,
        /// The legal moves, space separated.
        legal: String,
    },
    /// A move offered to a [`Line`] while the side to move has none and must pass.
    #[error("{side} has no legal move and must pass")]
    MustPass {
        /// The side to move.
        side: Color,
    },
    /// A pass offered to a [`Line`] while a move is legal.
    #[error("{side} cannot pass: it has legal moves ({legal})")]
    CannotPass {
        /// The side to move.
        side: Color,
        /// The legal moves, space separated.
        legal: String,
    },
}

/// Feeds the squares of a transcript (`f5d6c3...`; whitespace is ignored) to `play`,
/// numbering them from `played + 1` in errors.
fn each_square<G: Geometry>(
    text: &str,
    played: usize,
    mut play: impl FnMut(Square) -> Result<(), MoveError>,
) -> Result<(), TranscriptError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut rest = compact.as_str();
    let mut ply = played;
    while !rest.is_empty() {
        ply += 1;
        let first = rest.chars().next().map_or(1, char::len_utf8);
        let digits = rest[first..].bytes().take_while(u8::is_ascii_digit).count();
        let token = &rest[..first + digits];
        let square = Square::parse(token, G::SIZE).ok_or_else(|| TranscriptError {
            ply,
            reason: format!(
                "'{token}' is not a square of the {0}x{0} board (write moves like f5d6, columns a-{1}, rows 1-{0})",
                G::SIZE,
                (b'a' + G::SIZE as u8 - 1) as char
            ),
        })?;
        play(square).map_err(|err| TranscriptError {
            ply,
            reason: err.to_string(),
        })?;
        rest = &rest[token.len()..];
    }
    Ok(())
}

/// The squares of the largest board: no game has more moves.
const MAX_MOVES: usize = (SIZES[SIZES.len() - 1] * SIZES[SIZES.len() - 1]) as usize;

/// A game's moves, kept inline: a random game costs about as much as one heap
/// allocation and its release would add to it, and most games are random or cheap.
/// Room for a power of two of moves, so that a move is stored through a masked index
/// without a bounds check; no more, as a game is copied a few times on its way
/// through the driver.
#[derive(Clone, Copy)]
struct MoveList {
    squares: [Square; MOVE_ROOM],
    len: u8,
}

/// [`MoveList`]'s room: the power of two at or above [`MAX_MOVES`].
const MOVE_ROOM: usize = MAX_MOVES.next_power_of_two();

const _: () = assert!(MOVE_ROOM <= 128, "a move list's length is a u8 below 255");

impl MoveList {
    const EMPTY: Self = MoveList {
        squares: [Square::new(0); MOVE_ROOM],
        len: 0,
    };

    #[inline]
    fn push(&mut self, square: Square) {
        // Every move fills an empty square: at most MAX_MOVES of them, so the mask
        // never wraps.
        self.squares[usize::from(self.len) & (MOVE_ROOM - 1)] = square;
        self.len += 1;
    }

    #[inline]
    fn as_slice(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// A game in progress: the position, the moves so far and the passes. Passes are
/// made automatically, so the side to move always has a legal move unless the game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<G: Geometry> {
    position: Position<G>,
    /// The legal moves of the side to move, kept so the game loop need not recompute them.
    legal: G::Bits,
    moves: MoveList,
    passes: u32,
    /// Set when a side lost by a fault; the game is then over.
    forfeit: Option<Forfeit>,
}

impl<G: Geometry> Default for Game<G> {
    fn default() -> Self {
        Game::new()
    }
}

impl<G: Geometry> Game<G> {
    /// A game from the standard start.
    #[must_use]
    pub fn new() -> Self {
        Game::from_position(Position::start())
    }

    /// A game from any position (passing at once if the side to move cannot move).
    #[must_use]
    pub fn from_position(position: Position<G>) -> Self {
        let mut game = Game {
            position,
            // Set by `pass_if_needed` below.
            legal: G::Bits::ZERO,
            moves: MoveList::EMPTY,
            passes: 0,
            forfeit: None,
        };
        game.pass_if_needed();
        game
    }

    /// Plays a transcript from the standard start.
    pub fn from_transcript(text: &str) -> Result<Self, TranscriptError> {
        let mut game = Game::new();
        game.play_transcript(text)?;
        Ok(game)
    }

    /// Plays the moves of a transcript (`f5d6c3...`; whitespace is ignored).
    pub fn play_transcript(&mut self, text: &str) -> Result<(), TranscriptError> {
        let played = self.moves.as_slice().len();
        each_square::<G>(text, played, |square| self.play(square))
    }

    #[inline(always)]
    fn pass_if_needed(&mut self) {
        self.legal = self.position.board.moves();
        if self.legal.is_empty() {
            let passed = self.position.pass();
            let legal = passed.board.moves();
            if !legal.is_empty() {
                self.position = passed;
                self.legal = legal;
                self.passes += 1;
            }
        }
    }

    /// Plays a legal move for the side to move, then passes if the other side cannot move.
    pub fn play(&mut self, square: Square) -> Result<(), MoveError> {
        let moves = self.legal;
        if moves.is_empty() {
            return Err(MoveError::GameOver);
        }
        if !moves.has(square.index()) {
            return Err(MoveError::Illegal {
                square: square.name(G::SIZE),
                side: self.position.side,
                legal: square_names(moves, G::SIZE),
            });
        }
        self.play_unchecked(square);
        Ok(())
    }

    /// Plays a move known to be legal (the game loop's fast path).
    #[inline(always)]
    pub fn play_unchecked(&mut self, square: Square) {
        self.position = self.position.play(square);
        self.moves.push(square);
        self.pass_if_needed();
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    /// The board relative to the side to move.
    #[must_use]
    pub fn board(&self) -> Board<G> {
        self.position.board
    }

    /// The colour to move.
    #[must_use]
    pub fn side(&self) -> Color {
        self.position.side
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Square] {
        self.moves.as_slice()
    }

    /// Number of passes so far.
    #[must_use]
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// The legal moves of the side to move (empty once the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> G::Bits {
        self.legal
    }

    /// Whether neither side can move (or a side lost by a fault).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.legal.is_empty()
    }

    /// Ends the game lost by the side to move, for `termination` (a fault of its).
    pub fn forfeit(&mut self, termination: Termination) {
        self.forfeit = Some(Forfeit {
            loser: self.side(),
            termination,
        });
        self.legal = G::Bits::ZERO;
    }

    /// How the game ended (or is going): normal unless a side lost by a fault.
    #[must_use]
    pub fn termination(&self) -> Termination {
        self.forfeit.map_or(Termination::Normal, |f| f.termination)
    }

    /// The fault that ended the game, if one did.
    #[must_use]
    pub fn forfeited(&self) -> Option<Forfeit> {
        self.forfeit
    }

    /// The outcome under `rules`, once the game is over. A game lost by a fault is
    /// won by the other side by the whole board (the largest margin a game can have),
    /// with the discs as they stood.
    #[must_use]
    pub fn outcome(&self, rules: Rules) -> Option<Outcome> {
        if let Some(forfeit) = self.forfeit {
            let winner = forfeit.loser.opposite();
            let whole = (G::SIZE * G::SIZE) as i32;
            return Some(Outcome {
                black_discs: self.position.black().count(),
                white_discs: self.position.white().count(),
                winner: Some(winner),
                margin: if winner == Color::Black {
                    whole
                } else {
                    -whole
                },
            });
        }
        self.is_over().then(|| rules.outcome(&self.position))
    }

    /// The transcript of the moves so far.
    #[must_use]
    pub fn transcript(&self) -> String {
        format_transcript(self.moves(), G::SIZE)
    }

    /// Appends the transcript of the moves so far to `out`.
    pub fn write_transcript(&self, out: &mut String) {
        Square::push_names(self.moves(), G::SIZE, out);
    }
}

/// Writes moves as a transcript (`f5d6c3`).
#[must_use]
pub fn format_transcript(moves: &[Square], size: u32) -> String {
    let mut out = String::with_capacity(moves.len() * 3);
    Square::push_names(moves, size, &mut out);
    out
}

impl<G: Geometry> fmt::Display for Game<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{squares, Size10, Size4, Size8};

    #[test]
    fn scoring_names_are_serdes_and_parse_back() {
        for scoring in Scoring::ALL {
            let serde = serde_json::to_value(scoring).unwrap();
            assert_eq!(serde.as_str(), Some(scoring.name()));
            assert_eq!(Scoring::parse(scoring.name()), Ok(scoring));
        }
        assert_eq!(
            Scoring::parse("most"),
            Err("unknown scoring 'most': use winner-gets-empties or count".to_string())
        );
    }

    #[test]
    fn transcript_round_trip() {
        let text = "f5d6c3d3c4f4f6f3e6e7";
        let game = Game::<Size8>::from_transcript(text).unwrap();
        assert_eq!(game.transcript(), text);
        assert_eq!(game.moves().len(), 10);
        assert_eq!(
            Game::<Size8>::from_transcript("F5 D6")
                .unwrap()
                .transcript(),
            "f5d6"
        );
    }

    #[test]
    fn transcript_errors_name_ply_and_reason() {
        let err = Game::<Size8>::from_transcript("f5d6a1").unwrap_err();
        assert_eq!(err.ply, 3);
        assert!(
            err.reason.contains("a1 is not a legal move for black"),
            "{err}"
        );
        let err = Game::<Size8>::from_transcript("f5z9").unwrap_err();
        assert_eq!(err.ply, 2);
        assert!(err.reason.contains("'z9' is not a square"), "{err}");
        let err = Game::<Size8>::from_transcript("f5d").unwrap_err();
        assert_eq!(err.ply, 2);
    }

    #[test]
    fn ten_by_ten_transcripts_use_two_digit_rows() {
        let mut game = Game::<Size10>::new();
        while !game.is_over() {
            let m = squares(game.board().moves()).last().unwrap();
            game.play(m).unwrap();
        }
        let text = game.transcript();
        assert!(text.contains("10"));
        assert_eq!(Game::<Size10>::from_transcript(&text).unwrap(), game);
    }

    #[test]
    fn scoring_rules() {
        // 4x4 board: black 5 discs, white 1, 10 empty, game over assumed by the caller.
        let black = 0b11111u64;
        let white = 1u64 << 15;
        let position = Position::<Size4>::from_colors(black, white, Color::White);
        let normal = Rules::default().outcome(&position);
        assert_eq!((normal.black_discs, normal.white_discs), (5, 1));
        assert_eq!(normal.winner, Some(Color::Black));
        assert_eq!(normal.margin, 4 + 10);
        let count = Rules {
            scoring: Scoring::Count,
            anti: false,
        }
        .outcome(&position);
        assert_eq!(count.margin, 4);
        let anti = Rules {
            scoring: Scoring::Count,
            anti: true,
        }
        .outcome(&position);
        assert_eq!(anti.winner, Some(Color::White));
        assert_eq!(anti.margin, -4);
        let anti_empties = Rules {
            scoring: Scoring::WinnerGetsEmpties,
            anti: true,
        }
        .outcome(&position);
        assert_eq!(anti_empties.margin, -14);
        let draw = Position::<Size4>::from_colors(0b11, 0b1100, Color::Black);
        assert_eq!(Rules::default().outcome(&draw).winner, None);
        assert_eq!(Rules::default().outcome(&draw).result_name(), "draw");
    }

    #[test]
    fn passes_are_automatic() {
        // A known 8x8 game with a pass: play greedily-first moves until one happens.
        let mut found = false;
        for seed in 0..200u64 {
            let mut game = Game::<Size8>::new();
            let mut k = seed;
            while !game.is_over() {
                let moves: Vec<_> = squares(game.board().moves()).collect();
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                game.play(moves[(k >> 33) as usize % moves.len()]).unwrap();
            }
            if game.passes() > 0 {
                let replay = Game::<Size8>::from_transcript(&game.transcript()).unwrap();
                assert_eq!(replay.passes(), game.passes());
                assert_eq!(replay.position(), game.position());
                found = true;
                break;
            }
        }
        assert!(found, "no random game with a pass in 200 tries");
    }
}
