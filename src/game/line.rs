//! The game line: a game from any start with every turn kept, passes explicit, so that
//! it can be undone, shown turn by turn and told to a protocol or to Python.
//!
//! [`Game`](super::Game) is the driver's record of a game played through (passes
//! implied, no positions kept, no allocation); everything that shows, steps through or
//! takes back a game (`play`, `replay`, `watch`, `serve`, `export`, web play and the
//! Python `Board`) keeps a `Line`.

use super::{each_square, MoveError, Outcome, Rules, TranscriptError};
use crate::board::{square_names, Bits, Board, Color, Geometry, Position, Square};

/// One turn of a line: the position it was played from and the move (None: a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn<G: Geometry> {
    /// The position the turn was played from.
    pub before: Position<G>,
    /// The square, or None for a pass.
    pub square: Option<Square>,
    /// Whether the line put the pass in by itself ([`Line::pass_if_forced`]) rather
    /// than being told it: a GTP `undo` takes such passes back with the move after them.
    pub automatic: bool,
}

impl<G: Geometry> Turn<G> {
    /// The colour whose turn it was.
    #[must_use]
    pub fn side(&self) -> Color {
        self.before.side
    }

    /// The discs the move flipped (none for a pass).
    #[must_use]
    pub fn flipped(&self) -> G::Bits {
        self.square
            .map_or(G::Bits::ZERO, |square| self.before.board.flips(square))
    }
}

/// A game from any start with its turns: moves and passes, each with the position
/// before it. Passes are explicit: [`play`](Line::play) refuses a move while the side
/// to move must pass; [`pass_if_forced`](Line::pass_if_forced) makes the pass the
/// rules force, for callers that pass automatically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<G: Geometry> {
    start: Position<G>,
    position: Position<G>,
    /// The legal moves of the side to move, and whether neither side can move: made
    /// once per turn, as a playout asks for both after every move.
    legal: G::Bits,
    over: bool,
    turns: Vec<Turn<G>>,
    /// The squares of the turns that are moves: the history a strategy is shown and
    /// the transcript, kept as a slice so that neither is rebuilt on every move.
    moves: Vec<Square>,
}

impl<G: Geometry> Line<G> {
    /// A line from `start`, nothing played (not even a pass it must make).
    #[must_use]
    pub fn new(start: Position<G>) -> Self {
        let mut line = Line {
            start,
            position: start,
            legal: G::Bits::ZERO,
            over: false,
            // Room for a whole game at once: a Python playout makes a line per game.
            turns: Vec::with_capacity(G::CELLS as usize),
            moves: Vec::with_capacity(G::CELLS as usize),
        };
        line.refresh();
        line
    }

    /// Starts again from `start`, keeping the room of the turns (a stream of games).
    pub fn restart(&mut self, start: Position<G>) {
        self.start = start;
        self.position = start;
        self.turns.clear();
        self.moves.clear();
        self.refresh();
    }

    fn refresh(&mut self) {
        self.legal = self.position.board.moves();
        self.over = self.legal.is_empty() && !self.position.board.pass().can_move();
    }

    /// The position the line starts from.
    #[must_use]
    pub const fn start(&self) -> Position<G> {
        self.start
    }

    /// The position now.
    #[must_use]
    pub const fn position(&self) -> Position<G> {
        self.position
    }

    /// The board now, relative to the side to move.
    #[must_use]
    pub const fn board(&self) -> Board<G> {
        self.position.board
    }

    /// The colour to move (or to pass).
    #[must_use]
    pub const fn side(&self) -> Color {
        self.position.side
    }

