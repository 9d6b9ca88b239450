//! The commands a person watches or types into (`play`, `watch`, `replay`): a game
//! with its history of moves, the board drawn after each, and line-by-line input that
//! works the same on a terminal and over a pipe.

mod play;
mod play_commands;
mod replay;
mod watch;

pub use play::{eval_fallback, play, Level, PlayArgs, SideChoice};
pub use replay::{replay, ReplayArgs};
pub use reversi_lab::strategy::scale::Scale;
pub use watch::{watch, WatchArgs};

use reversi_lab::board::{Bits, Color, Drawing, Geometry, Position, Square};
use reversi_lab::error::{Error, Result};
use reversi_lab::game::{Game, MoveError, Outcome, Rules, Scoring};
use std::io::{self, BufRead, IsTerminal, Write};

/// One move of a game: where, by whom, what it flipped and whether the other
/// side then had to pass.
#[derive(Clone, Copy, Debug)]
pub struct Ply<G: Geometry> {
    /// The square played.
    pub square: Square,
    /// Who played it.
    pub by: Color,
    /// The discs it flipped.
    pub flipped: G::Bits,
    /// Whether the other side could not move after it (and the game went on).
    pub pass_after: bool,
}

/// A game from a start position with every move's details, so that any earlier
/// point can be returned to (undo, stepping back in a replay) by playing again
/// from the start: a game is at most 100 moves, so that is instant.
#[derive(Clone, Debug)]
pub struct Track<G: Geometry> {
    start: Position<G>,
    game: Game<G>,
    plies: Vec<Ply<G>>,
}

impl<G: Geometry> Track<G> {
    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> Position<G> {
        self.start
    }

    /// A game from `start` (passing at once if the side to move cannot move).
    #[must_use]
    pub fn new(start: Position<G>) -> Self {
        Track {
            start,
            game: Game::from_position(start),
            plies: Vec::new(),
        }
    }

    /// Plays a move for the side to move.
    pub fn play(&mut self, square: Square) -> Result<Ply<G>, MoveError> {
        let before = *self.game.position();
        self.game.play(square)?;
        let ply = Ply {
            square,
            by: before.side,
            flipped: before.board.flips(square),
            pass_after: !self.game.is_over() && self.game.side() == before.side,
        };
        self.plies.push(ply);
        Ok(ply)
    }

    /// Plays a transcript's moves (`f5d6...`); `source` says where they came from,
    /// for the message when one is illegal (`--moves`, `game 3 of results/x`).
    pub fn play_transcript(&mut self, text: &str, source: &str) -> Result<()> {
        let mut probe = self.game.clone();
        probe
            .play_transcript(text)
            .map_err(|e| Error::input(format!("{e} (in {source})")))?;
        for &square in &probe.moves()[self.plies.len()..] {
            self.play(square).expect("checked by playing them above");
        }
        Ok(())
    }

    /// Goes back to the point after the first `plies` moves.
    pub fn truncate(&mut self, plies: usize) {
        let moves: Vec<Square> = self.plies.iter().take(plies).map(|p| p.square).collect();
        *self = Track::new(self.start);
        for square in moves {
            self.play(square)
                .expect("a move played before is legal again");
        }
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &Game<G> {
        &self.game
    }

    /// Every move so far.
    #[must_use]
    pub fn plies(&self) -> &[Ply<G>] {
        &self.plies
    }

    /// Whether the side to move at the start had to pass at once.
    #[must_use]
    pub fn passed_at_start(&self) -> bool {
        self.plies.is_empty() && self.game.side() != self.start.side
    }

    /// The drawing of the current position with the last move marked and `marks`
    /// (hints) shown, without the status line.
    pub fn drawing(&self, marks: G::Bits, colour: bool) -> Drawing<G> {
        let last = self.plies.last();
        Drawing::new(*self.game.position())
            .marks(marks)
            .last_move(
                last.map(|p| p.square),
                last.map_or(G::Bits::ZERO, |p| p.flipped),
            )
            .colour(colour)
            .status(false)
    }

    /// `discs: black 4, white 1; white to move` (or `game over`).
    #[must_use]
    pub fn status(&self) -> String {
        let position = self.game.position();
        let turn = if self.game.is_over() {
            "game over".to_string()
        } else {
            format!("{} to move", self.game.side())
        };
        format!(
            "discs: black {}, white {}; {turn}",
            position.black().count(),
            position.white().count()
        )
    }
}

/// What the rules say in words, for result lines.
#[must_use]
pub fn rules_text(rules: Rules) -> String {
    format!(
        "{}, {}",
        if rules.anti {
            "anti rules: fewer discs win"
        } else {
            "normal rules"
        },
        match rules.scoring {
            Scoring::WinnerGetsEmpties => "empty squares to the winner",
            Scoring::Count => "empty squares not counted",
        }
    )
}

/// `black wins by 16 (black 40, white 24; normal rules, empty squares to the winner)`.
#[must_use]
pub fn result_text(outcome: &Outcome, rules: Rules) -> String {
    let head = match outcome.winner {
        Some(colour) => format!("{colour} wins by {}", outcome.margin.abs()),
        None => "a draw".to_string(),
    };
    format!(
        "{head} (black {}, white {}; {})",
        outcome.black_discs,
        outcome.white_discs,
        rules_text(rules)
    )
}

/// The transcript for people: `(no moves)` when empty.
#[must_use]
pub fn transcript_text<G: Geometry>(game: &Game<G>) -> String {
    let text = game.transcript();
    if text.is_empty() {
        "(no moves)".to_string()
    } else {
        text
    }
}

/// Where typed lines come from: a terminal, or a pipe or file, whose lines are
/// echoed after the prompt so that the output reads as the session did.
pub struct Input<'a> {
    reader: &'a mut dyn BufRead,
    echo: bool,
}

