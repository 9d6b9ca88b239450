//! The one text drawing of a position (`show`, `play`, `watch`, `replay`, Python's
//! `str(board)`): coordinates, discs, marked squares, the last move and the discs it
//! flipped, as plain text or in ANSI colour for a terminal.

use super::bits::Bits;
use super::geometry::Geometry;
use super::position::Position;
use super::square::Square;
use anstyle::{AnsiColor, Color as Paint, Style};
use std::fmt::{self, Write as _};

/// A position ready to draw. Plain text: `X` black, `O` white, `.` empty, `*` a
/// marked square (the legal moves, by default), the last move in brackets `[X]`
/// and the discs it flipped in lower case (`x`, `o`). In colour the discs are
/// drawn as such (black ●, white ○) on a green board, the last move on yellow and the flipped discs on
/// light green.
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct Drawing<G: Geometry> {
    position: Position<G>,
    marks: G::Bits,
    last: Option<Square>,
    flipped: G::Bits,
    colour: bool,
    status: bool,
}

/// The legend of the plain drawing's marks, for a command's help.
pub const PLAIN_LEGEND: &str =
    "X black, O white, * a legal move, [X] the last move, x/o the discs it flipped";

/// The legend of the colour drawing's marks.
pub const COLOUR_LEGEND: &str =
    "\u{25cf} black, \u{25cb} white, * a legal move, yellow the last move, light green the discs it flipped";

impl<G: Geometry> Drawing<G> {
    /// The position with its legal moves marked, in plain text, with the status
    /// line (`black to move; black 2, white 2`): what `show` prints.
    pub fn new(position: Position<G>) -> Self {
        Drawing {
            position,
            marks: position.board.moves(),
            last: None,
            flipped: G::Bits::ZERO,
            colour: false,
            status: true,
        }
    }

    /// Marks these squares instead of the legal moves (`G::Bits::ZERO`: none).
    pub const fn marks(mut self, squares: G::Bits) -> Self {
        self.marks = squares;
        self
    }

    /// Marks the last move and the discs it flipped.
    pub const fn last_move(mut self, square: Option<Square>, flipped: G::Bits) -> Self {
        self.last = square;
        self.flipped = flipped;
        self
    }

    /// Draws in ANSI colour (for a terminal) or plain text.
    pub const fn colour(mut self, on: bool) -> Self {
        self.colour = on;
        self
    }

    /// Ends with the status line (whose turn, the disc counts) or not.
    pub const fn status(mut self, on: bool) -> Self {
        self.status = on;
        self
    }

    /// One cell's text, two characters wide including the separator before it,
    /// and in plain text the separator after the last move.
    fn plain_cell(&self, square: Square, out: &mut String) {
        let index = square.index();
        let (black, white) = (self.position.black(), self.position.white());
        let flipped = self.flipped.has(index);
        let c = if black.has(index) {
            if flipped {
                'x'
            } else {
                'X'
            }
        } else if white.has(index) {
            if flipped {
                'o'
            } else {
                'O'
            }
        } else if self.marks.has(index) {
            '*'
        } else {
            '.'
        };
        let is_last = self.last == Some(square);
        let after_last = square.column(G::SIZE) > 0 && self.last == Some(Square::new(index - 1));
        out.push(if is_last {
            '['
        } else if after_last {
            ']'
        } else {
            ' '
        });
        out.push(c);
    }

    fn colour_cell(&self, square: Square, out: &mut String) {
        let index = square.index();
        let (black, white) = (self.position.black(), self.position.white());
        let background = if self.last == Some(square) {
            AnsiColor::Yellow
        } else if self.flipped.has(index) {
            AnsiColor::BrightGreen
        } else {
            AnsiColor::Green
        };
        let (text, foreground) = if black.has(index) {
            ('\u{25cf}', AnsiColor::Black)
        } else if white.has(index) {
            // Another shape as well as another colour: told apart without colour vision.
            ('\u{25cb}', AnsiColor::BrightWhite)
        } else if self.marks.has(index) {
            ('*', AnsiColor::BrightYellow)
        } else {
            ('\u{00b7}', AnsiColor::Black)
        };
        let style = Style::new()
            .bg_color(Some(Paint::Ansi(background)))
            .fg_color(Some(Paint::Ansi(foreground)))
            .bold();
        write!(out, "{style} {text}{style:#}").ok();
    }
}

impl<G: Geometry> fmt::Display for Drawing<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let header: String = (0..G::SIZE)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        writeln!(out, "   {header}").ok();
        let board = Style::new().bg_color(Some(Paint::Ansi(AnsiColor::Green)));
        for row in 0..G::SIZE {
            write!(out, "{:>2} ", row + 1).ok();
            for column in 0..G::SIZE {
                let square = Square::at(column, row, G::SIZE);
                if self.colour {
                    self.colour_cell(square, &mut out);
                } else {
                    self.plain_cell(square, &mut out);
                }
            }
            let last_in_row = self.last.filter(|s| s.row(G::SIZE) == row);
            if self.colour {
                write!(out, "{board} {board:#}").ok();
            } else if last_in_row.is_some_and(|s| s.column(G::SIZE) == G::SIZE - 1) {
                out.push(']');
            }
            writeln!(out).ok();
        }
        if self.status {
            let (black, white) = (self.position.black(), self.position.white());
            write!(
                out,
                "{} to move; black {}, white {}",
                self.position.side,
                black.count(),
                white.count()
            )
            .ok();
        } else {
            out.pop();
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size4, Size8};

    #[test]
    fn plain_drawing_marks_the_last_move_and_its_flips() {
        let start = Position::<Size8>::start();
        let f5 = Square::parse("f5", 8).unwrap();
        let flipped = start.board.flips(f5);
        let after = start.play(f5);
        let text = Drawing::new(after)
            .marks(0)
            .last_move(Some(f5), flipped)
            .status(false)
            .to_string();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[4], " 4  . . . O X . . .", "{text}");
        assert_eq!(rows[5], " 5  . . . X x[X]. .", "{text}");
        assert!(!text.contains('*'));
        // The last move in the last column closes its bracket after the row.
        let h = Square::parse("h2", 8).unwrap();
        let edge = Drawing::new(after).last_move(Some(h), 0).to_string();
        assert!(edge.lines().nth(2).unwrap().ends_with("[.]"), "{edge}");
    }

    #[test]
    fn colour_drawing_uses_ansi_and_the_same_layout() {
        let start = Position::<Size4>::start();
        let plain = Drawing::new(start).to_string();
        let colour = Drawing::new(start).colour(true).to_string();
        assert!(colour.contains("\x1b["), "{colour}");
        assert!(!plain.contains("\x1b["));
        assert_eq!(plain.lines().count(), colour.lines().count());
        assert_eq!(plain, start.to_string());
    }
}