    /// The legal moves of the side to move (empty when it must pass or the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> G::Bits {
        self.legal
    }

    /// Whether neither side can move.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.over
    }

    /// Whether the side to move has no move while the other has.
    #[must_use]
    pub fn must_pass(&self) -> bool {
        self.legal.is_empty() && !self.over
    }

    /// Every turn so far, passes included.
    #[must_use]
    pub fn turns(&self) -> &[Turn<G>] {
        &self.turns
    }

    /// The moves so far, passes left out (a transcript's, and a strategy's history).
    #[must_use]
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The number of passes so far.
    #[must_use]
    pub fn passes(&self) -> usize {
        self.turns.len() - self.moves.len()
    }

    /// The position after turn `index` (the position now after the last).
    #[must_use]
    pub fn after(&self, index: usize) -> Position<G> {
        self.turns
            .get(index + 1)
            .map_or(self.position, |turn| turn.before)
    }

    /// The last move (not a pass), and whether a pass came after it.
    #[must_use]
    pub fn last_move(&self) -> Option<(Turn<G>, bool)> {
        let at = self.turns.iter().rposition(|t| t.square.is_some())?;
        Some((self.turns[at], at + 1 < self.turns.len()))
    }

    fn push(&mut self, square: Option<Square>, automatic: bool) {
        self.turns.push(Turn {
            before: self.position,
            square,
            automatic,
        });
        self.position = match square {
            Some(square) => {
                self.moves.push(square);
                self.position.play(square)
            }
            None => self.position.pass(),
        };
        self.refresh();
    }

    /// Plays a legal move for the side to move.
    pub fn play(&mut self, square: Square) -> Result<(), MoveError> {
        if self.legal.has(square.index()) {
            self.push(Some(square), false);
            return Ok(());
        }
        let side = self.position.side;
        Err(if self.over {
            MoveError::GameOver
        } else if self.legal.is_empty() {
            MoveError::MustPass { side }
        } else {
            MoveError::Illegal {
                square: square.name(G::SIZE),
                side,
                legal: square_names(self.legal, G::SIZE),
            }
        })
    }

    /// Passes for the side to move, which must have no move while the game goes on.
    pub fn pass(&mut self) -> Result<(), MoveError> {
        if self.over {
            return Err(MoveError::GameOver);
        }
        if !self.legal.is_empty() {
            return Err(MoveError::CannotPass {
                side: self.position.side,
                legal: square_names(self.legal, G::SIZE),
            });
        }
        self.push(None, false);
        Ok(())
    }

    /// Plays `square`, or passes for None.
    pub fn play_turn(&mut self, square: Option<Square>) -> Result<(), MoveError> {
        match square {
            Some(square) => self.play(square),
            None => self.pass(),
        }
    }

    /// Passes for the side to move if it must (an automatic turn); true if it did.
    pub fn pass_if_forced(&mut self) -> bool {
        let forced = self.must_pass();
        if forced {
            self.push(None, true);
        }
        forced
    }

    /// Plays `square` after the pass the side to move must make first, if any (the
    /// passes a transcript leaves out); nothing changes when the move is refused.
    pub fn play_passing(&mut self, square: Square) -> Result<(), MoveError> {
        if !self.pass_if_forced() {
            return self.play(square);
        }
        self.play(square).inspect_err(|_| {
            self.undo();
        })
    }

    /// Plays the moves of a transcript (`f5d6c3...`, whitespace ignored, passes
    /// implied); a pass the last move forces is left to the caller. Errors name the
    /// move, counted from the line's first; the line is then as it was.
    pub fn play_transcript(&mut self, text: &str) -> Result<(), TranscriptError> {
        let turns = self.turns.len();
        let first = self.moves.len();
        each_square::<G>(text, first, |square| self.play_passing(square)).inspect_err(|_| {
            self.truncate(turns);
        })
    }

    /// Takes back the last turn and returns it (None: nothing was played).
    pub fn undo(&mut self) -> Option<Turn<G>> {
        let turn = self.turns.pop()?;
        if turn.square.is_some() {
            self.moves.pop();
        }
        self.position = turn.before;
        self.refresh();
        Some(turn)
    }

    /// Takes back the last turn and the automatic passes before it; false when there
    /// is nothing to take back.
    pub fn take_back(&mut self) -> bool {
        if self.undo().is_none() {
            return false;
        }
        while self.turns.last().is_some_and(|t| t.automatic) {
            self.undo();
        }
        true
    }

    /// Goes back to the point after the first `turns` turns.
    pub fn truncate(&mut self, turns: usize) {
        while self.turns.len() > turns {
            self.undo();
        }
    }

    /// Goes back to the point after the first `moves` moves, the passes after the
    /// last of them kept.
    pub fn back_to_move(&mut self, moves: usize) {
        while self.moves.len() > moves {
            self.undo();
        }
    }

    /// The outcome under `rules`, once neither side can move.
    #[must_use]
    pub fn outcome(&self, rules: Rules) -> Option<Outcome> {
        self.over.then(|| rules.outcome(&self.position))
    }

    /// The transcript of the moves so far (`f5d6c3`, passes implied).
    #[must_use]
    pub fn transcript(&self) -> String {
        super::format_transcript(&self.moves, G::SIZE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{squares, Size4, Size8};
    use crate::game::Game;

    /// A 4x4 game of first moves with a pass in it, as (square or pass) turns.
    fn game_with_a_pass() -> Vec<Option<Square>> {
        (0..64u64)
            .map(|k| {
                let mut line = Line::<Size4>::new(Position::start());
                let mut turns = Vec::new();
                let mut n = k;
                while !line.is_over() {
                    if line.pass_if_forced() {
                        turns.push(None);
                        continue;
                    }
                    let moves: Vec<Square> = squares(line.legal_moves()).collect();
                    let square = moves[(n % moves.len() as u64) as usize];
                    n /= 2;
                    line.play(square).unwrap();
                    turns.push(Some(square));
                }
                turns
            })
            .find(|turns| turns.contains(&None))
            .expect("some 4x4 game has a pass")
    }

    #[test]
    fn passes_are_explicit_and_take_back_undoes_automatic_ones() {
        let turns = game_with_a_pass();
        let mut line = Line::<Size4>::new(Position::start());
        for (i, turn) in turns.iter().enumerate() {
            match turn {
                Some(square) => {
                    assert!(
                        matches!(line.pass(), Err(MoveError::CannotPass { .. })),
                        "a pass with moves to play"
                    );
                    line.play(*square).unwrap();
                }
                None => {
                    assert!(line.must_pass());
                    assert_eq!(
                        line.play(Square::new(0)),
                        Err(MoveError::MustPass { side: line.side() })
                    );
                    assert!(line.pass_if_forced());
                    let mut back = line.clone();
                    if let Some(Some(next)) = turns.get(i + 1) {
                        back.play(*next).unwrap();
                        assert!(back.take_back());
                        assert!(back.must_pass(), "{turns:?}");
                    }
                }
            }
        }
        assert!(line.is_over());
        assert_eq!(line.play(Square::new(0)), Err(MoveError::GameOver));
        assert_eq!(line.pass(), Err(MoveError::GameOver));
        let outcome = line.outcome(Rules::default()).unwrap();
        assert_eq!(outcome, Rules::default().outcome(&line.position()));
        assert_eq!(line.passes(), turns.iter().filter(|t| t.is_none()).count());
        // The transcript, passes implied, plays the same game back.
        let mut again = Line::<Size4>::new(Position::start());
        again.play_transcript(&line.transcript()).unwrap();
        assert_eq!(again.position(), line.position());
        assert_eq!(again.turns().len(), line.turns().len());
        while line.undo().is_some() {}
        assert_eq!(line.position(), Position::start());
        assert!(line.moves().is_empty());
        assert!(line.outcome(Rules::default()).is_none());
    }

    #[test]
    fn a_refused_transcript_or_move_changes_nothing() {
        let mut line = Line::<Size8>::new(Position::start());
        line.play_transcript("f5d6c3d3c4").unwrap();
        let kept = line.clone();
        let err = line.play_transcript("f4 a1").unwrap_err();
        assert_eq!(err.ply, 7);
        assert!(
            err.reason.contains("a1 is not a legal move for black"),
            "{err}"
        );
        assert_eq!(line, kept);
        assert!(line.play_transcript("f4z9").is_err());
        assert_eq!(line, kept);
        let err = line.play(Square::parse("a1", 8).unwrap()).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("a1 is not a legal move for white (legal: "));
        assert_eq!(line, kept);
    }

    #[test]
    fn it_agrees_with_the_drivers_game_and_goes_back_to_a_move() {
        // Game 1 of tests/golden/round-robin: 60 moves and 2 passes.
        let text = "f5f4e3d2g3d6c1g4c5g2h4d3d7c7g1h2e6g5g6f2b8f6e1h6g7e2f3e7e8c2d1b6a7f8g8h7c3b5a5c6b7h8f7d8h5b4a3b2c4b1f1c8a2a1b3h3h1a8a6a4";
        let game = Game::<Size8>::from_transcript(text).unwrap();
        let mut line = Line::<Size8>::new(Position::start());
        line.play_transcript(text).unwrap();
        assert_eq!(line.moves(), game.moves());
        assert_eq!(line.passes(), game.passes() as usize);
        assert_eq!(&line.position(), game.position());
        assert_eq!(line.transcript(), text);
        assert_eq!(
            line.outcome(Rules::default()),
            game.outcome(Rules::default())
        );
        // Turns alternate colours strictly once passes are in, and each turn's
        // position after it is the next one's before.
        assert!(line.turns().windows(2).all(|w| w[0].side() != w[1].side()));
        for i in 0..line.turns().len() - 1 {
            assert_eq!(line.after(i), line.turns()[i + 1].before);
        }
        let (last, passed) = line.last_move().unwrap();
        assert_eq!(last.square, game.moves().last().copied());
        assert!(!passed);
        let pass = line
            .turns()
            .iter()
            .position(|t| t.square.is_none())
            .unwrap();
        let moves_before = line.turns()[..pass].len();
        line.back_to_move(moves_before);
        assert_eq!(
            line.turns().len(),
            pass + 1,
            "the pass after the move is kept"
        );
        assert!(line.last_move().unwrap().1);
        let flipped = line.last_move().unwrap().0.flipped();
        assert!(!flipped.is_empty());
    }
}