impl<'a> Input<'a> {
    /// Lines from `reader`, echoed when standard input is not a terminal.
    pub fn new(reader: &'a mut dyn BufRead) -> Self {
        Input {
            reader,
            echo: !std::io::stdin().is_terminal(),
        }
    }

    /// The next line, trimmed; None at the end of input (Ctrl-D, a closed pipe) or
    /// when it cannot be read, which ends the session the same way.
    pub fn line(&mut self, out: &mut dyn Write) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        let line = match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&bytes).trim().to_string()),
        };
        match &line {
            Some(text) if self.echo => writeln!(out, "{text}")?,
            // The prompt is left open: end its line.
            None => writeln!(out)?,
            Some(_) => {}
        }
        Ok(line)
    }
}

/// Writes a prompt and flushes it, so it shows before the input is read.
pub fn prompt(out: &mut dyn Write, text: &str) -> io::Result<()> {
    write!(out, "{text}")?;
    out.flush()
}

/// Whether to draw in colour: on a terminal, unless `NO_COLOR` is set to anything
/// (see no-color.org); otherwise the plain drawing, X and O.
#[must_use]
pub fn colour_wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Clears a terminal screen and homes the cursor, for commands that redraw in place.
pub const CLEAR_SCREEN: &str = "\x1b[2J\x1b[H";

/// Ends a session that was writing to standard output: a closed output (a broken
/// pipe, such as `| head`) ends it quietly; any other write error is reported.
pub fn finish_output(result: io::Result<()>) -> Result<()> {
    if let Some(fault) = result
        .as_ref()
        .err()
        .and_then(|e| e.get_ref())
        .and_then(|e| e.downcast_ref::<EngineFault>())
    {
        return Err(Error::input(fault.0.clone()));
    }
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Error::io_during("write", "standard output", e))
        }
        _ => Ok(()),
    }
}

/// An external engine's fault, which ends an interactive game (carried as an I/O
/// error's payload to [`finish_output`], which says it in one line).
#[derive(Debug)]
pub struct EngineFault(pub String);

impl std::fmt::Display for EngineFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineFault {}

/// A strategy's move in `game` (which started from `start`), shown the game so far;
/// a fault (an engine's) ends the session with an [`EngineFault`].
pub fn choose_move<G: Geometry>(
    strategy: &dyn reversi_lab::strategy::Strategy<G>,
    start: Position<G>,
    game: &reversi_lab::game::Game<G>,
    rng: &mut reversi_lab::strategy::GameRng,
    memory: &mut reversi_lab::strategy::Memory<G>,
) -> io::Result<Square> {
    let mut context = reversi_lab::strategy::Context {
        rng,
        memory,
        history: reversi_lab::strategy::History {
            start,
            moves: game.moves(),
        },
    };
    match strategy.choose(game.board(), game.legal_moves(), &mut context) {
        Ok(choice) => Ok(choice.square),
        Err(fault) => Err(io::Error::other(EngineFault(format!(
            "the engine lost the game by a fault ({}: {}); the game cannot go on",
            fault.termination.name(),
            fault.reason
        )))),
    }
}

/// Sleeps between moves that are shown one by one.
pub fn pause(milliseconds: u64) {
    if milliseconds > 0 {
        std::thread::sleep(std::time::Duration::from_millis(milliseconds));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_lab::board::{Size4, Size8};

    #[test]
    fn track_undoes_by_replaying_and_sees_passes() {
        let mut track = Track::<Size8>::new(Position::start());
        track.play_transcript("f5d6c3d3c4", "a test").unwrap();
        let after = track.game().clone();
        track.play(Square::parse("f4", 8).unwrap()).unwrap();
        track.truncate(5);
        assert_eq!(track.game(), &after);
        assert_eq!(track.plies().len(), 5);
        assert_eq!(track.plies()[1].by, Color::White);
        assert!(track.play_transcript("a1", "a test").is_err());
        assert_eq!(track.plies().len(), 5, "a bad transcript plays nothing");
        // Some 4x4 game has a pass: find one through every game of first moves.
        let mut track = Track::<Size4>::new(Position::start());
        let mut passes = 0;
        while !track.game().is_over() {
            let square = Square::new(track.game().legal_moves().lowest());
            passes += u32::from(track.play(square).unwrap().pass_after);
        }
        assert_eq!(passes, track.game().passes());
    }

    #[test]
    fn result_lines_name_winner_margin_and_rules() {
        let outcome = Outcome {
            black_discs: 40,
            white_discs: 24,
            winner: Some(Color::Black),
            margin: 16,
        };
        assert_eq!(
            result_text(&outcome, Rules::default()),
            "black wins by 16 (black 40, white 24; normal rules, empty squares to the winner)"
        );
        let anti = Rules {
            anti: true,
            scoring: Scoring::Count,
        };
        assert!(result_text(&outcome, anti).contains("anti rules: fewer discs win"));
    }
}
