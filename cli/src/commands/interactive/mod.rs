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

use reversi_lab::board::{Bits, Drawing, Geometry, Position, Square};
use reversi_lab::error::{Error, Result};
use reversi_lab::game::{Line, MoveError, Outcome, Rules, Scoring};
use std::io::{self, BufRead, IsTerminal, Write};

/// A game line from `start` as the interactive commands keep it: a side with no move
/// passes at once, so the side to move has a move unless the game is over.
#[must_use]
pub fn line_from<G: Geometry>(start: Position<G>) -> Line<G> {
    let mut line = Line::new(start);
    line.pass_if_forced();
    line
}

/// Plays a legal move, then the pass it forces on the other side, if any.
pub fn play_move<G: Geometry>(line: &mut Line<G>, square: Square) -> Result<(), MoveError> {
    line.play(square)?;
    line.pass_if_forced();
    Ok(())
}

/// Plays a transcript's moves (`f5d6...`); `source` says where they came from, for
/// the message when one is illegal (`--moves`, `game 3 of results/x`), and then
/// nothing is played.
pub fn play_transcript<G: Geometry>(line: &mut Line<G>, text: &str, source: &str) -> Result<()> {
    line.play_transcript(text)
        .map_err(|e| Error::input(format!("{e} (in {source})")))?;
    line.pass_if_forced();
    Ok(())
}

/// The drawing of the current position with the last move marked and `marks`
/// (hints) shown, without the status line.
pub fn drawing<G: Geometry>(line: &Line<G>, marks: G::Bits, colour: bool) -> Drawing<G> {
    let last = line.last_move().map(|(turn, _)| turn);
    Drawing::new(line.position())
        .marks(marks)
        .last_move(
            last.and_then(|t| t.square),
            last.map_or(G::Bits::ZERO, |t| t.flipped()),
        )
        .colour(colour)
        .status(false)
}

/// `discs: black 4, white 1; white to move` (or `game over`).
#[must_use]
pub fn status<G: Geometry>(line: &Line<G>) -> String {
    let position = line.position();
    let turn = if line.is_over() {
        "game over".to_string()
    } else {
        format!("{} to move", line.side())
    };
    format!(
        "discs: black {}, white {}; {turn}",
        position.black().count(),
        position.white().count()
    )
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
pub fn transcript_text<G: Geometry>(line: &Line<G>) -> String {
    let text = line.transcript();
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

/// A strategy's choice in the game of `line`, shown the game so far; a fault (an
/// engine's) ends the session with an [`EngineFault`].
pub fn choose_move<G: Geometry>(
    strategy: &dyn reversi_lab::strategy::Strategy<G>,
    line: &Line<G>,
    rng: &mut reversi_lab::strategy::GameRng,
    memory: &mut reversi_lab::strategy::Memory<G>,
) -> io::Result<reversi_lab::strategy::Choice> {
    let mut context = reversi_lab::strategy::Context {
        rng,
        memory,
        history: reversi_lab::strategy::History::of(line),
    };
    match strategy.choose(line.board(), line.legal_moves(), &mut context) {
        Ok(choice) => Ok(choice),
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
    use reversi_lab::board::{squares, Color, Size4, Size8};

    #[test]
    fn moves_pass_for_the_other_side_and_a_bad_transcript_plays_nothing() {
        let mut line = line_from::<Size8>(Position::start());
        play_transcript(&mut line, "f5d6c3d3c4", "a test").unwrap();
        let after = line.clone();
        play_move(&mut line, Square::parse("f4", 8).unwrap()).unwrap();
        line.back_to_move(5);
        assert_eq!(line, after);
        assert_eq!(line.turns()[1].side(), Color::White);
        let err = play_transcript(&mut line, "a1", "a test").unwrap_err();
        assert!(err.to_string().ends_with("(in a test)"), "{err}");
        assert_eq!(line, after, "a bad transcript plays nothing");
        // Some 4x4 game has a pass: it comes right after the move that forces it.
        let found = (0..64u32).any(|k| {
            let mut line = line_from::<Size4>(Position::start());
            let mut passes = 0;
            while !line.is_over() {
                let moves: Vec<Square> = squares(line.legal_moves()).collect();
                let turn = line.turns().len() as u32;
                play_move(&mut line, moves[(k >> (turn % 6)) as usize % moves.len()]).unwrap();
                passes += usize::from(line.last_move().unwrap().1);
            }
            assert_eq!(passes, line.passes());
            passes > 0
        });
        assert!(found, "no 4x4 game with a pass");
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
